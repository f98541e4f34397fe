// What every email template shares: HTML escaping and the paragraphs-plus-link shape (a text part and
// an HTML part saying the same thing). Pure.
import type { OutgoingEmail } from "../outbox.ts";

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

export interface EmailLink {
  url: string;
  label: string;
}

/** An email of plain paragraphs and optional links: every interpolated value is escaped in the HTML. */
export function paragraphsEmail(
  to: string,
  template: string,
  subject: string,
  paragraphs: string[],
  links: EmailLink | EmailLink[] = [],
): OutgoingEmail {
  const list = Array.isArray(links) ? links : [links];
  const text = [...paragraphs, ...list.map((link) => `${link.label} : ${link.url}`)].join("\n\n");
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...list.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`),
  ].join("\n");
  return { to, template, subject, text, html };
}

/** "Bonjour Éloïse," or "Bonjour," without a first name. */
export const greeting = (firstname: string | null | undefined) =>
  firstname?.trim() ? `Bonjour ${firstname.trim()},` : "Bonjour,";
