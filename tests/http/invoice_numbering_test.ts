// Invoice numbers and issue times run together (ARCHITECTURE.md 'Invoices an accountant signs off'), on
// PostgreSQL (PGlite has one connection: nothing runs at once there; pgTAP invoices_signoff_test.sql checks
// the mechanism): 25 transactions of two app instances issue invoices of one series at once, each starting,
// pausing, taking its number, pausing, inserting. Every invoice's issued_at is later than the one numbered
// before it. The transactions' start times (what issued_at was before: now()) are reported for comparison.
import { assert, assertEquals } from "../support/assert.ts";
import { testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { systemActor, transactionAs } from "../../lib/actor.ts";
import { insertInvoice, nextInvoiceSequence } from "../../lib/billing/store.ts";
import { invoiceNumber } from "../../lib/billing/document.ts";
import { fullDoc } from "../../lib/billing/fixtures_test.ts";
import { openPostgres } from "../../lib/db/postgres.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

Deno.test({
  name: "invoice numbering: 25 invoices of one series at once, times in the numbers' order",
  ignore: !TEST_DATABASE_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { db } = await testEnv();
    const second = openPostgres(TEST_DATABASE_URL!, { max: 13 });
    try {
      const [deal] = await systemQuery<{ id: number }>(db, "select id from public.deals order by id limit 1");
      const issuer = crypto.randomUUID();
      const actor = systemActor("payments");
      const started = new Map<number, number>();
      await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          transactionAs(i % 2 ? second : db, actor, async (tx) => {
            const [{ start }] = await tx<{ start: Date }>`select now() as start, pg_sleep(${
              Math.random() * 0.05
            })`;
            const sequence = await nextInvoiceSequence(tx, "FA", issuer, 2098);
            await tx`select pg_sleep(${Math.random() * 0.02})`;
            const number = invoiceNumber("FA", 2098, issuer, sequence);
            await insertInvoice(tx, {
              series: "FA",
              issuer,
              year: 2098,
              sequence,
              number,
              kind: "full",
              dealId: Number(deal.id),
              paymentId: null,
              refundId: null,
              relatedId: null,
              document: { ...fullDoc(), number },
            });
            started.set(sequence, new Date(start).getTime());
          })),
      );
      const rows = await systemQuery<{ sequence: number; at: string }>(
        db,
        `select sequence, to_char(issued_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') as at from public.invoices
         where issuer = $1 and year = 2098 order by sequence`,
        [issuer],
      );
      assertEquals(rows.map((r) => r.sequence), Array.from({ length: 25 }, (_, i) => i + 1), "gap-free");
      const inversions = rows.filter((r, i) => i > 0 && r.at < rows[i - 1].at).length;
      const startInversions = rows.filter((r, i) =>
        i > 0 && started.get(r.sequence)! < started.get(rows[i - 1].sequence)!
      ).length;
      console.log(
        `issue time before the previous number's: ${inversions}/24 (transaction starts: ${startInversions}/24)`,
      );
      assertEquals(inversions, 0, "every issue time follows the previous number's");
      assert(rows.every((r, i) => i === 0 || r.at > rows[i - 1].at), "strictly increasing");
    } finally {
      await second.close();
    }
  },
});
