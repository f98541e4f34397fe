// Use cases of the deals capability: the public quote request, reading and listing deals, editing
// them, and every move of the status workflow. Each checks its rule (rules.ts transition table), runs
// one transaction as the actor (RLS, the guard trigger and partner_deal_contact() check again), writes
// its emails to the outbox in that transaction, and logs after commit.
import { type Actor, systemActor, transactionAs, type UserActor } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Client } from "../auth/actions.ts";
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { enforceLimit } from "../limits/limiter.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { normalizePhone } from "../accounts/phone.ts";
import { PHONE_INVALID } from "../accounts/rules.ts";
import { sanitizeRichText } from "../richtext/sanitize.ts";
import { MAX_RICH_TEXT, RICH_TEXT_TOO_LONG } from "../richtext/rules.ts";
import { dealPhotoPath } from "../storage/storage.ts";
import {
  type AdminSettings,
  COCKTAIL_VALIDATION_HINT,
  type CocktailValidation,
  DEAL_MESSAGES,
  type DealSettings,
  type DealStatus,
  DEFAULT_COCKTAILS_AUTHORIZED,
  DEPOSIT_PERCENTAGE_FORM_DEFAULT,
  findReason,
  partnerStatusChoices,
  reasonsFor,
  type Role,
  STATUS_LABELS,
  statusChanged,
  transition,
  type TransitionResult,
  validateCocktailList,
} from "./rules.ts";
import {
  type AdminListQuery,
  type CompanyCard,
  companyCard,
  customerContact,
  type DealChanges,
  type DealRow,
  deleteDeal,
  findDeal,
  isCompany,
  listAllDeals,
  listPhotos,
  listVisibleDeals,
  nameAction,
  partnerContact,
  queueNotification,
  refreshSearchText,
  setServiceAddress,
  type StatusChange,
  statusHistory,
  type StoredLine,
  writeDeal,
} from "./store.ts";
import {
  adminSettingsOf,
  type DealListPayload,
  dealListPayload,
  type DealPayload,
  dealPayload,
  settingsOf,
  type Viewer,
} from "./payload.ts";
import {
  type DealPatch,
  dealPatchSchema,
  listQuerySchema,
  type QuoteRequestInput,
  quoteRequestSchema,
  refusalSchema,
  REQUEST_INVALID,
} from "./input.ts";
import {
  computeTotals,
  priceQuote,
  type PricingConfig,
  type QuoteRequest,
  type QuoteTotals,
} from "./pricing.ts";
import {
  type Catalogue,
  loadCatalogue,
  loadCommissionTiers,
  loadDeviseurSettings,
  loadPricing,
} from "./settings_actions.ts";
import { MAP_INVALID, parseMapEmbed } from "./map.ts";
import { requestReceivedEmail } from "./emails.ts";
import { crmUpdateQueued } from "../crm/rules.ts";
import { centsToEuros } from "../money.ts";
import { paymentLedger } from "../payments/store.ts";
import type { LedgerPayment } from "../payments/rules.ts";

const INTAKE = systemActor("intake");
const REQUESTS_PER_CLIENT = { max: 10, windowSeconds: 3600 };
const TOO_MANY_REQUESTS = "Trop de demandes de devis envoyées. Veuillez réessayer plus tard.";

interface Caller {
  actor: UserActor;
  role: Exclude<Role, "System">;
}

function caller(actor: Actor): Caller {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  return { actor, role: actor.user.type };
}

function requireRole(actor: Actor, roles: Exclude<Role, "System">[]): Caller {
  const c = caller(actor);
  if (!roles.includes(c.role)) throw new AppError("forbidden", DEAL_MESSAGES.notAllowed);
  return c;
}

function check(result: TransitionResult): DealStatus {
  if (!result.ok) throw new AppError("conflict", result.error);
  return result.to;
}

const locked = (deal: DealRow) => deal.adminSettings.disableQuoteEdits === true;

export const dealLink = (deps: Deps, deal: { token: string }) =>
  `${deps.config.appUrl}/deal/show/${deal.token}`;
export const dealEditLink = (deps: Deps, deal: { id: number }) =>
  `${deps.config.appUrl}/dashboard/espace-partenaire/deal/${deal.id}`;

/** The payload of a deal for `viewer`, read in `tx` (RLS and masking apply). */
/** The payload of deal `id` for `viewer`; `preloaded`: the deal row and company card the caller has
 * already read (no second read). */
