// What an island bundle must never contain: server code (database, HTTP layer, auth service, use
// cases and stores, configuration) or a server secret. The build fails when it would.
import type { Metafile } from "esbuild";

/** Source paths (relative to the project, as esbuild's metafile names them) islands may not import. */
const FORBIDDEN: [RegExp, string][] = [
  [/(^|\/)lib\/db\//, "la base de données (lib/db)"],
  [/(^|\/)lib\/http\//, "la couche HTTP (lib/http)"],
  [/(^|\/)lib\/auth\/(actions|store|crypto)\.ts$/, "le service d'authentification"],
  [
    /(^|\/)lib\/[a-z_]+\/(([a-z_]+_)?(actions|store)\.ts|use_cases\/)/,
    "un cas d'usage ou une requête SQL (actions.ts, use_cases/, store.ts)",
  ],
  [/(^|\/)lib\/(richtext\/sanitize|deals\/(input|notifications|payload))\.ts$/, "du code serveur"],
  [/(^|\/)lib\/(config|deps|actor)\.ts$/, "la configuration du serveur"],
  [/(^|\/)lib\/(jobs|log|seed|limits|integrations)\//, "du code serveur (tâches, journal, intégrations)"],
  [/(^|\/)routes\//, "une route (routes/)"],
  [
    /(^|\/)node_modules\/(postgres|@electric-sql|@node-rs|nodemailer|stripe|pdfmake|sharp)\//,
    "une bibliothèque serveur",
  ],
];

/** Environment variables whose values must never reach the browser. */
const SECRET_VARIABLES = [
  "APP_SECRET",
  "DATABASE_URL",
  "SMTP_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "HUBSPOT_TOKEN",
  "HUBSPOT_CLIENT_SECRET",
  "SUPABASE_SERVICE_ROLE_KEY",
  "ADMIN_PASSWORD",
];

/** One line per island output that pulls a forbidden source in, naming the island and the file. */
export function forbiddenInputs(metafile: Metafile): string[] {
  const problems: string[] = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) {
      const hit = FORBIDDEN.find(([pattern]) => pattern.test(input));
      if (hit) problems.push(`${file} contient ${hit[1]} : ${input}`);
    }
  }
  return problems;
}

/** One line per output that contains the value of a secret variable set in `env`, or reads Deno.env. */
export function leakedSecrets(
  outputs: Record<string, string>,
  env: (name: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(outputs)) {
    if (text.includes("Deno.env")) problems.push(`${file} lit Deno.env`);
    for (const name of SECRET_VARIABLES) {
      const value = env(name);
      if (value && value.length >= 8 && text.includes(value)) {
        problems.push(`${file} contient la valeur de ${name}`);
      }
    }
  }
  return problems;
}
