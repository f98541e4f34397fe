// The worker queue of the reminder policy: scheduled emails marked ready (by pg_cron, or the app's
// ticker, through mark_scheduled_emails_ready) are rendered as the system and written to the email
// outbox, and marked sent in the same transaction: each goes out once, whatever the number of
// instances (`for update skip locked`). A reminder that no longer applies (the partner validated
// meanwhile, the deposit was paid) is dropped instead.
import { systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";
import { enqueueEmail } from "./outbox.ts";
import { type DealEmailKind, dealEmails } from "./deal_emails.ts";

const JOB = systemActor("job");

interface Ready {
  id: number;
  template: DealEmailKind;
  entityId: number;
  relevant: boolean;
}

export const scheduledEmailsQueue: Queue = {
  name: "scheduled-emails",
  async drain(deps: Deps) {
    return await transactionAs(deps.db, JOB, async (tx) => {
      const batch = await tx<Ready>`
        select s.id, s.template, s.entity_id as "entityId",
               public.scheduled_email_relevant(s.template, s.entity_id) as relevant
        from public.scheduled_emails s
        where s.is_ready and not s.is_sent
        order by s.schedule_at limit 20
        for update of s skip locked`;
      for (const row of batch) {
        const emails = row.relevant ? await dealEmails(tx, deps.config, row.template, row.entityId) : [];
        if (emails.length === 0) {
          await tx`delete from public.scheduled_emails where id = ${row.id}`;
          continue;
        }
        let emailId: string | null = null;
        for (const email of emails) emailId = await enqueueEmail(tx, email);
        await tx`update public.scheduled_emails set is_sent = true, sent_at = now(), email_id = ${emailId}::uuid
                 where id = ${row.id}`;
      }
      return batch.length;
    });
  },
};
