// Delivery of the email outbox over SMTP (nodemailer), as a queue of the worker loop. A batch is
// claimed in a short transaction (`for update skip locked`, the next attempt pushed back as a lease,
// and a fresh claim token per row), sent outside any transaction, then marked sent or rescheduled with
// exponential backoff — only by the worker that still holds the claim (its token), so that a worker
// whose lease lapsed cannot settle an email another worker has taken since. Temporary failures (4xx,
// a refused or dropped connection, a timeout, a 5xx after DATA) are retried up to MAX_ATTEMPTS; a
// recipient the server says does not exist (550, 551, 553 on RCPT TO) fails at once. A final failure is
// logged in public.logs with service 'smtp'.
//
// The guarantee is at least once, and the window is the send itself: the Message-ID is chosen at the
// first claim and stored on the row (public.email_outbox.message_id) in the claim's transaction, before
// anything is sent; right before its send, each email's claim is checked and its lease renewed (an email
// of a slow batch whose lease lapsed, claimed since by another worker, is not sent by this one); the
// mark 'sent' is the very next statement after the SMTP server's acceptance, and a failed mark is never
// taken for a failed send. So a copy goes out twice only if the process dies (or the database stays
// unreachable) between the server's acceptance and that mark; the copy carries the same Message-ID,
// which receivers use to drop it. See ARCHITECTURE.md "Retries that don't double".
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

export interface Claimed {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  /** The real bodies, sealed, when text/html mask a secret (lib/mail/secrets.ts). */
  sealed: string | null;
  attempts: number;
  token: string;
  messageId: string;
}

/** The sender's domain, for Message-IDs. */
function domainOf(mailFrom: string): string {
  return /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? "localhost";
}

/** The part of nodemailer's transport delivery uses (a test may stand in for it). */
export interface Transport {
  sendMail(message: Record<string, unknown>): Promise<unknown>;
}

export interface Sender {
  transport: Transport;
  mailFrom: string;
  /** The domain of the Message-IDs chosen at first claim. */
  domain: string;
}

export function smtpSender(config: Pick<Config, "smtpUrl" | "mailFrom">): Sender {
  // A server that accepts the connection and then says nothing must not hold a worker for long.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return { transport, mailFrom: config.mailFrom, domain: domainOf(config.mailFrom) };
}

/** Claims up to BATCH due emails: one attempt more, a lease, a fresh token, and the Message-ID chosen
 * once (kept from an earlier attempt), all committed before anything is sent. */
export async function claimEmails(deps: Deps, domain: string, limit = BATCH): Promise<Claimed[]> {
  return await transactionAs(deps.db, JOB, (tx) =>
    tx<Claimed>`
      update public.email_outbox o
      set attempts = o.attempts + 1, next_attempt_at = now() + ${`${CLAIM_SECONDS} seconds`}::interval,
          claim_token = gen_random_uuid(),
          message_id = coalesce(o.message_id, '<' || o.id::text || '@' || ${domain}::text || '>')
      from (select id from public.email_outbox
            where status = 'pending' and next_attempt_at <= now()
            order by next_attempt_at limit ${limit} for update skip locked) due
      where o.id = due.id
      returning o.id, o.recipient, o.subject, o.text_body as text, o.html_body as html,
                o.sealed_body as sealed, o.attempts,
                o.claim_token::text as token, o.message_id as "messageId"`);
}

/** Right before the send: true when the email is still this worker's (its lease renewed from now). */
async function stillMine(deps: Deps, email: Claimed): Promise<boolean> {
  const rows = await statementAs(
    deps.db,
    JOB,
    `update public.email_outbox set next_attempt_at = now() + make_interval(secs => $3)
     where id = $1 and claim_token = $2::uuid and status = 'pending' returning id`,
    [email.id, email.token, CLAIM_SECONDS],
  );
  return rows.length === 1;
}

/** Hands one claimed email to the SMTP server (when still ours). Returns "sent" once the server
 * accepted it, "skipped" when another worker holds it now; throws the server's refusal. */
export async function sendClaimed(deps: Deps, sender: Sender, email: Claimed): Promise<"sent" | "skipped"> {
  if (!(await stillMine(deps, email))) return "skipped";
  const { text, html } = await bodiesToSend(email, deps.config.appSecret);
  await sender.transport.sendMail({
    from: sender.mailFrom,
    to: email.recipient,
    subject: email.subject,
    text,
    messageId: email.messageId,
    ...(html ? { html } : {}),
  });
  return "sent";
}

/** The statement right after the SMTP server's acceptance. A failure is retried briefly, never
 * reported as a failed send: if it keeps failing, the lease lapses and the email goes again (at least
 * once, same Message-ID). */
export async function markSent(deps: Deps, email: Claimed): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      await statementAs(
        deps.db,
        JOB,
        `update public.email_outbox set status = 'sent', sent_at = now(), last_error = null, claim_token = null
         where id = $1 and claim_token = $2::uuid`,
        [email.id, email.token],
      );
      return;
    } catch (error) {
      if (attempt >= 3) {
        console.error(`[smtp] email ${email.id} envoyé mais non marqué : ${String(error).slice(0, 300)}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** A refused or failed send: pending again with backoff, or failed after the last attempt or for an
 * unknown recipient; logged by the worker that still held the claim. */
async function settleFailure(deps: Deps, email: Claimed, error: unknown): Promise<void> {
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
  // The logs page names the integration: every failed attempt (a warning), the give-up (an error).
  if (failed && settled) {
    await deps.logger.error("smtp", "Email abandonné : le serveur SMTP l'a refusé ou reste injoignable", {
      emailId: email.id,
      attempts: email.attempts,
      error: String(error),
    });
  } else if (settled) {
    await deps.logger.warning("smtp", "Envoi d'email en échec, nouvel essai prévu", {
      emailId: email.id,
      attempt: email.attempts,
      error: String(error).slice(0, 1000),
    });
  }
}

/** Sends a claimed batch one email at a time: check the claim, send, mark. */
export async function deliverClaimed(deps: Deps, sender: Sender, batch: Claimed[]): Promise<void> {
  for (const email of batch) {
    let outcome: "sent" | "skipped";
    try {
      outcome = await sendClaimed(deps, sender, email);
    } catch (error) {
      await settleFailure(deps, email, error);
      continue;
    }
    if (outcome === "sent") await markSent(deps, email);
  }
}

export function smtpQueue(config: Pick<Config, "smtpUrl" | "mailFrom">): Queue {
  const sender = smtpSender(config);
  return {
    name: "email",
    async drain(deps: Deps) {
      const batch = await claimEmails(deps, sender.domain);
      await deliverClaimed(deps, sender, batch);
      return batch.length;
    },
  };
}
