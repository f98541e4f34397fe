// SQL of billing, taking the use case's transaction: the deal and the parties a document names, the
// payments and refunds that call for documents, and the invoices (numbered gap-free by
// next_invoice_number() in the issuing transaction; an issued invoice is never changed).
import type { Tx } from "../db/database.ts";
import type { BillingDocument } from "./document.ts";

export interface DealBillingRow {
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
  adminSettings: { showProformaInvoice?: boolean };
  depositPaidAt: Date | null;
  paidAt: Date | null;
}

const DEAL_COLUMNS = `id, token, name, status, lines, settings, parameters, properties, totals,
  service_date as "serviceDate", guests, company_id as "companyId", customer_id as "customerId",
  created_at as "createdAt", admin_settings as "adminSettings", deposit_paid_at as "depositPaidAt",
  paid_at as "paidAt"`;

/** The deal, locked: two issuers at once issue each document once. */
export async function lockBillingDeal(tx: Tx, dealId: number): Promise<DealBillingRow | null> {
  const [deal] = await tx.query<DealBillingRow>(
    `select ${DEAL_COLUMNS} from public.deals where id = $1 for update`,
    [dealId],
  );
  return deal ?? null;
}

/** The deal of a token as the caller may read it (RLS). */
/** The deal `id` as the caller may read it (RLS), or null. */
export async function billingDealById(tx: Tx, id: number): Promise<DealBillingRow | null> {
  const [deal] = await tx.query<DealBillingRow>(`select ${DEAL_COLUMNS} from public.deals where id = $1`, [
    id,
  ]);
  return deal ?? null;
}

export async function billingDealByToken(tx: Tx, token: string): Promise<DealBillingRow | null> {
  const [deal] = await tx.query<DealBillingRow>(`select ${DEAL_COLUMNS} from public.deals where token = $1`, [
    token,
  ]);
  return deal ?? null;
}

export interface UserRow {
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

/** What a document prints of an account (seller or buyer). */
export async function findUserRow(tx: Tx, id: string): Promise<UserRow | null> {
  const [u] = await tx<UserRow>`
    select name, firstname, lastname, siren, vat_number as "vatNumber", vat_exemption as "vatExemption",
      address1, address2, zipcode, city, email
    from public.users where id = ${id}`;
  return u ?? null;
}

/** The request's contact: the buyer of a deal that has no customer account. */
export async function findContactRow(
  tx: Tx,
  dealId: number,
): Promise<{ firstname: string; lastname: string; email: string; serviceAddress: string } | null> {
  const [c] = await tx<{ firstname: string; lastname: string; email: string; serviceAddress: string }>`
    select firstname, lastname, email, service_address as "serviceAddress" from public.deal_contacts where deal_id = ${dealId}`;
  return c ?? null;
}

/** A global setting's text value ("" when not a text). */
export async function settingText(tx: Tx, key: string): Promise<string> {
  const [row] = await tx<{ value: unknown }>`select value from public.settings where key = ${key}`;
  return typeof row?.value === "string" ? row.value : "";
}

export async function dealPayments(
  tx: Tx,
  dealId: number,
): Promise<{ id: string; kind: string; amount: number; paidAt: Date; overpayment: boolean }[]> {
  return await tx<{ id: string; kind: string; amount: number; paidAt: Date; overpayment: boolean }>`
    select id, kind, amount, paid_at as "paidAt", overpayment from public.deal_payments where deal_id = ${dealId}
    order by paid_at, created_at`;
}

/** The deal's succeeded refunds, in the order they succeeded. */
export async function succeededRefunds(
  tx: Tx,
  dealId: number,
): Promise<{ id: string; paymentId: string; amount: number; reason: string }[]> {
  return await tx<{ id: string; paymentId: string; amount: number; reason: string }>`
    select r.id, r.payment_id as "paymentId", r.amount, r.reason from public.refunds r
    join public.deal_payments p on p.id = r.payment_id
    where p.deal_id = ${dealId} and r.status = 'succeeded' order by r.succeeded_at`;
}

// ---------------------------------------------------------------------------------------------------
// Invoices.

export interface InvoiceRow {
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

export async function dealInvoices(tx: Tx, dealId: number): Promise<InvoiceRow[]> {
  return await tx.query<InvoiceRow>(
    `select ${INVOICE_COLUMNS} from public.invoices where deal_id = $1 order by issued_at`,
    [dealId],
  );
}

/** The deal's deposit invoice of a series (FA: the customer's, CO: the commission), if issued. */
export async function depositInvoice(tx: Tx, dealId: number, series: string): Promise<InvoiceRow | null> {
  const [invoice] = await tx.query<InvoiceRow>(
    `select ${INVOICE_COLUMNS} from public.invoices where deal_id = $1 and series = $2 and kind = 'deposit' limit 1`,
    [dealId, series],
  );
  return invoice ?? null;
}

/** The next number of a series for an issuer and a year (gap-free: a rolled-back issue gives it back). */
export async function nextInvoiceSequence(
  tx: Tx,
  series: string,
  issuer: string,
  year: number,
): Promise<number> {
  const [{ sequence }] = await tx<{ sequence: number }>`
    select public.next_invoice_number(${series}, ${issuer}, ${year}) as sequence`;
  return sequence;
}

export interface NewInvoice {
  series: string;
  issuer: string;
  year: number;
  sequence: number;
  number: string;
  kind: string;
  dealId: number;
  paymentId: string | null;
  refundId: string | null;
  relatedId: string | null;
  document: BillingDocument;
}

export async function insertInvoice(tx: Tx, invoice: NewInvoice): Promise<InvoiceRow> {
  const doc = invoice.document;
  const [created] = await tx.query<InvoiceRow>(
    `insert into public.invoices (series, issuer, year, sequence, number, kind, deal_id, payment_id, refund_id,
       related_invoice_id, total_ht, total_vat, total_ttc, document)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)
     returning ${INVOICE_COLUMNS}`,
    [
      invoice.series,
      invoice.issuer,
      invoice.year,
      invoice.sequence,
      invoice.number,
      invoice.kind,
      invoice.dealId,
      invoice.paymentId,
      invoice.refundId,
      invoice.relatedId,
      doc.totalHT,
      doc.totalVAT,
      doc.totalTTC,
      JSON.stringify(doc),
    ],
  );
  return created;
}

/** The latest issued document of a deal's series and kind, as the caller may read it (RLS). */
export async function latestIssuedDocument(
  tx: Tx,
  dealId: number,
  series: string,
  kind: string,
): Promise<BillingDocument | null> {
  const [row] = await tx.query<{ document: BillingDocument }>(
    `select document from public.invoices where deal_id = $1 and series = $2 and kind = $3 order by issued_at desc limit 1`,
    [dealId, series, kind],
  );
  return row?.document ?? null;
}

/** An invoice or credit note by its id, or the customer invoice of a payment by the payment's id, as
 * the caller may read it (RLS). */
export async function issuedDocumentById(tx: Tx, id: string): Promise<BillingDocument | null> {
  const [row] = await tx.query<{ document: BillingDocument }>(
    `select document from public.invoices where id = $1 or payment_id = $1
     order by (id = $1) desc, (series = 'FA') desc, issued_at limit 1`,
    [id],
  );
  return row?.document ?? null;
}

/** The deal of a payment, as the caller may read it (RLS). */
export async function paymentDealId(tx: Tx, paymentId: string): Promise<number | null> {
  const [payment] = await tx.query<{ dealId: number }>(
    `select deal_id as "dealId" from public.deal_payments where id = $1`,
    [paymentId],
  );
  return payment ? Number(payment.dealId) : null;
}
