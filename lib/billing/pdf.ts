// The PDF of a billing document (quote, proforma, invoice, credit note, commission invoice), drawn from
// the one BillingDocument shape with pdfmake. Amounts are formatted the French way (Intl fr-FR: U+202F
// narrow no-break spaces between thousands, U+00A0 before "€"), so the font must have those glyphs:
// pdfmake's bundled Roboto lacks U+202F (and the built-in Helvetica cannot draw it); IBM Plex Sans
// (npm @expo-google-fonts/ibm-plex-sans, OFL-1.1) has them, and lays text out faster than the other
// candidates with those glyphs (measured with pdfkit: Inter and Noto Sans 2-3x slower, Source Sans 3
// and DejaVu Sans 1.2-1.4x slower).
//
// The same renderer draws the PDF/A-3b of an issued invoice (lib/billing/facturx.ts): embedded fonts,
// sRGB output intent and XMP metadata come from pdfkit's PDF/A support, the Factur-X XML is attached as
// an associated file in the same pass (no second load and save of the PDF).
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { formatEuros } from "../money.ts";
import { type BillingDocument, type DocumentKind, type Party, referenceLabel } from "./document.ts";

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------
// pdfmake and pdfkit, typed as far as this file uses them.

type Node = Record<string, unknown> | string | Node[];

interface PdfKitReference {
  end(data?: Buffer): void;
}

interface PdfKitDocument {
  ref(data: Record<string, unknown>): PdfKitReference;
  addNamedEmbeddedFile(name: string, filespec: PdfKitReference): void;
  _root: { data: { AF?: PdfKitReference[] } };
  appendXML(xml: string): void;
}

interface OutputDocument {
  getStream(): Promise<PdfKitDocument>;
  getBuffer(): Promise<Buffer>;
}

interface PdfMake {
  virtualfs: { writeFileSync(name: string, data: Buffer): void; existsSync(name: string): boolean };
  addFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(definition: Record<string, unknown>): OutputDocument;
}

export const FONT_FAMILY = "IBMPlexSans";
const FONT_FILES = {
  normal: "400Regular/IBMPlexSans_400Regular.ttf",
  bold: "600SemiBold/IBMPlexSans_600SemiBold.ttf",
  italics: "400Regular_Italic/IBMPlexSans_400Regular_Italic.ttf",
  bolditalics: "600SemiBold_Italic/IBMPlexSans_600SemiBold_Italic.ttf",
} as const;

let engine: { pdfmake: PdfMake; family: Record<string, string> } | null = null;

/** The font without its OpenType layout tables (GSUB, GPOS, GDEF): fontkit then lays text out from the
 * character map and advance widths alone — no kerning, no ligatures, which an invoice does not need —
 * and a document renders about three times faster (pdfkit re-reads those tables for every document).
 * A TrueType file is a table directory (12-byte header, 16 bytes a table) followed by the tables. */
export function withoutLayoutTables(font: Uint8Array): Uint8Array {
  const DROP = ["GSUB", "GPOS", "GDEF"];
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = view.getUint16(4);
  const tables = [];
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(...font.subarray(at, at + 4));
    tables.push({
      tag,
      checksum: view.getUint32(at + 4),
      offset: view.getUint32(at + 8),
      length: view.getUint32(at + 12),
    });
  }
  const kept = tables.filter((t) => !DROP.includes(t.tag));
  const padded = (n: number) => (n + 3) & ~3;
  const headerLength = 12 + kept.length * 16;
  const out = new Uint8Array(kept.reduce((size, t) => size + padded(t.length), headerLength));
  const outView = new DataView(out.buffer);
  out.set(font.subarray(0, 4)); // sfnt version
  let power = 0;
  while (2 ** (power + 1) <= kept.length) power++;
  outView.setUint16(4, kept.length);
  outView.setUint16(6, 2 ** power * 16);
  outView.setUint16(8, power);
  outView.setUint16(10, kept.length * 16 - 2 ** power * 16);
  let position = headerLength;
  kept.forEach((t, i) => {
    const at = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[at + k] = t.tag.charCodeAt(k);
    outView.setUint32(at + 4, t.checksum);
    outView.setUint32(at + 8, position);
    outView.setUint32(at + 12, t.length);
    out.set(font.subarray(t.offset, t.offset + t.length), position);
    position += padded(t.length);
  });
  return out;
}

