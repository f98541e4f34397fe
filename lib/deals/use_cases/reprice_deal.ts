// Re-pricing a deal from its request (issue "Quotes and payments, second pass" §5): after the guest
// count (or the duration, the distance…) changes, the quote engine's lines are offered, never applied
// silently. GET /api/deal/{id}/repricing answers the proposal (the engine's lines with the partner's
// grid, and the totals they would give beside the current ones); POST /api/deal/{id}/repricing applies
// it when the caller saw the same total (`expectedTotalHt`, euros): a proposal that changed since
// (another edit, a new grid) is refused with 409 and read again. Applying is an edit of the lines: the
// same rights (admins; the deal's partner unless locked), the same status move (a sent quote goes back
// to 'pending', the partner revalidates), and the engine's counts (cocktails, staff) with the lines.
import { z } from "zod";
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { centsToEuros, eurosToCents } from "../../money.ts";
import { DEAL_MESSAGES, type RepricingProposal, totalChangeError, transition } from "../rules.ts";
import { type DealRow, findDeal, nameAction, writeDeal } from "../store.ts";
import { loadPricing } from "../settings_store.ts";
import { readPayload } from "./read_payload.ts";
import { generate, type Priced, quoteRequestOf, totalsFor } from "./quote_lines.ts";
import { check, locked, type UpdateResult } from "./workflow.ts";

export const REPRICING_MESSAGES = {
  applied: "Le devis a été recalculé pour la demande actuelle.",
  stale: "La proposition a changé depuis son affichage : vérifiez-la à nouveau.",
  invalid: "Proposition de recalcul invalide.",
} as const;

const applySchema = z.object({ expectedTotalHt: z.number().finite().nonnegative() });

async function priceNow(tx: Tx, deal: DealRow) {
  const priced: Priced = generate(
    await loadPricing(tx, deal.companyId),
    quoteRequestOf(deal.properties, deal.settings),
  );
  const parameters = { vat: deal.parameters.vat ?? 20, commissionRate: deal.parameters.commissionRate ?? 0 };
  const guests = Number(deal.properties.nombre_de_participants) || 0;
  const { totals, totalHt } = await totalsFor(
    tx,
    priced.lines,
    parameters,
    guests,
    priced.calculations.nbCocktails,
  );
  return { priced, totals, totalHt, guests };
}

const sameLines = (a: DealRow["lines"], b: DealRow["lines"]) =>
  a.length === b.length &&
  a.every((line, i) => line.label === b[i].label && line.qty === b[i].qty && line.unitCost === b[i].unitCost);

export async function proposeRepricing(deps: Deps, actor: Actor, id: number): Promise<RepricingProposal> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  return await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id);
    const { priced, totals, guests } = await priceNow(tx, deal);
    return {
      lines: priced.lines.map((l) => ({
        label: l.label,
        qty: l.qty,
        unitCost: centsToEuros(l.unitCost),
        totalCost: centsToEuros(l.totalCost),
      })),
      guests,
      nbCocktails: priced.calculations.nbCocktails,
      staff: priced.calculations.officialStaffCount,
      current: {
        totalHt: centsToEuros(deal.totals.totalInvoiceByPartner ?? 0),
        totalTTC: centsToEuros(deal.totals.totalTTC ?? 0),
      },
      proposed: {
        totalHt: centsToEuros(totals.totalInvoiceByPartner),
        totalTTC: centsToEuros(totals.totalTTC),
      },
      changed: !sameLines(priced.lines, deal.lines),
    };
  });
}

export async function applyRepricing(
  deps: Deps,
  actor: Actor,
  id: number,
  body: unknown,
): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const role = user.user.type;
  const { expectedTotalHt } = parseInput(applySchema, body, REPRICING_MESSAGES.invalid);
  let message: string = REPRICING_MESSAGES.applied;
  const deal = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (role === "Company" && locked(deal)) throw new AppError("conflict", DEAL_MESSAGES.locked);
    const status = check(transition("edit", { from: deal.status, role, locked: locked(deal) }));
    const { priced, totals, totalHt } = await priceNow(tx, deal);
    if (totalHt !== eurosToCents(expectedTotalHt)) throw new AppError("conflict", REPRICING_MESSAGES.stale);
    const refused = totalChangeError(deal, totals.totalTTC);
    if (refused) throw new AppError("conflict", refused);
    if (status !== deal.status && role === "Company") message = DEAL_MESSAGES.mustRevalidate;
    await nameAction(tx, "reprice");
    await writeDeal(tx, id, {
      lines: priced.lines,
      calculations: priced.calculations,
      totals,
      totalHt,
      editedAt: new Date(),
      ...(status !== deal.status ? { status } : {}),
    });
    return await readPayload(deps, tx, role, id);
  });
  await deps.logger.info("deals", "Devis recalculé", { dealId: id, userId: user.user.id });
  return { deal, message };
}
