// The worker queue that turns deal notifications (queued by partners and admins in their action's
// transaction) into emails: it reads the recipient as the system, so that a partner never needs the
// customer's address, and writes the email to the outbox in the same transaction.
import { systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { partnerNewDealEmail, quoteReadyEmail } from "./emails.ts";
import type { NotificationKind } from "./store.ts";

const JOB = systemActor("job");

interface Pending {
  id: number;
  dealId: number;
  kind: NotificationKind;
  token: string;
  name: string;
  contactEmail: string | null;
  contactFirstname: string | null;
  partnerEmail: string | null;
}

export const dealNotificationsQueue: Queue = {
  name: "deal-notifications",
  async drain(deps: Deps) {
    return await transactionAs(deps.db, JOB, async (tx) => {
      const batch = await tx<Pending>`
        select n.id, n.deal_id as "dealId", n.kind, d.token, d.name, c.email as "contactEmail",
               c.firstname as "contactFirstname", p.email as "partnerEmail"
        from public.deal_notifications n
        join public.deals d on d.id = n.deal_id
        left join public.deal_contacts c on c.deal_id = d.id
        left join public.users p on p.id = d.company_id and p.anonymized_at is null
        where n.status = 'pending' and n.next_attempt_at <= now()
        order by n.id limit 20
        for update of n skip locked`;
      for (const n of batch) {
        const publicLink = `${deps.config.appUrl}/deal/show/${n.token}`;
        const editLink = `${deps.config.appUrl}/dashboard/espace-partenaire/deal/${n.dealId}`;
        const email = n.kind === "new_deal_partner"
          ? (n.partnerEmail ? partnerNewDealEmail(n.partnerEmail, n.name, editLink) : null)
          : (n.contactEmail
            ? quoteReadyEmail(
              n.contactEmail,
              n.contactFirstname ?? "",
              n.name,
              publicLink,
              n.kind === "quote_updated",
            )
            : null);
        if (email) await enqueueEmail(tx, email);
        await tx`update public.deal_notifications
                 set status = ${email ? "done" : "failed"}, processed_at = now(), attempts = attempts + 1,
                     last_error = ${email ? null : "aucun destinataire"}
                 where id = ${n.id}`;
      }
      return batch.length;
    });
  },
};
