// Sealing: AES-256-GCM under a key derived (HKDF-SHA-256) from APP_SECRET and a purpose, so that what
// the database keeps (a voucher's code, an email's secret link) is readable by the app alone. A sealed
// value is "v1:<iv>:<ciphertext>" in base 64; opening it under another secret or purpose gives null.
const keys = new Map<string, Promise<CryptoKey>>();

function sealingKey(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
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
          info: new TextEncoder().encode(purpose),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keys.set(id, key);
  }
  return key;
}

const b64 = (bytes: Uint8Array) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
};
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export async function seal(plain: string, secret: string, purpose: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealingKey(secret, purpose),
    new TextEncoder().encode(plain),
  );
  return `v1:${b64(iv)}:${b64(new Uint8Array(sealed))}`;
}

export async function unseal(sealed: string, secret: string, purpose: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(":");
  if (version !== "v1" || !iv || !data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: unb64(iv) },
      await sealingKey(secret, purpose),
      unb64(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
