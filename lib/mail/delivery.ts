// Delivery of the email outbox over SMTP (nodemailer), as a queue of the worker loop. A batch is
// claimed in a short transaction (`for update skip locked`, next attempt pushed back as a lease), sent
// outside any transaction, then marked sent or rescheduled with exponential backoff. A crash between
// sending and marking sends that email again later: delivery is at least once.
import nodemailer from "nodemailer";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import type { Config } from "../config.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";

const JOB = systemActor("job");
const BATCH = 10;
const CLAIM_SECONDS = 300;
export const MAX_ATTEMPTS = 8;

/** Minutes before the next attempt after `attempts` failures: 1, 2, 4 … capped at 6 hours. */
export function backoffMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360);
}

interface Claimed {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  attempts: number;
}

export function smtpQueue(config: Pick<Config, "smtpUrl" | "mailFrom">): Queue {
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    name: "email",
    async drain(deps: Deps) {
      const batch = await transactionAs(deps.db, JOB, (tx) =>
        tx<Claimed>`
          update public.email_outbox o
          set attempts = o.attempts + 1, next_attempt_at = now() + ${`${CLAIM_SECONDS} seconds`}::interval
          from (select id from public.email_outbox
                where status = 'pending' and next_attempt_at <= now()
                order by next_attempt_at limit ${BATCH} for update skip locked) due
          where o.id = due.id
          returning o.id, o.recipient, o.subject, o.text_body as text, o.html_body as html, o.attempts`);
      for (const email of batch) {
        try {
          await transport.sendMail({
            from: config.mailFrom,
            to: email.recipient,
            subject: email.subject,
            text: email.text,
            ...(email.html ? { html: email.html } : {}),
          });
          await statementAs(
            deps.db,
            JOB,
            "update public.email_outbox set status = 'sent', sent_at = now(), last_error = null where id = $1",
            [email.id],
          );
        } catch (error) {
          const failed = email.attempts >= MAX_ATTEMPTS;
          await statementAs(
            deps.db,
            JOB,
            `update public.email_outbox set status = $2, last_error = $3,
               next_attempt_at = now() + make_interval(mins => $4) where id = $1`,
            [
              email.id,
              failed ? "failed" : "pending",
              String(error).slice(0, 1000),
              backoffMinutes(email.attempts),
            ],
          );
          // The logs page names the integration: every failed attempt (a warning), the give-up (an error).
          if (failed) {
            await deps.logger.error("smtp", "Email abandonné après plusieurs échecs", {
              emailId: email.id,
              error: String(error),
            });
          } else {
            await deps.logger.warning("smtp", "Envoi d'email en échec, nouvel essai prévu", {
              emailId: email.id,
              attempt: email.attempts,
              error: String(error).slice(0, 1000),
            });
          }
        }
      }
      return batch.length;
    },
  };
}
