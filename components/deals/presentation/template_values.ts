// The values of the admin description's placeholders (lib/deals/template.ts), read from the deal as
// the viewer receives it: the precise address is there only when the viewer may see it.
import type { DealPayload } from "../../../lib/deals/payload.ts";
import { depositPercentage } from "../../../lib/deals/rules.ts";
import { fillTemplate, type TemplateValues } from "../../../lib/deals/template.ts";

const num = (value: unknown): number => {
  const n = typeof value === "number" ? value : Number(String(value ?? "").replace(",", "."));
  return Number.isFinite(n) ? n : 0;
};

const DEFAULT_VALIDITY_DAYS = 30;

export function templateValuesOf(deal: DealPayload): TemplateValues {
  const p = deal.properties;
  return {
    chatAvailable: deal.adminSettings.showChatForPartner || deal.adminSettings.showChatToPartner,
    durationMinutes: num(p.duree_2_service) || null,
    startTime: typeof p.horaire_souhaite === "string" && p.horaire_souhaite ? p.horaire_souhaite : null,
    staff: deal.calculations.officialStaffCount,
    mobileBar: p.bar_mobile___table_a_dispo === "true" || p.bar_mobile___table_a_dispo === true,
    nbCocktails: deal.calculations.nbCocktails,
    guests: num(p.nombre_de_participants),
    serviceAddress: typeof p.adresse_precise === "string" && p.adresse_precise ? p.adresse_precise : null,
    editedAt: deal.editedAt ? new Date(deal.editedAt * 1000) : null,
    validityDays: num(p.validite_devis__en_jours_) || DEFAULT_VALIDITY_DAYS,
    nbCocktailsAuthorized: deal.settings.nbCocktailsAuthorized,
    depositPercentage: depositPercentage(deal.settings),
  };
}

/** The admin description as the partner reads it: placeholders filled, values escaped. */
export function filledAdminDescription(deal: DealPayload, html = deal.adminDescription): string {
  return fillTemplate(html, templateValuesOf(deal));
}
