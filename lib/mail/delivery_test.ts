// Delivery of the outbox through the real nodemailer client to a local fake SMTP server (smtp-server),
// on the embedded database (PGlite): what arrives, how failures are retried with backoff and then
// abandoned, and that two drains at once never send one email twice.
import { memoryStorage } from "../storage/storage.ts";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { simpleParser } from "mailparser";
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { createBackground, type Deps } from "../deps.ts";
import { createLogger } from "../log/logger.ts";
import { enqueueEmail, type OutgoingEmail } from "./outbox.ts";
import { backoffMinutes, isPermanent, MAX_ATTEMPTS, smtpQueue } from "./delivery.ts";
import { startFakeSmtp } from "../../tests/support/fake_smtp.ts";

const SYSTEM = systemActor("seed");
const MAIL_FROM = "Cocktails & Co <contact@example.fr>";

async function openDeps(): Promise<Deps> {
  const db = await openPglite("memory://");
  await migrate(db);
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://localhost:8000" })[name]);
  const logger = createLogger(db, { quiet: true });
  return {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
}

function sql<T = Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) {
  return statementAs<T>(db, SYSTEM, text, params);
}

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server on a free port; `options` may reject recipients or data. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(concat(chunks)),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

let counter = 0;
function frenchEmail(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  counter++;
  return {
    to: `destinataire.${counter}@example.fr`,
    template: "test",
    subject: `Votre soirée « Noël à Saint-Étienne » est confirmée n°${counter}`,
    text:
      `Bonjour Éloïse,\n\nVotre réservation pour 25 € est confirmée. À très bientôt, çà et là !\n— L'équipe`,
    html: `<p>Bonjour Éloïse,</p><p>Votre réservation pour 25 € est confirmée. À très bientôt !</p>`,
    ...overrides,
  };
}

async function enqueue(db: Database, email: OutgoingEmail): Promise<string> {
  return await transactionAs(db, SYSTEM, (tx) => enqueueEmail(tx, email));
}

interface OutboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  /** Seconds from the database's now() to next_attempt_at. */
  wait: number;
}

async function outboxRow(db: Database, id: string): Promise<OutboxRow> {
  const [row] = await sql<OutboxRow>(
    db,
    `select status, attempts, last_error, sent_at,
            extract(epoch from next_attempt_at - now())::float8 as wait
     from public.email_outbox where id = $1`,
    [id],
  );
  return row;
}

/** Makes a row due now (as if its backoff had elapsed). */
async function makeDue(db: Database, id: string) {
  await sql(db, "update public.email_outbox set next_attempt_at = now() where id = $1", [id]);
}

/** Empties the outbox, so that each step only sees its own emails. */
async function clearOutbox(db: Database) {
  await sql(db, "delete from public.email_outbox");
}

function assertWaitAbout(wait: number, minutes: number, what: string) {
  assert(Math.abs(wait - minutes * 60) < 5, `${what}: next attempt in ${wait} s, expected ${minutes * 60} s`);
}

const cases: [string, (deps: Deps) => Promise<void>][] = [];
function dbTest(name: string, fn: (deps: Deps) => Promise<void>) {
  cases.push([name, fn]);
}

dbTest("an email arrives with its French subject and body intact, and is marked sent", async (deps) => {
  await clearOutbox(deps.db);
  const smtp = await startSmtp();
  try {
    const email = frenchEmail();
    const id = await enqueue(deps.db, email);
    const queue = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
    assertEquals(await queue.drain(deps), 1);

    assertEquals(smtp.received.length, 1);
    const [message] = smtp.received;
    assertEquals(message.from, "contact@example.fr");
    assertEquals(message.to, [email.to]);
    const parsed = await simpleParser(message.raw);
    assertEquals(parsed.subject, email.subject);
    assertEquals(parsed.text?.trim(), email.text);
    assert(String(parsed.html).includes("Bonjour Éloïse,"), String(parsed.html));
    assert(String(parsed.html).includes("25 €"));
    assertEquals(parsed.from?.value[0], { address: "contact@example.fr", name: "Cocktails & Co" });
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    assertEquals(to?.value[0].address, email.to);

    const row = await outboxRow(deps.db, id);
    assertEquals([row.status, row.attempts, row.last_error], ["sent", 1, null]);
    assert(row.sent_at instanceof Date, "sent_at is set");
    assertEquals(await queue.drain(deps), 0, "nothing left to send");
    assertEquals(smtp.received.length, 1);
  } finally {
    await smtp.close();
  }
});