/** pdfmake with the fonts in its virtual file system (read once), and no file or URL access at all:
 * documents never name images or fonts by path. pdfmake is one shared instance: the family is added
 * again before every document, in case other code replaced the instance's fonts. */
function pdfmake(): PdfMake {
  if (engine) {
    engine.pdfmake.addFonts({ [FONT_FAMILY]: engine.family });
    return engine.pdfmake;
  }
  const pm = require("pdfmake") as PdfMake;
  pm.setUrlAccessPolicy(() => false);
  pm.setLocalAccessPolicy(() => false);
  const family: Record<string, string> = {};
  for (const [style, file] of Object.entries(FONT_FILES)) {
    const name = `billing-${file.split("/")[1]}`;
    if (!pm.virtualfs.existsSync(name)) {
      const font = readFileSync(require.resolve(`@expo-google-fonts/ibm-plex-sans/${file}`));
      pm.virtualfs.writeFileSync(name, Buffer.from(withoutLayoutTables(font)));
    }
    family[style] = name;
  }
  pm.addFonts({ [FONT_FAMILY]: family });
  engine = { pdfmake: pm, family };
  return pm;
}

// ---------------------------------------------------------------------------------------------------
// French formatting.

/** "1 234,56 €" with U+202F and U+00A0, as Intl fr-FR writes it. */
export const money = (cents: number): string => formatEuros(cents);

const PERCENT = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 2 });
/** 20 → "20 %", 5.5 → "5,5 %". */
export const percent = (rate: number): string => PERCENT.format(rate / 100);

const QUANTITY = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 2 });
export const quantity = (qty: number): string => QUANTITY.format(qty);

/** "2026-03-01" → "01/03/2026". */
export const frDate = (iso: string): string => iso.slice(0, 10).split("-").reverse().join("/");

// ---------------------------------------------------------------------------------------------------
// The document.

const INK = "#1f2933";
const MUTED = "#5f6b7a";
const ACCENT = "#1d3557";
const RULE = "#d5dbe3";
const ZEBRA = "#f3f5f8";

/** Documents whose French name is masculine ("Devis", "Avoir"): "Émis", not "Émise". */
const MASCULINE: DocumentKind[] = ["quote", "credit_note", "commission_credit_note", "receipt"];
const CREDIT_NOTES: DocumentKind[] = ["credit_note", "commission_credit_note"];

const isInvoice = (doc: BillingDocument) => doc.number !== null;

function partyIdentity(party: Party): Node[] {
  const rows: Node[] = [];
  if (party.siren) rows.push(`SIREN : ${party.siren}`);
  if (party.vatNumber) rows.push(`N° TVA intracommunautaire : ${party.vatNumber}`);
  return rows;
}

function sellerBlock(doc: BillingDocument): Node {
  const seller = doc.seller;
  return {
    stack: [
      { text: seller.name, style: "sellerName" },
      ...seller.address,
      ...partyIdentity(seller),
      ...(seller.email ? [seller.email] : []),
    ],
  };
}

