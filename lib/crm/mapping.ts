// Our deal ↔ a HubSpot deal (pure). HubSpot stores every property as text; so does the sync state
// (public.crm_deal_sync), so that "what changed" is a comparison of strings on both sides.
//
//   ours                          HubSpot deal property          direction
//   name                          dealname                       both
//   status (stage table below)    dealstage (+ pipeline)         out only
//   total_ht (cents)              amount (euros, "1234.56")      out only
//   properties.<key> (PROPERTIES) <key>, same name               both
//
// The deal's properties (spec 001 §3) already carry HubSpot's internal names (adresse_precise,
// nombre_de_participants…): they are the portal's custom deal properties.
import type { DealStatus } from "../deals/rules.ts";

/** The deal properties kept in step with HubSpot's properties of the same name. */
export const SYNCED_PROPERTIES = [
  "adresse_precise",
  "ville",
  "nombre_de_participants",
  "deal_prestation_date",
  "duree_2_service",
  "horaire_souhaite",
  "bar_mobile___table_a_dispo",
  "carte_des_cocktails",
  "mocktails",
  "distance_en_km",
  "description",
  "service_vin_champ__en_complement__",
  "type_d_evenement",
  "nom_futur_e__marie_e_",
  "emplacement_du_service",
  "deal_location_type",
  "acces_au_lieu",
  "acces_a_l_eau",
  "validite_devis__en_jours_",
  "envoi_devis",
  "envoi_devis_partenaire",
] as const;

/** What we send and what we read back: only the properties coming in may change our deal. */
export const OUTBOUND_ONLY = ["dealstage", "pipeline", "amount"] as const;
export const INBOUND = ["dealname", ...SYNCED_PROPERTIES] as const;
/** Every HubSpot property the sync reads. */
export const READ_PROPERTIES = [...INBOUND, ...OUTBOUND_ONLY] as const;

/** Our statuses → HubSpot's default sales pipeline stages (override with HUBSPOT_DEAL_STAGES). */
export const DEFAULT_STAGES: Record<DealStatus, string> = {
  start: "appointmentscheduled",
  new: "qualifiedtobuy",
  pending: "presentationscheduled",
  send: "presentationscheduled",
  edited: "presentationscheduled",
  accepted: "closedwon",
  pay_partial: "closedwon",
  pay_total: "closedwon",
  win: "closedwon",
  refused: "closedlost",
  refused_client: "closedlost",
  refused_partner: "closedlost",
};

/** "accepted:contractsent,refused:closedlost" → the default table with those stages replaced. Unknown
 * statuses or malformed pairs throw (read once at start-up). `accepted` is the stage of
 * HUBSPOT_DEAL_STAGE_ACCEPTED unless the list names it. */
export function stageTable(text: string, acceptedStage = "closedwon"): Record<DealStatus, string> {
  const table = { ...DEFAULT_STAGES, accepted: acceptedStage || DEFAULT_STAGES.accepted };
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)\s*[:=]\s*([A-Za-z0-9_-]{1,100})$/.exec(pair);
    if (!match || !(match[1] in DEFAULT_STAGES)) {
      throw new Error(`HUBSPOT_DEAL_STAGES : « ${pair} » n'est pas de la forme statut:phase`);
    }
    table[match[1] as DealStatus] = match[2];
  }
  return table;
}

export interface SyncedDeal {
  name: string;
  status: DealStatus;
  totalHt: number;
  properties: Record<string, unknown>;
}

/** Text as HubSpot keeps it: numbers in plain notation, booleans "true"/"false", lists joined by ";"
 * (HubSpot's multiple-checkbox format), nothing for null. */
export function hubspotText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(hubspotText).join(";");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Euros with two decimals from integer cents, as HubSpot's amount. */
export function amountText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Our deal as HubSpot properties (every synchronised one: empty text for an absent value). */
export function toHubSpot(
  deal: SyncedDeal,
  stages: Record<DealStatus, string>,
  pipeline: string,
): Record<string, string> {
  const out: Record<string, string> = {
    dealname: deal.name,
    dealstage: stages[deal.status] ?? DEFAULT_STAGES.start,
    pipeline,
    amount: amountText(deal.totalHt),
  };
  for (const key of SYNCED_PROPERTIES) out[key] = hubspotText(deal.properties[key]);
  return out;
}

/** The properties whose value differs from what both sides last agreed on. */
export function changedSince(
  current: Record<string, string>,
  synced: Record<string, string>,
  keys: readonly string[],
): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const key of keys) {
    if ((current[key] ?? "") !== (synced[key] ?? "")) changed[key] = current[key] ?? "";
  }
  return changed;
}

/** HubSpot's answer (null for a property never set) as text. */
export function fromHubSpot(properties: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of READ_PROPERTIES) out[key] = properties[key] ?? "";
  return out;
}

const NUMERIC = new Set([
  "nombre_de_participants",
  "duree_2_service",
  "distance_en_km",
  "validite_devis__en_jours_",
]);

/** A HubSpot value back into our properties: numbers where ours are numbers, text otherwise; an
 * empty value removes the property. */
export function propertyValue(key: string, text: string): unknown {
  if (text === "") return undefined;
  // HubSpot may answer a date property as midnight UTC in milliseconds.
  if (key === "deal_prestation_date" && /^\d{10,}$/.test(text)) {
    return new Date(Number(text)).toISOString().slice(0, 10);
  }
  if (NUMERIC.has(key)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/** Our deal's fields changed by HubSpot's values `changed` (only INBOUND keys count). */
export function applyInbound(
  deal: { name: string; properties: Record<string, unknown> },
  changed: Record<string, string>,
): { name: string; properties: Record<string, unknown> } {
  const properties = { ...deal.properties };
  let name = deal.name;
  for (const [key, text] of Object.entries(changed)) {
    if (key === "dealname") {
      if (text.trim()) name = text.slice(0, 255);
      continue;
    }
    if (!(SYNCED_PROPERTIES as readonly string[]).includes(key)) continue;
    const value = propertyValue(key, text);
    if (value === undefined) delete properties[key];
    else properties[key] = value;
  }
  return { name, properties };
}

/** The list columns kept beside the properties (service date, guests, event type). */
export function listColumns(properties: Record<string, unknown>) {
  const date = String(properties.deal_prestation_date ?? "");
  const guests = Number(properties.nombre_de_participants);
  return {
    serviceDate: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    guests: Number.isInteger(guests) && guests >= 0 && guests <= 100000 ? guests : null,
    eventType: properties.type_d_evenement ? String(properties.type_d_evenement).slice(0, 255) : null,
  };
}
