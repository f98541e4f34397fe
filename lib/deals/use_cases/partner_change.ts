// Changing a deal's partner (spec 001 §2.12, 'Changer de partenaire'): the one rule that PATCH
// /api/deal/{id} applies and that the admin list's confirmation previews, so that the total the admin
// is shown before confirming is the total the change then writes.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { DEAL_MESSAGES, PARTNER_CHANGE_EMAILS, PARTNER_CHANGE_RESETS } from "../rules.ts";
import { companyCard, type DealRow, findDeal, isCompany, type StoredLine } from "../store.ts";
import { loadDeviseurSettings, loadPricing } from "../settings_store.ts";
import { generate, quoteRequestOf, totalsFor } from "./quote_lines.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PARTNER_NOT_FOUND = "Partenaire introuvable.";

export interface PartnerChange {
  companyId: string | null;
  /** New lines and counts: the new partner's grid, while nothing was sent yet (start, new). */
  priced: { lines: StoredLine[]; calculations: DealRow["calculations"] } | null;
  /** The VAT follows the partner (0 when VAT-exempt); unchanged when the partner is removed. */
  parameters: { vat: number; commissionRate: number } | null;
  /** The customer already received the quote, which the new partner never validated: the deal goes back
   * to 'new' (the customer's page says the quote is being updated). */
  backToNew: boolean;
}

/** Whether giving a deal in `status` to another partner sends it back to 'new'. */
export const partnerChangeResets = (status: string) => PARTNER_CHANGE_RESETS.includes(status as never);

/** What the confirmation tells the admin before a change of partner (null: nothing beyond the totals). */
export function partnerChangeNotice(status: string, hasPartner: boolean): string | null {
  if (partnerChangeResets(status)) return DEAL_MESSAGES.partnerChangeResets;
  return hasPartner && PARTNER_CHANGE_EMAILS.includes(status as never)
    ? DEAL_MESSAGES.partnerChangeNotifies
    : null;
}

/** What giving `deal` to `companyId` (or to nobody) changes, read in `tx`; nothing is written. */
export async function partnerChangeOf(
  tx: Tx,
  deal: DealRow,
  companyId: string | null,
  parameters: { vat: number; commissionRate: number },
): Promise<PartnerChange> {
  // Invoices are issued in the partner's name (billing mandate): once money is received, the seller stays.
  if (companyId !== deal.companyId && (deal.depositPaidAt || deal.paidAt)) {
    throw new AppError("conflict", DEAL_MESSAGES.partnerFixedOncePaid);
  }
  const backToNew = companyId !== deal.companyId && companyId !== null && partnerChangeResets(deal.status);
  if (!companyId) return { companyId: null, priced: null, parameters: null, backToNew: false };
  if (!(await isCompany(tx, companyId))) {
    throw new AppError("validation", PARTNER_NOT_FOUND, { company: PARTNER_NOT_FOUND });
  }
  // A newly assigned partner prices the quote with its own grid, while nothing was sent yet.
  const priced = deal.status === "start" || deal.status === "new"
    ? generate(await loadPricing(tx, companyId), quoteRequestOf(deal.properties, deal.settings))
    : null;
  const card = await companyCard(tx, companyId);
  const deviseur = await loadDeviseurSettings(tx);
  return {
    companyId,
    priced,
    parameters: { ...parameters, vat: card?.vatExemption ? 0 : deviseur.vatRate },
    backToNew,
  };
}

/** Cents HT and TTC, before and after: what the confirmation dialog shows. */
export interface PartnerChangePreview {
  dealId: number;
  companyId: string;
  /** True when the new partner's grid prices the lines again (otherwise only the VAT may change). */
  repriced: boolean;
  current: { totalHtCents: number; totalTtcCents: number };
  next: { totalHtCents: number; totalTtcCents: number };
  /** The deal goes back to 'Nouvelle demande' for the new partner. */
  backToNew: boolean;
  /** What the dialog says before confirming (status reset, emails), or null. */
  notice: string | null;
}

/** GET /api/deal/{id}/partner-preview?company=…: the totals the change would give, nothing written. */
export async function previewPartnerChange(
  deps: Deps,
  actor: Actor,
  id: number,
  company: string | undefined,
): Promise<PartnerChangePreview> {
  const admin = requireRole(actor, "Admin", { message: DEAL_MESSAGES.notAllowed });
  if (!company || !UUID.test(company)) {
    throw new AppError("validation", PARTNER_NOT_FOUND, { company: PARTNER_NOT_FOUND });
  }
  return await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id);
    const parameters = {
      vat: deal.parameters.vat ?? 20,
      commissionRate: deal.parameters.commissionRate ?? 0,
    };
    const change = await partnerChangeOf(tx, deal, company, parameters);
    const lines = change.priced?.lines ?? deal.lines;
    const calculations = change.priced?.calculations ?? deal.calculations;
    const { totals, totalHt } = await totalsFor(
      tx,
      lines,
      change.parameters ?? parameters,
      Number(deal.properties.nombre_de_participants) || 0,
      calculations.nbCocktails ?? 0,
    );
    return {
      dealId: deal.id,
      companyId: company,
      repriced: change.priced !== null,
      current: { totalHtCents: deal.totalHt, totalTtcCents: deal.totals.totalTTC ?? 0 },
      next: { totalHtCents: totalHt, totalTtcCents: totals.totalTTC },
      backToNew: change.backToNew,
      notice: company === deal.companyId ? null : partnerChangeNotice(deal.status, deal.companyId !== null),
    };
  });
}