export async function readPayload(
  deps: Deps,
  tx: Tx,
  viewer: Viewer,
  id: number,
  preloaded?: { deal: DealRow; company: CompanyCard | null },
): Promise<DealPayload> {
  const deal = preloaded?.deal ?? await findDeal(tx, id);
  const contact = viewer === "Customer" ? await customerContact(tx, id) : await partnerContact(tx, id);
  const company = preloaded ? preloaded.company : await companyCard(tx, deal.companyId);
  const photos = await listPhotos(tx, id);
  return dealPayload(
    viewer,
    deal,
    contact,
    company,
    photos,
    (dealId, file, thumb) => deps.storage.publicUrl(dealPhotoPath(dealId, file, thumb)),
  );
}

// ---------------------------------------------------------------------------------------------------
// Pricing helpers.

function quoteRequestOf(properties: Record<string, unknown>, settings: Partial<DealSettings>): QuoteRequest {
  const listType = settings.cocktailListType;
  const recipe = properties.type_de_recette;
  return {
    guests: Number(properties.nombre_de_participants) || 0,
    durationMinutes: Number(properties.duree_2_service) || 120,
    recipeType: recipe === "classic" || recipe === "mocktail"
      ? recipe
      : listType === "classic" || listType === "mocktail"
      ? listType
      : "signature",
    customRecipe: properties.creation_de_recette === "true" || listType === "creation",
    mobileBar: properties.bar_mobile___table_a_dispo === "true",
    distanceKm: Number(properties.distance_en_km) || 0,
  };
}

interface Priced {
  lines: StoredLine[];
  calculations: { nbCocktails: number; officialStaffCount: number };
}

function generate(config: PricingConfig, request: QuoteRequest): Priced {
  const quote = priceQuote(config, request);
  return {
    lines: quote.lines,
    calculations: { nbCocktails: quote.nbCocktails, officialStaffCount: quote.staff },
  };
}

async function totalsFor(
  tx: Tx,
  lines: StoredLine[],
  parameters: { vat: number; commissionRate: number },
  guests: number,
  nbCocktails: number,
): Promise<{ totals: QuoteTotals; totalHt: number }> {
  const totals = computeTotals(lines, parameters, {
    guests,
    nbCocktails,
    commissionTiers: await loadCommissionTiers(tx),
  });
  return { totals, totalHt: totals.totalInvoiceByPartner };
}

function dealName(
  input: { type_d_evenement: string; lastname: string; deal_prestation_date: string },
): string {
  const date = input.deal_prestation_date
    ? input.deal_prestation_date.split("-").reverse().join("/")
    : "date à confirmer";
  return `${input.type_d_evenement} – ${input.lastname} – ${date}`.slice(0, 255);
}

// ---------------------------------------------------------------------------------------------------
// The public quote request.

export interface RequestResult {
  token: string;
  estimate: {
    nbCocktails: number;
    staff: number;
    totalHT: number;
    totalTTC: number;
    pricePerPerson: number;
    lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
  };
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
  const input: QuoteRequestInput = parseInput(quoteRequestSchema(today), body, REQUEST_INVALID);
  const phone = normalizePhone(input.phone);
  if (!phone) throw new AppError("validation", REQUEST_INVALID, { phone: PHONE_INVALID });
  await enforceLimit(deps.db, `deal-request:${client.ip}`, REQUESTS_PER_CLIENT, TOO_MANY_REQUESTS);
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
      hasDeposit: true,
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
    const name = dealName(input);
    const [deal] = await tx<{ id: number; token: string }>`
      insert into public.deals (name, status, properties, settings, lines, parameters, calculations, totals, total_ht,
                                service_date, guests, event_type, customer_id)
      values (${name}, 'start', ${JSON.stringify(properties)}::jsonb, ${JSON.stringify(settings)}::jsonb,
              ${JSON.stringify(priced.lines)}::jsonb, ${JSON.stringify(parameters)}::jsonb,
              ${JSON.stringify(priced.calculations)}::jsonb, ${JSON.stringify(totals)}::jsonb, ${totalHt},
              ${
      input.deal_prestation_date || null
    }::date, ${input.nombre_de_participants}, ${input.type_d_evenement},
              ${customerId})
      returning id, token`;
    await tx`insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address)
             values (${deal.id}, ${input.firstname}, ${input.lastname}, ${input.email}, ${phone}, ${input.adresse_precise})`;
    await refreshSearchText(tx, deal.id);
    await enqueueEmail(
      tx,
      requestReceivedEmail(input.email, input.firstname, totals.totalTTC, dealLink(deps, deal)),
    );
    return {
      id: deal.id,
      token: deal.token,
      estimate: {
        nbCocktails: priced.calculations.nbCocktails,
        staff: priced.calculations.officialStaffCount,
        totalHT: centsToEuros(totals.totalInvoiceByPartner),
        totalTTC: centsToEuros(totals.totalTTC),
        pricePerPerson: centsToEuros(totals.pricePerPerson),
        lines: priced.lines.map((l) => ({
          ...l,
          unitCost: centsToEuros(l.unitCost),
          totalCost: centsToEuros(l.totalCost),
        })),
      },
    };
  });
  await deps.logger.info("deals", "Nouvelle demande de devis", { dealId: result.id, customerId });
  return { token: result.token, estimate: result.estimate };
}

