// The outbox's pure rules: queue names, the one backoff formula, and what becomes of a failed job.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import {
  DEFAULT_BACKOFF,
  errorText,
  isQueueName,
  outcomeOf,
  PermanentFailure,
  retryDelaySeconds,
  RetryLater,
} from "./rules.ts";

Deno.test("queue names are lower-case words joined by dashes", () => {
  for (const name of ["send-email", "crm-push", "hold-expiry", "q1", "a"]) assert(isQueueName(name), name);
  for (
    const name of ["", "Send-email", "send_email", "-send", "send-", "send--email", "1queue", "é", "a b"]
  ) {
    assert(!isQueueName(name), `refused: ${JSON.stringify(name)}`);
  }
  assert(isQueueName("a".repeat(63)));
  assert(!isQueueName("a".repeat(64)));
});

Deno.test("the backoff doubles from its base and stops at its cap", () => {
  assertEquals([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelaySeconds(n)), [
    60,
    120,
    240,
    480,
    960,
    1920,
    3840,
    7680,
    15360,
  ]);
  assertEquals(retryDelaySeconds(10), 6 * 3600, "capped at 6 hours");
  assertEquals(retryDelaySeconds(1000), 6 * 3600, "no overflow for absurd attempt counts");
  assertEquals(retryDelaySeconds(0), 60, "an attempt count below 1 reads as the first");
  assertEquals(
    [1, 2, 3, 4, 5].map((n) => retryDelaySeconds(n, { baseSeconds: 1, capSeconds: 10 })),
    [1, 2, 4, 8, 10],
  );
  // Eight attempts (the default) span about two hours: 1 + 2 + … + 64 minutes between them.
  const total = [1, 2, 3, 4, 5, 6, 7].reduce((sum, n) => sum + retryDelaySeconds(n, DEFAULT_BACKOFF), 0);
  assertEquals(total, 127 * 60);
});

Deno.test("a thrown error retries with backoff until the last attempt, which fails", () => {
  const error = new Error("SMTP 451");
  assertEquals(outcomeOf(error, 1, 3), { kind: "retry", delaySeconds: 60, countAttempt: true });
  assertEquals(outcomeOf(error, 2, 3), { kind: "retry", delaySeconds: 120, countAttempt: true });
  assertEquals(outcomeOf(error, 3, 3), { kind: "fail" });
  assertEquals(outcomeOf(error, 4, 3), { kind: "fail" }, "past the last attempt too");
  assertEquals(outcomeOf("a string", 1, 1), { kind: "fail" });
});

Deno.test("a permanent failure fails at once", () => {
  assertEquals(outcomeOf(new PermanentFailure("400 Bad Request"), 1, 8), { kind: "fail" });
});

Deno.test("RetryLater waits as asked and gives the attempt back unless it counts", () => {
  assertEquals(outcomeOf(new RetryLater(9.2), 1, 8), {
    kind: "retry",
    delaySeconds: 10,
    countAttempt: false,
  });
  assertEquals(
    outcomeOf(new RetryLater(30), 8, 8),
    { kind: "retry", delaySeconds: 30, countAttempt: false },
    "a wait that is not an attempt never fails the job, even on its last attempt",
  );
  assertEquals(outcomeOf(new RetryLater(30, "occupé", true), 2, 8), {
    kind: "retry",
    delaySeconds: 30,
    countAttempt: true,
  });
  assertEquals(outcomeOf(new RetryLater(30, "occupé", true), 8, 8), { kind: "fail" });
  assertEquals(outcomeOf(new RetryLater(-5), 1, 8), { kind: "retry", delaySeconds: 0, countAttempt: false });
});

Deno.test("the error kept for admins names the error and stays short", () => {
  assertEquals(errorText(new Error("boom")), "boom");
  assertEquals(errorText(new PermanentFailure("400")), "PermanentFailure: 400");
  assertEquals(errorText(new TypeError("x is undefined")), "TypeError: x is undefined");
  assertEquals(errorText(42), "42");
  assertEquals(errorText(new Error("é".repeat(5000))).length, 2000);
});
