// Delivery of the email outbox over SMTP (nodemailer), as a queue of the worker loop. A batch is
// claimed in a short transaction (`for update skip locked`, the next attempt pushed back as a lease,
// and a fresh claim token per row), sent outside any transaction, then marked sent or rescheduled with
// exponential backoff — only by the worker that still holds the claim (its token), so that a worker
// whose lease lapsed cannot settle an email another worker has taken since. Temporary failures (4xx,
// a refused or dropped connection, a timeout, a 5xx after DATA) are retried up to MAX_ATTEMPTS; a
// recipient the server says does not exist (550, 551, 553 on RCPT TO) fails at once. A final failure is
// logged in public.logs with service 'smtp'. A crash between sending and marking sends that email again
// after the lease: delivery is at least once, with the same Message-ID, so receivers can tell.
import nodemailer from "nodemailer";
import { statementAs, systemActor, transactionAs } from "../actor.ts";
import type { Config } from "../config.ts";
import type { Deps } from "../deps.ts";
import type { Queue } from "../jobs/worker.ts";
import { bodiesToSend } from "./secrets.ts";

const JOB = systemActor("job");
const BATCH = 10;
/** How long a claim holds an email: well above the transport's own timeouts below. */
const CLAIM_SECONDS = 300;
export const MAX_ATTEMPTS = 8;

/** Minutes before the next attempt after `attempts` failures: 1, 2, 4 … capped at 6 hours. */
export function backoffMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360);
}

/** A refusal that no retry will change: the server says the recipient does not exist. */
export function isPermanent(error: unknown): boolean {
  const { responseCode, command } = (error ?? {}) as { responseCode?: number; command?: string };
  return typeof responseCode === "number" && [550, 551, 553].includes(responseCode) &&
    typeof command === "string" && /^RCPT/i.test(command);
}

interface Claimed {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  /** The real bodies, sealed, when text/html mask a secret (lib/mail/secrets.ts). */
  sealed: string | null;
  attempts: number;
  token: string;
}

/** The sender's domain, for Message-IDs. */
function domainOf(mailFrom: string): string {
  return /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? "localhost";
}

export function smtpQueue(config: Pick<Config, "smtpUrl" | "mailFrom">): Queue {
  // A server that accepts the connection and then says nothing must not hold a worker for long.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  const domain = domainOf(config.mailFrom);
  return {
    name: "email",
    async drain(deps: Deps) {
      const batch = await transactionAs(deps.db, JOB, (tx) =>
        tx<Claimed>`
          update public.email_outbox o
          set attempts = o.attempts + 1, next_attempt_at = now() + ${`${CLAIM_SECONDS} seconds`}::interval,
              claim_token = gen_random_uuid()
          from (select id from public.email_outbox
                where status = 'pending' and next_attempt_at <= now()
                order by next_attempt_at limit ${BATCH} for update skip locked) due
          where o.id = due.id
          returning o.id, o.recipient, o.subject, o.text_body as text, o.html_body as html,
                    o.sealed_body as sealed, o.attempts,
                    o.claim_token::text as token`);
      for (const email of batch) {
        try {
          const { text, html } = await bodiesToSend(email, deps.config.appSecret);
          await transport.sendMail({
            from: config.mailFrom,
            to: email.recipient,
            subject: email.subject,
            text,
            messageId: `<${email.id}@${domain}>`,
            ...(html ? { html } : {}),
          });
          await statementAs(
            deps.db,
            JOB,
            `update public.email_outbox set status = 'sent', sent_at = now(), last_error = null, claim_token = null
             where id = $1 and claim_token = $2::uuid`,
            [email.id, email.token],
          );
        } catch (error) {
          const failed = email.attempts >= MAX_ATTEMPTS || isPermanent(error);
          const [settled] = await statementAs<{ id: string }>(
            deps.db,
            JOB,
            `update public.email_outbox set status = $2, last_error = $3, claim_token = null,
               next_attempt_at = now() + make_interval(mins => $4) where id = $1 and claim_token = $5::uuid
             returning id`,
            [
              email.id,
              failed ? "failed" : "pending",
              String(error).slice(0, 1000),
              backoffMinutes(email.attempts),
              email.token,
            ],
          );
          // The logs page names the integration: every failed attempt (a warning), the give-up (an error);
          // only the worker that still held the claim reports it.
          if (failed && settled) {
            await deps.logger.error(
              "smtp",
              "Email abandonné : le serveur SMTP l'a refusé ou reste injoignable",
              {
                emailId: email.id,
                attempts: email.attempts,
                error: String(error),
              },
            );
          } else if (settled) {
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