// ---------------------------------------------------------------------------------------------------
// Reading.

export async function getDeal(deps: Deps, actor: Actor, id: number): Promise<DealPayload> {
  const { actor: user, role } = caller(actor);
  return await transactionAs(deps.db, user, (tx) => readPayload(deps, tx, role, id));
}

export async function listDealsForAdmin(
  deps: Deps,
  actor: Actor,
  query: Record<string, string | undefined>,
): Promise<{ items: DealListPayload[]; total: number; page: number; perPage: number }> {
  const { actor: admin } = requireRole(actor, ["Admin"]);
  const parsed = parseInput(listQuerySchema, query, "La recherche est invalide.");
  const q: AdminListQuery = {
    search: parsed.search,
    from: parsed.from ?? null,
    to: parsed.to ?? null,
    page: parsed.page ?? 1,
    perPage: parsed.perPage ?? 25,
    sort: parsed.sort ?? "createdAt",
    direction: parsed.direction ?? "desc",
  };
  const result = await transactionAs(deps.db, admin, (tx) => listAllDeals(tx, q));
  return {
    items: result.items.map((d) => dealListPayload(d, "Admin")),
    total: result.total,
    page: q.page,
    perPage: q.perPage,
  };
}

/** A partner's deals ('Mes devis') or a customer's: what RLS shows them. */
export async function listOwnDeals(deps: Deps, actor: Actor): Promise<DealListPayload[]> {
  const { actor: user, role } = requireRole(actor, ["Company", "Customer"]);
  const items = await transactionAs(deps.db, user, (tx) => listVisibleDeals(tx));
  return items.map((d) => dealListPayload(d, role));
}

export interface DealPageData {
  deal: DealPayload;
  history: StatusChange[];
  /** The deal's partner's cocktail catalogue (the 'Paramètres' tab), null without a partner. */
  catalogue: Catalogue | null;
  /** For an admin ('État des paiements' and its refunds): the payments, refunds and credit notes;
   * null for a partner. */
  ledger: LedgerPayment[] | null;
}

/** Everything the deal detail page shows, in one transaction as the admin or the partner. */
export async function dealPage(deps: Deps, actor: Actor, id: number): Promise<DealPageData> {
  const { actor: user, role } = requireRole(actor, ["Admin", "Company"]);
  return await transactionAs(deps.db, user, async (tx) => {
    const deal = await readPayload(deps, tx, role, id);
    const history = await statusHistory(tx, id);
    const catalogue = deal.company ? await loadCatalogue(tx, deal.company.id) : null;
    const ledger = role === "Admin" && !user.impersonatorId ? await paymentLedger(tx, id) : null;
    return { deal, history, catalogue, ledger };
  });
}

