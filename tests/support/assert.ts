// Deno's std/assert lives on JSR (unreachable here): the same names over node:assert.
import nodeAssert from "node:assert/strict";

export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  nodeAssert.ok(condition, message);
}
export function assertEquals<T>(
  actual: unknown,
  expected: T,
  message = "values differ",
): asserts actual is T {
  nodeAssert.deepStrictEqual(actual, expected, message);
}
export function assertMatch(
  actual: string,
  pattern: RegExp,
  message = `${actual} does not match ${pattern}`,
): void {
  nodeAssert.match(actual, pattern, message);
}
export async function assertRejects(
  fn: () => Promise<unknown>,
  check: (error: unknown) => boolean = () => true,
) {
  await nodeAssert.rejects(fn, (e: unknown) => check(e));
}