dbTest("a text-only email is sent without an HTML part", async (deps) => {
  await clearOutbox(deps.db);
  const smtp = await startSmtp();
  try {
    const id = await enqueue(deps.db, frenchEmail({ html: undefined }));
    assertEquals(await smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps), 1);
    const parsed = await simpleParser(smtp.received[0].raw);
    assertEquals(parsed.html, false);
    assert(String(parsed.text).includes("À très bientôt, çà et là !"));
    assertEquals((await outboxRow(deps.db, id)).status, "sent");
  } finally {
    await smtp.close();
  }
});

dbTest(
  "a recipient the server says does not exist (550 on RCPT): failed at once, logged as smtp",
  async (deps) => {
    await clearOutbox(deps.db);
    const smtp = await startSmtp({
      onRcptTo(_address, _session, callback) {
        const error = new Error("Boîte inconnue") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      },
    });
    try {
      const id = await enqueue(deps.db, frenchEmail());
      const queue = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
      assertEquals(await queue.drain(deps), 1, "the email was handled (attempted)");
      assertEquals(smtp.received.length, 0);
      const row = await outboxRow(deps.db, id);
      assertEquals([row.status, row.attempts, row.sent_at], ["failed", 1, null]);
      assert(row.last_error!.includes("550"), row.last_error!);
      const logs = await sql<{ service: string }>(
        deps.db,
        "select service from public.logs where type = 'error' and context ->> 'emailId' = $1",
        [id],
      );
      assertEquals(logs.map((l) => l.service), ["smtp"]);
      await makeDue(deps.db, id);
      assertEquals(await queue.drain(deps), 0, "never tried again");
    } finally {
      await smtp.close();
    }
  },
);

dbTest("a message refused after DATA: pending, attempts 1, error kept, retried later", async (deps) => {
  await clearOutbox(deps.db);
  const smtp = await startSmtp({
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        const error = new Error("Contenu refusé") as Error & { responseCode: number };
        error.responseCode = 554;
        callback(error);
      });
    },
  });
  try {
    const id = await enqueue(deps.db, frenchEmail());
    assertEquals(await smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps), 1);
    const row = await outboxRow(deps.db, id);
    assertEquals([row.status, row.attempts, row.sent_at], ["pending", 1, null]);
    assert(row.last_error!.includes("554"), row.last_error!);
    assertWaitAbout(row.wait, backoffMinutes(1), "after one failure");
  } finally {
    await smtp.close();
  }
});

dbTest("an unreachable server: pending with the connection error", async (deps) => {
  await clearOutbox(deps.db);
  const smtp = await startSmtp();
  const url = smtp.url;
  await smtp.close();
  const id = await enqueue(deps.db, frenchEmail());
  assertEquals(await smtpQueue({ smtpUrl: url, mailFrom: MAIL_FROM }).drain(deps), 1);
  const row = await outboxRow(deps.db, id);
  assertEquals([row.status, row.attempts], ["pending", 1]);
  assert(row.last_error, "last_error set");
});

