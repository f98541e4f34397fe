// The seat offer's link: `{offer uuid}.{HMAC-SHA256(APP_SECRET, "seat-offer:" + uuid)}` (base64url).
// Signed so that an offer's id alone (which admins see) cannot be used, and nobody can forge one; single
// use is the offer's status in the database. Server only.
const encoder = new TextEncoder();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replaceAll("+", "-").replaceAll("/", "_").replace(
    /=+$/,
    "",
  );

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/") + "=");
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function signOfferToken(secret: string, offerId: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(`seat-offer:${offerId}`));
  return `${offerId}.${base64url(mac)}`;
}

/** The offer's id when the token is one we signed, else null (constant-time check by WebCrypto). */
export async function verifyOfferToken(secret: string, token: string): Promise<string | null> {
  const [id, mac, ...rest] = token.split(".");
  if (rest.length || !id || !UUID.test(id) || !mac) return null;
  const bytes = fromBase64url(mac);
  if (!bytes) return null;
  const ok = await crypto.subtle.verify(
    "HMAC",
    await keyOf(secret),
    bytes,
    encoder.encode(`seat-offer:${id}`),
  );
  return ok ? id : null;
}

export const offerLink = (appUrl: string, token: string) => `${appUrl}/date/alert/offre/${token}`;
