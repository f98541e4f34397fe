// Builds the browser assets: one hydration bundle per island (content-hashed, shared chunks split
// out) and the Tailwind stylesheet, then writes static/build/manifest.json.
// `deno task build` builds once; dev.ts calls `watch()`.
import * as esbuild from "esbuild";
import type { Manifest } from "../lib/islands/manifest.ts";
import { forbiddenInputs, leakedSecrets } from "./island_check.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const OUT = `${ROOT}static/build`;

async function islandNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}islands`)) {
    const match = /^([A-Z][A-Za-z0-9]*)\.tsx$/.exec(entry.name);
    if (entry.isFile && match) names.push(match[1]);
  }
  return names.sort();
}

const hydrationEntries: esbuild.Plugin = {
  name: "island-entries",
  setup(build) {
    build.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice(7), namespace: "island" }));
    build.onLoad({ filter: /.*/, namespace: "island" }, (args) => ({
      resolveDir: `${ROOT}islands`,
      loader: "tsx",
      contents: `import { h, hydrate } from "preact";
import Island from "./${args.path}.tsx";
for (const el of document.querySelectorAll('[data-island="${args.path}"]')) {
  hydrate(h(Island, JSON.parse(el.dataset.props || "{}")), el);
}`,
    }));
  },
};

async function esbuildOptions(dev: boolean): Promise<esbuild.BuildOptions> {
  return {
    entryPoints: (await islandNames()).map((name) => ({ in: `island:${name}`, out: name })),
    bundle: true,
    splitting: true,
    format: "esm",
    target: "es2022",
    minify: !dev,
    sourcemap: dev ? "inline" : false,
    metafile: true,
    outdir: `${OUT}/islands`,
    absWorkingDir: ROOT,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    jsx: "automatic",
    jsxImportSource: "preact",
    alias: {
      "react": "preact/compat",
      "react-dom": "preact/compat",
      "react-dom/client": "preact/compat/client",
      "react/jsx-runtime": "preact/jsx-runtime",
    },
    define: { "process.env.NODE_ENV": dev ? '"development"' : '"production"' },
    plugins: [hydrationEntries],
    logLevel: "warning",
  };
}

function islandsFromMetafile(metafile: esbuild.Metafile): Manifest["islands"] {
  const islands: Manifest["islands"] = {};
  const publicPath = (file: string) => "/" + file.slice(file.indexOf("build/"));
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const entry = output.entryPoint;
    if (!entry?.startsWith("island:")) continue;
    islands[entry.slice(7)] = {
      file: publicPath(file),
      imports: output.imports.filter((i) => i.kind === "import-statement").map((i) => publicPath(i.path)),
    };
  }
  return islands;
}

async function hashOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Self-hosted fonts (static/styles.css declares them): the site's Montserrat (one variable file for every
 * weight) and the rich-text editor's Permanent Marker, latin subsets (French, €, U+202F included). */
const FONTS: Record<string, string> = {
  "montserrat-latin-wght-normal.woff2":
    "node_modules/@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2",
  "permanent-marker-latin-400-normal.woff2":
    "node_modules/@fontsource/permanent-marker/files/permanent-marker-latin-400-normal.woff2",
};

async function copyFonts(): Promise<void> {
  await Deno.mkdir(`${OUT}/fonts`, { recursive: true });
  for (const [name, source] of Object.entries(FONTS)) {
    await Deno.copyFile(`${ROOT}${source}`, `${OUT}/fonts/${name}`);
  }
}

async function buildCss(dev: boolean): Promise<string> {
  const tmp = `${OUT}/styles.tmp.css`;
  const args = ["node_modules/@tailwindcss/cli/dist/index.mjs", "-i", "static/styles.css", "-o", tmp];
  if (!dev) args.push("--minify");
  const result = await new Deno.Command("node", { args, cwd: ROOT, stdout: "piped", stderr: "piped" })
    .output();
  if (!result.success) throw new Error(`Tailwind a échoué : ${new TextDecoder().decode(result.stderr)}`);
  const css = await Deno.readTextFile(tmp);
  await Deno.remove(tmp);
  const name = `styles-${await hashOf(css)}.css`;
  await Deno.writeTextFile(`${OUT}/${name}`, css);
  return `/build/${name}`;
}

/** Written to a temporary file then renamed, so that a running server never reads half a manifest. */
async function writeManifest(manifest: Manifest) {
  await Deno.writeTextFile(`${OUT}/manifest.json.tmp`, JSON.stringify(manifest, null, 2));
  await Deno.rename(`${OUT}/manifest.json.tmp`, `${OUT}/manifest.json`);
}

/** Builds next to the current files, switches the manifest, then removes what it no longer names:
 * a server already running keeps finding its files until the new manifest is in place. */
/** Throws when an island bundle would ship server code or a secret. */
async function checkIslands(metafile: esbuild.Metafile): Promise<void> {
  const outputs: Record<string, string> = {};
  for (const file of Object.keys(metafile.outputs)) outputs[file] = await Deno.readTextFile(`${ROOT}${file}`);
  const problems = [...forbiddenInputs(metafile), ...leakedSecrets(outputs, (name) => Deno.env.get(name))];
  if (problems.length) {
    throw new Error(
      `Construction refusée : un îlot embarquerait du code serveur ou un secret.\n${problems.join("\n")}`,
    );
  }
}

export async function build(dev = false): Promise<Manifest> {
  await Deno.mkdir(OUT, { recursive: true });
  await copyFonts();
  const [result, css] = await Promise.all([esbuild.build(await esbuildOptions(dev)), buildCss(dev)]);
  await checkIslands(result.metafile!);
  const manifest = { css, islands: islandsFromMetafile(result.metafile!) };
  await writeManifest(manifest);
  await esbuild.stop();
  await pruneStale(
    new Set(Object.keys(result.metafile!.outputs).map((f) => f.slice(f.indexOf("build/") + 6))),
    css,
  );
  return manifest;
}

async function pruneStale(keepIslands: Set<string>, css: string) {
  for await (const entry of Deno.readDir(`${OUT}/islands`)) {
    if (!keepIslands.has(`islands/${entry.name}`)) await Deno.remove(`${OUT}/islands/${entry.name}`);
  }
  for await (const entry of Deno.readDir(OUT)) {
    if (entry.isFile && entry.name.startsWith("styles-") && `/build/${entry.name}` !== css) {
      await Deno.remove(`${OUT}/${entry.name}`);
    }
  }
}

/** Development: rebuild islands and CSS whenever a source file changes. */
export async function watch(): Promise<void> {
  await Deno.mkdir(OUT, { recursive: true });
  await copyFonts();
  let manifest: Manifest = { css: await buildCss(true), islands: {} };
  let context = await esbuild.context(await esbuildOptions(true));
  const rebuild = async () => {
    try {
      const result = await context.rebuild();
      await checkIslands(result.metafile!);
      manifest = { css: await buildCss(true), islands: islandsFromMetafile(result.metafile!) };
      await writeManifest(manifest);
    } catch (error) {
      console.error("Construction échouée :", (error as Error).message);
    }
  };
  await rebuild();
  let timer: ReturnType<typeof setTimeout> | undefined;
  for await (
    const event of Deno.watchFs([
      `${ROOT}islands`,
      `${ROOT}components`,
      `${ROOT}routes`,
      `${ROOT}static/styles.css`,
      `${ROOT}lib`,
    ])
  ) {
    if (event.paths.every((p) => p.includes("/static/build/"))) continue;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (event.kind === "create" || event.kind === "remove") {
        await context.dispose();
        context = await esbuild.context(await esbuildOptions(true));
      }
      await rebuild();
    }, 100);
  }
}

if (import.meta.main) {
  const started = performance.now();
  const manifest = await build(Deno.args.includes("--dev"));
  console.log(
    `Construit en ${Math.round(performance.now() - started)} ms : ${
      Object.keys(manifest.islands).length
    } îlots, ${manifest.css}`,
  );
}
