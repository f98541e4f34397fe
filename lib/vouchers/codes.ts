// Voucher codes, server only. A code is 80 random bits in Crockford's base 32 (rules.ts). The database
// never holds it in clear: `code_hash` (SHA-256 of the normalised code) finds a voucher from what a
// customer types, and `code_sealed` (AES-256-GCM under a key derived from APP_SECRET) lets the app show
// the code to its buyer and print it on the PDF. A database reader (a backup, an admin's SQL console)
// can neither redeem a voucher nor read its code; changing APP_SECRET leaves codes redeemable but no
// longer printable (see ARCHITECTURE.md 'Gift vouchers').
import { CODE_ALPHABET, CODE_LENGTH, normalizeCode } from "./rules.ts";

/** A new code's 16 characters (80 bits from the platform's CSPRNG). */
export function generateCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = "";
  for (let i = CODE_LENGTH - 1; i >= 0; i--) out += CODE_ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

/** SHA-256 (hex) of a normalised code: how a voucher is found. */
export async function codeHash(code: string): Promise<string> {
  const normalized = normalizeCode(code) ?? code;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`voucher:${normalized}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const keys = new Map<string, Promise<CryptoKey>>();

function sealingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
        "deriveKey",
      ]);
      return crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: new TextEncoder().encode("bar-a-cocktails"),
          info: new TextEncoder().encode("voucher-code-v1"),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keys.set(secret, key);
  }
  return key;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** "v1:<iv>:<ciphertext>" (base 64), the code encrypted for the app alone. */
export async function sealCode(code: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealingKey(secret),
    new TextEncoder().encode(code),
  );
  return `v1:${b64(iv)}:${b64(new Uint8Array(sealed))}`;
}

/** The code back, or null when it was sealed under another secret. */
export async function openCode(sealed: string, secret: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(":");
  if (version !== "v1" || !iv || !data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: unb64(iv) },
      await sealingKey(secret),
      unb64(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
