// Use cases of billing: issuing invoices for recorded payments and credit notes for refunds (numbered
// gap-free in the issuing transaction; an issued invoice is never changed), and building any document
// of a deal for download, with its access rule: customer documents for the deal's customer, its
// partner and admins; commission documents for its partner and admins.
import { type Actor, systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import type { Tx } from "../db/database.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { DEAL_MESSAGES, depositOffered, depositPercentage } from "../deals/rules.ts";
import { richTextToPlain } from "../richtext/sanitize.ts";
import type { Queue } from "../jobs/worker.ts";
import {
  addressLines,
  balanceDocument,
  type BillingDocument,
  commissionCredit,
  commissionCreditNoteDocument,
  commissionDocument,
  creditNoteDocument,
  type Deduction,
  depositDocument,
  invoiceNumber,
  type Party,
  quoteDocument,
  type QuoteSnapshot,
} from "./document.ts";
import { depositAmountOf } from "../payments/rules.ts";

const BILLING = systemActor("payments");

export const DOCUMENT_NOT_AVAILABLE = "Ce document n'est pas encore disponible pour ce devis.";

interface DealBillingRow {
  id: number;
  token: string;
  name: string;
  status: string;
  lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
  settings: { hasDeposit?: boolean; depositPercentage?: number | null };
  parameters: { vat?: number; commissionRate?: number };
  properties: Record<string, unknown>;
  totals: { totalTTC?: number; projectManagement?: number; managementFee?: number; fixedCommission?: number };
  serviceDate: string | null;
  guests: number | null;
  companyId: string | null;
  customerId: string | null;
  createdAt: Date;
}

const DEAL_COLUMNS = `id, token, name, status, lines, settings, parameters, properties, totals,
  service_date as "serviceDate", guests, company_id as "companyId", customer_id as "customerId",
  created_at as "createdAt"`;

interface UserRow {
  name: string | null;
  firstname: string;
  lastname: string;
  siren: string | null;
  vatNumber: string | null;
  vatExemption: boolean;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  email: string;
}

async function userParty(tx: Tx, id: string | null, seller: boolean): Promise<Party | null> {
  if (!id) return null;
  const [u] = await tx<UserRow>`
    select name, firstname, lastname, siren, vat_number as "vatNumber", vat_exemption as "vatExemption",
      address1, address2, zipcode, city, email
    from public.users where id = ${id}`;
  if (!u) return null;
  const person = `${u.firstname} ${u.lastname}`.trim();
  return {
    name: u.name || person || u.email,
    siren: u.siren,
    vatNumber: u.vatNumber,
    address: [
      ...(u.name && person && !seller ? [`À l'attention de ${person}`] : []),
      u.address1,
      u.address2,
      [u.zipcode, u.city].filter(Boolean).join(" "),
    ].filter((s): s is string => !!s),
    email: u.email,
    // A company name, a SIREN or a VAT number: a business (its VAT number is printed, BT-48, and the
    // late-payment mentions apply).
    professional: !!(u.name || u.siren || u.vatNumber),
    vatExempt: seller && u.vatExemption,
  };
}

function platformParty(config: Pick<Config, "platform">): Party {
  return {
    name: config.platform.name,
    siren: config.platform.siren,
    vatNumber: config.platform.vatNumber,
    address: config.platform.address,
    email: config.platform.email,
    professional: true,
    vatExempt: false,
  };
}

/** The buyer of a deal's customer documents: the linked account, else the request's contact. */
async function customerParty(tx: Tx, deal: DealBillingRow): Promise<Party> {
  const account = await userParty(tx, deal.customerId, false);
  if (account) return account;
  const [c] = await tx<{ firstname: string; lastname: string; email: string; serviceAddress: string }>`
    select firstname, lastname, email, service_address as "serviceAddress" from public.deal_contacts where deal_id = ${deal.id}`;
  return {
    name: c ? `${c.firstname} ${c.lastname}`.trim() : "Client",
    siren: null,
    vatNumber: null,
    address: c?.serviceAddress ? addressLines(c.serviceAddress) : [],
    email: c?.email ?? null,
    professional: false,
    vatExempt: false,
  };
}

async function settingText(tx: Tx, key: string): Promise<string> {
  const [row] = await tx<{ value: unknown }>`select value from public.settings where key = ${key}`;
  return typeof row?.value === "string" ? row.value : "";
}

/** The free fields the deviseur settings show on quotes or on invoices, as plain text. */
async function notes(tx: Tx, on: "quote" | "invoice"): Promise<string[]> {
  const found: string[] = [];
  for (const n of [1, 2]) {
    const shown = await settingText(tx, `deviseur_show_custom_field_${n}_on_${on}`);
    if (shown === "1") {
      const text = richTextToPlain(await settingText(tx, `deviseur_custom_field_${n}`));
      if (text) found.push(text);
    }
  }
  return found;
}

function snapshot(deal: DealBillingRow): QuoteSnapshot {
  const validity = Number(deal.properties.validite_devis__en_jours_) || 30;
  return {
    dealId: deal.id,
    dealName: deal.name,
    serviceDate: deal.serviceDate,
    city: typeof deal.properties.ville === "string" ? deal.properties.ville : null,
    guests: deal.guests,
    lines: deal.lines,
    projectManagement: deal.totals.projectManagement ?? 0,
    managementFee: deal.totals.managementFee ?? 0,
    fixedCommission: deal.totals.fixedCommission ?? 0,
    vatRate: deal.parameters.vat ?? 20,
    totalTTC: deal.totals.totalTTC ?? 0,
    depositPercentage: depositPercentage(deal.settings),
    hasDeposit: depositOffered(deal.settings),
    validityDays: validity,
    commissionRate: deal.parameters.commissionRate ?? 0,
  };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

interface InvoiceRow {
  id: string;
  series: string;
  kind: string;
  number: string;
  paymentId: string | null;
  refundId: string | null;
  totalHT: number;
  totalVAT: number;
  totalTTC: number;
  document: BillingDocument;
}

const INVOICE_COLUMNS = `id, series, kind, number, payment_id as "paymentId", refund_id as "refundId",
  total_ht as "totalHT", total_vat as "totalVAT", total_ttc as "totalTTC", document`;

async function insertInvoice(
  tx: Tx,
  row: {
    series: string;
    issuer: string;
    kind: string;
    dealId: number;
    paymentId: string | null;
    refundId: string | null;
    relatedId: string | null;
  },
  build: (number: string) => BillingDocument,
  year: number,
): Promise<InvoiceRow> {
  const [{ sequence }] = await tx<{ sequence: number }>`
    select public.next_invoice_number(${row.series}, ${row.issuer}, ${year}) as sequence`;
  const number = invoiceNumber(row.series, year, row.issuer, sequence);
  const doc = build(number);
  const [created] = await tx.query<InvoiceRow>(
    `insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, payment_id, refund_id,
       related_invoice_id, total_ht, total_vat, total_ttc, document)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)
     returning ${INVOICE_COLUMNS}`,
    [
      row.series,
      row.issuer,
      year,
      sequence,
      number,
      row.kind,
      row.dealId,
      row.paymentId,
      row.refundId,
      row.relatedId,
      doc.totalHT,
      doc.totalVAT,
      doc.totalTTC,
      JSON.stringify(doc),
    ],
  );
  return created;
}

const deduction = (invoice: InvoiceRow, label: string): Deduction => ({
  label,
  invoiceNumber: invoice.number,
  invoiceIssuedAt: invoice.document.issuedAt ?? null,
  totalHT: invoice.totalHT,
  totalVAT: invoice.totalVAT,
  totalTTC: invoice.totalTTC,
  settled: invoice.totalTTC + (invoice.document.rounding ?? 0),
});

/** Issues every invoice a deal's payments and refunds call for and that is not issued yet: the
 * customer's (FA), the partner's commission (CO), credit notes (AV). One transaction, the deal locked:
 * two issuers at once issue each document once. Returns how many were issued. */
export async function issueDealInvoices(
  deps: { db: Deps["db"]; config: Pick<Config, "platform"> },
  dealId: number,
): Promise<number> {
  return await transactionAs(deps.db, BILLING, async (tx) => {
    const [deal] = await tx.query<DealBillingRow>(
      `select ${DEAL_COLUMNS} from public.deals where id = $1 for update`,
      [dealId],
    );
    if (!deal) return 0;
    const payments = await tx<{ id: string; kind: string; amount: number; paidAt: Date }>`
      select id, kind, amount, paid_at as "paidAt" from public.deal_payments where deal_id = ${dealId}
      order by paid_at, created_at`;
    const invoices = await tx.query<InvoiceRow>(
      `select ${INVOICE_COLUMNS} from public.invoices where deal_id = $1 order by issued_at`,
      [dealId],
    );
    const refunds = await tx<{ id: string; paymentId: string; amount: number; reason: string }>`
      select r.id, r.payment_id as "paymentId", r.amount, r.reason from public.refunds r
      join public.deal_payments p on p.id = r.payment_id
      where p.deal_id = ${dealId} and r.status = 'succeeded' order by r.succeeded_at`;
    const seller = (await userParty(tx, deal.companyId, true)) ?? platformParty(deps.config);
    const issuer = deal.companyId ?? "platform";
    const platform = platformParty(deps.config);
    const buyer = await customerParty(tx, deal);
    const quote = snapshot(deal);
    const invoiceNotes = await notes(tx, "invoice");
    const year = new Date().getUTCFullYear();
    const issuedAt = isoDay(new Date());
    const issuedBy = deal.companyId ? platform : null;
    let issued = 0;
    const find = (series: string, kind: string) =>
      invoices.find((i) => i.series === series && i.kind === kind);

    for (const payment of payments) {
      if (invoices.some((i) => i.series === "FA" && i.paymentId === payment.id)) continue;
      const stage = payment.kind === "deposit" ? "deposit" : payment.kind === "balance" ? "final" : "full";
      const paidAt = isoDay(payment.paidAt);
      const depositInvoice = find("FA", "deposit");
      const customer = await insertInvoice(
        tx,
        {
          series: "FA",
          issuer,
          kind: stage,
          dealId,
          paymentId: payment.id,
          refundId: null,
          relatedId: stage === "final" ? depositInvoice?.id ?? null : null,
        },
        (number) =>
          stage === "deposit"
            ? depositDocument({
              number,
              issuedAt,
              seller,
              buyer,
              issuedBy,
              quote,
              notes: invoiceNotes,
              amountTTC: payment.amount,
              paidAt,
              proforma: false,
            })
            : balanceDocument({
              number,
              issuedAt,
              seller,
              buyer,
              issuedBy,
              quote,
              notes: invoiceNotes,
              deposit: stage === "final" && depositInvoice
                ? deduction(depositInvoice, "Acompte versé")
                : null,
              amountPaid: payment.amount,
              paidAt,
              proforma: false,
            }),
        year,
      );
      invoices.push(customer);
      issued++;
      // The platform's commission, at the same stage.
      const depositCommission = find("CO", "deposit");
      const share = quote.totalTTC > 0 ? Math.min(1, payment.amount / quote.totalTTC) : 0;
      const commission = await insertInvoice(
        tx,
        {
          series: "CO",
          issuer: "platform",
          kind: stage,
          dealId,
          paymentId: payment.id,
          refundId: null,
          relatedId: stage === "final" ? depositCommission?.id ?? null : null,
        },
        (number) =>
          commissionDocument({
            number,
            issuedAt,
            seller: platform,
            buyer: seller,
            quote,
            stage,
            share,
            deposit: stage === "final" && depositCommission
              ? deduction(depositCommission, "Commission déjà facturée sur l'acompte")
              : null,
            proforma: false,
          }),
        year,
      );
      invoices.push(commission);
      issued++;
    }

    for (const refund of refunds) {
      if (invoices.some((i) => i.series === "AV" && i.refundId === refund.id)) continue;
      const related = invoices.find((i) => i.series === "FA" && i.paymentId === refund.paymentId);
      if (!related) continue; // its invoice is issued first, in this same loop's next run
      const note = await insertInvoice(
        tx,
        {
          series: "AV",
          issuer,
          kind: "credit_note",
          dealId,
          paymentId: refund.paymentId,
          refundId: refund.id,
          relatedId: related.id,
        },
        (number) =>
          creditNoteDocument({
            number,
            issuedAt,
            seller,
            buyer,
            issuedBy,
            quote,
            amountTTC: refund.amount,
            related: related.number,
            relatedIssuedAt: related.document.issuedAt ?? null,
            reason: refund.reason,
          }),
        year,
      );
      invoices.push(note);
      issued++;
      issued += await issueCommissionCreditNote(tx, {
        dealId,
        refund,
        note,
        payments,
        refunds,
        invoices,
        platform,
        partner: seller,
        quote,
        issuedAt,
        year,
      });
    }
    return issued;
  });
}

/** The platform's commission credit note (CA) that goes with the customer's credit note `note` of
 * `refund`, in the issuing transaction: the commission invoiced on the refunded payment, credited in
 * proportion to what was refunded of it (document.ts commissionCredit). Returns how many were issued
 * (0 when the proportion rounds to nothing). */
async function issueCommissionCreditNote(
  tx: Tx,
  c: {
    dealId: number;
    refund: { id: string; paymentId: string };
    note: InvoiceRow;
    payments: { id: string; amount: number }[];
    refunds: { id: string; paymentId: string; amount: number }[];
    invoices: InvoiceRow[];
    platform: Party;
    partner: Party;
    quote: QuoteSnapshot;
    issuedAt: string;
    year: number;
  },
): Promise<number> {
  const { refund, invoices } = c;
  const commission = invoices.find((i) => i.series === "CO" && i.paymentId === refund.paymentId);
  const payment = c.payments.find((p) => p.id === refund.paymentId);
  if (!commission || !payment) return 0;
  const own = c.refunds.filter((r) => r.paymentId === refund.paymentId);
  const refundedSoFar = own.slice(0, own.findIndex((r) => r.id === refund.id) + 1)
    .reduce((sum, r) => sum + Number(r.amount), 0);
  const alreadyCredited = invoices.filter((i) => i.series === "CA" && i.paymentId === refund.paymentId)
    .reduce((sum, i) => sum + Number(i.totalTTC) + (i.document.rounding ?? 0), 0);
  const credit = commissionCredit(
    Number(commission.document.amountDue),
    Number(payment.amount),
    refundedSoFar,
    alreadyCredited,
  );
  if (credit <= 0) return 0;
  invoices.push(
    await insertInvoice(
      tx,
      {
        series: "CA",
        issuer: "platform",
        kind: "credit_note",
        dealId: c.dealId,
        paymentId: refund.paymentId,
        refundId: refund.id,
        relatedId: commission.id,
      },
      (number) =>
        commissionCreditNoteDocument({
          number,
          issuedAt: c.issuedAt,
          seller: c.platform,
          buyer: c.partner,
          quote: c.quote,
          amountTTC: credit,
          related: commission.number,
          relatedIssuedAt: commission.document.issuedAt ?? null,
          customerCreditNote: c.note.number,
        }),
      c.year,
    ),
  );
  return 1;
}

/** The worker queue: deals with a payment or a refund whose document is not issued yet. */
export const billingQueue: Queue = {
  name: "billing",
  async drain(deps) {
    const due = await transactionAs(deps.db, BILLING, (tx) =>
      tx<{ dealId: number }>`
        select distinct p.deal_id as "dealId" from public.deal_payments p
        where not exists (select from public.invoices i where i.payment_id = p.id and i.series = 'FA')
        union
        select distinct p.deal_id from public.refunds r join public.deal_payments p on p.id = r.payment_id
        where r.status = 'succeeded' and not exists (select from public.invoices i where i.refund_id = r.id)
        limit 20`);
    let issued = 0;
    for (const { dealId } of due) issued += await issueDealInvoices(deps, dealId);
    return issued;
  },
};

// ---------------------------------------------------------------------------------------------------
// Documents for download.

export type Stage = "deposit" | "final" | "full";
export type DownloadRequest =
  | { what: "quote" }
  | { what: "invoice"; stage: Stage }
  | { what: "proforma"; stage: Stage }
  | { what: "commission_invoice"; stage: Stage }
  | { what: "commission_proforma"; stage: Stage };

export interface Download {
  document: BillingDocument;
  fileName: string;
  /** An issued invoice or credit note (rendered as Factur-X). */
  issued: boolean;
}

/** Who may read a deal's documents: the deal as the actor sees it (RLS) — its customer, its partner
 * or an admin; commission documents not its customer. */
async function visibleDeal(
  tx: Tx,
  actor: Actor,
  token: string,
  commission: boolean,
): Promise<DealBillingRow> {
  if (actor.kind !== "user") {
    throw new AppError("unauthenticated", "Veuillez-vous connecter pour télécharger ou accepter votre devis");
  }
  if (commission && actor.user.type === "Customer") throw new AppError("forbidden");
  if (!/^[a-f0-9]{32,128}$/.test(token)) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  const [deal] = await tx.query<DealBillingRow>(`select ${DEAL_COLUMNS} from public.deals where token = $1`, [
    token,
  ]);
  if (!deal) throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  return deal;
}

/** "facture-d-acompte-FA-2026-1B4F05-00001.pdf", "devis-42.pdf" (quotes and proformas have no number:
 * the deal's). */
const fileName = (doc: BillingDocument) => {
  const title = doc.title.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${title}-${doc.number ?? doc.reference.dealId}.pdf`;
};

export async function dealDocument(
  deps: Deps,
  actor: Actor,
  token: string,
  request: DownloadRequest,
): Promise<Download> {
  const commission = request.what.startsWith("commission");
  // One transaction at a time (never nested: the embedded database has one connection).
  const deal = await transactionAs(deps.db, actor, (tx) => visibleDeal(tx, actor, token, commission));
  if (request.what === "invoice" || request.what === "commission_invoice") {
    // An invoice a payment calls for is issued first if the billing job has not got to it yet.
    await issueDealInvoices(deps, deal.id);
    const stage = request.stage;
    const series = request.what === "invoice" ? "FA" : "CO";
    const [row] = await transactionAs(deps.db, actor, (tx) =>
      tx.query<{ document: BillingDocument }>(
        `select document from public.invoices where deal_id = $1 and series = $2 and kind = $3 order by issued_at desc limit 1`,
        [deal.id, series, stage],
      ));
    if (!row) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    return { document: row.document, fileName: fileName(row.document), issued: true };
  }
  // Quotes and proformas are built from the deal as it is now, as the system: the seller's and the
  // buyer's identities are not all readable by every party.
  const built = await transactionAs(
    deps.db,
    BILLING,
    (sys) => buildUnissued(sys, deps.config, deal, request),
  );
  return { document: built, fileName: fileName(built), issued: false };
}

async function buildUnissued(
  sys: Tx,
  config: Pick<Config, "platform">,
  deal: DealBillingRow,
  request: DownloadRequest,
): Promise<BillingDocument> {
  const seller = (await userParty(sys, deal.companyId, true)) ?? platformParty(config);
  const platform = platformParty(config);
  const buyer = await customerParty(sys, deal);
  const quote = snapshot(deal);
  const issuedAt = isoDay(new Date());
  const issuedBy = deal.companyId ? platform : null;
  if (request.what === "quote") {
    return quoteDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: await notes(sys, "quote"),
    });
  }
  if (request.what === "invoice" || request.what === "commission_invoice") {
    throw new Error("issued documents are read, not built");
  }
  const invoiceNotes = await notes(sys, "invoice");
  const depositTTC = depositAmountOf({ settings: deal.settings, totalTTC: quote.totalTTC });
  const [depositInvoice] = await sys.query<InvoiceRow>(
    `select ${INVOICE_COLUMNS} from public.invoices where deal_id = $1 and series = $2 and kind = 'deposit' limit 1`,
    [deal.id, request.what === "proforma" ? "FA" : "CO"],
  );
  if (request.what === "proforma") {
    const depositDoc = depositDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: invoiceNotes,
      amountTTC: depositTTC,
      paidAt: null,
      proforma: true,
    });
    if (request.stage === "deposit") return depositDoc;
    const deposit: Deduction | null = request.stage !== "final"
      ? null
      : depositInvoice
      ? deduction(depositInvoice, "Acompte versé")
      : {
        label: "Acompte à verser",
        invoiceNumber: "—",
        totalHT: depositDoc.totalHT,
        totalVAT: depositDoc.totalVAT,
        totalTTC: depositDoc.totalTTC,
        settled: depositDoc.totalTTC + depositDoc.rounding,
      };
    return balanceDocument({
      number: null,
      issuedAt,
      seller,
      buyer,
      issuedBy,
      quote,
      notes: invoiceNotes,
      deposit,
      amountPaid: 0,
      paidAt: null,
      proforma: true,
    });
  }
  return commissionDocument({
    number: null,
    issuedAt,
    seller: platform,
    buyer: seller,
    quote,
    stage: request.stage,
    share: quote.totalTTC > 0 ? depositTTC / quote.totalTTC : 0,
    deposit: request.stage === "final" && depositInvoice
      ? deduction(depositInvoice, "Commission déjà facturée sur l'acompte")
      : null,
    proforma: true,
  });
}

/** An invoice or credit note by its id (GET /quote/invoice/{id} and the payments list): RLS decides. */
export async function invoiceById(deps: Deps, actor: Actor, id: string): Promise<Download> {
  if (actor.kind !== "user") throw new AppError("unauthenticated");
  return await transactionAs(deps.db, actor, async (tx) => {
    const [row] = await tx.query<{ document: BillingDocument }>(
      `select document from public.invoices where id = $1 or payment_id = $1
       order by (id = $1) desc, (series = 'FA') desc, issued_at limit 1`,
      [id],
    );
    if (!row) throw new AppError("not_found", DOCUMENT_NOT_AVAILABLE);
    return { document: row.document, fileName: fileName(row.document), issued: true };
  });
}
