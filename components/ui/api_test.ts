// submitOnce: one Idempotency-Key per submission, resent on each retry of that submission (no answer,
// 502/503/504, the same submission still running), never on a refusal.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import { ApiError, SUBMIT_TRIES, submitOnce } from "./api.ts";
import { IDEMPOTENCY_MESSAGES } from "../../lib/idempotency/rules.ts";

type Answer = Response | Error;

async function withFetch<T>(
  answers: Answer[],
  fn: () => Promise<T>,
): Promise<{ result: T | unknown; keys: string[] }> {
  const original = globalThis.fetch;
  const keys: string[] = [];
  globalThis.fetch = ((_input: RequestInfo | URL, init?: RequestInit) => {
    keys.push(new Headers(init?.headers).get("Idempotency-Key") ?? "");
    const next = answers.shift() ?? new Response("{}", { status: 200 });
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  }) as typeof fetch;
  try {
    return { result: await fn().catch((e) => e), keys };
  } finally {
    globalThis.fetch = original;
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const noPause = () => Promise.resolve();

Deno.test("submitOnce: a lost answer is retried with the same key", async () => {
  const { result, keys } = await withFetch(
    [
      new TypeError("network"),
      json(503, {}),
      json(409, { message: IDEMPOTENCY_MESSAGES.inProgress }),
      json(200, { ok: 1 }),
    ],
    () => submitOnce<{ ok: number }>("/api/deal/request", { a: 1 }, { pause: noPause }),
  );
  assertEquals(result, { ok: 1 });
  assertEquals(keys.length, 4);
  assertEquals(new Set(keys).size, 1, "one key for the submission");
  assert(/^[0-9a-f-]{36}$/.test(keys[0]));
});

Deno.test("submitOnce: a refusal is not retried; tries are bounded; submissions have their own keys", async () => {
  const refused = await withFetch(
    [json(422, { message: "Non" }), json(200, {})],
    () => submitOnce("/api/chat/messages", {}, { pause: noPause }),
  );
  assert(refused.result instanceof ApiError && refused.result.status === 422);
  assertEquals(refused.keys.length, 1);
  const conflict = await withFetch(
    [json(409, { message: "Cette action n'est plus possible." })],
    () => submitOnce("/api/cart/checkout", {}, { pause: noPause }),
  );
  assertEquals(conflict.keys.length, 1, "a business conflict is an answer");
  const down = await withFetch(
    Array.from({ length: 10 }, () => new TypeError("network")),
    () => submitOnce("/api/cart/checkout", {}, { pause: noPause }),
  );
  assert(down.result instanceof TypeError);
  assertEquals(down.keys.length, SUBMIT_TRIES);
  const two = await withFetch([json(200, {}), json(200, {})], async () => {
    await submitOnce("/api/customer/discounts", {}, { pause: noPause });
    await submitOnce("/api/customer/discounts", {}, { pause: noPause });
  });
  assertEquals(new Set(two.keys).size, 2);
});
