// The pure builder of billing documents (document.ts): deposit, final, credit note, commission and
// quote amounts add up; VAT is rounded once per rate; mentions follow the buyer and the seller; invoice
// numbers have their format.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import {
  balanceDocument,
  commissionCredit,
  commissionDocument,
  invoiceNumber,
  MENTIONS,
  quoteDocument,
  splitTTC,
  TITLES,
  vatBreakdown,
} from "./document.ts";
import {
  commissionCreditNoteDoc,
  commissionDoc,
  creditNoteDoc,
  depositDoc,
  EXEMPT_SELLER,
  finalDoc,
  fullDoc,
  ISSUED_AT,
  PAID_AT,
  PLATFORM,
  PRIVATE_BUYER,
  PRO_BUYER,
  quote,
  quoteDoc,
  SELLER,
} from "./fixtures_test.ts";

Deno.test("a deposit invoice's HT, VAT and rounding add up to the amount paid, whatever the amount and the rate", () => {
  const deposit = depositDoc();
  assertEquals(deposit.kind, "deposit");
  assertEquals(deposit.title, TITLES.deposit);
  assertEquals(deposit.totalHT + deposit.totalVAT + deposit.rounding, deposit.amountPaid);
  assertEquals(deposit.totalTTC, deposit.totalHT + deposit.totalVAT);
  assertEquals(deposit.amountDue, 0);
  assertEquals(deposit.paidAt, PAID_AT);
  assertEquals(deposit.lines.length, 1);
  assertEquals(deposit.lines[0].totalHT, deposit.totalHT);
  assertEquals(deposit.vat, [{ rate: 20, base: deposit.totalHT, amount: deposit.totalVAT }]);
  assertEquals(deposit.deductions, []);
  // Every amount from 0,01 € to 100,00 € at the French rates: the VAT is the HT's VAT rounded (what a
  // reader recomputes), and a rounding of at most one cent is needed only where no HT reaches the TTC.
  let rounded = 0;
  for (const rate of [20, 10, 5.5, 2.1, 0]) {
    for (let ttc = 1; ttc <= 10_000; ttc++) {
      const { ht, vat, rounding } = splitTTC(ttc, rate);
      const ok = ht + vat + rounding === ttc && ht >= 0 && vat === Math.round((ht * rate) / 100) &&
        Math.abs(rounding) <= 1;
      if (!ok) throw new Error(`${ttc} at ${rate} %: ${ht} + ${vat} + ${rounding}`);
      if (rounding) rounded++;
    }
  }
  assert(rounded > 0 && rounded < 10_000, `${rounded} amounts need a rounding`);
  assertEquals(splitTTC(1_201, 20), { ht: 1_001, vat: 200, rounding: 0 });
  assertEquals(splitTTC(600, 20), { ht: 500, vat: 100, rounding: 0 });
  const q = quote({ totalTTC: 100_075 });
  const odd = depositDoc(q);
  assertEquals(odd.totalHT + odd.totalVAT + odd.rounding, Math.round(100_075 * 0.3));
});

