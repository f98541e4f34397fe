// An email of 'Emails envoyés' as its recipient would see it. The page carries its own CSP: `sandbox`
// (an opaque origin, no script, no form, no pop-up), nothing loaded but images and inline styles.
import { escapeHtml } from "../../lib/mail/templates/layout.ts";
import type { OutboxEmail } from "../../lib/mail/store.ts";

export const EMAIL_VIEW_CSP =
  "sandbox; default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

export function emailDocument(email: OutboxEmail): string {
  const body = email.html ?? `<pre style="white-space: pre-wrap">${escapeHtml(email.text)}</pre>`;
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(email.subject)}</title></head>
<body style="font-family: Arial, sans-serif; max-width: 640px; margin: 1rem auto; padding: 0 1rem; color: #1e293b">
${body}
</body></html>`;
}
