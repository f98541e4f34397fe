// At-least-once delivery with a window reduced to the send itself (lib/mail/delivery.ts), on PGlite with
// the real nodemailer client and the local fake SMTP server: a worker that dies between the server's
// acceptance and the mark makes the retry send the same Message-ID (stored at the first claim, whatever
// the sender's address says by then); a worker whose batch outlived its lease sends nothing another
// worker claimed since; a mark that fails is not taken for a failed send.
import { assertEquals } from "../../tests/support/assert.ts";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import { createBackground, type Deps } from "../deps.ts";
import { createLogger } from "../log/logger.ts";
import { memoryStorage } from "../storage/storage.ts";
import { enqueueEmail } from "./outbox.ts";
import { claimEmails, deliverClaimed, sendClaimed, smtpQueue, smtpSender } from "./delivery.ts";
import { startFakeSmtp } from "../../tests/support/fake_smtp.ts";

const SYSTEM = systemActor("seed");
const MAIL_FROM = "Cocktails & Co <contact@example.fr>";

function sql<T = Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) {
  return statementAs<T>(db, SYSTEM, text, params);
}

let counter = 0;
async function enqueue(db: Database): Promise<string> {
  counter++;
  return await transactionAs(db, SYSTEM, (tx) =>
    enqueueEmail(tx, {
      to: `crash.${counter}@example.fr`,
      template: "test",
      subject: `Votre devis n°${counter}`,
      text: "Bonjour Éloïse,\n\nVotre devis est prêt.",
    }));
}

/** As if every claim's lease had lapsed (the worker holding them died). */
async function lapseLeases(db: Database) {
  await sql(
    db,
    "update public.email_outbox set next_attempt_at = now() - interval '1 second' where status = 'pending'",
  );
}

const cases: [string, (deps: Deps) => Promise<void>][] = [];
const step = (name: string, fn: (deps: Deps) => Promise<void>) => cases.push([name, fn]);

step(
  "a worker killed between the acceptance and the mark: the retry sends the same Message-ID",
  async (deps) => {
    await sql(deps.db, "delete from public.email_outbox");
    const smtp = await startFakeSmtp({ kind: "accept" });
    try {
      const id = await enqueue(deps.db);
      const before = smtpSender({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
      // The worker claims, sends, and dies before its mark.
      const [email] = await claimEmails(deps, before.domain);
      assertEquals(email.messageId, `<${id}@example.fr>`);
      const [stored] = await sql<{ message_id: string }>(
        deps.db,
        "select message_id from public.email_outbox where id = $1",
        [id],
      );
      assertEquals(stored.message_id, email.messageId, "stored before the send");
      assertEquals(await sendClaimed(deps, before, email), "sent");
      assertEquals(smtp.received.length, 1);
      // Its lease lapses; another instance, whose sender address changed meanwhile, sends it again.
      await lapseLeases(deps.db);
      const after = smtpQueue({ smtpUrl: smtp.url, mailFrom: "Cocktails <bonjour@nouveau.example>" });
      assertEquals(await after.drain(deps), 1);
      assertEquals(smtp.received.length, 2, "at least once: the copy goes out");
      assertEquals(
        smtp.received.map((m) => m.messageId),
        [email.messageId, email.messageId],
        "same Message-ID",
      );
      const [row] = await sql<{ status: string; attempts: number; message_id: string }>(
        deps.db,
        "select status, attempts, message_id from public.email_outbox where id = $1",
        [id],
      );
      assertEquals([row.status, row.attempts, row.message_id], ["sent", 2, email.messageId]);
      // A new email takes the new domain.
      const next = await enqueue(deps.db);
      assertEquals(await after.drain(deps), 1);
      assertEquals(smtp.received[2].messageId, `<${next}@nouveau.example>`);
    } finally {
      await smtp.close();
    }
  },
);

step(
  "a batch that outlived its lease: the worker sends none of what another worker claimed since",
  async (deps) => {
    await sql(deps.db, "delete from public.email_outbox");
    const smtp = await startFakeSmtp({ kind: "accept" });
    try {
      for (let i = 0; i < 3; i++) await enqueue(deps.db);
      const slow = smtpSender({ smtpUrl: smtp.url, mailFrom: MAIL_FROM });
      const batch = await claimEmails(deps, slow.domain);
      assertEquals(batch.length, 3);
      // The slow worker stalls; its leases lapse and another worker sends all three.
      await lapseLeases(deps.db);
      assertEquals(await smtpQueue({ smtpUrl: smtp.url, mailFrom: MAIL_FROM }).drain(deps), 3);
      assertEquals(smtp.received.length, 3);
      // The slow worker resumes its batch: every claim is someone else's now.
      await deliverClaimed(deps, slow, batch);
      assertEquals(smtp.received.length, 3, "never both send");
      const recipients = smtp.received.flatMap((m) => m.to);
      assertEquals(new Set(recipients).size, 3);
    } finally {
      await smtp.close();
    }
  },
);

step("a mark that fails after the acceptance is not a failed send (no retry scheduled)", async (deps) => {
  await sql(deps.db, "delete from public.email_outbox");
  const id = await enqueue(deps.db);
  const sent: unknown[] = [];
  const sender = {
    mailFrom: MAIL_FROM,
    domain: "example.fr",
    transport: { sendMail: (message: Record<string, unknown>) => Promise.resolve(sent.push(message)) },
  };
  // The database refuses the mark (a dropped connection right after the server's acceptance).
  const flaky: Deps = {
    ...deps,
    db: {
      ...deps.db,
      statement: (claims, text, params, options) =>
        text.includes("status = 'sent'")
          ? Promise.reject(new Error("connexion perdue"))
          : deps.db.statement(claims, text, params, options),
    },
  };
  const batch = await claimEmails(flaky, sender.domain);
  await deliverClaimed(flaky, sender, batch);
  assertEquals(sent.length, 1);
  const [row] = await sql<{ status: string; last_error: string | null; attempts: number; due: boolean }>(
    deps.db,
    "select status, last_error, attempts, next_attempt_at <= now() as due from public.email_outbox where id = $1",
    [id],
  );
  // Still claimed (its lease runs): sent again only if the lease lapses, never rescheduled as a failure.
  assertEquals([row.status, row.last_error, row.attempts, row.due], ["pending", null, 1, false]);
});

Deno.test({
  name: "email delivery: at least once, the window reduced to the send (PGlite)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const db = await openPglite("memory://");
    await migrate(db);
    const logger = createLogger(db, { quiet: true });
    const deps: Deps = {
      config: loadConfig((name) => ({ APP_ENV: "test", APP_URL: "http://localhost:8000" })[name]),
      db,
      logger,
      background: createBackground(logger, { manual: true }),
      storage: memoryStorage(),
    };
    try {
      for (const [name, fn] of cases) await t.step(name, () => fn(deps));
    } finally {
      await db.close();
    }
  },
});
