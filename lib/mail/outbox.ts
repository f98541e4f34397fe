// Every email is written to the outbox inside the transaction of the action that sends it, so an
// action that fails sends nothing and a sent email is never lost. Delivery (SMTP worker) drains it.
import type { Tx } from "../db/database.ts";

export interface OutgoingEmail {
  to: string;
  template: string;
  subject: string;
  text: string;
  html?: string;
  /** The real bodies, sealed, when text/html mask a secret (lib/mail/secrets.ts sealSecrets). */
  sealed?: string;
}

export async function enqueueEmail(tx: Tx, email: OutgoingEmail): Promise<string> {
  const [row] = await tx<{ id: string }>`
    insert into public.email_outbox (recipient, template, subject, text_body, html_body, sealed_body)
    values (${email.to}, ${email.template}, ${email.subject}, ${email.text}, ${email.html ?? null},
            ${email.sealed ?? null})
    returning id`;
  return row.id;
}

export interface OutboxEntry {
  id: string;
  createdAt: Date;
  recipient: string;
  template: string;
  subject: string;
  textBody: string;
  status: "pending" | "sent" | "failed";
}

/** Admin view of the outbox (RLS: admins only). */
export function listOutbox(tx: Tx, limit = 100): Promise<OutboxEntry[]> {
  return tx<OutboxEntry>`
    select id, created_at as "createdAt", recipient, template, subject, text_body as "textBody", status
    from public.email_outbox order by created_at desc limit ${limit}`;
}
