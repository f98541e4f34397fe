// One interface over the two databases the app can run on: PostgreSQL (postgres.js) when
// DATABASE_URL is set, the embedded PGlite otherwise. Every request's data access goes through
// `transaction(claims, fn)`: one transaction, run as role anon/authenticated/service_role with the
// request's claims set locally, so that row-level security applies exactly as on Supabase.

export type DbRole = "anon" | "authenticated" | "service_role";

export interface Claims {
  role: DbRole;
  /** The user the request acts as (auth.uid()). */
  sub?: string;
  /** Set when an admin impersonates `sub`: the real admin's id. */
  act?: { sub: string };
}

export type Row = Record<string, unknown>;

/** Runs queries inside one transaction. Callable as a tagged template: values become parameters. */
export interface Tx {
  <T = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  query<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  readonly kind: "pglite" | "postgres";
  transaction<T>(claims: Claims, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script in one transaction as the connection's owner (migrations, seed). */
  execScript(script: string, guard?: (tx: Tx) => Promise<boolean>): Promise<boolean>;
  close(): Promise<void>;
}

export const ANON: Claims = { role: "anon" };
export const SERVICE: Claims = { role: "service_role" };

export function userClaims(userId: string, impersonatorId?: string | null): Claims {
  return impersonatorId
    ? { role: "authenticated", sub: userId, act: { sub: impersonatorId } }
    : { role: "authenticated", sub: userId };
}

/** Turns a template literal into `$1, $2…` text and a parameter list. */
export function toQuery(strings: TemplateStringsArray, values: unknown[]): [string, unknown[]] {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += `$${i + 1}${strings[i + 1]}`;
  return [text, values];
}

export function makeTx(query: <T>(text: string, params: unknown[]) => Promise<T[]>): Tx {
  const tx = (<T>(strings: TemplateStringsArray, ...values: unknown[]) => {
    const [text, params] = toQuery(strings, values);
    return query<T>(text, params);
  }) as Tx;
  tx.query = <T>(text: string, params: unknown[] = []) => query<T>(text, params);
  return tx;
}

/** Sets the role and claims for the rest of the current transaction. */
export async function applyClaims(tx: Tx, claims: Claims): Promise<void> {
  await tx`select set_config('role', ${claims.role}, true), set_config('request.jwt.claims', ${
    JSON.stringify(claims)
  }, true)`;
}
