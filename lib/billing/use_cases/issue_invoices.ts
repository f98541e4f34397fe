// Issuing the documents a deal's payments and refunds call for: the customer's invoice (FA, in the
// partner's name, deducting the deposit invoice by number), the platform's commission invoice to the
// partner (CO), and a credit note (AV) for each succeeded refund, with the platform's commission
// credit note to the partner (CA) when the refund gives back commission. Numbers come from
// next_invoice_number() in the issuing transaction (gap-free); an issued invoice is never changed.
import { systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import {
  balanceDocument,
  type BillingDocument,
  commissionCredit,
  commissionCreditNoteDocument,
  commissionDocument,
  creditNoteDocument,
  depositDocument,
  invoiceNumber,
  type Party,
  type QuoteSnapshot,
} from "../document.ts";
import {
  dealInvoices,
  dealPayments,
  insertInvoice,
  type InvoiceRow,
  lockBillingDeal,
  nextInvoiceSequence,
  succeededRefunds,
} from "../store.ts";
import {
  customerParty,
  deduction,
  isoDay,
  notes,
  platformParty,
  snapshot,
  userParty,
} from "./document_inputs.ts";

const BILLING = systemActor("payments");

/** Numbers the document and stores it: the number is taken in this transaction. */
async function issue(
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
  const sequence = await nextInvoiceSequence(tx, row.series, row.issuer, year);
  const number = invoiceNumber(row.series, year, row.issuer, sequence);
  return await insertInvoice(tx, { ...row, year, sequence, number, document: build(number) });
}

/** Issues every invoice a deal's payments and refunds call for and that is not issued yet: the
 * customer's (FA), the partner's commission (CO), credit notes (AV) and commission credit notes (CA).
 * One transaction, the deal locked:
 * two issuers at once issue each document once. Returns how many were issued. */
export async function issueDealInvoices(
  deps: { db: Deps["db"]; config: Pick<Config, "platform"> },
  dealId: number,
): Promise<number> {
  return await transactionAs(deps.db, BILLING, async (tx) => {
    const deal = await lockBillingDeal(tx, dealId);
    if (!deal) return 0;
    const payments = await dealPayments(tx, dealId);
    const invoices = await dealInvoices(tx, dealId);
    const refunds = await succeededRefunds(tx, dealId);
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
    // The payments the deal counts (an overpayment's advance invoice is never deducted).
    const counted = new Set(payments.filter((p) => !p.overpayment).map((p) => p.id));

    for (const payment of payments) {
      if (invoices.some((i) => i.series === "FA" && i.paymentId === payment.id)) continue;
      // An overpayment (not owed, refunded automatically) is invoiced as an advance received, never as
      // a final or full invoice (it settles nothing), and earns no commission.
      const stage = payment.overpayment
        ? "deposit"
        : payment.kind === "deposit"
        ? "deposit"
        : payment.kind === "balance"
        ? "final"
        : "full";
      const paidAt = isoDay(payment.paidAt);
      const depositInvoice = invoices.find((i) =>
        i.series === "FA" && i.kind === "deposit" && counted.has(i.paymentId ?? "")
      );
      const customer = await issue(
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
              overpayment: payment.overpayment,
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
      if (payment.overpayment) continue;
      // The platform's commission, at the same stage.
      const depositCommission = invoices.find((i) =>
        i.series === "CO" && i.kind === "deposit" && counted.has(i.paymentId ?? "")
      );
      const share = quote.totalTTC > 0 ? Math.min(1, payment.amount / quote.totalTTC) : 0;
      const commission = await issue(
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
      const note = await issue(
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
    await issue(
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
