#!/usr/bin/env node
// Lets a machine with only Node and npm run the project: installs the npm dependencies and Deno
// (into .tools/, outside node_modules so that `deno` inside tasks is Deno itself) when missing,
// then runs Deno with the given arguments. `npm start` and `npm test` go through here.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const DENO_VERSION = "2.9.6";
const deno = join(root, ".tools", "node_modules", ".bin", "deno");

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const lock = join(root, "package-lock.json");
const installed = join(root, "node_modules", ".package-lock.json");
if (!existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs)) {
  // `npm install`, not `npm ci`: some optional platform packages of Tailwind are missing from the
  // registry, which `npm ci` treats as a lock-file mismatch.
  run("npm", ["install", "--no-audit", "--no-fund"]);
}
if (!existsSync(deno)) {
  // npm 11 runs a dependency's install scripts only when package.json's `allowScripts` approves it, and
  // refuses `--allow-scripts` in a folder install: .tools gets its own package.json approving Deno's
  // postinstall (it links the native binary in place of the Node wrapper).
  mkdirSync(join(root, ".tools"), { recursive: true });
  writeFileSync(
    join(root, ".tools", "package.json"),
    JSON.stringify({ private: true, allowScripts: { deno: true } }, null, 2) + "\n",
  );
  run("npm", [
    "install",
    "--prefix",
    ".tools",
    "--no-save",
    "--no-audit",
    "--no-fund",
    `deno@${DENO_VERSION}`,
  ]);
}
const result = spawnSync(deno, process.argv.slice(2), { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
