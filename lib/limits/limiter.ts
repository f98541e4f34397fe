// Rate limits shared by every app instance: counters live in the database (identity.rate_limits, a
// sliding window approximated from the current and previous fixed windows). One round trip per check.
import { statementAs, systemActor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { Limit } from "../auth/policy.ts";
import { countRefusal } from "../metrics/registry.ts";

/** Counts one hit in `bucket` and returns the hits of the sliding window, this one included. */
async function hit(db: Database, bucket: string, limit: Limit): Promise<number> {
  const [row] = await statementAs<{ hits: number }>(
    db,
    systemActor("limits"),
    "select identity.hit_rate_limit($1, $2) as hits",
    // The window is part of the key: one bucket name never mixes two window lengths.
    [`${bucket.slice(0, 300)}:${limit.windowSeconds}`, limit.windowSeconds],
  );
  return Number(row.hits);
}

/** Counts one hit in `bucket` and tells whether it is still within `limit`. Refused hits count too,
 * so that a flood keeps being refused. */
async function hitLimit(db: Database, bucket: string, limit: Limit): Promise<boolean> {
  return (await hit(db, bucket, limit)) <= limit.max;
}

/** Throws a 429 with `message` when the hit goes over the limit. */
export async function enforceLimit(
  db: Database,
  bucket: string,
  limit: Limit,
  message: string,
): Promise<void> {
  if (await hitLimit(db, bucket, limit)) return;
  countRefusal(bucket);
  throw new AppError("too_many_requests", message);
}

/** Takes one try in `bucket` before an attempt whose failures alone count (a gift voucher code): one
 * statement increments the counter and reads it, so attempts arriving at once on every instance are each
 * counted before any of them runs — a check made first and a hit counted after the attempt let them all
 * through. Over `limit`, the try is given back at once (a refused attempt was not made) and `taken` is
 * false; `last` tells that this try fills the limit. An attempt that turns out not to be a failure gives
 * its try back with `giveBack`. */
export async function takeTry(
  db: Database,
  bucket: string,
  limit: Limit,
): Promise<{ taken: boolean; last: boolean }> {
  const hits = await hit(db, bucket, limit);
  if (hits <= limit.max) return { taken: true, last: hits > limit.max - 1 };
  countRefusal(bucket);
  await giveBack(db, bucket, limit);
  return { taken: false, last: false };
}

/** Gives back a try taken by `takeTry`, in the newest window of the bucket (the one it was taken in,
 * unless the window turned in between: then the new window is one lower, which is harmless). */
export async function giveBack(db: Database, bucket: string, limit: Limit): Promise<void> {
  await statementAs(
    db,
    systemActor("limits"),
    `update identity.rate_limits r set hits = r.hits - 1
     where r.bucket = $1 and r.hits > 0
       and r.window_start = (select max(l.window_start) from identity.rate_limits l where l.bucket = $1)`,
    [`${bucket.slice(0, 300)}:${limit.windowSeconds}`],
  );
}
