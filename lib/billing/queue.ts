// The billing worker queue (lib/jobs/queues.ts): deals with a payment or a refund whose document is
// not issued yet get it issued. (An order's documents: the outbox job 'order-settle', lib/orders/queue.ts.)
import { systemActor, transactionAs } from "../actor.ts";
import type { Queue } from "../jobs/worker.ts";
import { issueDealInvoices } from "./use_cases/issue_invoices.ts";

const BILLING = systemActor("payments");

/** The worker queue: deals with a payment or a refund whose document is not issued yet. */
export const billingQueue: Queue = {
  name: "billing",
  async drain(deps) {
    const due = await transactionAs(deps.db, BILLING, (tx) =>
      tx<{ dealId: number }>`
        select distinct p.deal_id as "dealId" from public.deal_payments p
        where p.deal_id is not null
          and not exists (select from public.invoices i where i.payment_id = p.id and i.series = 'FA')
        union
        select distinct p.deal_id from public.refunds r join public.deal_payments p on p.id = r.payment_id
        where p.deal_id is not null and r.status = 'succeeded' and not exists (select from public.invoices i where i.refund_id = r.id)
        limit 20`);
    let issued = 0;
    for (const { dealId } of due) issued += await issueDealInvoices(deps, dealId);
    return issued;
  },
};
