import { assertEquals } from "../tests/support/assert.ts";
import { forbiddenInputs, leakedSecrets } from "./island_check.ts";
import type { Metafile } from "esbuild";

const metafile = (inputs: string[]): Metafile => ({
  inputs: {},
  outputs: {
    "static/build/islands/X-abc.js": {
      bytes: 1,
      inputs: Object.fromEntries(inputs.map((i) => [i, { bytesInOutput: 1 }])),
      imports: [],
      exports: [],
    },
  },
});

Deno.test("an island bundle may hold rules, components and preact", () => {
  assertEquals(
    forbiddenInputs(metafile([
      "islands/ProfileForm.tsx",
      "lib/accounts/rules.ts",
      "components/form/Field.tsx",
      "node_modules/preact/dist/preact.module.js",
    ])),
    [],
  );
});

Deno.test("the build refuses server code in an island bundle", () => {
  for (
    const input of [
      "lib/db/postgres.ts",
      "lib/http/context.ts",
      "lib/auth/actions.ts",
      "lib/accounts/store.ts",
      "lib/accounts/actions.ts",
      "lib/deals/use_cases/update_deal.ts",
      "lib/deals/settings_store.ts",
      "lib/config.ts",
      "routes/_app.tsx",
      "node_modules/postgres/src/index.js",
      "node_modules/@node-rs/argon2/index.js",
    ]
  ) {
    assertEquals(forbiddenInputs(metafile(["islands/X.tsx", input])).length, 1, input);
  }
});

Deno.test("the build refuses a bundle holding a secret's value or reading the environment", () => {
  const env = (name: string) => (name === "APP_SECRET" ? "super-secret-value-123" : undefined);
  assertEquals(leakedSecrets({ "a.js": "const x = 1;" }, env), []);
  assertEquals(leakedSecrets({ "a.js": 'const k = "super-secret-value-123";' }, env).length, 1);
  assertEquals(leakedSecrets({ "a.js": "Deno.env.get('X')" }, env).length, 1);
});