Deno.test("a final invoice deducts the deposit invoice's base and VAT: the service's VAT stated once", () => {
  const deposit = depositDoc();
  const final = finalDoc();
  const service = vatBreakdown(final.lines.slice(0, -1));
  assertEquals(final.kind, "final");
  assertEquals(final.title, "Facture de solde");
  assertEquals(final.deductions.length, 1);
  assertEquals(final.deductions[0].invoiceNumber, deposit.number);
  assertEquals(final.deductions[0].inLines, true);
  // The deposit invoice as a line: its base HT at the same rate, quantity −1, named by number and date.
  const line = final.lines.at(-1)!;
  assertEquals([line.qty, line.unitPriceHT, line.totalHT, line.vatRate], [
    -1,
    deposit.totalHT,
    -deposit.totalHT,
    20,
  ]);
  assertEquals(line.label, `Acompte versé — facture n° ${deposit.number} du 02/03/2026`);
  // Its VAT is the service's less the deposit invoice's: across the two, stated once, to the cent.
  assertEquals(final.totalVAT + deposit.totalVAT, service[0].amount, "the service's VAT once");
  assertEquals(final.totalHT + deposit.totalHT, service[0].base, "the service's base once");
  assertEquals(final.vat, [{ rate: 20, base: service[0].base - deposit.totalHT, amount: final.totalVAT }]);
  assert(Math.abs(final.totalVAT - Math.round(final.vat[0].base * 0.2)) <= 1, "within BR-CO-17");
  // What it states paid is the balance: the quote's total less the deposit paid.
  assertEquals(final.totalTTC + final.rounding, quote().totalTTC - deposit.amountPaid, "the balance paid");
  assertEquals(final.amountPaid, final.totalTTC + final.rounding);
  assertEquals(final.amountDue, 0);
  assertEquals(final.totalHT + final.totalVAT, final.totalTTC);
  assertEquals(final.totalHT, final.lines.reduce((s, l) => s + l.totalHT, 0));
  assertEquals(final.lines.at(-2)?.label, "Gestion de projet");
  // Its proforma asks for the balance.
  const proforma = balanceDocument({
    number: "ignored",
    issuedAt: ISSUED_AT,
    seller: SELLER,
    buyer: PRO_BUYER,
    issuedBy: PLATFORM,
    quote: quote(),
    deposit: final.deductions[0],
    amountPaid: 0,
    paidAt: null,
    proforma: true,
  });
  assertEquals(proforma.kind, "proforma_final");
  assertEquals(proforma.number, null, "a proforma has no number");
  assertEquals(proforma.amountDue, quote().totalTTC - deposit.totalTTC - deposit.rounding);
  // Without a deposit: the full invoice.
  const full = balanceDocument({
    number: "FA-2026-1B4F05-00003",
    issuedAt: ISSUED_AT,
    seller: SELLER,
    buyer: PRO_BUYER,
    issuedBy: PLATFORM,
    quote: quote(),
    deposit: null,
    amountPaid: quote().totalTTC,
    paidAt: PAID_AT,
    proforma: false,
  });
  assertEquals([full.kind, full.title, full.deductions.length], ["full", "Facture", 0]);
});

Deno.test("VAT is rounded once per rate, rates in decreasing order", () => {
  // Three lines of 1,03 € at 5,5 %: 0,06 € each line by line (0,18 €), 0,17 € once on 3,09 €.
  const lines = [
    { vatRate: 5.5, totalHT: 103 },
    { vatRate: 20, totalHT: 1 },
    { vatRate: 5.5, totalHT: 103 },
    { vatRate: 5.5, totalHT: 103 },
    { vatRate: 20, totalHT: 2 },
  ];
  assertEquals(vatBreakdown(lines), [
    { rate: 20, base: 3, amount: 1 },
    { rate: 5.5, base: 309, amount: 17 },
  ]);
  // Half a cent rounds up.
  assertEquals(vatBreakdown([{ vatRate: 10, totalHT: 5 }]), [{ rate: 10, base: 5, amount: 1 }]);
  assertEquals(vatBreakdown([{ vatRate: 20, totalHT: 2 }]), [{ rate: 20, base: 2, amount: 0 }]);
  // A document's VAT is the sum of its breakdown, its TTC the HT plus the VAT.
  const doc = fullDoc();
  assertEquals(doc.totalVAT, doc.vat.reduce((s, v) => s + v.amount, 0));
  assertEquals(doc.vat, [{ rate: 20, base: 360_255, amount: 72_051 }]);
});

