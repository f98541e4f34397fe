// Factur-X of issued invoices and credit notes: the CII XML is extracted from the PDF with pdfdetach
// (poppler-utils), checked against the Factur-X EN 16931 XSD (facturx_xsd_test.ts does it for every
// kind) and parsed; it carries the EN 16931 guideline id, the French billing framework (BT-23), the
// BillingDocument's totals, VAT breakdown, parties with structured addresses, notes with their subject
// codes (BR-FR-05), the delivery date and the preceding invoice with its date (BT-25, BT-26); the PDF
// declares PDF/A-3 (B) and Factur-X in well-formed UTF-8 XMP, with the XML as an associated file whose
// /CheckSum is the 16-byte MD5 of its bytes; the mapping validates against @e-invoice-eu/core's own
// schema.
import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import { InvoiceService } from "@e-invoice-eu/core";
import { XmlDocument, type XmlElement } from "xmldoc";
import { assert, assertEquals, assertRejects } from "../../tests/support/assert.ts";
import {
  addressLines,
  type BillingDocument,
  depositDocument,
  MENTIONS,
  type Party,
  splitTTC,
} from "./document.ts";
import {
  billingFramework,
  decimal,
  facturXInvoice,
  facturXml,
  GUIDELINE_EN16931,
  postalAddress,
  renderInvoicePdf,
} from "./facturx.ts";
import {
  attachment,
  attachmentNames,
  commissionCreditNoteDoc,
  commissionDoc,
  creditNoteDoc,
  depositDoc,
  EXEMPT_SELLER,
  facturXSchemaErrors,
  finalDoc,
  fullDoc,
  PAID_AT,
  pdfFonts,
  pdfInfo,
  pdfText,
  PRIVATE_BUYER,
  PRO_BUYER,
  quote,
  quoteDoc,
  SELLER,
} from "./fixtures_test.ts";

const el = (node: XmlElement, path: string): XmlElement => {
  const found = node.descendantWithPath(path);
  assert(found, `no ${path}`);
  return found;
};
const val = (node: XmlElement, path: string): string => el(node, path).val.trim();
const all = (node: XmlElement, name: string): XmlElement[] => node.childrenNamed(name);

/** Renders the Factur-X PDF, extracts its XML with pdfdetach, checks it against the XSD and parses it. */
async function extracted(doc: BillingDocument): Promise<{ pdf: Uint8Array; xml: XmlDocument; text: string }> {
  const pdf = await renderInvoicePdf(doc);
  assertEquals(await attachmentNames(pdf), ["factur-x.xml"]);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(await attachment(pdf));
  assertEquals(await facturXSchemaErrors(text), [], doc.number ?? "");
  return { pdf, xml: new XmlDocument(text), text };
}

/** A party's postal address as the XML gives it. */
function address(trade: XmlElement) {
  const a = el(trade, "ram:PostalTradeAddress");
  const text = (name: string) => a.childNamed(name)?.val.trim() ?? null;
  return {
    postcode: text("ram:PostcodeCode"),
    line: text("ram:LineOne"),
    city: text("ram:CityName"),
    country: text("ram:CountryID"),
  };
}

function party(trade: XmlElement) {
  const tax = trade.childrenNamed("ram:SpecifiedTaxRegistration").map((t) => el(t, "ram:ID"))
    .map((id) => [id.attr.schemeID, id.val.trim()]);
  const legal = trade.descendantWithPath("ram:SpecifiedLegalOrganization.ram:ID");
  return {
    name: val(trade, "ram:Name"),
    siren: legal ? [legal.attr.schemeID, legal.val.trim()] : null,
    vat: tax,
  };
}

const expectedParty = (p: BillingDocument["seller"]) => ({
  name: p.name,
  siren: p.siren ? ["0002", p.siren] : null,
  vat: p.vatNumber ? [["VA", p.vatNumber]] : [],
});
/** The seller's tax registrations: its VAT number, or its SIREN as fiscal number (BT-32) without one. */
const expectedSeller = (p: Party) => ({
  ...expectedParty(p),
  vat: p.vatNumber ? [["VA", p.vatNumber]] : p.siren ? [["FC", p.siren]] : [],
});