dbTest(
  `after ${MAX_ATTEMPTS} failures the email is failed and an error is logged; backoff grows meanwhile`,
  async (deps) => {
    await clearOutbox(deps.db);
    const smtp = await startSmtp({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error("Boîte pleine"), { responseCode: 552 }));
      },
    });
    try {
      const id = await enqueue(deps.db, frenchEmail());
      const queue = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        await makeDue(deps.db, id);
        assertEquals(await queue.drain(deps), 1, `attempt ${attempt}`);
        const row = await outboxRow(deps.db, id);
        assertEquals(row.attempts, attempt);
        if (attempt < MAX_ATTEMPTS) {
          assertEquals(row.status, "pending", `attempt ${attempt}`);
          assertWaitAbout(row.wait, backoffMinutes(attempt), `after ${attempt} failures`);
        } else {
          assertEquals(row.status, "failed");
          assert(row.last_error!.includes("552"));
        }
      }
      const logs = await sql<{ service: string; context: { emailId: string; error: string } }>(
        deps.db,
        "select service, context from public.logs where type = 'error' and context ->> 'emailId' = $1",
        [id],
      );
      assertEquals(logs.length, 1, "logged once, when abandoned");
      assertEquals(logs[0].service, "smtp");
      const [{ warnings }] = await sql<{ warnings: number }>(
        deps.db,
        `select count(*)::integer as warnings from public.logs
         where service = 'smtp' and type = 'warning' and context ->> 'emailId' = $1`,
        [id],
      );
      assertEquals(warnings, MAX_ATTEMPTS - 1, "each failed attempt before is a warning");
      assert(logs[0].context.error.includes("552"));

      // A failed email is never tried again.
      await makeDue(deps.db, id);
      assertEquals(await queue.drain(deps), 0);
      assertEquals((await outboxRow(deps.db, id)).attempts, MAX_ATTEMPTS);
    } finally {
      await smtp.close();
    }
  },
);

dbTest("backoffMinutes: 1, 2, 4 … capped at 6 hours", () => {
  assertEquals([1, 2, 3, 4, 5].map(backoffMinutes), [1, 2, 4, 8, 16]);
  assertEquals(backoffMinutes(0), 1);
  assertEquals(backoffMinutes(20), 360);
  return Promise.resolve();
});

dbTest("two drains at once never send the same email twice", async (deps) => {
  await clearOutbox(deps.db);
  const smtp = await startSmtp();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await enqueue(deps.db, frenchEmail()));
    // Two instances (two transports), draining at the same time, twice each.
    const a = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
    const b = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
    const counts = await Promise.all([a.drain(deps), b.drain(deps), a.drain(deps), b.drain(deps)]);
    const handled = counts.reduce((n, c) => n + c, 0);
    // Whatever was not claimed yet is sent by later drains.
    let more = 0;
    while ((more = await a.drain(deps)) > 0) assert(more <= 10);
    const recipients = smtp.received.flatMap((m) => m.to);
    assertEquals(recipients.length, 25, `handled ${handled} in the concurrent drains (${counts})`);
    assertEquals(new Set(recipients).size, 25, "each email sent once");
    const rows = await sql<{ status: string; attempts: number }>(
      deps.db,
      "select status, attempts from public.email_outbox where id = any($1::uuid[])",
      [ids],
    );
    assert(rows.every((r) => r.status === "sent" && r.attempts === 1), JSON.stringify(rows));
  } finally {
    await smtp.close();
  }
});

dbTest("an email being sent is claimed: a drain meanwhile does not take it", async (deps) => {
  await clearOutbox(deps.db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inData = new Promise<void>((resolve) => (arrived = resolve));
  const received: string[] = [];
  const smtp = await startSmtp({
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", async () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        arrived();
        await gate;
        callback();
      });
    },
  });
  try {
    const id = await enqueue(deps.db, frenchEmail());
    const first = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps);
    await inData;
    // The first drain is sending (outside any transaction): the row is claimed, not due.
    const during = await outboxRow(deps.db, id);
    assertEquals([during.status, during.attempts], ["pending", 1]);
    assert(during.wait > 60, `claimed for a while: ${during.wait} s`);
    assertEquals(await smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps), 0);
    release();
    assertEquals(await first, 1);
    assertEquals(received.length, 1);
    assertEquals((await outboxRow(deps.db, id)).status, "sent");
  } finally {
    release();
    await smtp.close();
  }
});

