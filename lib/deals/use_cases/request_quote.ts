// The public quote request (POST /api/deal/request, the request form): the deal is created in 'start'
// with its token and contact, priced with the default grid, and the contact is emailed.
import { type Actor, systemActor, transactionAs } from "../../actor.ts";
import { recordCreation } from "../../idempotency/context.ts";
import type { Deps } from "../../deps.ts";
import type { Client } from "../../auth/actions.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { enforceLimit } from "../../limits/limiter.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { normalizePhone } from "../../accounts/phone.ts";
import { PHONE_INVALID } from "../../accounts/rules.ts";
import type { DealSettings } from "../rules.ts";
import { insertContact, insertDeal, refreshSearchText } from "../store.ts";
import { type QuoteRequestInput, quoteRequestSchema, REQUEST_INVALID } from "../input.ts";
import { loadDeviseurSettings, loadPricing } from "../settings_store.ts";
import { requestReceivedEmail } from "../emails.ts";
import type { RequestEstimate } from "../estimate.ts";
import { generate, quoteRequestOf, totalsFor } from "./quote_lines.ts";

const INTAKE = systemActor("intake");
const TOO_MANY_REQUESTS = "Trop de demandes de devis envoyées. Veuillez réessayer plus tard.";

const dealLink = (deps: Deps, deal: { token: string }) => `${deps.config.appUrl}/deal/show/${deal.token}`;

function dealName(
  input: { type_d_evenement: string; lastname: string; deal_prestation_date: string },
): string {
  const date = input.deal_prestation_date
    ? input.deal_prestation_date.split("-").reverse().join("/")
    : "date à confirmer";
  return `${input.type_d_evenement} – ${input.lastname} – ${date}`.slice(0, 255);
}

export interface RequestResult {
  token: string;
  /** In cents (POST /api/deal/request answers it in euros: estimateToJson). */
  estimate: RequestEstimate;
}

/** Creates the deal in 'start' with its token and contact, priced with the default grid, and emails
 * the contact an acknowledgement. A signed-in customer's request is linked to them. The system acts
 * (reason "intake") after the checks: the public never writes to the deal tables directly. */
export async function requestQuote(
  deps: Deps,
  actor: Actor,
  client: Client,
  body: unknown,
): Promise<RequestResult> {
  const today = new Date().toISOString().slice(0, 10);
  const input: QuoteRequestInput = parseInput(quoteRequestSchema(today), body, REQUEST_INVALID, {
    multiLine: ["description"],
  });
  const phone = normalizePhone(input.phone);
  if (!phone) throw new AppError("validation", REQUEST_INVALID, { phone: PHONE_INVALID });
  const perClient = { max: deps.config.quoteRequestsPerHour, windowSeconds: 3600 };
  await enforceLimit(deps.db, `deal-request:${client.ip}`, perClient, TOO_MANY_REQUESTS);
  const customerId = actor.kind === "user" && actor.user.type === "Customer" ? actor.user.id : null;
  const result = await transactionAs(deps.db, INTAKE, async (tx) => {
    const deviseur = await loadDeviseurSettings(tx);
    const properties: Record<string, unknown> = {
      type_d_evenement: input.type_d_evenement,
      deal_prestation_date: input.deal_prestation_date,
      horaire_souhaite: input.horaire_souhaite,
      nombre_de_participants: input.nombre_de_participants,
      duree_2_service: input.duree_2_service,
      ville: input.ville,
      distance_en_km: input.distance_en_km,
      bar_mobile___table_a_dispo: String(input.bar_mobile),
      type_de_recette: input.type_de_recette,
      creation_de_recette: String(input.creation_de_recette),
      mocktails: String(input.type_de_recette === "mocktail"),
      description: input.description,
      validite_devis__en_jours_: deviseur.quoteValidityDays,
      createdate: today,
    };
    const settings: DealSettings = {
      // Spec 001 §3: hasDeposit defaults to false; the partner turns the deposit on in its settings.
      hasDeposit: false,
      depositPercentage: deviseur.depositPercentage,
      cocktailListType: input.creation_de_recette ? "creation" : input.type_de_recette,
      customCocktails: [],
      nbCocktailsAuthorized: deviseur.nbCocktailsAuthorized,
    };
    const priced = generate(await loadPricing(tx, null), quoteRequestOf(properties, settings));
    const parameters = { vat: deviseur.vatRate, commissionRate: deviseur.commissionRate };
    const { totals, totalHt } = await totalsFor(
      tx,
      priced.lines,
      parameters,
      input.nombre_de_participants,
      priced.calculations.nbCocktails,
    );
    const deal = await insertDeal(tx, {
      name: dealName(input),
      properties,
      settings,
      lines: priced.lines,
      parameters,
      calculations: priced.calculations,
      totals,
      totalHt,
      serviceDate: input.deal_prestation_date || null,
      guests: input.nombre_de_participants,
      eventType: input.type_d_evenement,
      customerId,
    });
    await recordCreation(tx);
    await insertContact(tx, deal.id, {
      firstname: input.firstname,
      lastname: input.lastname,
      email: input.email,
      phone,
      serviceAddress: input.adresse_precise,
    });
    await refreshSearchText(tx, deal.id);
    await enqueueEmail(
      tx,
      requestReceivedEmail(input.email, totals.totalTTC, dealLink(deps, deal)),
    );
    return {
      id: deal.id,
      token: deal.token,
      estimate: {
        nbCocktails: priced.calculations.nbCocktails,
        staff: priced.calculations.officialStaffCount,
        totalHT: totals.totalInvoiceByPartner,
        projectManagement: totals.projectManagement,
        vatAmount: totals.vatAmount,
        totalTTC: totals.totalTTC,
        pricePerPerson: totals.pricePerPerson,
        lines: priced.lines.map(({ label, qty, unitCost, totalCost }) => ({
          label,
          qty,
          unitCost,
          totalCost,
        })),
      },
    };
  });
  await deps.logger.info("deals", "Nouvelle demande de devis", { dealId: result.id, customerId });
  return { token: result.token, estimate: result.estimate };
}
