// The PDF of billing documents, read back with pdftotext (poppler-utils): every amount in French
// formatting, the numbers, both parties, the mentions, the page numbers; the amounts' narrow no-break
// spaces (U+202F) are real glyphs of the embedded font.
import { inflateSync } from "node:zlib";
import { assert, assertEquals } from "../../tests/support/assert.ts";
import type { BillingDocument } from "./document.ts";
import { frDate, money, percent, quantity, renderPdf } from "./pdf.ts";
import {
  commissionCreditNoteDoc,
  commissionDoc,
  creditNoteDoc,
  depositDoc,
  EXEMPT_SELLER,
  finalDoc,
  normalized,
  pdfFonts,
  pdfInfo,
  pdfText,
  plain,
  PLATFORM,
  PRIVATE_BUYER,
  PRO_BUYER,
  quote,
  quoteDoc,
  SELLER,
} from "./fixtures_test.ts";

function assertReads(text: string, expected: string[], context: string) {
  const missing = expected.map((e) => normalized(plain(e))).filter((e) => !text.includes(e));
  assertEquals(missing, [], `${context}: not in the PDF text:\n${text}`);
}

/** What every document shows: title, parties, reference, lines, VAT, totals, terms, mentions, notes. */
function everything(doc: BillingDocument): string[] {
  return [
    doc.title,
    `Date d'émission : ${frDate(doc.issuedAt)}`,
    ...(doc.number ? [`N° ${doc.number}`] : [`Devis n° ${doc.reference.dealId}`]),
    doc.seller.name,
    ...doc.seller.address,
    ...(doc.seller.siren ? [`SIREN : ${doc.seller.siren}`] : []),
    ...(doc.seller.vatNumber ? [`N° TVA intracommunautaire : ${doc.seller.vatNumber}`] : []),
    doc.buyer.name,
    ...doc.buyer.address,
    ...(doc.buyer.professional && doc.buyer.siren ? [`SIREN : ${doc.buyer.siren}`] : []),
    ...(doc.buyer.professional && doc.buyer.vatNumber
      ? [`N° TVA intracommunautaire : ${doc.buyer.vatNumber}`]
      : []),
    doc.reference.dealName,
    ...(doc.reference.serviceDate ? [`Date de la prestation : ${frDate(doc.reference.serviceDate)}`] : []),
    ...doc.lines.flatMap((l) => [
      l.label,
      `${quantity(l.qty)} ${money(l.unitPriceHT)} ${percent(l.vatRate)} ${money(l.totalHT)}`,
    ]),
    `Total HT ${money(doc.totalHT)}`,
    money(doc.totalVAT),
    `${doc.kind.endsWith("credit_note") ? "Total TTC de l'avoir" : "Total TTC"} ${money(doc.totalTTC)}`,
    ...doc.deductions.filter((d) => !d.inLines).flatMap((d) => [
      `${d.label} ${money(-d.settled)}`,
      `Facture n° ${d.invoiceNumber}`,
    ]),
    doc.paymentTerms,
    ...doc.mentions,
    ...doc.notes,
    ...(doc.issuedBy
      ? [
        `par ${doc.issuedBy.name} au nom et pour le compte de ${doc.seller.name}`,
        `SIREN ${doc.issuedBy.siren}`,
      ]
      : []),
    "page 1 / 1",
  ];
}

Deno.test("amounts are formatted by Intl fr-FR with U+202F and U+00A0", () => {
  assertEquals(money(123_456), "1\u202f234,56\u00a0€");
  assertEquals(money(-129_692), "-1\u202f296,92\u00a0€");
  assert(/^5,5[\u202f\u00a0]%$/.test(percent(5.5)), percent(5.5));
  assertEquals(quantity(1.5), "1,5");
  assertEquals(frDate("2026-03-01"), "01/03/2026");
});

Deno.test("a deposit invoice reads back: amounts, number, parties, mandate, mentions, payment", async () => {
  const doc = depositDoc();
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "N° FA-2026-1B4F05-00001",
    "Facture d'acompte",
    `Montant réglé le 01/03/2026 ${money(doc.amountPaid)}`,
    `Reste à payer ${money(0)}`,
    "Émise par Cocktails & Co SAS au nom et pour le compte de Bar à Cocktails Éphémère & Fils",
    "Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 €.",
  ], "deposit");
  assert(doc.amountPaid > 100_000, "an amount with a thousands separator");
  assert(text.includes(plain(money(doc.amountPaid))) && money(doc.amountPaid).includes("\u202f"));
});

Deno.test("a final invoice reads back with the deposit invoice deducted as a line, base and VAT", async () => {
  const doc = finalDoc();
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "Barman (4 h) 2 280,00 € 20 % 560,00 €",
    "Cocktails signature 120 8,50 € 20 % 1 020,00 €",
    "Verrerie et glaçons 150 12,34 € 20 % 1 851,00 €",
    "Gestion de projet 1 171,55 € 20 % 171,55 €",
    "Acompte versé — facture n° FA-2026-1B4F05-00001",
    "-1 1 080,77 € 20 % -1 080,77 €",
    "Total HT 2 521,78 €",
    "20 % 2 521,78 € 504,36 €",
    "Total TTC 3 026,14 €",
    "Montant réglé le 01/06/2026 3 026,14 €",
    "Reste à payer 0,00 €",
  ], "final");
  assert(!text.includes("Solde TTC"), "the deposit is not deducted twice");
});