dbTest("isPermanent: only an unknown recipient on RCPT TO", () => {
  assert(isPermanent({ responseCode: 550, command: "RCPT TO" }));
  assert(isPermanent({ responseCode: 553, command: "RCPT TO" }));
  assert(!isPermanent({ responseCode: 552, command: "RCPT TO" }), "mailbox full: later");
  assert(!isPermanent({ responseCode: 554, command: "DATA" }));
  assert(!isPermanent({ responseCode: 421, command: "CONN" }));
  assert(!isPermanent(new Error("ECONNREFUSED")));
  return Promise.resolve();
});

dbTest(
  "across an outage (refused, 4xx, dropped, slow) no email is lost and none is sent twice",
  async (deps) => {
    await clearOutbox(deps.db);
    const smtp = await startFakeSmtp({ kind: "refuse-connection", code: 421 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await enqueue(deps.db, frenchEmail()));
      const queue = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
      const pass = async () => {
        await sql(deps.db, "update public.email_outbox set next_attempt_at = now() where status = 'pending'");
        while ((await queue.drain(deps)) > 0) { /* every due email once */ }
      };
      await pass(); // 421 at the greeting
      smtp.setMode({ kind: "refuse-connection", code: 554 }); // a 5xx at the greeting is an outage too
      await pass();
      smtp.setMode({ kind: "refuse-data", code: 451 });
      await pass();
      smtp.setMode({ kind: "drop" });
      await pass();
      assertEquals(smtp.received.length, 0, "nothing accepted during the outage");
      const during = await sql<{ status: string; attempts: number }>(
        deps.db,
        "select status, attempts from public.email_outbox where id = any($1::uuid[])",
        [ids],
      );
      assert(during.every((r) => r.status === "pending" && r.attempts === 4), JSON.stringify(during));

      smtp.setMode({ kind: "accept", delayMs: 50 });
      await pass();
      const recipients = smtp.received.flatMap((m) => m.to);
      assertEquals(recipients.length, 5);
      assertEquals(new Set(recipients).size, 5, "each email once");
      // The Message-ID names the outbox row: a copy sent again after a crash is recognisable.
      assertEquals(
        new Set(smtp.received.map((m) => m.messageId)),
        new Set(ids.map((id) => `<${id}@example.fr>`)),
      );
      const after = await sql<{ status: string }>(
        deps.db,
        "select status from public.email_outbox where id = any($1::uuid[])",
        [ids],
      );
      assert(after.every((r) => r.status === "sent"), JSON.stringify(after));
    } finally {
      await smtp.close();
    }
  },
);

dbTest("a worker whose claim lapsed cannot settle an email another worker claimed since", async (deps) => {
  await clearOutbox(deps.db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inData = new Promise<void>((resolve) => (arrived = resolve));
  let calls = 0;
  const smtp = await startSmtp({
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", async () => {
        calls++;
        if (calls === 1) {
          arrived();
          await gate;
          callback(Object.assign(new Error("Trop tard"), { responseCode: 451 }));
        } else callback();
      });
    },
  });
  try {
    const id = await enqueue(deps.db, frenchEmail());
    const slow = smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps);
    await inData;
    await makeDue(deps.db, id); // the first claim's lease lapses
    assertEquals(await smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps), 1);
    assertEquals((await outboxRow(deps.db, id)).status, "sent");
    release();
    assertEquals(await slow, 1);
    const row = await outboxRow(deps.db, id);
    assertEquals([row.status, row.last_error], ["sent", null], "the late failure changed nothing");
  } finally {
    release();
    await smtp.close();
  }
});

Deno.test({
  name: "email delivery over SMTP (PGlite)",
  // nodemailer's sockets may close after the step that used them; servers and PGlite are closed.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const deps = await openDeps();
    try {
      for (const [name, fn] of cases) await t.step(name, () => fn(deps));
    } finally {
      await deps.db.close();
    }
  },
});
