// Links the editor may make: only what the server's sanitiser keeps (http, https, mailto), so that a
// link is never silently lost on save. Pure: tested in tests/http/deal_richtext_test.ts.
export const SAFE_LINK = /^(https?:\/\/|mailto:)/i;
export const LINK_REFUSED = "Seuls les liens http://, https:// et mailto: sont acceptés.";

/** "exemple.fr/page" → "https://exemple.fr/page"; "a@b.fr" → "mailto:a@b.fr"; "" → ""; null when
 * it is not an accepted link (tel:, javascript:, data:…). */
export function normalizeLink(input: string): string | null {
  const text = input.trim();
  if (text === "") return "";
  if (SAFE_LINK.test(text)) return /\s/.test(text) ? null : text;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return null;
  if (/^[^\s@/]+@[^\s@/]+\.[a-z]{2,}$/i.test(text)) return `mailto:${text}`;
  if (/^[\w-]+(\.[\w-]+)+([/?#]\S*)?$/.test(text)) return `https://${text}`;
  return null;
}
