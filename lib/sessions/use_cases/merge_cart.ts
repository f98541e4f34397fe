// At login the anonymous cart (the cookie's token) joins the customer's cart; other account types keep
// no cart. The places stay held: only the lines move (public.merge_cart).
import { cartActor, transactionAs, userActor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { SessionUser } from "../../actor.ts";
import { mergeAnonymousCart } from "../store.ts";

export async function mergeCartAtLogin(deps: Deps, user: SessionUser, token: string): Promise<number> {
  if (user.type !== "Customer") return 0;
  const moved = await transactionAs(
    deps.db,
    cartActor(userActor(user, "")),
    (tx) => mergeAnonymousCart(tx, token),
  );
  if (moved > 0) await deps.logger.info("sessions", "Panier rattaché au compte", { userId: user.id, moved });
  return moved;
}
