// SMTP delivery with two app instances on PostgreSQL (two connection pools over TEST_DATABASE_URL, each
// with its own nodemailer transport and worker), through an outage of the local fake SMTP server: every
// email goes out exactly once. Skipped on PGlite (one connection: nothing runs at the same time there;
// lib/mail/delivery_test.ts covers the outage on PGlite).
import { assert, assertEquals } from "../support/assert.ts";
import { ORIGIN, TEST_LIMITS, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { startFakeSmtp } from "../support/fake_smtp.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { smtpQueue } from "../../lib/mail/delivery.ts";
import { startWorker } from "../../lib/jobs/worker.ts";

const url = Deno.env.get("TEST_DATABASE_URL");

function instance(databaseUrl: string): Deps {
  const db = openPostgres(databaseUrl, { max: 3 });
  const logger = createLogger(db, { quiet: true });
  return {
    config: loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]),
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
}

Deno.test({
  name: "emails: two workers on PostgreSQL, through an SMTP outage, send each email exactly once",
  ignore: !url,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { db } = await testEnv(); // migrated
    const smtp = await startFakeSmtp({ kind: "refuse-connection", code: 421 });
    const a = instance(url!);
    const b = instance(url!);
    const tag = crypto.randomUUID().slice(0, 8);
    let parked: string[] = [];
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const [row] = await systemQuery<{ id: string }>(
          db,
          `insert into public.email_outbox (recipient, template, subject, text_body, html_body)
           values ($1, 'test', 'Votre devis', 'Bonjour Éloïse', '<p>Bonjour Éloïse</p>') returning id`,
          [`w${i}.${tag}@example.fr`],
        );
        ids.push(row.id);
      }
      const config = { smtpUrl: smtp.url, mailFrom: "Cocktails & Co <contact@example.fr>" };
      // Skips the backoff of emails waiting for a retry, never the lease of one being sent.
      const due = () =>
        systemQuery(
          db,
          "update public.email_outbox set next_attempt_at = now() where id = any($1::uuid[]) and status = 'pending' and claim_token is null",
          [
            ids,
          ],
        );
      // Emails other test files left pending wait meanwhile (put back at the end).
      const others = (await systemQuery<{ id: string }>(
        db,
        "update public.email_outbox set next_attempt_at = now() + interval '1 day' where status = 'pending' and not (id = any($1::uuid[])) returning id",
        [ids],
      )).map((r) => r.id);
      parked = others;
      /** Waits until every email of this test was tried at least `n` times. */
      const triedTimes = async (n: number) => {
        for (let round = 0; round < 80; round++) {
          const [{ left }] = await systemQuery<{ left: number }>(
            db,
            "select count(*)::int as left from public.email_outbox where id = any($1::uuid[]) and (attempts < $2 or claim_token is not null)",
            [ids, n],
          );
          if (left === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`not every email was tried ${n} times`);
      };
      // Both workers run their loop while the server refuses, then drops connections.
      const workers = [startWorker(a, [smtpQueue(config)], 50), startWorker(b, [smtpQueue(config)], 50)];
      await triedTimes(1);
      smtp.setMode({ kind: "drop" });
      await due();
      await triedTimes(2);
      assertEquals(smtp.received.length, 0, "nothing accepted during the outage");
      // The server comes back (slow): whatever was refused is retried once due.
      smtp.setMode({ kind: "accept", delayMs: 30 });
      for (let round = 0; round < 40; round++) {
        await due();
        const [{ n }] = await systemQuery<{ n: number }>(
          db,
          "select count(*)::int as n from public.email_outbox where id = any($1::uuid[]) and status = 'sent'",
          [ids],
        );
        if (n === ids.length) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await Promise.all(workers.map((w) => w.stop()));
      const mine = smtp.received.flatMap((m) => m.to).filter((to) => to.endsWith(`.${tag}@example.fr`));
      assertEquals(mine.length, 20, `each email delivered (${mine.length})`);
      assertEquals(new Set(mine).size, 20, "none twice");
      const rows = await systemQuery<{ status: string; attempts: number }>(
        db,
        "select status, attempts from public.email_outbox where id = any($1::uuid[])",
        [ids],
      );
      assert(rows.every((r) => r.status === "sent" && r.attempts >= 2), JSON.stringify(rows.slice(0, 3)));
    } finally {
      await systemQuery(
        db,
        "update public.email_outbox set next_attempt_at = now() where id = any($1::uuid[])",
        [parked],
      );
      await smtp.close();
      await a.db.close();
      await b.db.close();
    }
  },
});
