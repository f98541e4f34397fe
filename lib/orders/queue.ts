// The outbox handler of 'order-settle', enqueued by the database with every order payment
// (record_order_payment) and every succeeded refund of one (refunds_settle_order): the order's missing
// documents and emails, in the job's own transaction (exactly once; usually nothing is left, since
// the app settles in the payment's transaction — not the webhook edge function).
import type { OutboxHandler } from "../outbox/worker.ts";
import { settleOrder } from "./use_cases/settle_order.ts";

export const orderSettleHandler: OutboxHandler<{ orderId: number }> = {
  queue: "order-settle",
  async runInTransaction(tx, deps, job) {
    const orderId = Number(job.payload.orderId);
    if (!Number.isSafeInteger(orderId) || orderId <= 0) return;
    await settleOrder(tx, deps.config, orderId);
  },
};