function titleBlock(doc: BillingDocument): Node {
  const rows: Node[] = [{ text: doc.title, style: "title", fontSize: doc.title.length > 24 ? 14 : 18 }];
  if (doc.number) rows.push({ text: `N° ${doc.number}`, style: "number" });
  else rows.push({ text: referenceLabel(doc.reference), style: "number" });
  rows.push(`Date d'émission : ${frDate(doc.issuedAt)}`);
  if (doc.kind === "receipt") {
    // A receipt acknowledges a payment; the invoice is the accounting document.
    if (doc.relatedNumber) rows.push(`Facture n° ${doc.relatedNumber}`);
    rows.push({ text: "Reçu de paiement, ne vaut pas facture", italics: true, color: MUTED });
  } else if (doc.relatedNumber) {
    // BT-25 and BT-26: the corrected invoice and its date (BR-FR-CO-05).
    const date = doc.relatedIssuedAt ? ` du ${frDate(doc.relatedIssuedAt)}` : "";
    rows.push(`Avoir sur la facture n° ${doc.relatedNumber}${date}`);
  }
  if (!isInvoice(doc) && doc.kind !== "quote") {
    rows.push({ text: "Document non comptable, ne vaut pas facture", italics: true, color: MUTED });
  }
  return { stack: rows, alignment: "right" };
}

function mandateBlock(doc: BillingDocument): Node[] {
  const platform = doc.issuedBy;
  if (!platform) return [];
  const issued = MASCULINE.includes(doc.kind) ? "Émis" : "Émise";
  const identity = [
    platform.address.join(", "),
    platform.siren ? `SIREN ${platform.siren}` : "",
    platform.vatNumber ? `TVA ${platform.vatNumber}` : "",
  ].filter(Boolean).join(" — ");
  return [{
    stack: [
      {
        text: `${issued} par ${platform.name} au nom et pour le compte de ${doc.seller.name}`,
        italics: true,
      },
      { text: `${platform.name} — ${identity}`, color: MUTED, fontSize: 7.5 },
    ],
    margin: [0, 10, 0, 0],
  }];
}

function box(label: string, rows: Node[]): Node {
  return {
    table: {
      widths: ["*"],
      body: [[{ stack: [{ text: label, style: "boxLabel" }, ...rows], margin: [6, 5, 6, 6] }]],
    },
    layout: {
      hLineColor: () => RULE,
      vLineColor: () => RULE,
      hLineWidth: () => 0.75,
      vLineWidth: () => 0.75,
      paddingLeft: () => 0,
      paddingRight: () => 0,
      paddingTop: () => 0,
      paddingBottom: () => 0,
    },
  };
}

function buyerBox(doc: BillingDocument): Node {
  const buyer = doc.buyer;
  const label = doc.kind.startsWith("commission")
    ? "Partenaire facturé"
    : isInvoice(doc) && doc.kind !== "receipt"
    ? "Facturé à"
    : "Client";
  return box(label, [
    { text: buyer.name, bold: true },
    ...buyer.address,
    ...(buyer.professional ? partyIdentity(buyer) : []),
    ...(buyer.email ? [{ text: buyer.email, color: MUTED }] : []),
  ]);
}

function referenceBox(doc: BillingDocument): Node {
  if (doc.voucher) {
    return box("Bon cadeau", [
      { text: `Bon cadeau n° ${doc.voucher.id.slice(0, 8).toUpperCase()}`, bold: true },
      referenceLabel(doc.reference),
      `Bénéficiaire : ${doc.voucher.recipient}`,
      `Valable jusqu'au ${frDate(doc.voucher.validUntil)}`,
    ]);
  }
  const r = doc.reference;
  const rows: Node[] = [
    { text: r.dealName, bold: true },
    referenceLabel(r),
  ];
  if (r.serviceDate) rows.push(`Date de la prestation : ${frDate(r.serviceDate)}`);
  if (r.city) rows.push(`Lieu : ${r.city}`);
  if (r.guests) rows.push(r.orderId ? `Places : ${r.guests}` : `Nombre d'invités : ${r.guests}`);
  return box("Prestation", rows);
}

const cell = (text: string, extra: Record<string, unknown> = {}) => ({ text, ...extra });

