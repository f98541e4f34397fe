// PATCH /api/deal/{id}: an admin's or a partner's edit of a deal — fields (admin-only ones refused to
// partners, the lock's fields refused while locked), a partner assigned (re-priced with its grid while
// nothing was sent), lines and properties (totals recomputed on the server), and a status asked for
// through the status dialog, turned into the action it stands for.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { sanitizeRichText } from "../../richtext/sanitize.ts";
import { MAX_RICH_TEXT, RICH_TEXT_TOO_LONG } from "../../richtext/rules.ts";
import {
  DEAL_MESSAGES,
  type DealStatus,
  findReason,
  partnerStatusChoices,
  reasonsFor,
  type Role,
  STATUS_LABELS,
  statusChanged,
  totalChangeError,
  transition,
} from "../rules.ts";
import {
  companyCard,
  type DealChanges,
  type DealRow,
  findDeal,
  nameAction,
  queueNotification,
  refreshSearchText,
  setServiceAddress,
  writeDeal,
} from "../store.ts";
import { type DealPatch, dealPatchSchema } from "../input.ts";
import { MAP_INVALID, parseMapEmbed } from "../map.ts";
import { readPayload } from "./read_payload.ts";
import { totalsFor } from "./quote_lines.ts";
import { partnerChangeOf } from "./partner_change.ts";
import { check, locked, requireCocktails, requireSellerVatNumber, type UpdateResult } from "./workflow.ts";

const ADMIN_ONLY: (keyof DealPatch)[] = [
  "name",
  "hubspotId",
  "company",
  "adminSettings",
  "parameters",
  "adminComments",
  "adminDescription",
  "customField1",
  "customField2",
];
/** What the quote says: a change of any of them dates the quote (editedAt). */
const QUOTE_CONTENT: (keyof DealPatch)[] = [
  "name",
  "company",
  "parameters",
  "lines",
  "properties",
  "settings",
  "description",
  "adminDescription",
  "map",
  "customField1",
  "customField2",
];
/** Fields the edit lock protects from partners (spec 001 §4), the deal's settings (its deposit, its
 * cocktail list) included: they are part of the quote the admin locked. */
const LOCKED_FOR_PARTNER: (keyof DealPatch)[] = ["lines", "properties", "description", "map", "settings"];

export async function updateDeal(deps: Deps, actor: Actor, id: number, body: unknown): Promise<UpdateResult> {
  const user = requireRole(actor, ["Admin", "Company"], { message: DEAL_MESSAGES.notAllowed });
  const role = user.user.type;
  const patch = parseInput(dealPatchSchema, body, DEAL_MESSAGES.invalid, {
    multiLine: ["adminComments", "description", "adminDescription", "customField1", "customField2", "map"],
  });
  const sent = Object.keys(patch) as (keyof DealPatch)[];
  if (role !== "Admin") {
    const forbidden = sent.find((field) => ADMIN_ONLY.includes(field));
    if (forbidden) throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  }
  let map: string | null | undefined;
  if (patch.map !== undefined) {
    map = parseMapEmbed(patch.map);
    if (map === null) throw new AppError("validation", MAP_INVALID, { map: MAP_INVALID });
  }
  let message: string | null = null;
  const result = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (role === "Company" && locked(deal) && sent.some((f) => LOCKED_FOR_PARTNER.includes(f))) {
      throw new AppError("conflict", DEAL_MESSAGES.locked);
    }
    const changes: DealChanges = {};
    let status = deal.status;
    let properties = deal.properties;
    let lines = deal.lines;
    let parameters = { vat: deal.parameters.vat ?? 20, commissionRate: deal.parameters.commissionRate ?? 0 };
    let calculations = deal.calculations;
    let action = "edit";
    let notify: "quote_ready" | "quote_updated" | null = null;

    if (patch.company !== undefined) {
      const companyId = patch.company === null
        ? null
        : typeof patch.company === "string"
        ? patch.company
        : patch.company.id;
      const change = await partnerChangeOf(tx, deal, companyId, parameters);
      changes.companyId = companyId;
      if (change.priced) {
        lines = change.priced.lines;
        calculations = change.priced.calculations;
        changes.lines = lines;
        changes.calculations = calculations;
      }
      if (change.parameters) {
        parameters = change.parameters;
        changes.parameters = parameters;
      }
      action = "change_partner";
      if (change.backToNew) {
        // The new partner never validated the quote the customer holds: back to 'Nouvelle demande'.
        status = "new";
        message = DEAL_MESSAGES.partnerChangedBackToNew((await companyCard(tx, companyId))?.name ?? "");
      }
    }
    if (patch.properties !== undefined || patch.lines !== undefined) {
      const edit = check(transition("edit", { from: status, role, locked: locked(deal) }));
      if (edit !== status && role === "Company") message = DEAL_MESSAGES.mustRevalidate;
      status = edit;
    }
    // editedAt (spec 000 §3) dates every change of what the quote says, not the back office's own
    // notes (status, refusal, comments, visibility toggles, HubSpot id).
    if (sent.some((field) => QUOTE_CONTENT.includes(field))) changes.editedAt = new Date();
    if (patch.properties !== undefined) {
      const { adresse_precise, ...rest } = patch.properties;
      if (adresse_precise !== undefined) {
        // The precise address is the customer's: a partner who may not see it may not rewrite it.
        if (role === "Company" && deal.adminSettings.showServiceAddress !== true) {
          throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
        }
        await setServiceAddress(tx, id, adresse_precise);
      }
      properties = { ...deal.properties, ...rest };
      changes.properties = properties;
      changes.serviceDate = (properties.deal_prestation_date as string) || null;
      changes.guests = (properties.nombre_de_participants as number | null) ?? null;
      changes.eventType = (properties.type_d_evenement as string) || null;
    }
    if (patch.lines !== undefined) {
      lines = patch.lines.map((l) => ({
        label: l.label,
        qty: l.qty,
        unitCost: l.unitCost,
        totalCost: l.unitCost * l.qty,
      }));
      changes.lines = lines;
    }
    if (patch.parameters !== undefined) {
      parameters = { ...parameters, ...patch.parameters };
      changes.parameters = parameters;
    }
    if (patch.settings !== undefined) changes.settings = { ...deal.settings, ...patch.settings };
    if (patch.adminSettings !== undefined) {
      changes.adminSettings = { ...deal.adminSettings, ...patch.adminSettings };
    }
    if (patch.adminComments !== undefined) changes.adminComments = patch.adminComments;
    for (const field of ["description", "adminDescription", "customField1", "customField2"] as const) {
      if (patch[field] !== undefined) changes[field] = richText(field, patch[field]);
    }
    if (map !== undefined) changes.mapUrl = map || null;
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.hubspotId !== undefined) changes.hubspotId = patch.hubspotId || null;

    if (patch.status !== undefined && patch.status !== status) {
      const moved = await moveStatus(tx, deal, role, patch.status, patch.refusalReason ?? null);
      Object.assign(changes, moved.changes);
      status = moved.status;
      action = moved.action;
      message = moved.message;
      if (moved.action === "validate") {
        // Validating through the status dialog does what 'Valider ma disponibilité' does.
        properties = { ...properties, envoi_devis: "oui" };
        changes.properties = properties;
        notify = status === "edited" || deal.properties.envoi_devis === "oui"
          ? "quote_updated"
          : "quote_ready";
      }
    }
    if (status !== deal.status) changes.status = status;

    if (changes.lines || changes.parameters || changes.properties || changes.calculations) {
      const guests = Number(properties.nombre_de_participants) || 0;
      const { totals, totalHt } = await totalsFor(
        tx,
        lines,
        parameters,
        guests,
        calculations.nbCocktails ?? 0,
      );
      changes.totals = totals;
      changes.totalHt = totalHt;
      // The money held bounds the total (the deals table's guard trigger holds it too).
      const refused = totalChangeError(deal, totals.totalTTC ?? 0);
      if (refused) throw new AppError("conflict", refused);
    }
    await nameAction(tx, action);
    await writeDeal(tx, id, changes);
    if (notify) await queueNotification(tx, id, notify);
    if (changes.companyId !== undefined || changes.name !== undefined || changes.hubspotId !== undefined) {
      await refreshSearchText(tx, id);
    }
    return await readPayload(deps, tx, role, id);
  });
  await deps.logger.info("deals", "Devis modifié", { dealId: id, userId: user.user.id, fields: sent });
  return { deal: result, message };
}

