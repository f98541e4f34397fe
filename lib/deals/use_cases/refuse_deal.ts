// Refusal with a reason: partner → refused_partner; admin → refused_client when the reason is shown to
// customers, refused_partner otherwise; customer → refused_client (PATCH /api/customer/deal/refuse/
// {token}: the deal's own customer only).
import { type Actor, requireRole, transactionAs, type UserActor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { DEAL_MESSAGES, findReason, reasonsFor, transition } from "../rules.ts";
import { dealIdByToken, findDeal, nameAction, writeDeal } from "../store.ts";
import { refusalSchema } from "../input.ts";
import { readPayload } from "./read_payload.ts";
import { check, locked, type UpdateResult } from "./workflow.ts";
import { checkToken } from "./customer_access.ts";

/** POST /api/deal/{id}/refuse: the back office's refusal (admins and the deal's partner). */
export async function refuseDeal(deps: Deps, actor: Actor, id: number, body: unknown): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  return await refuse(deps, user, id, body);
}

async function refuse(deps: Deps, user: UserActor, id: number, body: unknown): Promise<UpdateResult> {
  const role = user.user.type;
  const { reason } = parseInput(refusalSchema, body, DEAL_MESSAGES.reasonRequired);
  const found = findReason(reason);
  if (!found || !reasonsFor(role).includes(found)) {
    throw new AppError("validation", DEAL_MESSAGES.reasonRequired, { reason: DEAL_MESSAGES.reasonRequired });
  }
  const deal = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("refuse", {
      from: deal.status,
      role,
      locked: locked(deal),
      reasonForCustomer: found.displayForCustomer,
    }));
    await nameAction(tx, "refuse");
    await writeDeal(tx, id, { status: to, refusalReason: found.value });
    return await readPayload(deps, tx, role, id);
  });
  await deps.logger.info("deals", "Devis refusé", { dealId: id, userId: user.user.id, reason });
  return { deal, message: DEAL_MESSAGES.refused };
}

/** PATCH /api/customer/deal/refuse/{token} with refusalReason (spec 000 §4): the deal's customer only. */
export async function refuseAsCustomer(
  deps: Deps,
  actor: Actor,
  token: string,
  body: Record<string, unknown>,
): Promise<UpdateResult> {
  const customer = requireRole(actor, "Customer");
  checkToken(token);
  const id = await transactionAs(deps.db, customer, (tx) => dealIdByToken(tx, token));
  if (id === null) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return await refuse(deps, customer, id, { reason: body.refusalReason ?? body.reason });
}
