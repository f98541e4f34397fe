// Rate limits shared by every app instance: counters live in the database (identity.rate_limits, a
// sliding window approximated from the current and previous fixed windows). One round trip per check.
import { statementAs, systemActor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { Limit } from "../auth/policy.ts";
import { countRefusal } from "../metrics/registry.ts";

/** The stored key of a bucket: the window is part of it, so one bucket name never mixes two window
 * lengths. */
function key(bucket: string, limit: Limit): string {
  return `${bucket.slice(0, 300)}:${limit.windowSeconds}`;
}

/** Counts `weight` hits (one by default) in `bucket` and returns the hits of the sliding window, these
 * included. */
async function hit(db: Database, bucket: string, limit: Limit, weight = 1): Promise<number> {
  const [row] = await statementAs<{ hits: number }>(
    db,
    systemActor("limits"),
    weight === 1
      ? "select identity.hit_rate_limit($1, $2) as hits"
      : "select identity.hit_rate_limit($1, $2, $3) as hits",
    weight === 1
      ? [key(bucket, limit), limit.windowSeconds]
      : [key(bucket, limit), limit.windowSeconds, weight],
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
  weight = 1,
): Promise<{ taken: boolean; last: boolean; hits: number }> {
  const hits = await hit(db, bucket, limit, weight);
  if (hits <= limit.max) return { taken: true, last: hits > limit.max - 1, hits };
  countRefusal(bucket);
  await giveBack(db, bucket, limit, weight);
  return { taken: false, last: false, hits };
}

/** Gives back a try taken by `takeTry`, in the newest window of the bucket (the one it was taken in,
 * unless the window turned in between: then the new window is one lower, which is harmless). */
export async function giveBack(db: Database, bucket: string, limit: Limit, weight = 1): Promise<void> {
  await statementAs(
    db,
    systemActor("limits"),
    "select identity.give_back_rate_limit($1, $2)",
    [key(bucket, limit), weight],
  );
}