/** Everything the XML says that the document says too. */
function assertMatches(xml: XmlDocument, doc: BillingDocument, typeCode: string) {
  assertEquals(xml.name, "rsm:CrossIndustryInvoice");
  assertEquals(
    val(xml, "rsm:ExchangedDocumentContext.ram:GuidelineSpecifiedDocumentContextParameter.ram:ID"),
    GUIDELINE_EN16931,
  );
  assertEquals(GUIDELINE_EN16931, "urn:cen.eu:en16931:2017");
  // BT-23, the French billing framework (BR-FR-08).
  assertEquals(
    val(xml, "rsm:ExchangedDocumentContext.ram:BusinessProcessSpecifiedDocumentContextParameter.ram:ID"),
    billingFramework(doc),
  );
  assertEquals(val(xml, "rsm:ExchangedDocument.ram:ID"), doc.number);
  assertEquals(val(xml, "rsm:ExchangedDocument.ram:TypeCode"), typeCode);
  assertEquals(
    val(xml, "rsm:ExchangedDocument.ram:IssueDateTime.udt:DateTimeString"),
    doc.issuedAt.replace(/-/g, ""),
  );
  // Every mention and note, one IncludedNote each.
  const notes = all(el(xml, "rsm:ExchangedDocument"), "ram:IncludedNote");
  assertEquals(notes.map((n) => n.childrenNamed("ram:Content").length), notes.map(() => 1));
  assertEquals(notes.map((n) => val(n, "ram:Content")), [...doc.mentions, ...doc.notes]);
  // BR-FR-05: the late-payment penalty (PMD) and the recovery fee (PMT) to business buyers; the
  // early-payment discount (AAB) to all; each subject code once (BR-FR-06).
  const subjects = notes.map((n) => n.childNamed("ram:SubjectCode")?.val.trim()).filter(Boolean);
  assertEquals(subjects, doc.buyer.professional ? ["PMD", "PMT", "AAB"] : ["AAB"]);
  assert(doc.mentions.includes(MENTIONS.operationCategory), "the operation's category");

  const transaction = el(xml, "rsm:SupplyChainTradeTransaction");
  const agreement = el(transaction, "ram:ApplicableHeaderTradeAgreement");
  assertEquals(party(el(agreement, "ram:SellerTradeParty")), expectedSeller(doc.seller));
  assertEquals(party(el(agreement, "ram:BuyerTradeParty")), expectedParty(doc.buyer));
  for (
    const [trade, p] of [["ram:SellerTradeParty", doc.seller], ["ram:BuyerTradeParty", doc.buyer]] as const
  ) {
    const town = /^(\d{5}) (.+)$/.exec(p.address.at(-1) ?? "");
    assertEquals(address(el(agreement, trade)), {
      postcode: town?.[1] ?? null,
      line: p.address.filter((l) => !l.startsWith("À l'attention"))[0] ?? null,
      city: town?.[2] ?? null,
      country: "FR",
    }, trade);
  }
  // BG-13, always there (the schema requires it), with the service date (BT-72) when the deal has one.
  const delivery = el(transaction, "ram:ApplicableHeaderTradeDelivery");
  assertEquals(
    delivery.descendantWithPath(
      "ram:ActualDeliverySupplyChainEvent.ram:OccurrenceDateTime.udt:DateTimeString",
    )
      ?.val.trim() ?? null,
    doc.reference.serviceDate?.replace(/-/g, "") ?? null,
  );

  const items = all(transaction, "ram:IncludedSupplyChainTradeLineItem");
  assertEquals(
    items.map((i) => ({
      name: val(i, "ram:SpecifiedTradeProduct.ram:Name"),
      qty: Number(val(i, "ram:SpecifiedLineTradeDelivery.ram:BilledQuantity")),
      price: val(i, "ram:SpecifiedLineTradeAgreement.ram:NetPriceProductTradePrice.ram:ChargeAmount"),
      rate: Number(
        val(i, "ram:SpecifiedLineTradeSettlement.ram:ApplicableTradeTax.ram:RateApplicablePercent"),
      ),
      total: val(
        i,
        "ram:SpecifiedLineTradeSettlement.ram:SpecifiedTradeSettlementLineMonetarySummation.ram:LineTotalAmount",
      ),
    })),
    doc.lines.map((l) => ({
      name: l.label,
      qty: l.qty,
      price: decimal(l.unitPriceHT),
      rate: l.vatRate,
      total: decimal(l.totalHT),
    })),
  );

  const settlement = el(transaction, "ram:ApplicableHeaderTradeSettlement");
  assertEquals(val(settlement, "ram:InvoiceCurrencyCode"), "EUR");
  assertEquals(
    all(settlement, "ram:ApplicableTradeTax").map((t) => ({
      amount: val(t, "ram:CalculatedAmount"),
      base: val(t, "ram:BasisAmount"),
      rate: Number(val(t, "ram:RateApplicablePercent")),
    })),
    doc.vat.map((v) => ({ amount: decimal(v.amount), base: decimal(v.base), rate: v.rate })),
  );
  const sums = el(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation");
  const prepaid = sums.childNamed("ram:TotalPrepaidAmount")?.val.trim() ?? "0.00";
  const rounding = sums.childNamed("ram:RoundingAmount")?.val.trim() ?? "0.00";
  assertEquals(
    {
      lines: val(sums, "ram:LineTotalAmount"),
      basis: val(sums, "ram:TaxBasisTotalAmount"),
      tax: val(sums, "ram:TaxTotalAmount"),
      taxCurrency: el(sums, "ram:TaxTotalAmount").attr.currencyID,
      grand: val(sums, "ram:GrandTotalAmount"),
      prepaid,
      rounding,
      due: val(sums, "ram:DuePayableAmount"),
    },
    {
      lines: decimal(doc.lines.reduce((s, l) => s + l.totalHT, 0)),
      basis: decimal(doc.totalHT),
      tax: decimal(doc.totalVAT),
      taxCurrency: "EUR",
      grand: decimal(doc.totalTTC),
      prepaid: decimal(doc.totalTTC + doc.rounding - doc.amountDue),
      rounding: decimal(doc.rounding),
      due: decimal(doc.amountDue),
    },
  );
  // EN 16931 BR-CO-10, BR-CO-15, BR-CO-16 on the XML's own numbers.
  const cents = (s: string) => Math.round(Number(s) * 100);
  assertEquals(
    cents(val(sums, "ram:LineTotalAmount")),
    items.reduce((s, i) =>
      s +
      cents(
        val(
          i,
          "ram:SpecifiedLineTradeSettlement.ram:SpecifiedTradeSettlementLineMonetarySummation.ram:LineTotalAmount",
        ),
      ), 0),
  );
  assertEquals(
    cents(val(sums, "ram:GrandTotalAmount")),
    cents(val(sums, "ram:TaxBasisTotalAmount")) + cents(val(sums, "ram:TaxTotalAmount")),
  );
  assertEquals(
    cents(val(sums, "ram:DuePayableAmount")),
    cents(val(sums, "ram:GrandTotalAmount")) - cents(prepaid) + cents(rounding),
  );
  return settlement;
}

/** BT-25 and BT-26 as the XML gives them. */
function preceding(settlement: XmlElement) {
  const ref = el(settlement, "ram:InvoiceReferencedDocument");
  return {
    number: val(ref, "ram:IssuerAssignedID"),
    date: ref.descendantWithPath("ram:FormattedIssueDateTime.qdt:DateTimeString")?.val.trim() ?? null,
  };
}

Deno.test("a final invoice as Factur-X: the extracted XML equals the document, with the deposit invoice referenced", async () => {
  const doc = finalDoc();
  const { xml, pdf } = await extracted(doc);
  const settlement = assertMatches(xml, doc, "380");
  assertEquals(preceding(settlement), { number: "FA-2026-1B4F05-00001", date: "20260302" });
  assertEquals(billingFramework(doc), "S4");
  assertEquals(all(settlement, "ram:ApplicableTradeTax").map((t) => val(t, "ram:CategoryCode")), ["S"]);
  assertEquals(val(settlement, "ram:SpecifiedTradePaymentTerms.ram:Description"), doc.paymentTerms);
  assertEquals(
    val(
      xml,
      "rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeDelivery.ram:ActualDeliverySupplyChainEvent.ram:OccurrenceDateTime.udt:DateTimeString",
    ),
    "20260620",
  );
  // The French notes' subject codes: the mandate, the operation's category, PMD, PMT, AAB, the note.
  const subjects = all(el(xml, "rsm:ExchangedDocument"), "ram:IncludedNote")
    .map((n) => n.childNamed("ram:SubjectCode")?.val ?? null);
  assertEquals(subjects, [null, null, "PMD", "PMT", "AAB", null]);
  // The page is the same document, the deposit invoice with its date.
  const text = await pdfText(pdf);
  assert(text.includes("Total TTC 3 026,14 €") && text.includes("N° FA-2026-1B4F05-00002"), text);
  assert(text.includes("Acompte versé — facture n° FA-2026-1B4F05-00001"), text);
  assert(text.includes("Catégorie de l'opération : prestation de services"), text);
});

Deno.test("deposit (386), credit note (381) and commission (380) invoices as Factur-X", async () => {
  const deposit = depositDoc();
  assertMatches((await extracted(deposit)).xml, deposit, "386");
  const note = creditNoteDoc();
  const noteSettlement = assertMatches((await extracted(note)).xml, note, "381");
  // BR-FR-CO-05: the corrected invoice and its date.
  assertEquals(preceding(noteSettlement), {
    number: "FA-2026-1B4F05-00001",
    date: PAID_AT.replace(/-/g, ""),
  });
  const creditNote = commissionCreditNoteDoc();
  const caSettlement = assertMatches((await extracted(creditNote)).xml, creditNote, "381");
  assertEquals(preceding(caSettlement), { number: "CO-2026-CC-00007", date: "20260302" });
  const commission = commissionDoc("deposit");
  const { xml } = await extracted(commission);
  assertMatches(xml, commission, "386");
  const full = commissionDoc("full");
  assertMatches((await extracted(full)).xml, full, "380");
  assertEquals(
    party(el(xml, "rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeAgreement.ram:SellerTradeParty"))
      .name,
    "Cocktails & Co SAS",
  );
});

Deno.test("a deposit no HT reaches exactly carries its cent as the rounding amount (BT-114)", async () => {
  // The first deposit from 300,00 € up whose TTC no HT plus its 20 % VAT rounded makes.
  let amount = 30_000;
  while (splitTTC(amount, 20).rounding === 0) amount++;
  const q = quote();
  const doc = depositDocument({
    number: "FA-2026-1B4F05-00003",
    issuedAt: "2026-03-02",
    seller: depositDoc().seller,
    buyer: depositDoc().buyer,
    issuedBy: depositDoc().issuedBy,
    quote: q,
    amountTTC: amount,
    paidAt: "2026-03-01",
    proforma: false,
  });
  assert(doc.rounding !== 0);
  assertEquals([doc.totalHT + doc.totalVAT + doc.rounding, doc.amountPaid], [amount, amount]);
  const { xml, pdf } = await extracted(doc);
  const settlement = assertMatches(xml, doc, "386");
  assertEquals(
    val(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation.ram:RoundingAmount"),
    decimal(doc.rounding),
  );
  const text = await pdfText(pdf);
  assert(text.includes("Arrondi"), text);
});

Deno.test("an exempt seller (art. 293 B): category E with its exemption reason and code", async () => {
  const doc = finalDoc(quote({ vatRate: 0 }), EXEMPT_SELLER, PRIVATE_BUYER);
  const { xml } = await extracted(doc);
  const settlement = assertMatches(xml, doc, "380");
  const tax = el(settlement, "ram:ApplicableTradeTax");
  assertEquals(
    [val(tax, "ram:CategoryCode"), val(tax, "ram:ExemptionReasonCode"), val(tax, "ram:ExemptionReason")],
    ["E", "VATEX-FR-FRANCHISE", "TVA non applicable, art. 293 B du CGI"],
  );
  // No VAT number: the SIREN is the seller's tax registration (BT-32, BR-E-02).
  const registration = el(
    xml,
    "rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeAgreement.ram:SellerTradeParty.ram:SpecifiedTaxRegistration.ram:ID",
  );
  assertEquals([registration.attr.schemeID, registration.val.trim()], ["FC", EXEMPT_SELLER.siren]);
  assertEquals(
    all(el(xml, "rsm:SupplyChainTradeTransaction"), "ram:IncludedSupplyChainTradeLineItem")
      .map((i) => val(i, "ram:SpecifiedLineTradeSettlement.ram:ApplicableTradeTax.ram:CategoryCode")),
    doc.lines.map(() => "E"),
  );
});

Deno.test("the PDF declares PDF/A-3 B and Factur-X EN 16931 in well-formed UTF-8 XMP, the XML as associated file", async () => {
  const { pdf } = await extracted(finalDoc());
  const meta = await pdfInfo(pdf, true); // decoded with fatal UTF-8: throws on Latin-1 bytes
  const packet = meta.slice(meta.indexOf("<x:xmpmeta"), meta.indexOf("</x:xmpmeta>") + "</x:xmpmeta>".length);
  const xmp = new XmlDocument(packet);
  const rdf = el(xmp, "rdf:RDF");
  const value = (name: string) => {
    const found = rdf.childrenNamed("rdf:Description").map((d) => d.childNamed(name)).find(Boolean);
    assert(found, `XMP has no ${name}`);
    return found.val.trim();
  };
  assertEquals(value("pdfaid:part"), "3");
  assertEquals(value("pdfaid:conformance"), "B");
  assertEquals(value("fx:ConformanceLevel"), "EN 16931");
  assertEquals(value("fx:DocumentFileName"), "factur-x.xml");
  assertEquals(value("fx:DocumentType"), "INVOICE");
  assertEquals(value("fx:Version"), "1.0");
  assert(
    packet.includes(
      "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    ),
  );
  assert(packet.includes("<pdfaSchema:prefix>fx</pdfaSchema:prefix>"));
  assert(packet.includes("Bar à Cocktails Éphémère et Fils"), "accents kept in UTF-8");
  // The PDF objects PDF/A-3 and Factur-X ask for (pdfkit writes dictionaries uncompressed).
  const raw = new TextDecoder("latin1").decode(pdf);
  assert(raw.startsWith("%PDF-1.7"), raw.slice(0, 10));
  for (
    const needle of [
      "/AFRelationship /Alternative",
      "/Subtype /text#2Fxml",
      "/F (factur-x.xml)",
      "/UF (factur-x.xml)",
      "/S /GTS_PDFA1",
      "/OutputIntents [",
      "/Type /Metadata",
      "/Lang (fr-FR)",
      "/ModDate (D:",
    ]
  ) assert(raw.includes(needle), `no ${needle}`);
  assert(/\/AF \[\d+ 0 R\]/.test(raw), "the catalog lists the associated file");
  assert(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/i.test(raw), "a file identifier");
  const fonts = await pdfFonts(pdf);
  for (const row of fonts.split("\n").slice(2).filter(Boolean)) assert(/\byes yes yes\b/.test(row), row);
});

Deno.test("the mapping validates against @e-invoice-eu/core's schema (its own generate path)", async () => {
  const service = new InvoiceService({
    log: () => {},
    warn: () => {},
    error: (m: string) => console.error(m),
  });
  for (
    const doc of [
      finalDoc(),
      depositDoc(),
      creditNoteDoc(),
      commissionDoc("deposit"),
      commissionCreditNoteDoc(),
    ]
  ) {
    const xml = await service.generate(facturXInvoice(doc), { format: "CII", lang: "fr-fr" });
    assert(typeof xml === "string" && xml.includes(`<ram:ID>${doc.number}</ram:ID>`));
  }
  const exempt = finalDoc(quote({ vatRate: 0 }), EXEMPT_SELLER, PRIVATE_BUYER);
  await service.generate(facturXInvoice(exempt), { format: "CII", lang: "fr-fr" });
});

Deno.test("only issued documents become Factur-X; the XML escapes markup in names", async () => {
  await assertRejects(
    () => renderInvoicePdf(quoteDoc()),
    (e) => e instanceof Error && /number/.test(e.message),
  );
  const doc = finalDoc();
  const xml = await facturXml({ ...doc, notes: ["Livraison <avant> 18 h & rangement"] });
  assert(xml.includes("<ram:Content>Livraison &lt;avant&gt; 18 h &amp; rangement</ram:Content>"));
  new XmlDocument(xml);
});

Deno.test("BT-23: S4 after a deposit, S2 a full invoice already paid, S1 deposits, commissions and credit notes", () => {
  assertEquals(
    [
      depositDoc(),
      finalDoc(),
      fullDoc(),
      creditNoteDoc(),
      commissionDoc("deposit"),
      commissionDoc("final"),
      commissionDoc("full"),
      commissionCreditNoteDoc(),
    ].map((d) => [d.kind, billingFramework(d)]),
    [
      ["deposit", "S1"],
      ["final", "S4"],
      ["full", "S2"],
      ["credit_note", "S1"],
      ["commission_deposit", "S1"],
      ["commission_final", "S4"],
      ["commission_full", "S1"],
      ["commission_credit_note", "S1"],
    ],
  );
});

Deno.test("a private buyer gets no late-payment notes; every invoice states the operation's category", async () => {
  for (
    const doc of [fullDoc(quote(), SELLER, PRIVATE_BUYER), creditNoteDoc(quote(), SELLER, PRIVATE_BUYER)]
  ) {
    const { xml, pdf } = await extracted(doc);
    assertMatches(xml, doc, doc.kind === "credit_note" ? "381" : "380");
    const text = await pdfText(pdf);
    assert(text.includes("Catégorie de l'opération : prestation de services"), text);
    assert(!text.includes("40 €"), "no recovery fee for a private buyer");
  }
});

Deno.test("a credit note gives the date of the invoice it corrects, on the page too", async () => {
  const { pdf } = await extracted(creditNoteDoc());
  const text = await pdfText(pdf);
  assert(text.includes("Avoir sur la facture n° FA-2026-1B4F05-00001 du 01/03/2026"), text);
});

Deno.test("the buyer's address is structured: a one-line service address gives its postcode and city", async () => {
  assertEquals(addressLines("27 rue Sainte-Catherine 33000 Bordeaux"), [
    "27 rue Sainte-Catherine",
    "33000 Bordeaux",
  ]);
  assertEquals(addressLines(" 5 place Bellecour,  69002 Lyon "), ["5 place Bellecour", "69002 Lyon"]);
  assertEquals(addressLines("Domaine des Vignes, Saint-Émilion"), ["Domaine des Vignes, Saint-Émilion"]);
  assertEquals(addressLines(""), []);
  // A document frozen with the address on one line is structured when rendered.
  assertEquals(postalAddress(["À l'attention de Jeanne", "12 rue X 75011 Paris"]), {
    "cbc:StreetName": "12 rue X",
    "cbc:CityName": "Paris",
    "cbc:PostalZone": "75011",
    "cac:Country": { "cbc:IdentificationCode": "FR" },
  });
  const buyer = { ...PRIVATE_BUYER, address: ["27 rue Sainte-Catherine 33000 Bordeaux"] };
  const { xml } = await extracted(fullDoc(quote(), SELLER, buyer));
  assertEquals(
    address(
      el(xml, "rsm:SupplyChainTradeTransaction.ram:ApplicableHeaderTradeAgreement.ram:BuyerTradeParty"),
    ),
    { postcode: "33000", line: "27 rue Sainte-Catherine", city: "Bordeaux", country: "FR" },
  );
});

Deno.test("the embedded file's /CheckSum is the 16-byte MD5 of the XML, /Size its length", async () => {
  const doc = finalDoc();
  const pdf = await renderInvoicePdf(doc);
  const bytes = await attachment(pdf);
  const raw = new TextDecoder("latin1").decode(pdf);
  const stream = /\/Type \/EmbeddedFile[\s\S]*?>>\s*stream\r?\n/.exec(raw);
  assert(stream, "an embedded-file stream");
  const checksum = /\/CheckSum <([0-9a-f]*)>/.exec(stream[0]);
  assert(checksum, `a hexadecimal /CheckSum: ${stream[0]}`);
  assertEquals(checksum[1].length, 32, "16 bytes");
  assertEquals(checksum[1], createHash("md5").update(bytes).digest("hex"));
  assertEquals(Number(/\/Size (\d+)/.exec(stream[0])?.[1]), bytes.byteLength);
  // The stream holds those bytes (deflated).
  const start = (stream.index ?? 0) + stream[0].length;
  const length = Number(/\/Length (\d+)/.exec(stream[0])?.[1]);
  const body = pdf.subarray(start, start + length);
  assertEquals(new Uint8Array(inflateSync(body)), bytes);
  assertEquals(await facturXSchemaErrors(bytes), []);
  assertEquals(PRO_BUYER.professional, true);
});
