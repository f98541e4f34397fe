// Shared set-up of the deals HTTP tests (tests/http/deals_*_test.ts), and the tests of the public quote
// request that every other deal test starts from. Deals are created through the API only (the demo
// deals of the seed are not relied on): POST /api/deal/request as a visitor or a signed-in customer,
// then PATCH /api/deal/{id} {company} and POST /api/deal/{id}/send-to-partner as the admin.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, registrationPayload, testEnv, type TestResponse } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { dealNotificationsQueue } from "../../lib/deals/notifications.ts";

export const ADMIN = "admin@example.fr";
export const PARTNER = "partenaire@example.fr";
export const PARTNER2 = "partenaire2@example.fr";
export const CUSTOMER = "client@example.fr";
export const CUSTOMER2 = "client2@example.fr";

export const MSG = {
  unauthenticated: "Veuillez vous connecter pour continuer.",
  forbidden: "Vous n'avez pas accès à cette page.",
  notAllowed: "Vous n'avez pas le droit d'effectuer cette action sur ce devis.",
  notFound: "Ce devis n'existe pas ou vous n'y avez pas accès.",
  locked: "Les modifications de ce devis sont désactivées par l'administrateur.",
  invalid: "Veuillez vérifier les informations du devis.",
  invalidBody: "Le contenu de la requête est invalide.",
  sentToPartner: "Le devis a été envoyé au partenaire.",
  alreadySent: "Devis déjà envoyé au partenaire",
  validated: "Disponibilité validée ! Le devis a été envoyé au client.",
  revalidated: "Disponibilité revalidée ! Le devis mis à jour a été envoyé au client.",
  mustRevalidate: "Informations mises à jour ! Vous devez relavider votre devis.",
  /** Spec 001 §8; said only when a HubSpot update is really queued (a token and a hubspotId). */
  accepted: "Le devis a été marqué comme accepté. La phase HubSpot a été mise à jour.",
  /** Without HubSpot (the tests' configuration has no token). */
  acceptedWithoutCrm: "Le devis a été marqué comme accepté.",
  refused: "Le devis a été refusé.",
  amountPositive: "Le montant doit être supérieur à 0",
  reasonRequired: "Veuillez choisir une raison de refus.",
  sameStatus: "Le devis a déjà ce statut.",
  noPartner: "Choisissez d'abord un partenaire pour ce devis.",
  paidUndeletable: "Un devis payé ne peut pas être supprimé.",
  settingUnknown: "Ce réglage n'existe pas.",
  fieldUnknown: "Ce champ n'existe pas.",
  partnerUnknown: "Partenaire introuvable.",
  cocktailHint: "Revenez valider votre disponibilité une fois votre liste de cocktails configurée.",
  requestInvalid: "Veuillez renseigner tous les champs obligatoires",
} as const;

export const STATUS_LABELS: Record<string, string> = {
  start: "Devis généré",
  new: "Nouvelle demande",
  pending: "Attente revalidation partenaire",
  send: "Devis envoyé",
  edited: "Devis modifié et envoyé",
  accepted: "Devis accepté",
  pay_partial: "Accepté / paiement partiel",
  pay_total: "Accepté / paiement complet",
  win: "Gagné soldé",
  refused: "Refusé",
  refused_client: "Refusé par le client",
  refused_partner: "Refusé par le partenaire",
};

/** The French wrong-status message (lib/deals/rules.ts wrongStatus). */
export function wrongStatus(status: string): string {
  return `Cette action n'est pas possible pour un devis au statut « ${STATUS_LABELS[status]} ».`;
}

export function statusChanged(status: string): string {
  return `Statut mis à jour vers : ${STATUS_LABELS[status]}`;
}

// Each test module runs with its own copy of this file: the counter starts at random (in 4 million
// addresses), so that the modules sharing one database (the PostgreSQL step) do not reuse each other's
// addresses and spend each other's per-address limits.
let ipCounter = Math.floor(Math.random() * 4_000_000);
/** A client address of its own, so that per-IP limits of one test do not reach another. */
export function freshIp(): string {
  ipCounter++;
  return `10.${128 + (ipCounter >> 16) % 64}.${(ipCounter >> 8) & 255}.${(ipCounter & 255) || 1}`;
}

