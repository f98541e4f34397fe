// The header's cart link: how many places the visitor's cart holds now (0: no link). No query for
// visitors without a cart cookie, nor for partners and admins (no cart).
import { type Actor, cartActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";

export async function cartItemCount(deps: Deps, actor: Actor, token: string | null): Promise<number> {
  if (actor.kind === "anonymous" ? !token : actor.kind !== "user" || actor.user.type !== "Customer") return 0;
  const [row] = await transactionAs(deps.db, cartActor(actor), (tx) =>
    tx<{ n: number }>`
      select coalesce(sum(quantity), 0)::int as n from public.cart_contents(${
      actor.kind === "anonymous" ? token : null
    })`);
  return row?.n ?? 0;
}