/** Sanitised rich text, checked for length once sanitised (escaping can make it longer). */
function richText(field: string, html: string): string {
  const clean = sanitizeRichText(html);
  if (clean.length > MAX_RICH_TEXT) {
    throw new AppError("validation", RICH_TEXT_TOO_LONG, { [field]: RICH_TEXT_TOO_LONG });
  }
  return clean;
}

/** A status asked for through PATCH or the status dialog, turned into the action it stands for. */
async function moveStatus(
  tx: Tx,
  deal: DealRow,
  role: Exclude<Role, "System">,
  target: DealStatus,
  reason: string | null,
): Promise<{ changes: DealChanges; status: DealStatus; action: string; message: string }> {
  const isLocked = locked(deal);
  if (target === "refused_partner" || target === "refused_client") {
    const found = reason ? findReason(reason) : undefined;
    if (!found || !reasonsFor(role).includes(found)) {
      throw new AppError("validation", DEAL_MESSAGES.reasonRequired, {
        refusalReason: DEAL_MESSAGES.reasonRequired,
      });
    }
    if (role === "Admin") {
      // The admin's pick of status is honoured; the reason's flag decides when none is forced.
      const to = check(transition("set_status", { from: deal.status, role, locked: isLocked, target }));
      return {
        changes: { refusalReason: found.value },
        status: to,
        action: "refuse",
        message: DEAL_MESSAGES.refused,
      };
    }
    const to = check(transition("refuse", { from: deal.status, role, locked: isLocked }));
    return {
      changes: { refusalReason: found.value },
      status: to,
      action: "refuse",
      message: DEAL_MESSAGES.refused,
    };
  }
  if (role === "Company") {
    if (!partnerStatusChoices(deal.status, isLocked).includes(target)) {
      throw new AppError("conflict", DEAL_MESSAGES.notAllowed);
    }
    await requireCocktails(tx, deal);
    const to = check(transition("validate", { from: deal.status, role, locked: isLocked }));
    await requireSellerVatNumber(tx, deal, role); // issue 11: no quote sent without the seller's VAT number
    return { changes: {}, status: to, action: "validate", message: statusChanged(STATUS_LABELS[to]) };
  }
  const to = check(transition("set_status", { from: deal.status, role, locked: isLocked, target }));
  if (to === "send" || to === "edited") await requireSellerVatNumber(tx, deal, "Admin"); // issue 11: idem
  return { changes: {}, status: to, action: "set_status", message: statusChanged(STATUS_LABELS[to]) };
}