function linesTable(doc: BillingDocument): Node {
  const header = ["Désignation", "Qté", "Prix unitaire HT", "TVA", "Total HT"].map((h, i) =>
    cell(h, { style: "tableHeader", alignment: i === 0 ? "left" : "right" })
  );
  const body = doc.lines.map((line) => [
    cell(line.label),
    cell(quantity(line.qty), { alignment: "right" }),
    cell(money(line.unitPriceHT), { alignment: "right", noWrap: true }),
    cell(percent(line.vatRate), { alignment: "right", noWrap: true }),
    cell(money(line.totalHT), { alignment: "right", noWrap: true }),
  ]);
  return {
    table: { headerRows: 1, dontBreakRows: true, widths: ["*", 34, 82, 40, 82], body: [header, ...body] },
    layout: {
      fillColor: (row: number) => row === 0 ? ACCENT : row % 2 === 0 ? ZEBRA : null,
      hLineWidth: (i: number, node: { table: { body: unknown[] } }) =>
        i === 0 || i === 1 || i === node.table.body.length ? 0.75 : 0,
      vLineWidth: () => 0,
      hLineColor: () => RULE,
      paddingTop: () => 4,
      paddingBottom: () => 4,
    },
    margin: [0, 14, 0, 0],
  };
}

const plainLayout = {
  hLineWidth: (i: number, node: { table: { body: unknown[] } }) => i === node.table.body.length ? 0.75 : 0,
  vLineWidth: () => 0,
  hLineColor: () => RULE,
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

function vatTable(doc: BillingDocument): Node {
  if (doc.seller.vatExempt && doc.totalVAT === 0) {
    return { text: "TVA non applicable, art. 293 B du CGI", italics: true, margin: [0, 4, 0, 0] };
  }
  const header = ["Taux de TVA", "Base HT", "Montant TVA"].map((h, i) =>
    cell(h, { style: "smallHeader", alignment: i === 0 ? "left" : "right" })
  );
  const body = doc.vat.map((v) => [
    cell(percent(v.rate)),
    cell(money(v.base), { alignment: "right", noWrap: true }),
    cell(money(v.amount), { alignment: "right", noWrap: true }),
  ]);
  return {
    stack: [
      { text: "Détail de la TVA", style: "boxLabel" },
      { table: { widths: [60, "*", "*"], body: [header, ...body] }, layout: plainLayout },
    ],
  };
}

function totalsTable(doc: BillingDocument): Node {
  const rows: Node[][] = [];
  const row = (label: string, amount: string, strong = false, detail?: string) =>
    rows.push([
      detail
        ? { stack: [cell(label), cell(detail, { fontSize: 7.5, color: MUTED })] }
        : cell(label, strong ? { bold: true } : {}),
      cell(amount, { alignment: "right", noWrap: true, ...(strong ? { bold: true } : {}) }),
    ]);
  row("Total HT", money(doc.totalHT));
  row(doc.seller.vatExempt && doc.totalVAT === 0 ? "TVA (non applicable)" : "Total TVA", money(doc.totalVAT));
  row(CREDIT_NOTES.includes(doc.kind) ? "Total TTC de l'avoir" : "Total TTC", money(doc.totalTTC), true);
  if (doc.rounding) row("Arrondi", money(doc.rounding));
  let deducted = 0;
  // A deduction made in the lines (finalWithDeposit) is already in the totals above.
  const below = doc.deductions.filter((d) => !d.inLines);
  for (const d of below) {
    deducted += d.settled;
    const numbered = d.invoiceNumber && d.invoiceNumber !== "—";
    const date = d.invoiceIssuedAt ? ` du ${frDate(d.invoiceIssuedAt)}` : "";
    row(d.label, money(-d.settled), false, numbered ? `Facture n° ${d.invoiceNumber}${date}` : undefined);
  }
  if (below.length) row("Solde TTC", money(doc.totalTTC - deducted), true);
  if (doc.amountPaid > 0) {
    row(doc.paidAt ? `Montant réglé le ${frDate(doc.paidAt)}` : "Montant réglé", money(doc.amountPaid));
  }
  if (doc.kind === "credit_note" && doc.creditedTo) {
    if (doc.creditedTo.card > 0) row("Remboursé sur la carte bancaire", money(doc.creditedTo.card), true);
    if (doc.creditedTo.voucher > 0) row("Recrédité sur le bon cadeau", money(doc.creditedTo.voucher), true);
  } else if (doc.kind === "credit_note") row("Montant remboursé", money(doc.totalTTC + doc.rounding), true);
  else if (doc.kind === "commission_credit_note") row("Montant crédité", money(doc.amountDue), true);
  else row(isInvoice(doc) ? "Reste à payer" : "Net à payer", money(doc.amountDue), true);
  return {
    table: { widths: ["*", "auto"], body: rows },
    layout: {
      ...plainLayout,
      hLineWidth: (i: number) => i === 0 ? 0.75 : 0,
      fillColor: (i: number) => i === rows.length - 1 ? ZEBRA : null,
      paddingTop: () => 3,
      paddingBottom: () => 3,
    },
  };
}

function textSection(title: string, paragraphs: string[], extra: Record<string, unknown> = {}): Node[] {
  if (!paragraphs.length) return [];
  return [{
    stack: [
      { text: title, style: "boxLabel" },
      ...paragraphs.map((p) => ({ text: p, margin: [0, 0, 0, 2] })),
    ],
    margin: [0, 12, 0, 0],
    unbreakable: paragraphs.length < 6,
    ...extra,
  }];
}

/** XMP text (pdfkit writes the info values into the XMP packet as they are): no markup characters. */
const metadataText = (text: string) => text.replace(/&/g, "et").replace(/[<>]/g, "");

export interface PdfA3Attachment {
  /** The Factur-X (CII) XML, attached as factur-x.xml with AFRelationship /Alternative. */
  xml: string;
  /** XMP rdf:Description elements added to the packet (the Factur-X extension schema and fx:…). */
  xmp: string;
}

function definition(doc: BillingDocument, pdfA3: boolean): Record<string, unknown> {
  const sellerLine = [doc.seller.name, doc.seller.siren ? `SIREN ${doc.seller.siren}` : ""]
    .filter(Boolean)
    .join(" — ");
  const name = `${doc.title}${
    doc.number ? ` ${doc.number}` : ` — ${referenceLabel(doc.reference).toLowerCase()}`
  }`;
  return {
    pageSize: "A4",
    pageMargins: [40, 40, 40, 56],
    version: "1.7",
    subset: pdfA3 ? "PDF/A-3b" : undefined,
    language: "fr-FR",
    info: {
      title: metadataText(name),
      author: metadataText(doc.seller.name),
      subject: metadataText(`${name} — ${doc.reference.dealName}`),
      creator: metadataText(doc.issuedBy?.name ?? doc.seller.name),
      producer: "pdfmake",
    },
    defaultStyle: { font: FONT_FAMILY, fontSize: 9, color: INK, lineHeight: 1.15 },
    styles: {
      sellerName: { fontSize: 13, bold: true, color: ACCENT, margin: [0, 0, 0, 2] },
      title: { fontSize: 18, bold: true, color: ACCENT },
      number: { fontSize: 10.5, bold: true, margin: [0, 2, 0, 4] },
      boxLabel: { fontSize: 7.5, bold: true, color: MUTED, characterSpacing: 0.4, margin: [0, 0, 0, 3] },
      tableHeader: { bold: true, color: "#ffffff", fontSize: 8.5 },
      smallHeader: { bold: true, color: MUTED, fontSize: 8 },
      small: { fontSize: 7.5, color: MUTED },
    },
    footer: (page: number, count: number) => ({
      columns: [
        { text: sellerLine, style: "small" },
        { text: `${name} — page ${page} / ${count}`, style: "small", alignment: "right" },
      ],
      margin: [40, 20, 40, 0],
    }),
    content: [
      {
        columns: [{ ...(sellerBlock(doc) as object), width: "*" }, {
          ...(titleBlock(doc) as object),
          width: 230,
        }],
      },
      ...mandateBlock(doc),
      {
        columns: [{ ...(referenceBox(doc) as object), width: "*" }, {
          ...(buyerBox(doc) as object),
          width: "*",
        }],
        columnGap: 14,
        margin: [0, 14, 0, 0],
      },
      linesTable(doc),
      {
        columns: [{ ...(vatTable(doc) as object), width: "*" }, {
          ...(totalsTable(doc) as object),
          width: 250,
        }],
        columnGap: 24,
        margin: [0, 12, 0, 0],
        unbreakable: true,
      },
      ...textSection("Conditions de règlement", [doc.paymentTerms]),
      ...textSection("Informations complémentaires", doc.notes),
      ...textSection("Mentions légales", doc.mentions, { style: "small" }),
    ],
  };
}

/** Renders a definition to bytes; `prepare` may add to the pdfkit document before it is closed. */
async function render(
  def: Record<string, unknown>,
  prepare?: (pdf: PdfKitDocument) => void,
): Promise<Uint8Array> {
  const output = pdfmake().createPdf(def);
  if (prepare) prepare(await output.getStream());
  const buffer = await output.getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** The PDF of any billing document (quotes and proformas as they are downloaded). */
export function renderPdf(doc: BillingDocument): Promise<Uint8Array> {
  return render(definition(doc, false));
}

/** Embeds `data` as an associated file (PDF/A-3, ISO 32000-1 §7.11.4): the embedded-file stream with its
 * parameters, the file specification, the name tree entry and the catalog's /AF. Written here rather
 * than with pdfkit's file(), which stores /CheckSum as the 32 hexadecimal characters of the MD5 where the
 * PDF specification asks for the 16 bytes of the digest (§7.11.4.2, Table 45). */
function embedAssociatedFile(
  pdf: PdfKitDocument,
  data: Buffer,
  file: { name: string; subtype: string; relationship: string; description: string; date: Date },
): void {
  const stream = pdf.ref({
    Type: "EmbeddedFile",
    // A PDF name: "/" is written #2F.
    Subtype: file.subtype.replace(/\//g, "#2F"),
    Params: {
      // A Buffer is written as a hexadecimal string: <…> holding the 16 bytes of the digest.
      CheckSum: createHash("md5").update(data).digest(),
      Size: data.byteLength,
      CreationDate: file.date,
      ModDate: file.date,
    },
  });
  stream.end(data);
  const filespec = pdf.ref({
    Type: "Filespec",
    AFRelationship: file.relationship,
    F: new String(file.name),
    UF: new String(file.name),
    Desc: new String(file.description),
    EF: { F: stream, UF: stream },
  });
  filespec.end();
  pdf.addNamedEmbeddedFile(file.name, filespec);
  pdf._root.data.AF = [...(pdf._root.data.AF ?? []), filespec];
}

/** The same document as PDF/A-3b, with the XML attached as an associated file (Factur-X). */
export function renderPdfA3(doc: BillingDocument, attachment: PdfA3Attachment): Promise<Uint8Array> {
  return render(definition(doc, true), (pdf) => {
    embedAssociatedFile(pdf, Buffer.from(attachment.xml, "utf-8"), {
      name: "factur-x.xml",
      subtype: "text/xml",
      relationship: "Alternative",
      description: "Factur-X",
      date: new Date(),
    });
    pdf.appendXML(attachment.xmp);
  });
}

/** Any pdfmake definition drawn with the billing fonts (the gift voucher's PDF, lib/vouchers/pdf.ts). */
export function renderPdfDefinition(def: Record<string, unknown>): Promise<Uint8Array> {
  return render({ ...def, defaultStyle: { font: FONT_FAMILY, ...(def.defaultStyle as object) } });
}
