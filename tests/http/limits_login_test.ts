// Limits one visitor cannot turn against others ("Production, part 2" §1), from the attacker's side:
// one address flooding the login (on two instances sharing one database: PostgreSQL pools over
// TEST_DATABASE_URL, or the same PGlite) locks out only itself; an account attacked from many addresses
// still lets its owner in (known address, reset link); password-reset requests for someone else never
// block theirs and send them one email; accounts per address are limited.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import {
  Client,
  httpTest,
  ORIGIN,
  PASSWORD,
  registrationPayload,
  TEST_LIMITS,
  testEnv,
  type TestResponse,
} from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { SENT_BODY_COLUMNS, sentText } from "../support/mail.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";
import type { Database } from "../../lib/db/database.ts";
import { ACCOUNT_UNDER_ATTACK_MESSAGE } from "../../lib/auth/policy.ts";

type App = Awaited<ReturnType<typeof createApp>>;

/** Another instance of the app: its own pool on the same PostgreSQL database (PGlite: the same one). */
async function instance(env: Record<string, string> = TEST_LIMITS): Promise<{ app: App; db: Database }> {
  const shared = await testEnv();
  const url = Deno.env.get("TEST_DATABASE_URL");
  const db = url ? openPostgres(url, { max: 4 }) : shared.db;
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...env })[name]);
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

async function closeInstance(other: { db: Database }) {
  if (Deno.env.get("TEST_DATABASE_URL")) await other.db.close();
}

let n = 0;
/** A client address no other test uses. */
const freshIp = () => `10.61.${Math.floor(++n / 250)}.${n % 250}`;

const login = (client: Client, username: string, password: string) =>
  client.post("/api/security/login", { username, password });

const tally = (responses: TestResponse[]) => {
  const by: Record<number, number> = {};
  for (const r of responses) by[r.status] = (by[r.status] ?? 0) + 1;
  return by;
};

httpTest("login: 620 tries from one address on two instances lock that address only", async () => {
  // Two instances with the default settings (the shared test app raises the per-address limits).
  const first = await instance({});
  const app = first.app;
  const second = await instance({});
  try {
    const attacker = freshIp();
    const responses: TestResponse[] = [];
    // The observed attack: 620 wrong logins for unknown emails, in bursts of 20 over both instances.
    for (let burst = 0; burst < 31; burst++) {
      responses.push(
        ...(await Promise.all(Array.from({ length: 20 }, (_, i) => {
          const k = burst * 20 + i;
          return login(
            new Client({ app: k % 2 ? second.app : app, ip: attacker }),
            `nobody${k}@example.fr`,
            "x",
          );
        }))),
      );
    }
    const by = tally(responses);
    assertEquals(Object.keys(by).sort(), ["401", "429"], JSON.stringify(by));
    assert(by[401] <= 40, `passwords checked for the attacker: ${by[401]}`);
    assertEquals(responses.at(-1)!.status, 429);
    // Everyone else logs in, on either instance, right away.
    for (const on of [app, second.app]) {
      assertEquals(
        (await login(new Client({ app: on, ip: freshIp() }), "admin@example.fr", PASSWORD)).status,
        200,
      );
      assertEquals(
        (await login(new Client({ app: on, ip: freshIp() }), "client@example.fr", PASSWORD)).status,
        200,
      );
    }
    // Ten more a second from the attacker change nothing for the others.
    const more = await Promise.all(
      Array.from(
        { length: 10 },
        (_, k) => login(new Client({ app, ip: attacker }), `nobody-more${k}@example.fr`, "x"),
      ),
    );
    assertEquals(tally(more), { 429: 10 });
    assertEquals(
      (await login(new Client({ app, ip: freshIp() }), "client@example.fr", PASSWORD)).status,
      200,
    );
  } finally {
    await closeInstance(first);
    await closeInstance(second);
  }
});

