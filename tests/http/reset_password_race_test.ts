// A password-reset link used twice at once (issue "Production, part 2" §4): two concurrent
// `POST /reset-password/{token}` with different passwords, on one instance and on two instances over
// one database. Exactly one is answered 303 → /login; the other gets the French invalid-link message;
// the winner's password is the one that works. The token is consumed by one conditional update
// (lib/auth/store.ts consumeResetToken), so the loser finds it used once the winner commits.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { sentText } from "../support/mail.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";

/** A second instance of the app: its own pool on the same PostgreSQL database (PGlite: the same one). */
async function secondInstance(): Promise<{ app: Awaited<ReturnType<typeof createApp>>; db: Database }> {
  const shared = await testEnv();
  const url = Deno.env.get("TEST_DATABASE_URL");
  const db = url ? openPostgres(url, { max: 4 }) : shared.db;
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN })[name]);
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
  return { app: await createApp(deps), db };
}

let ipCounter = 0;
const freshIp = () => `10.91.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;

/** A new customer and a live reset link for it (the path). */
async function accountWithResetLink(): Promise<{ email: string; link: string }> {
  const { db, settle } = await testEnv();
  const payload = registrationPayload();
  assertEquals((await new Client({ ip: freshIp() }).post("/api/security/registration", payload)).status, 200);
  const asked = await new Client({ ip: freshIp() }).request("POST", "/forgotten-password", {
    form: { email: payload.email },
  });
  assertEquals(asked.status, 200);
  await settle();
  const [mail] = await systemQuery<{ text: string; sealed: string | null }>(
    db,
    `select text_body as text, sealed_body as sealed from public.email_outbox
     where recipient = $1 and template = 'password-reset' order by created_at desc limit 1`,
    [payload.email],
  );
  const link = /http:\/\/localhost:8000(\/reset-password\/[A-Za-z0-9_-]+)/.exec(await sentText(mail))![1];
  return { email: String(payload.email), link };
}

async function race(apps: [Client, Client]) {
  const { email, link } = await accountWithResetLink();
  const passwords = ["Premier#2026x", "Second#2026xy"];
  const answers = await Promise.all(
    apps.map((client, i) =>
      client.request("POST", link, { form: { password: passwords[i], passwordConfirmation: passwords[i] } })
    ),
  );
  const winners = answers.map((a, i) => (a.status === 303 && a.headers.get("location") === "/login" ? i : -1))
    .filter((i) => i >= 0);
  assertEquals(winners.length, 1, `exactly one use succeeds: ${answers.map((a) => a.status).join(", ")}`);
  const loser = answers[1 - winners[0]];
  assertEquals(loser.status, 400);
  assert(
    loser.text.includes("Ce lien de réinitialisation est invalide ou a expiré."),
    loser.text.slice(0, 300),
  );
  // The winner's password works, the loser's does not.
  const login = (password: string) =>
    new Client({ ip: freshIp() }).post("/api/security/login", { username: email, password });
  assertEquals((await login(passwords[winners[0]])).status, 200, "the winning password logs in");
  assert((await login(passwords[1 - winners[0]])).status !== 200, "the losing password does not");
}

httpTest("reset link used twice at once on one instance: exactly one use succeeds", async () => {
  for (let round = 0; round < 3; round++) {
    await race([new Client({ ip: freshIp() }), new Client({ ip: freshIp() })]);
  }
});

httpTest("reset link used twice at once on two instances: exactly one use succeeds", async () => {
  const second = await secondInstance();
  const { db } = await testEnv();
  try {
    for (let round = 0; round < 3; round++) {
      await race([new Client({ ip: freshIp() }), new Client({ ip: freshIp(), app: second.app })]);
    }
  } finally {
    if (second.db !== db) await second.db.close();
  }
});
