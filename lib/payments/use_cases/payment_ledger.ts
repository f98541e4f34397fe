// GET /api/deal/{id}/payments: the deal's payments, refunds and credit notes ('État des paiements'),
// for an admin in person; read as the admin (RLS decides again).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES } from "../../deals/rules.ts";
import type { LedgerPayment } from "../rules.ts";
import { dealExists, paymentLedger } from "../store.ts";

export async function dealPaymentLedger(deps: Deps, actor: Actor, dealId: number): Promise<LedgerPayment[]> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed, notImpersonating: true });
  return await transactionAs(deps.db, admin, async (tx) => {
    if (!(await dealExists(tx, dealId))) throw new AppError("not_found", DEAL_MESSAGES.notFound);
    return await paymentLedger(tx, dealId);
  });
}
