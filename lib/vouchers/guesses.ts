// Gift-voucher code guessing (POST /api/cart/code, GET /discount/pdf/{id}?code=): only wrong codes
// count, and one visitor's wrong guesses never refuse another visitor's right code.
//   * Each guess takes a try, atomically before the lookup, in the guesser's own bucket (a customer's
//     account, or for the PDF one client address asking for one voucher): 10 an hour. Concurrent guesses
//     are each counted before any runs (60 at once → 10 tried, 50 refused), on every instance.
//   * And in its client address's bucket (several accounts behind one address): 30 an hour. Over it, a
//     guesser with no wrong guess of its own in the window still gets its one try: a customer behind an
//     address someone else guessed from keeps using the right code; each account created there to guess
//     gets one try an hour (and accounts per address are limited too: REGISTRATIONS_PER_HOUR).
//   * A right code (or a known one refused for another reason) gives its tries back.
import type { Database } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { giveBack, takeTry } from "../limits/limiter.ts";
import { VOUCHER_MESSAGES } from "./rules.ts";

/** Unknown codes one guesser may try in an hour, and one client address (several guessers behind it). */
export const FAILED_CODES_PER_USER = { max: 10, windowSeconds: 3600 };
export const FAILED_CODES_PER_CLIENT = { max: 30, windowSeconds: 3600 };

export interface Guess {
  /** This guess fills a limit (worth a warning in the logs when it is wrong). */
  last: boolean;
  /** The code was known, or no answer was given: the guess does not count. */
  giveBack(): Promise<void>;
}

/** Takes the tries of one guess, or throws 429 in French. */
export async function takeGuess(db: Database, ownBucket: string, ip: string): Promise<Guess> {
  const clientBucket = `voucher-code:ip:${ip}`;
  const own = await takeTry(db, ownBucket, FAILED_CODES_PER_USER);
  if (!own.taken) throw new AppError("too_many_requests", VOUCHER_MESSAGES.tooManyCodes);
  const client = await takeTry(db, clientBucket, FAILED_CODES_PER_CLIENT);
  // Over the address's limit, only a guesser without a wrong guess of its own goes on (hits counts this
  // try: below 2 means no other in the window, the previous window weighted in).
  if (!client.taken && own.hits >= 2) {
    await giveBack(db, ownBucket, FAILED_CODES_PER_USER);
    throw new AppError("too_many_requests", VOUCHER_MESSAGES.tooManyCodes);
  }
  return {
    last: own.last || client.last,
    giveBack: async () => {
      await giveBack(db, ownBucket, FAILED_CODES_PER_USER);
      if (client.taken) await giveBack(db, clientBucket, FAILED_CODES_PER_CLIENT);
    },
  };
}