httpTest(
  "login: an account attacked from many addresses refuses new addresses, never its owner (known address, reset link)",
  async () => {
    const { db, settle } = await testEnv();
    const ownerIp = freshIp();
    const payload = registrationPayload();
    assertEquals((await new Client({ ip: ownerIp }).post("/api/security/registration", payload)).status, 200);
    // Credential stuffing: one wrong password from each of 60 addresses (no address reaches its own lock).
    for (let burst = 0; burst < 6; burst++) {
      const wrong = await Promise.all(
        Array.from({ length: 10 }, () => login(new Client({ ip: freshIp() }), payload.email, "Faux#0000")),
      );
      for (const r of wrong) assert(r.status === 401 || r.status === 429, String(r.status));
    }
    // A new address, even with the right password, is refused without a password check, and told how in.
    const elsewhere = freshIp();
    const refused = await login(new Client({ ip: elsewhere }), payload.email, payload.password);
    assertEquals(refused.status, 429);
    assertEquals(refused.json().message, ACCOUNT_UNDER_ATTACK_MESSAGE);
    // Unknown emails are counted the same way: the refusal tells nothing about which emails exist.
    const ghost = `ghost.${Date.now()}@example.fr`;
    for (let burst = 0; burst < 6; burst++) {
      await Promise.all(Array.from({ length: 10 }, () => login(new Client({ ip: freshIp() }), ghost, "x")));
    }
    assertEquals(
      (await login(new Client({ ip: freshIp() }), ghost, "x")).json().message,
      ACCOUNT_UNDER_ATTACK_MESSAGE,
    );
    // The owner's known address (it registered the account) still logs in; other accounts too.
    assertEquals((await login(new Client({ ip: ownerIp }), payload.email, payload.password)).status, 200);
    assertEquals((await login(new Client({ ip: freshIp() }), "client2@example.fr", PASSWORD)).status, 200);
    // From the new address, the reset link works and makes the address known: the owner gets in.
    const owner = new Client({ ip: elsewhere });
    assertEquals(
      (await owner.request("POST", "/forgotten-password", { form: { email: payload.email } })).status,
      200,
    );
    await settle();
    const [mail] = await systemQuery<{ text: string; html: string | null; sealed: string | null }>(
      db,
      `select ${SENT_BODY_COLUMNS} from public.email_outbox where recipient = $1 and template = 'password-reset'
       order by created_at desc limit 1`,
      [payload.email],
    );
    const link = /http:\/\/localhost:8000(\/reset-password\/[A-Za-z0-9_-]+)/.exec(await sentText(mail))![1];
    const done = await owner.request("POST", link, {
      form: { password: "Nouveau#2026", passwordConfirmation: "Nouveau#2026" },
    });
    assertEquals(done.status, 303);
    assertEquals((await login(owner, payload.email, "Nouveau#2026")).status, 200);
    // The attack goes on: still refused elsewhere.
    assertEquals((await login(new Client({ ip: freshIp() }), payload.email, "Nouveau#2026")).status, 429);
  },
);

httpTest(
  "password reset: requests for someone else never block theirs; one email per few minutes",
  async () => {
    const { db, settle } = await testEnv();
    const payload = registrationPayload();
    assertEquals(
      (await new Client({ ip: freshIp() }).post("/api/security/registration", payload)).status,
      200,
    );
    const neutral = "Si un compte existe pour cet email";
    // The victim asks once; then 12 requests from anyone: every answer is the same neutral page.
    const victim = new Client({ ip: freshIp() });
    const first = await victim.request("POST", "/forgotten-password", { form: { email: payload.email } });
    assertEquals(first.status, 200);
    await settle();
    for (let i = 0; i < 12; i++) {
      const res = await new Client({ ip: freshIp() }).request("POST", "/forgotten-password", {
        form: { email: payload.email },
      });
      assertEquals(res.status, 200);
      assert(res.text.includes(neutral));
    }
    await settle();
    const mails = await systemQuery<{ text: string; html: string | null; sealed: string | null }>(
      db,
      `select ${SENT_BODY_COLUMNS} from public.email_outbox where recipient = $1 and template = 'password-reset'`,
      [payload.email],
    );
    assertEquals(mails.length, 1, "one email in the interval");
    // The victim's link still works.
    const link =
      /http:\/\/localhost:8000(\/reset-password\/[A-Za-z0-9_-]+)/.exec(await sentText(mails[0]))![1];
    assertEquals((await victim.get(link)).status, 200);
    // The requester is what is limited: 20 an hour from one address, then 429 for that address only.
    const flooder = new Client({ ip: freshIp() });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      statuses.push(
        (await flooder.request("POST", "/forgotten-password", { form: { email: payload.email } })).status,
      );
    }
    assertEquals(statuses.filter((s) => s === 200).length, 20);
    assertEquals(statuses.at(-1), 429);
    assertEquals(
      (await new Client({ ip: freshIp() }).request("POST", "/forgotten-password", {
        form: { email: payload.email },
      }))
        .status,
      200,
    );
    // Once the link is used, the next request sends a new email at once.
    await victim.request("POST", link, {
      form: { password: "Nouveau#2026", passwordConfirmation: "Nouveau#2026" },
    });
    await victim.request("POST", "/forgotten-password", { form: { email: payload.email } });
    await settle();
    const after = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.email_outbox where recipient = $1 and template = 'password-reset'",
      [payload.email],
    );
    assertEquals(after[0].n, 2);
  },
);

httpTest("accounts: 10 an hour from one address (REGISTRATIONS_PER_HOUR), others unaffected", async () => {
  const limited = await instance({}); // the default settings: 10 an hour
  try {
    const ip = freshIp();
    const client = () => new Client({ app: limited.app, ip });
    const burst = await Promise.all(
      Array.from({ length: 25 }, () => client().post("/api/security/registration", registrationPayload())),
    );
    assertEquals(tally(burst), { 200: 10, 429: 15 });
    const refused = burst.find((r) => r.status === 429)!;
    assertMatch(String(refused.json().message), /Trop de comptes créés depuis cette connexion/);
    const other = await new Client({ app: limited.app, ip: freshIp() }).post(
      "/api/security/registration",
      registrationPayload(),
    );
    assertEquals(other.status, 200);
  } finally {
    await closeInstance(limited);
  }
});
