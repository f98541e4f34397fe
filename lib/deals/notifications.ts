// The worker queue that turns deal notifications (queued in the transaction of the action that causes
// them: by partners' and admins' use cases, by the emails migration's triggers on status changes and
// payments, by the admin's 'send email') into emails: it reads the recipients as the system, so that a
// partner never needs the customer's address, and writes the emails to the outbox in the same
// transaction as it closes the notification (exactly once).
import { systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { type DealEmailKind, dealEmails } from "../mail/deal_emails.ts";

const JOB = systemActor("job");

interface Pending {
  id: number;
  dealId: number;
  kind: DealEmailKind;
  data: Record<string, unknown>;
}

export const dealNotificationsQueue: Queue = {
  name: "deal-notifications",
  async drain(deps: Deps) {
    return await transactionAs(deps.db, JOB, async (tx) => {
      const batch = await tx<Pending>`
        select n.id, n.deal_id as "dealId", n.kind, n.data
        from public.deal_notifications n
        where n.status = 'pending' and n.next_attempt_at <= now()
        order by n.id limit 20
        for update of n skip locked`;
      for (const n of batch) {
        const emails = await dealEmails(tx, deps.config, n.kind, n.dealId, n.data ?? {});
        for (const email of emails) await enqueueEmail(tx, email);
        await tx`update public.deal_notifications
                 set status = 'done', processed_at = now(), attempts = attempts + 1,
                     last_error = ${emails.length ? null : "aucun email à envoyer (pas de destinataire)"}
                 where id = ${n.id}`;
      }
      return batch.length;
    });
  },
};
