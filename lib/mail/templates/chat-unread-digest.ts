// 'Nouveaux messages' : one email about the messages of a deal's chat that the recipient has not read
// (sent DIGEST_DELAY_MINUTES after the oldest of them, never one email per message).
import type { OutgoingEmail } from "../outbox.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface DigestLine {
  authorName: string;
  text: string;
}

/** At most this many messages are quoted; the count says how many there are. */
export const DIGEST_QUOTED = 5;
const QUOTE_LENGTH = 300;

const quote = (text: string) => (text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH)}…` : text);

export function chatUnreadDigestEmail(input: {
  to: string;
  firstname: string;
  dealName: string;
  link: string;
  unread: number;
  messages: DigestLine[];
}): OutgoingEmail {
  const greeting = input.firstname ? `Bonjour ${input.firstname},` : "Bonjour,";
  const count = input.unread === 1 ? "1 nouveau message" : `${input.unread} nouveaux messages`;
  const deal = input.dealName || "votre devis";
  const shown = input.messages.slice(-DIGEST_QUOTED);
  const more = input.unread > shown.length
    ? `(et ${input.unread - shown.length} message${input.unread - shown.length > 1 ? "s" : ""} de plus)`
    : "";
  const text = `${greeting}

Vous avez ${count} non lu${input.unread > 1 ? "s" : ""} dans la discussion du devis « ${deal} » :

${shown.map((m) => `${m.authorName} : ${quote(m.text)}`).join("\n\n")}
${more ? `\n${more}\n` : ""}
Pour lire la discussion et répondre :
${input.link}`;
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Vous avez ${count} non lu${input.unread > 1 ? "s" : ""} dans la discussion du devis « ${
    escapeHtml(deal)
  } » :</p>
${
    shown.map((m) =>
      `<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #c8412f;background:#f8fafc">` +
      `<strong>${escapeHtml(m.authorName)}</strong><br>${
        escapeHtml(quote(m.text)).replace(/\n/g, "<br>")
      }</blockquote>`
    ).join("\n")
  }
${more ? `<p>${escapeHtml(more)}</p>` : ""}
<p><a href="${escapeHtml(input.link)}">Lire la discussion et répondre</a></p>`;
  return {
    to: input.to,
    template: "chat-unread-digest",
    subject: `${count} sur votre devis « ${deal} »`,
    text,
    html,
  };
}
