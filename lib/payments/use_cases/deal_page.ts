// Everything the back office's deal page shows, in one transaction as the admin or the partner: the
// deal, its status history, its partner's catalogue and — for an admin in person — its payments,
// refunds and credit notes ('État des paiements'). It lives with payments, above deals: deals never
// import payments.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { DEAL_MESSAGES } from "../../deals/rules.ts";
import type { DealPayload } from "../../deals/payload.ts";
import { type StatusChange, statusHistory } from "../../deals/store.ts";
import type { Catalogue } from "../../deals/settings.ts";
import { loadCatalogue } from "../../deals/settings_store.ts";
import { readPayload } from "../../deals/use_cases/read_payload.ts";
import type { LedgerPayment } from "../rules.ts";
import { paymentLedger } from "../store.ts";

export interface DealPageData {
  deal: DealPayload;
  history: StatusChange[];
  /** The deal's partner's cocktail catalogue (the 'Paramètres' tab), null without a partner. */
  catalogue: Catalogue | null;
  /** For an admin ('État des paiements' and its refunds): the payments, refunds and credit notes;
   * null for a partner. */
  ledger: LedgerPayment[] | null;
}

export async function dealPage(deps: Deps, actor: Actor, id: number): Promise<DealPageData> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const role = user.user.type;
  return await transactionAs(deps.db, user, async (tx) => {
    const deal = await readPayload(deps, tx, role, id);
    const history = await statusHistory(tx, id);
    const catalogue = deal.company ? await loadCatalogue(tx, deal.company.id) : null;
    const ledger = role === "Admin" && !user.impersonatorId ? await paymentLedger(tx, id) : null;
    return { deal, history, catalogue, ledger };
  });
}
