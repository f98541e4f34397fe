// The map of a deal: only a Google Maps embed is accepted. What is stored is the embed's checked URL;
// the iframe is always written by the server from it, never from HTML someone typed. The CSP allows
// frames from that one address (lib/http/security.ts).

const MAP_EMBED_ORIGIN = "https://www.google.com";
const MAP_EMBED_PATH = "/maps/embed";
export const MAP_INVALID =
  'Collez le code d\'intégration Google Maps (Partager → Intégrer une carte) : <iframe src="https://www.google.com/maps/embed?pb=…">.';
export const MAP_SAVED = "Code Google Map sauvegardé avec succès !";

const ATTRIBUTE = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/** The embed URL found in an iframe snippet or given alone; null when it is not a Google Maps embed.
 * "" (clearing the map) gives "". */
export function parseMapEmbed(input: string): string | null {
  const text = input.trim();
  if (text === "") return "";
  if (text.length > 4000) return null;
  let candidate = text;
  if (text.startsWith("<")) {
    // Exactly one iframe element and nothing else.
    if (!/^<iframe\b[^<>]*>\s*<\/iframe>$/i.test(text)) return null;
    const match = ATTRIBUTE.exec(text);
    if (!match) return null;
    candidate = (match[1] ?? match[2]).replaceAll("&amp;", "&");
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.origin !== MAP_EMBED_ORIGIN || url.pathname !== MAP_EMBED_PATH || url.username || url.password) {
    return null;
  }
  if (!url.searchParams.get("pb") && !url.searchParams.get("q")) return null;
  url.hash = "";
  return url.toString();
}

const escapeAttribute = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function mapIframe(url: string): string {
  return `<iframe src="${escapeAttribute(url)}" width="100%" height="350" style="border:0" loading="lazy" ` +
    `referrerpolicy="no-referrer-when-downgrade" allowfullscreen title="Carte du lieu"></iframe>`;
}
