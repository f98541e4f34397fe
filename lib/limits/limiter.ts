// Rate limits shared by every app instance: counters live in the database (identity.rate_limits, a
// sliding window approximated from the current and previous fixed windows). One round trip per check.
import { statementAs, systemActor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../errors.ts";
import type { Limit } from "../auth/policy.ts";

/** Counts one hit in `bucket` and tells whether it is still within `limit`. Refused hits count too,
 * so that a flood keeps being refused. */
async function hitLimit(db: Database, bucket: string, limit: Limit): Promise<boolean> {
  const [row] = await statementAs<{ hits: number }>(
    db,
    systemActor("limits"),
    "select identity.hit_rate_limit($1, $2) as hits",
    // The window is part of the key: one bucket name never mixes two window lengths.
    [`${bucket.slice(0, 300)}:${limit.windowSeconds}`, limit.windowSeconds],
  );
  return row.hits <= limit.max;
}

/** Throws a 429 with `message` when the hit goes over the limit. */
export async function enforceLimit(
  db: Database,
  bucket: string,
  limit: Limit,
  message: string,
): Promise<void> {
  if (!(await hitLimit(db, bucket, limit))) throw new AppError("too_many_requests", message);
}

/** Whether `bucket` is already over `limit`, without counting a hit (a check before an attempt whose
 * failures alone count, such as a gift voucher code). */
export async function isOverLimit(db: Database, bucket: string, limit: Limit): Promise<boolean> {
  const key = `${bucket.slice(0, 300)}:${limit.windowSeconds}`;
  const [row] = await statementAs<{ hits: number }>(
    db,
    systemActor("limits"),
    `with w as (select to_timestamp(floor(extract(epoch from now()) / $2) * $2) as start)
     select (coalesce((select r.hits from identity.rate_limits r, w where r.bucket = $1 and r.window_start = w.start), 0)
       + coalesce((select r.hits from identity.rate_limits r, w
                   where r.bucket = $1 and r.window_start = w.start - make_interval(secs => $2)), 0)
         * (1 - extract(epoch from now() - (select start from w)) / $2))::float8 as hits`,
    [key, limit.windowSeconds],
  );
  return row.hits >= limit.max;
}

/** Counts one hit in `bucket` (a failure) and tells whether the bucket is now over `limit`. */
export async function countHit(db: Database, bucket: string, limit: Limit): Promise<boolean> {
  return !(await hitLimit(db, bucket, limit));
}