Deno.test("mentions: mandate, late-payment penalty and €40 fee for professional buyers, art. 293 B for an exempt seller", () => {
  const pro = finalDoc();
  assertEquals(pro.mentions, [
    MENTIONS.mandate(PLATFORM.name, SELLER.name),
    MENTIONS.operationCategory,
    MENTIONS.latePenalty,
    MENTIONS.recoveryFee,
    MENTIONS.noDiscount,
  ]);
  assert(MENTIONS.recoveryFee.includes("40 €"));
  const individual = finalDoc(quote(), SELLER, PRIVATE_BUYER);
  assertEquals(individual.mentions, [
    MENTIONS.mandate(PLATFORM.name, SELLER.name),
    MENTIONS.operationCategory,
    MENTIONS.noDiscount,
  ]);
  const exempt = finalDoc(quote({ vatRate: 0 }), EXEMPT_SELLER, PRIVATE_BUYER);
  assert(exempt.mentions.includes("TVA non applicable, art. 293 B du CGI"));
  assertEquals(exempt.totalVAT, 0);
  assertEquals(exempt.totalTTC, exempt.totalHT);
  // The platform's own commission invoice to the partner: no mandate, the partner is a professional.
  const commission = commissionDoc();
  assertEquals(commission.issuedBy, null);
  assertEquals(commission.mentions, [
    MENTIONS.operationCategory,
    MENTIONS.latePenalty,
    MENTIONS.recoveryFee,
    MENTIONS.noDiscount,
  ]);
  // The quote carries the same mentions and its free notes.
  const q = quoteDoc(PRIVATE_BUYER);
  assertEquals(q.mentions, [
    MENTIONS.mandate(PLATFORM.name, SELLER.name),
    MENTIONS.operationCategory,
    MENTIONS.noDiscount,
  ]);
  assertEquals(q.notes.length, 1);
});

Deno.test("a quote asks for its total; its terms state the deposit and the validity", () => {
  const q = quoteDoc();
  assertEquals([q.kind, q.title, q.number], ["quote", "Devis", null]);
  assertEquals(q.amountDue, q.totalTTC);
  assertEquals(q.amountPaid, 0);
  assertEquals(
    q.paymentTerms,
    "Acompte de 30 % à la commande, solde avant la prestation. Devis valable 30 jours.",
  );
  const noDeposit = quoteDocument({
    number: null,
    issuedAt: ISSUED_AT,
    seller: SELLER,
    buyer: PRO_BUYER,
    issuedBy: PLATFORM,
    quote: quote({ hasDeposit: false, validityDays: 15 }),
  });
  assertEquals(noDeposit.paymentTerms, "Règlement à la commande. Devis valable 15 jours.");
});

Deno.test("a credit note refunds an amount on its invoice, split at its rate", () => {
  const note = creditNoteDoc();
  assertEquals([note.kind, note.title, note.relatedNumber], ["credit_note", "Avoir", "FA-2026-1B4F05-00001"]);
  // 123,45 € at 20 %: 102,88 € HT carries 20,58 € of VAT; the cent short is the rounding.
  assertEquals([note.totalHT, note.totalVAT, note.rounding], [10_288, 2_058, -1]);
  assertEquals(note.totalTTC, note.totalHT + note.totalVAT);
  assertEquals(note.totalTTC + note.rounding, 12_345);
  assertEquals(
    note.lines[0].label,
    "Remboursement sur la facture n° FA-2026-1B4F05-00001 — Geste commercial",
  );
  assertEquals(note.amountDue, 0);
});

Deno.test("a commission credit note credits the partner an amount TTC at the platform's rate, on its commission invoice", () => {
  const note = commissionCreditNoteDoc();
  assertEquals(
    [note.kind, note.title, note.relatedNumber, note.relatedIssuedAt, note.issuedBy],
    ["commission_credit_note", "Avoir de commission", "CO-2026-CC-00007", ISSUED_AT, null],
  );
  assertEquals([note.seller.name, note.buyer.name], [PLATFORM.name, SELLER.name]);
  assertEquals(note.totalTTC + note.rounding, 1_234);
  assertEquals(note.vat, [{ rate: 20, base: note.totalHT, amount: note.totalVAT }]);
  // Nothing is paid out: the amount is credited against what the partner owes.
  assertEquals(note.amountDue, 1_234);
  assert(note.lines[0].label.includes("AV-2026-1B4F05-00001"), note.lines[0].label);
});

