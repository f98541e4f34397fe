// The bearer token check of GET /metrics, in constant time: both sides are hashed first, so that
// neither the token's length nor its first differing byte shows in the time taken.
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when `authorization` is `Bearer <token>` with exactly `expected` (never for an empty one). */
export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1] ?? "";
  const same = timingSafeEqual(digest(given), digest(expected));
  return same && expected.length > 0;
}