export async function dealHistory(deps: Deps, actor: Actor, id: number): Promise<StatusChange[]> {
  const { actor: user } = requireRole(actor, ["Admin", "Company"]);
  return await transactionAs(deps.db, user, async (tx) => {
    await findDeal(tx, id);
    return await statusHistory(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------------
// Editing: PATCH /api/deal/{id}.

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
/** Fields the edit lock protects from partners (spec 001 §4). */
const LOCKED_FOR_PARTNER: (keyof DealPatch)[] = ["lines", "properties", "description", "map"];

export interface UpdateResult {
  deal: DealPayload;
  /** The French message to show (e.g. the partner must revalidate). */
  message: string | null;
}

export async function updateDeal(deps: Deps, actor: Actor, id: number, body: unknown): Promise<UpdateResult> {
  const { actor: user, role } = requireRole(actor, ["Admin", "Company"]);
  const patch = parseInput(dealPatchSchema, body, DEAL_MESSAGES.invalid);
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
      if (companyId && !(await isCompany(tx, companyId))) {
        throw new AppError("validation", "Partenaire introuvable.", { company: "Partenaire introuvable." });
      }
      changes.companyId = companyId;
      // A newly assigned partner prices the quote with its own grid, while nothing was sent yet.
      if (companyId && (deal.status === "start" || deal.status === "new")) {
        const priced = generate(
          await loadPricing(tx, companyId),
          quoteRequestOf(deal.properties, deal.settings),
        );
        lines = priced.lines;
        calculations = priced.calculations;
        changes.lines = lines;
        changes.calculations = calculations;
      }
      if (companyId) {
        const card = await companyCard(tx, companyId);
        const deviseur = await loadDeviseurSettings(tx);
        parameters = { ...parameters, vat: card?.vatExemption ? 0 : deviseur.vatRate };
        changes.parameters = parameters;
      }
      action = "change_partner";
    }
    if (patch.properties !== undefined || patch.lines !== undefined) {
      const edit = check(transition("edit", { from: status, role, locked: locked(deal) }));
      if (edit !== status && role === "Company") message = DEAL_MESSAGES.mustRevalidate;
      status = edit;
      changes.editedAt = new Date();
    }
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
        notify = status === "edited" ? "quote_updated" : "quote_ready";
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
    }
    await nameAction(tx, action);
    await writeDeal(tx, id, changes);
    if (notify) await queueNotification(tx, id, notify);
    if (changes.companyId !== undefined || changes.name !== undefined) await refreshSearchText(tx, id);
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
    return { changes: {}, status: to, action: "validate", message: statusChanged(STATUS_LABELS[to]) };
  }
  const to = check(transition("set_status", { from: deal.status, role, locked: isLocked, target }));
  return { changes: {}, status: to, action: "set_status", message: statusChanged(STATUS_LABELS[to]) };
}

// ---------------------------------------------------------------------------------------------------
// The workflow's actions.

async function cocktailValidation(tx: Tx, deal: DealRow): Promise<CocktailValidation> {
  const catalogue = deal.companyId
    ? await loadCatalogue(tx, deal.companyId)
    : { signature: [], classic: [], mocktail: [] };
  const settings = settingsOf(deal.settings);
  const type = settings.cocktailListType;
  const proposed = type === "creation"
    ? settings.customCocktails.map((c) => c.id)
    : type
    ? catalogue[type].map((c) => c.id)
    : [];
  return validateCocktailList(settings, {
    signature: catalogue.signature.length,
    classic: catalogue.classic.length,
    mocktail: catalogue.mocktail.length,
  }, proposed);
}

async function requireCocktails(tx: Tx, deal: DealRow): Promise<void> {
  const validation = await cocktailValidation(tx, deal);
  if (validation.type !== "validation_success") {
    throw new AppError("conflict", `${validation.message} ${COCKTAIL_VALIDATION_HINT}`);
  }
}

/** The cocktail list validation dialog's result (spec 001 §3). */
export async function checkCocktailList(deps: Deps, actor: Actor, id: number): Promise<CocktailValidation> {
  const { actor: user } = requireRole(actor, ["Admin", "Company"]);
  return await transactionAs(deps.db, user, async (tx) => cocktailValidation(tx, await findDeal(tx, id)));
}

/** 'Envoyer le devis au partenaire': start → new, envoi_devis_partenaire = 'oui', the partner emailed. */
export async function sendToPartner(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const { actor: admin } = requireRole(actor, ["Admin"]);
  const deal = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (deal.properties.envoi_devis_partenaire === "oui" && deal.status !== "start") {
      throw new AppError("conflict", DEAL_MESSAGES.alreadySentToPartner);
    }
    const to = check(
      transition("send_to_partner", { from: deal.status, role: "Admin", locked: locked(deal) }),
    );
    const company = await companyCard(tx, deal.companyId);
    if (!company) throw new AppError("conflict", DEAL_MESSAGES.noPartner);
    await nameAction(tx, "send_to_partner");
    await writeDeal(tx, id, {
      status: to,
      properties: { ...deal.properties, envoi_devis_partenaire: "oui" },
    });
    await queueNotification(tx, id, "new_deal_partner");
    return await readPayload(deps, tx, "Admin", id);
  });
  await deps.logger.info("deals", "Devis envoyé au partenaire", { dealId: id, adminId: admin.user.id });
  return { deal, message: DEAL_MESSAGES.sentToPartner };
}