let uniqueCounter = 0;
/** A string unique in this process and across runs (names, emails). */
export function unique(prefix = "u"): string {
  uniqueCounter++;
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}${uniqueCounter}`;
}

let phoneCounter = 0;
/** A French mobile number in E.164, unique in this process. */
export function uniqueMobile(): string {
  phoneCounter++;
  const n = `${(Date.now() % 100_000) * 100 + (phoneCounter % 100)}`.padStart(7, "0").slice(-7);
  return `+3367${n}`;
}

export async function loggedIn(email: string): Promise<Client> {
  const client = new Client({ ip: freshIp() });
  await client.login(email);
  return client;
}

export function anonymous(): Client {
  return new Client({ ip: freshIp() });
}

export async function userIdOf(email: string): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    email,
  ]);
  assert(row, `no user ${email}`);
  return row.id;
}

/** A professional customer with a company name, SIREN and postal address, signed in. */
export async function registeredCustomer(): Promise<
  { client: Client; email: string; phone: string; name: string; siren: string; address: string; id: string }
> {
  const client = new Client({ ip: freshIp() });
  const name = `Société ${unique("S")}`;
  const siren = String(100_000_000 + Math.floor(Math.random() * 899_999_999)).slice(0, 9);
  const address = `${Math.floor(Math.random() * 900) + 1} rue ${unique("Adr")}`;
  const payload = registrationPayload({ name, siren, address, phone: uniqueMobile() });
  const res = await client.post("/api/security/registration", payload);
  assertEquals(res.status, 200, `registration: ${res.text}`);
  const id = await userIdOf(String(payload.email));
  return { client, email: String(payload.email), phone: String(payload.phone), name, siren, address, id };
}

export function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The public quote form's payload (POST /api/deal/request). */
export function requestPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type_d_evenement: "Anniversaire",
    deal_prestation_date: inDays(60),
    horaire_souhaite: "19:00",
    nombre_de_participants: 40,
    duree_2_service: 180,
    ville: "Lyon",
    adresse_precise: `${Math.floor(Math.random() * 90) + 1} avenue ${unique("Service")}`,
    distance_en_km: 12,
    bar_mobile: false,
    type_de_recette: "signature",
    creation_de_recette: false,
    description: "Soirée d'anniversaire sur une péniche",
    firstname: "Jeanne",
    lastname: unique("Contact"),
    email: `${unique("contact")}@example.fr`.toLowerCase(),
    phone: uniqueMobile(),
    consent: true,
    ...overrides,
  };
}

export interface CreatedDeal {
  id: number;
  token: string;
  request: Record<string, unknown>;
}

/** A quote request sent by `client` (a visitor by default): the new deal is in 'start'. */
export async function requestDeal(
  options: { client?: Client; overrides?: Record<string, unknown> } = {},
): Promise<CreatedDeal> {
  const client = options.client ?? anonymous();
  const request = requestPayload(options.overrides);
  const res = await client.post("/api/deal/request", request);
  assertEquals(res.status, 200, `request: ${res.text}`);
  const token = String(res.json<{ results: { token: string } }>().results.token);
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: number }>(db, "select id from public.deals where token = $1", [
    token,
  ]);
  assert(row, "the deal was created");
  return { id: Number(row.id), token, request };
}

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

export function body(res: TestResponse): Json {
  return res.json<Json>();
}

/** The deal of a successful answer. */
export function dealOf(res: TestResponse): Json {
  assertEquals(res.status, 200, `expected 200, got ${res.status}: ${res.text.slice(0, 400)}`);
  const json = body(res);
  assertEquals(json.status, "success");
  return json.results as Json;
}

/** A page of the admin's list (GET /api/deal/index): `results` is the list, the paging beside it
 * (spec 001 §7); returned as { items, total, page, perPage }. */
export function adminPage(res: TestResponse): Json {
  assertEquals(res.status, 200, `expected 200, got ${res.status}: ${res.text.slice(0, 400)}`);
  const json = body(res);
  assertEquals(json.status, "success");
  assert(Array.isArray(json.results), "results is the list");
  return { items: json.results, total: json.total, page: json.page, perPage: json.perPage };
}

/** An error answer: its status and French message. */
export function assertError(res: TestResponse, status: number, message?: string, context = ""): Json {
  assertEquals(
    res.status,
    status,
    `${context} expected ${status}, got ${res.status}: ${res.text.slice(0, 400)}`,
  );
  const json = body(res);
  assertEquals(json.status, "error", `${context} status field`);
  if (message !== undefined) assertEquals(json.message, message, `${context} message`);
  return json;
}

export async function assignPartner(admin: Client, dealId: number, partnerId: string): Promise<Json> {
  return dealOf(await admin.patch(`/api/deal/${dealId}`, { company: partnerId }));
}

export async function sendToPartner(admin: Client, dealId: number): Promise<Json> {
  const res = await admin.post(`/api/deal/${dealId}/send-to-partner`);
  assertEquals(body(res).message, MSG.sentToPartner, res.text);
  return dealOf(res);
}

export const SIGNATURE_CATALOGUE = {
  signature: [
    { id: "mojito-maison", name: "Mojito maison", description: "Rhum, menthe fraîche, citron vert" },
    { id: "spritz-royal", name: "Spritz royal", description: "Apérol, prosecco, orange" },
  ],
  classic: [],
  mocktail: [],
};

/** Writes a partner's cocktail catalogue (as the admin, who may write any partner's). */
export async function setCatalogue(admin: Client, partnerId: string, value: unknown = SIGNATURE_CATALOGUE) {
  const res = await admin.patch(`/api/company/settings/cocktails/${partnerId}`, { value });
  assertEquals(res.status, 200, `catalogue: ${res.text}`);
}

/** Makes sure the partner's catalogue has signature cocktails (what a request for signature cocktails
 * needs to validate), leaving a catalogue that already has some as it is (on PostgreSQL the test files
 * share one database). */
export async function ensureCatalogue(admin: Client, partnerId: string) {
  const res = await admin.get(`/api/company/settings/cocktails/${partnerId}`);
  assertEquals(res.status, 200, `catalogue: ${res.text}`);
  const current = body(res).results?.value;
  if (!(Array.isArray(current?.signature) && current.signature.length > 0)) {
    await setCatalogue(admin, partnerId);
  }
}

/** The partner's catalogue as stored (null when it has none), to put it back after a test. */
export async function readCatalogue(admin: Client, partnerId: string): Promise<unknown> {
  return body(await admin.get(`/api/company/settings/cocktails/${partnerId}`)).results?.value ?? null;
}

/** A deal assigned to the partner `partnerEmail` and sent to it (status 'new'), with a catalogue that
 * validates. */
export async function dealForPartner(
  admin: Client,
  partnerEmail = PARTNER,
  options: { client?: Client; overrides?: Record<string, unknown>; send?: boolean; deposit?: boolean } = {},
): Promise<CreatedDeal & { partnerId: string }> {
  const deal = await requestDeal(options);
  const partnerId = await userIdOf(partnerEmail);
  // New deals offer no deposit (spec 001 §3: hasDeposit false); these deals stand for quotes whose
  // partner offers one, as most tests pay or invoice a deposit.
  if (options.deposit !== false) {
    const { db } = await testEnv();
    await systemQuery(
      db,
      `update public.deals set settings = settings || '{"hasDeposit": true}' where id = $1`,
      [
        deal.id,
      ],
    );
  }
  await ensureCatalogue(admin, partnerId);
  await assignPartner(admin, deal.id, partnerId);
  if (options.send !== false) await sendToPartner(admin, deal.id);
  return { ...deal, partnerId };
}

/** Admin moves the deal straight to `status` (a refused status needs a reason). */
export async function forceStatus(admin: Client, dealId: number, status: string): Promise<Json> {
  const patch: Json = { status };
  if (status === "refused_client") patch.refusalReason = "other_provider";
  if (status === "refused_partner" || status === "refused") patch.refusalReason = "partner_unavailable";
  const res = await admin.patch(`/api/deal/${dealId}`, patch);
  const deal = dealOf(res);
  assertEquals(deal.status, status, `forced to ${status}`);
  return deal;
}

export async function errorLogCount(): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ n: number }>(
    db,
    "select count(*)::int as n from public.logs where type = 'error'",
  );
  return Number(row.n);
}

export async function errorLogs(since: number): Promise<string[]> {
  const { db } = await testEnv();
  const rows = await systemQuery<{ message: string; context: unknown }>(
    db,
    "select message, context from public.logs where type = 'error' order by created_at desc limit $1",
    [Math.max(0, (await errorLogCount()) - since)],
  );
  return rows.map((r) => `${r.message} ${JSON.stringify(r.context).slice(0, 300)}`);
}

/** Drains the deal notifications queue the app's worker drains. */
export async function drainNotifications(): Promise<void> {
  const { deps } = await testEnv();
  while ((await dealNotificationsQueue.drain(deps)) > 0) { /* until empty */ }
}

export interface OutboxRow {
  recipient: string;
  template: string;
  subject: string;
  text_body: string;
}

export async function emailsFor(recipient: string): Promise<OutboxRow[]> {
  const { db } = await testEnv();
  return await systemQuery<OutboxRow>(
    db,
    "select recipient, template, subject, text_body from public.email_outbox where recipient = $1 order by created_at, id",
    [recipient],
  );
}

export async function historyRows(dealId: number): Promise<Json[]> {
  const { db } = await testEnv();
  return await systemQuery<Json>(
    db,
    `select from_status, to_status, action, actor_id, impersonator_id, actor_role, reason
     from public.deal_status_changes where deal_id = $1 order by id`,
    [dealId],
  );
}

// ---------------------------------------------------------------------------------------------------
// The public quote request: what every other deal test starts from. Registered only when this file is
// the test module itself, not when another deals test imports its helpers.

const fixtureTest: typeof httpTest = import.meta.url === Deno.mainModule ? httpTest : () => {};

fixtureTest(
  "POST /api/deal/request: a visitor's request creates a deal in 'start' with its contact",
  async () => {
    const deal = await requestDeal();
    const { db } = await testEnv();
    const [row] = await systemQuery<Json>(
      db,
      `select d.status, d.customer_id, d.company_id, d.total_ht, c.email, c.service_address
     from public.deals d join public.deal_contacts c on c.deal_id = d.id where d.id = $1`,
      [deal.id],
    );
    assertEquals(row.status, "start");
    assertEquals(row.customer_id, null, "a visitor's request is linked to nobody");
    assertEquals(row.company_id, null);
    assertEquals(row.email, deal.request.email);
    assertEquals(row.service_address, deal.request.adresse_precise);
    assert(Number(row.total_ht) > 0, "priced with the default grid");
    const history = await historyRows(deal.id);
    assertEquals(history.map((h) => [h.from_status, h.to_status, h.action]), [[null, "start", "request"]]);
    // The contact is told the request arrived.
    const mails = await emailsFor(String(deal.request.email));
    assertEquals(mails.map((m) => m.template), ["deal-request-received"]);
  },
);

fixtureTest("POST /api/deal/request: a signed-in customer's request is linked to them", async () => {
  const customer = await loggedIn(CUSTOMER);
  const deal = await requestDeal({ client: customer });
  const { db } = await testEnv();
  const [row] = await systemQuery<{ customer_id: string }>(
    db,
    "select customer_id from public.deals where id = $1",
    [deal.id],
  );
  assertEquals(row.customer_id, await userIdOf(CUSTOMER));
  // Customers read their deals through their own API (the back office's is for partners and admins).
  assertEquals((await customer.get(`/api/deal/get/${deal.id}`)).status, 403);
  const own = (body(await customer.get("/api/customer/deal/index")).results as Json[]).find((d) =>
    d.id === deal.id
  );
  assert(own, "the customer finds it among their quotes");
});

fixtureTest("POST /api/deal/request: invalid requests answer 422 in French and create nothing", async () => {
  const before = await errorLogCount();
  const client = anonymous();
  const missing = assertError(
    await client.post("/api/deal/request", requestPayload({ firstname: "", consent: false })),
    422,
    MSG.requestInvalid,
  );
  assertEquals(missing.errors.firstname, "Ce champ est requis");
  assertEquals(
    missing.errors.consent,
    "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
  );
  const past = assertError(
    await client.post("/api/deal/request", requestPayload({ deal_prestation_date: "2001-01-01" })),
    422,
  );
  assertEquals(past.errors.deal_prestation_date, "La date doit être aujourd'hui ou plus tard.");
  assertError(await client.post("/api/deal/request", requestPayload({ duree_2_service: 77 })), 422);
  assertError(
    await client.request("POST", "/api/deal/request", {
      body: "{nope",
      headers: { "content-type": "application/json" },
    }),
    400,
    MSG.invalidBody,
  );
  assertError(await client.post("/api/deal/request", [1, 2]), 400, MSG.invalidBody);
  assertEquals(await errorLogCount(), before, "no error logged");
});

/** A deal the partner validated (status 'send'), linked to client@example.fr, with its total TTC. */
export async function sentDealForCustomer(admin: Client, partner: Client) {
  const deal = await dealForPartner(admin);
  dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
    await userIdOf(CUSTOMER),
    deal.id,
  ]);
  const [row] = await systemQuery<{ total: number }>(
    db,
    "select (totals->>'totalTTC')::bigint as total from public.deals where id = $1",
    [deal.id],
  );
  return { ...deal, totalTTC: Number(row.total), lastname: String(deal.request.lastname) };
}

/** The deposit, paid by card through the simulated provider (as the quote page does): the payment. */
export async function payDepositByCard(
  customer: Client,
  token: string,
): Promise<{ id: string; amount: number }> {
  const intent = await customer.post("/api/payment/intent", { dealToken: token, paymentType: "deposit" });
  assertEquals(intent.status, 200, intent.text);
  const paymentIntentId = String(body(intent).paymentIntentId);
  const card = await customer.post("/api/payment/simulated/confirm", {
    paymentIntentId,
    cardNumber: "4242424242424242",
  });
  assertEquals(card.status, 200, card.text);
  const confirmed = await customer.post("/api/payment/confirm", { paymentIntentId });
  assertEquals([confirmed.status, body(confirmed).paymentStatus], [200, "succeeded"], confirmed.text);
  const { db } = await testEnv();
  const [payment] = await systemQuery<{ id: string; amount: number }>(
    db,
    `select p.id, p.amount from public.deal_payments p join public.deals d on d.id = p.deal_id
     where d.token = $1 and p.kind = 'deposit'`,
    [token],
  );
  assert(payment, "the deposit is recorded");
  return { id: payment.id, amount: Number(payment.amount) };
}
