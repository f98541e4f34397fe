// Which failures mean "the database cannot be reached right now" (a lost or refused connection, a
// deadline passed) rather than "this request is wrong". routes/_app.tsx answers them with 503 and
// Retry-After; the adapters count them (Database.stats().errors).

/** Raised by an adapter when a deadline of its own passes (acquiring a pooled connection) or when it
 * is closed. */
export class DatabaseUnavailable extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "DatabaseUnavailable";
  }
}

/** postgres.js's connection error codes, and the socket errors Node and Deno give. */
const CLIENT_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "POOL_TIMEOUT",
  "DATABASE_CLOSED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATEs of a server that is going away, refusing connections, or cancelled us on a deadline:
 * class 08 (connection exception), 57P01-57P03 (terminated by an administrator, crash shutdown,
 * cannot connect now), 57014 (statement_timeout), 25P03 (idle_in_transaction_session_timeout),
 * 53300 (too many connections). */
function unavailableSqlState(code: string): boolean {
  return code.startsWith("08") || ["57P01", "57P02", "57P03", "57014", "25P03", "53300"].includes(code);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && (CLIENT_CODES.has(code) || unavailableSqlState(code))) return true;
  // Deno's own socket errors carry no code.
  const name = (error as { name?: unknown })?.name;
  return name === "ConnectionRefused" || name === "ConnectionReset" || name === "ConnectionAborted" ||
    name === "TimedOut" || name === "BrokenPipe";
}
