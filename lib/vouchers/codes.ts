// Voucher codes, server only. A code is 80 random bits in Crockford's base 32 (rules.ts). The database
// never holds it in clear: `code_hash` (SHA-256 of the normalised code) finds a voucher from what a
// customer types, and `code_sealed` (AES-256-GCM under a key derived from APP_SECRET) lets the app show
// the code to its buyer and print it on the PDF. A database reader (a backup, an admin's SQL console)
// can neither redeem a voucher nor read its code; changing APP_SECRET leaves codes redeemable but no
// longer printable (see ARCHITECTURE.md 'Gift vouchers').
import { CODE_ALPHABET, CODE_LENGTH, normalizeCode } from "./rules.ts";
import { seal, unseal } from "../sealing.ts";

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

const PURPOSE = "voucher-code-v1";

/** "v1:<iv>:<ciphertext>" (base 64), the code encrypted for the app alone. */
export function sealCode(code: string, secret: string): Promise<string> {
  return seal(code, secret, PURPOSE);
}

/** The code back, or null when it was sealed under another secret. */
export function openCode(sealed: string, secret: string): Promise<string | null> {
  return unseal(sealed, secret, PURPOSE);
}
