// Emails as they leave the outbox: an email carrying a secret (a reset link, a voucher code…) keeps it
// sealed in email_outbox.sealed_body and masked in text_body (lib/mail/secrets.ts). Tests that follow
// the link read the text that is sent, as the SMTP worker does, with the test app's secret.
import { bodiesToSend } from "../../lib/mail/secrets.ts";
import { testEnv } from "./app.ts";

/** Columns to select: `text_body as text, html_body as html, sealed_body as sealed`. */
export const SENT_BODY_COLUMNS = "text_body as text, html_body as html, sealed_body as sealed";

/** The text the worker sends for a row read with SENT_BODY_COLUMNS. */
export async function sentText(
  row: { text: string; html?: string | null; sealed?: string | null },
): Promise<string> {
  const { deps } = await testEnv();
  return (await bodiesToSend(
    { text: row.text, html: row.html ?? null, sealed: row.sealed },
    deps.config.appSecret,
  ))
    .text;
}