Deno.test("the commission to credit follows the refunds, rounded on their running total", () => {
  // A 3 000,00 € payment whose commission invoice asked 141,52 €: a full refund credits all of it.
  assertEquals(commissionCredit(14_152, 300_000, 300_000, 0), 14_152);
  // Three refunds of a third each: 47,17 + 47,18 + 47,17, never a cent more than the whole.
  const thirds = [100_000, 200_000, 300_000].reduce<number[]>((credits, refunded) => [
    ...credits,
    commissionCredit(14_152, 300_000, refunded, credits.reduce((a, b) => a + b, 0)),
  ], []);
  assertEquals(thirds, [4_717, 4_718, 4_717]);
  assertEquals(thirds.reduce((a, b) => a + b, 0), 14_152);
  // A tiny refund rounds to nothing; more than the payment credits the whole at most.
  assertEquals(commissionCredit(14_152, 300_000, 1, 0), 0);
  assertEquals(commissionCredit(14_152, 300_000, 400_000, 0), 14_152);
  assertEquals(commissionCredit(14_152, 0, 100, 0), 0);
});

Deno.test("commission: the deposit stage carries the deposit's share, the final one deducts it", () => {
  const deposit = commissionDoc("deposit");
  assertEquals(deposit.kind, "commission_deposit");
  assertEquals(deposit.lines.map((l) => l.totalHT), [Math.round(34_310 * 0.3), Math.round(5_000 * 0.3)]);
  assert(deposit.lines.every((l) => l.vatRate === 20 && l.label.endsWith("— part de l'acompte")));
  const final = commissionDocument({
    number: "CO-2026-CC-00008",
    issuedAt: ISSUED_AT,
    seller: PLATFORM,
    buyer: SELLER,
    quote: quote(),
    stage: "final",
    share: 0.3,
    deposit: {
      label: "Commission déjà facturée sur l'acompte",
      invoiceNumber: deposit.number!,
      totalHT: deposit.totalHT,
      totalVAT: deposit.totalVAT,
      totalTTC: deposit.totalTTC,
      settled: deposit.totalTTC + deposit.rounding,
    },
    proforma: false,
  });
  // The deposit commission invoice deducted in the lines: base and VAT, the commission's VAT once.
  assertEquals(final.totalHT, 34_310 + 5_000 - deposit.totalHT);
  assertEquals(final.totalVAT + deposit.totalVAT, Math.round((34_310 + 5_000) * 0.2));
  assertEquals(final.lines.at(-1)!.totalHT, -deposit.totalHT);
  assertEquals(final.amountDue, final.totalTTC + final.rounding);
  assertEquals(final.seller.name, PLATFORM.name);
  assertEquals(final.buyer.name, SELLER.name);
});

Deno.test("invoice numbers: series, year, the issuer's six-character code, five-digit sequence", () => {
  assertEquals(invoiceNumber("FA", 2026, "1b4f05a2-0c3d-4e5f-8a9b-0123456789ab", 1), "FA-2026-1B4F05-00001");
  assertEquals(invoiceNumber("AV", 2027, "1b4f05a2-0c3d-4e5f-8a9b-0123456789ab", 12), "AV-2027-1B4F05-00012");
  assertEquals(invoiceNumber("CO", 2026, "platform", 123_456), "CO-2026-CC-123456");
  assertEquals(invoiceNumber("FA", 2026, "ab-cd-ef-12", 7), "FA-2026-ABCDEF-00007", "hyphens skipped");
  for (const n of [depositDoc().number, finalDoc().number, creditNoteDoc().number]) {
    assert(/^(FA|AV|CO)-\d{4}-[0-9A-Z]{2,6}-\d{5,}$/.test(n!), n!);
  }
});