/** 'Valider ma disponibilité et les cocktails' / '(Re)valider ma dispo': the quote goes to the client. */
export async function validateAvailability(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const { actor: user, role } = requireRole(actor, ["Admin", "Company"]);
  let revalidated = false;
  const deal = await transactionAs(deps.db, user, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("validate", { from: deal.status, role, locked: locked(deal) }));
    await requireCocktails(tx, deal);
    revalidated = to === "edited";
    await nameAction(tx, "validate");
    await writeDeal(tx, id, { status: to, properties: { ...deal.properties, envoi_devis: "oui" } });
    // The customer is emailed by the worker: a partner may not read the customer's address.
    await queueNotification(tx, id, revalidated ? "quote_updated" : "quote_ready");
    return await readPayload(deps, tx, role, id);
  });
  await deps.logger.info("deals", "Disponibilité validée", { dealId: id, userId: user.user.id });
  return { deal, message: revalidated ? DEAL_MESSAGES.revalidated : DEAL_MESSAGES.validated };
}

/** 'Marquer devis accepté': locks edits (spec 001 §4) and queues the CRM phase update. */
export async function acceptDeal(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const { actor: admin } = requireRole(actor, ["Admin"]);
  let crm = false;
  const deal = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    const to = check(transition("accept", { from: deal.status, role: "Admin", locked: locked(deal) }));
    await nameAction(tx, "accept");
    await writeDeal(tx, id, {
      status: to,
      adminSettings: { ...deal.adminSettings, disableQuoteEdits: true },
    });
    // Written whatever the configuration: delivered once a token is set, skipped without a HubSpot id.
    await tx`insert into public.crm_outbox (deal_id, event, payload)
             values (${id}, 'deal_accepted', ${
      JSON.stringify({ hubspotId: deal.hubspotId, status: to })
    }::jsonb)`;
    crm = crmUpdateQueued(deps.config, deal.hubspotId);
    return await readPayload(deps, tx, "Admin", id);
  });
  await deps.logger.info("deals", "Devis marqué comme accepté", { dealId: id, adminId: admin.user.id, crm });
  // The spec's message says HubSpot was updated: only when an update is really on its way.
  return { deal, message: crm ? DEAL_MESSAGES.accepted : DEAL_MESSAGES.acceptedWithoutCrm };
}

/** Refusal with a reason: partner → refused_partner; admin → refused_client when the reason is shown
 * to customers, refused_partner otherwise; customer → refused_client. */
export async function refuseDeal(deps: Deps, actor: Actor, id: number, body: unknown): Promise<UpdateResult> {
  const { actor: user, role } = caller(actor);
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

/** 'Demander un nouveau choix': empties the customer's chosen cocktails. */
export async function resetChoices(deps: Deps, actor: Actor, id: number): Promise<UpdateResult> {
  const { actor: user, role } = requireRole(actor, ["Admin", "Company"]);
  const deal = await transactionAs(deps.db, user, async (tx) => {
    await findDeal(tx, id, { lock: true });
    await nameAction(tx, "reset_choices");
    await writeDeal(tx, id, { choices: { cocktails: [] } });
    return await readPayload(deps, tx, role, id);
  });
  return { deal, message: "Le client peut choisir à nouveau ses cocktails." };
}

export const PAID_DEAL_UNDELETABLE = "Un devis payé ne peut pas être supprimé.";
export const CARD_PAYMENT_BEGUN =
  "Un paiement par carte a été commencé pour ce devis : il ne peut pas être supprimé. Refusez-le plutôt.";

export async function removeDeal(deps: Deps, actor: Actor, id: number): Promise<void> {
  const { actor: admin } = requireRole(actor, ["Admin"]);
  const photos = await transactionAs(deps.db, admin, async (tx) => {
    const deal = await findDeal(tx, id, { lock: true });
    if (deal.depositPaidAt || deal.paidAt) throw new AppError("conflict", PAID_DEAL_UNDELETABLE);
    // A card payment begun may still succeed: the deal must stay for it to be recorded.
    const [intent] = await tx`select 1 from public.payment_intents where deal_id = ${id} limit 1`;
    if (intent) throw new AppError("conflict", CARD_PAYMENT_BEGUN);
    const photos = await listPhotos(tx, id);
    await deleteDeal(tx, id);
    return photos;
  });
  await deps.storage.remove(
    photos.flatMap((p) => [dealPhotoPath(id, p.fileName), dealPhotoPath(id, p.fileName, true)]),
  );
  await deps.logger.info("deals", "Devis supprimé", { dealId: id, adminId: admin.user.id });
}

/** The settings form's defaults for a deal that has none yet (spec 001 §9). */
export function settingsFormDefaults(settings: DealSettings): DealSettings {
  return {
    ...settings,
    depositPercentage: settings.depositPercentage ?? DEPOSIT_PERCENTAGE_FORM_DEFAULT,
    nbCocktailsAuthorized: settings.nbCocktailsAuthorized || DEFAULT_COCKTAILS_AUTHORIZED,
  };
}

export { adminSettingsOf };
export type { AdminSettings };