Deno.test("a credit note reads back with its corrected invoice", async () => {
  const doc = creditNoteDoc();
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "Avoir",
    "N° AV-2026-1B4F05-00001",
    "Avoir sur la facture n° FA-2026-1B4F05-00001 du 01/03/2026",
    "Émis par Cocktails & Co SAS",
    `Total TTC de l'avoir ${money(doc.totalTTC)}`,
    ...(doc.rounding ? [`Arrondi ${money(doc.rounding)}`] : []),
    "Montant remboursé 123,45 €",
  ], "credit note");
  assert(!text.includes("Reste à payer"), "a credit note asks for nothing");
});

Deno.test("a commission credit note: the platform credits the partner, with the commission invoice and its date", async () => {
  const doc = commissionCreditNoteDoc();
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "Avoir de commission",
    "N° CA-2026-CC-00001",
    "Avoir sur la facture n° CO-2026-CC-00007 du 02/03/2026",
    "Partenaire facturé",
    "Commission créditée sur la facture n° CO-2026-CC-00007",
    `Total TTC de l'avoir ${money(doc.totalTTC)}`,
    "Montant crédité 12,34 €",
  ], "commission credit note");
  assert(!text.includes("au nom et pour le compte"), "the platform issues it in its own name");
  assert(!text.includes("Reste à payer"), "a credit note asks for nothing");
});

Deno.test("a quote reads back with what it asks, its terms and its notes", async () => {
  const doc = quoteDoc();
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "Devis n° 4242",
    "Émis par Cocktails & Co SAS",
    `Net à payer ${money(doc.totalTTC)}`,
    "Acompte de 30 % à la commande, solde avant la prestation. Devis valable 30 jours.",
    "Merci de prévoir un accès à l'eau à moins de 20 m du bar.",
  ], "quote");
});

Deno.test("a commission invoice: the platform bills the partner, no mandate", async () => {
  const doc = commissionDoc("deposit");
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "Facture de commission (acompte)",
    "N° CO-2026-CC-00007",
    "Partenaire facturé",
    PLATFORM.name,
    `SIREN : ${PLATFORM.siren}`,
    `SIREN : ${SELLER.siren}`,
    "Gestion de projet (10 % du montant de la prestation) — part de l'acompte",
    `Reste à payer ${money(doc.amountDue)}`,
  ], "commission");
  assert(!text.includes("au nom et pour le compte"), "the platform bills in its own name");
});

Deno.test("an exempt seller and a private buyer: art. 293 B, no VAT, no professional mentions", async () => {
  const doc = finalDoc(quote({ vatRate: 0 }), EXEMPT_SELLER, PRIVATE_BUYER);
  const text = await pdfText(await renderPdf(doc));
  assertReads(text, [
    ...everything(doc),
    "TVA non applicable, art. 293 B du CGI",
    "TVA (non applicable) 0,00 €",
  ], "exempt");
  assert(!text.includes("40 €"), "no recovery fee for a private buyer");
  assert(!text.includes("N° TVA intracommunautaire"), "neither party has a VAT number");
});

Deno.test("a long document breaks across pages, numbered, with the table header repeated", async () => {
  const q = quote();
  const lines = Array.from({ length: 70 }, (_, i) => ({
    label: `Prestation n° ${i + 1}`,
    qty: 1,
    unitCost: 1000 + i,
    totalCost: 1000 + i,
  }));
  const doc = finalDoc({ ...q, lines });
  const text = await pdfText(await renderPdf(doc));
  const pages = Number(/page 1 \/ (\d+)/.exec(text)?.[1]);
  assert(pages >= 2, "more than one page");
  assertReads(text, [
    `page ${pages} / ${pages}`,
    "Prestation n° 70 1 10,69 € 20 % 10,69 €",
    `Total TTC ${money(doc.totalTTC)}`,
  ], "long");
  const [reading] = text.split(" ||| ");
  assertEquals(
    reading.split("Désignation Qté Prix unitaire HT TVA Total HT").length - 1,
    pages,
    "the header on every page",
  );
});

Deno.test("the font is embedded and maps a real glyph to U+202F (and U+00A0); no Helvetica", async () => {
  const pdf = await renderPdf(finalDoc());
  const fonts = await pdfFonts(pdf);
  assert(fonts.includes("IBMPlexSans-Regular") && fonts.includes("IBMPlexSans-SemiBold"), fonts);
  assert(!/Helvetica|Times|Courier/.test(fonts), fonts);
  for (const row of fonts.split("\n").slice(2).filter(Boolean)) {
    assert(/\byes yes yes\b/.test(row), `embedded, subset, with a ToUnicode map: ${row}`);
  }
  // The ToUnicode maps of the embedded fonts: a glyph id maps to 202F and one to 00A0.
  const raw = new TextDecoder("latin1").decode(pdf);
  const maps: string[] = [];
  const stream = /stream\r?\n/g;
  for (let m; (m = stream.exec(raw));) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    try {
      const text = new TextDecoder().decode(inflateSync(pdf.subarray(start, end)));
      if (text.includes("begincmap")) maps.push(text.toLowerCase());
    } catch { /* not a deflated stream */ }
  }
  assert(maps.length >= 2, "one map per font");
  assert(maps.some((m) => m.includes("<202f>")), "U+202F is drawn with a glyph of the font");
  assert(maps.some((m) => m.includes("<00a0>")), "U+00A0 is drawn with a glyph of the font");
  const info = await pdfInfo(pdf);
  assert(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/.test(info), info);
  assert(info.includes("Title:           Facture de solde FA-2026-1B4F05-00002"), info);
  assert(PRO_BUYER.professional);
});
