// Secrets in emails (ARCHITECTURE.md "What hosted Supabase exposes, secrets and input hygiene"): an
// email that carries a secret (a reset or invitation link, a voucher code, a seat offer's link) is
// stored with the secret masked in text_body/html_body — what the admins' 'Emails envoyés', Supabase
// Studio and backups see — and its real bodies sealed in `sealed_body` (AES-256-GCM, key derived from
// APP_SECRET). The SMTP worker opens them at send time; the database drops the sealed copy once the
// email is settled (trigger of 20261128009100_email_secrets.sql).
import { seal, unseal } from "../sealing.ts";
import type { OutgoingEmail } from "./outbox.ts";

const PURPOSE = "email-body-v1";
/** What stands in the stored bodies for each secret. */
export const MASKED_SECRET = "[masqué]";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function mask(body: string, secrets: string[]): string {
  let out = body;
  // Longest first: a link that contains a code is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = out.replaceAll(secret, MASKED_SECRET);
    const escaped = escapeHtml(secret);
    if (escaped !== secret) out = out.replaceAll(escaped, MASKED_SECRET);
  }
  return out;
}

/** The email with `secrets` masked in its bodies and the real bodies sealed for delivery. */
export async function sealSecrets(
  email: OutgoingEmail,
  secrets: string[],
  appSecret: string,
): Promise<OutgoingEmail> {
  const kept = secrets.filter((secret) => secret.length > 0);
  if (kept.length === 0) return email;
  const sealed = await seal(
    JSON.stringify({ text: email.text, html: email.html ?? null }),
    appSecret,
    PURPOSE,
  );
  return {
    ...email,
    text: mask(email.text, kept),
    html: email.html === undefined ? undefined : mask(email.html, kept),
    sealed,
  };
}

/** The bodies to send: the sealed ones when the email has them, else the stored ones. Throws when
 * they were sealed under another APP_SECRET (the email cannot be sent as written). */
export async function bodiesToSend(
  email: { text: string; html: string | null; sealed?: string | null },
  appSecret: string,
): Promise<{ text: string; html: string | null }> {
  if (!email.sealed) return { text: email.text, html: email.html };
  const opened = await unseal(email.sealed, appSecret, PURPOSE);
  if (opened === null) {
    throw new Error("Contenu scellé illisible : APP_SECRET a changé depuis l'écriture de l'email");
  }
  return JSON.parse(opened) as { text: string; html: string | null };
}
