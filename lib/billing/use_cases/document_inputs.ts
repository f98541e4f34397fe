// What every billing document is built from, shared by issuing and downloading: the parties (the
// partner as seller, the platform, the customer as buyer), the deviseur's free fields shown on quotes
// or invoices, the quote's snapshot, a deposit invoice as a deduction, and the file name.
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import { depositOffered, depositPercentage } from "../../deals/rules.ts";
import { richTextToPlain } from "../../richtext/sanitize.ts";
import {
  addressLines,
  type BillingDocument,
  type Deduction,
  type Party,
  type QuoteSnapshot,
} from "../document.ts";
import { type DealBillingRow, findContactRow, findUserRow, type InvoiceRow, settingText } from "../store.ts";
import type { ContactRow } from "../../deals/store.ts";

export async function userParty(tx: Tx, id: string | null, seller: boolean): Promise<Party | null> {
  if (!id) return null;
  const u = await findUserRow(tx, id);
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

export function platformParty(config: Pick<Config, "platform">): Party {
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
export async function customerParty(tx: Tx, deal: DealBillingRow): Promise<Party> {
  const account = await userParty(tx, deal.customerId, false);
  if (account) return account;
  const c = await findContactRow(tx, deal.id);
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

/** The buyer as the deal's partner may see them: built from the contact as partner_deal_contact()
 * masks it (lib/deals/store.ts contactFor, the function behind the page and the API), so that a
 * partner's documents print of the customer exactly what its page shows. `full`: the buyer as the
 * system reads it (customerParty), for what is not a contact detail (VAT number, business or not). */
export function buyerAsPartnerSees(full: Party, contact: ContactRow | null, linked: boolean): Party {
  if (!contact) return { ...full, siren: null, vatNumber: null, address: [], email: null };
  if (!linked) {
    return {
      name: `${contact.firstname} ${contact.lastname}`.trim() || "Client",
      siren: null,
      vatNumber: null,
      address: contact.serviceAddress ? addressLines(contact.serviceAddress) : [],
      email: contact.email,
      professional: false,
      vatExempt: false,
    };
  }
  const person = `${contact.customerFirstname ?? ""} ${contact.customerLastname ?? ""}`.trim();
  const company = contact.customerCompany;
  // The company's identity (name, SIREN, address) is one flag (showAddressForPartner): the VAT number
  // goes with it.
  const identityShown = company !== null || contact.customerSiren !== null ||
    contact.customerAddress1 !== null;
  return {
    name: company || person || contact.customerEmail || "Client",
    siren: contact.customerSiren,
    vatNumber: identityShown ? full.vatNumber : null,
    address: [
      ...(company && person ? [`À l'attention de ${person}`] : []),
      contact.customerAddress1,
      contact.customerAddress2,
      [contact.customerZipcode, contact.customerCity].filter(Boolean).join(" "),
    ].filter((s): s is string => !!s),
    email: contact.customerEmail,
    professional: full.professional,
    vatExempt: false,
  };
}

export const PARTNER_COPY_MENTION =
  "Copie du partenaire : les coordonnées du client que la plateforme ne vous " +
  "communique pas n'y figurent pas. L'original de cette facture, avec l'adresse de l'acheteur, est conservé " +
  "par la plateforme, qui l'émet en votre nom, et remis au client.";

/** A partner's copy of an issued customer invoice or credit note whose buyer it may not fully see: the
 * buyer as it sees them and a mention that this is not the original (rendered without Factur-X XML). */
export function partnerCopy(document: BillingDocument, buyer: Party): BillingDocument {
  return { ...document, buyer, mentions: [PARTNER_COPY_MENTION, ...document.mentions] };
}

const sameParty = (a: Party, b: Party) => JSON.stringify(a) === JSON.stringify(b);
export { sameParty };

/** The free fields the deviseur settings show on quotes or on invoices, as plain text. */
export async function notes(tx: Tx, on: "quote" | "invoice"): Promise<string[]> {
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

export function snapshot(deal: DealBillingRow): QuoteSnapshot {
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

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export const deduction = (invoice: InvoiceRow, label: string): Deduction => ({
  label,
  invoiceNumber: invoice.number,
  invoiceIssuedAt: invoice.document.issuedAt ?? null,
  totalHT: invoice.totalHT,
  totalVAT: invoice.totalVAT,
  totalTTC: invoice.totalTTC,
  settled: invoice.totalTTC + (invoice.document.rounding ?? 0),
});

/** "facture-d-acompte-FA-2026-1B4F05-00001.pdf", "devis-42.pdf" (quotes and proformas have no number:
 * the deal's). */
export const fileName = (doc: BillingDocument) => {
  const title = doc.title.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `${title}-${doc.number ?? doc.reference.dealId}.pdf`;
};
