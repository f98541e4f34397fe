// The deal as the API answers it (spec 001 §3, 000 §3): euros for amounts, unix seconds for dates,
// and only what the caller's role may see. A partner receives the customer's email, phone, company,
// address and the precise service address only when the matching flag is on: the database already
// masked them (partner_deal_contact), and this shape never adds them back.
import type { CompanyCard, ContactRow, DealListItem, DealRow } from "./store.ts";
import type { PhotoRow } from "./photo_store.ts";
import {
  ADMIN_SETTING_KEYS,
  type AdminSettings,
  type DealSettings,
  type DealStatus,
  DEFAULT_ADMIN_SETTINGS,
  DEFAULT_SETTINGS,
  depositOffered,
  refusalBanner,
  STATUS_LABELS,
} from "./rules.ts";
import { centsToEuros, withVat } from "../money.ts";
import { mapIframe } from "./map.ts";
import { cleanStoredRichText, richTextToPlain } from "../richtext/sanitize.ts";
import type { Catalogue } from "./settings.ts";

export type Viewer = "Admin" | "Company" | "Customer";

export interface LinePayload {
  label: string;
  qty: number;
  unitCost: number;
  totalCost: number;
  totalCostVat: number;
}

export interface TotalsPayload {
  totalCost: number;
  managementFee: number;
  projectManagement: number;
  totalInvoiceByPartner: number;
  vatAmount: number;
  totalTTC: number;
  fixedCommission: number;
  pricePerPerson: number;
  averageCocktailPrice: number;
}

export interface CustomerPayload {
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  phone: string | null;
  name: string | null;
  siren: string | null;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
}

export interface PhotoPayload {
  id: string;
  url: string;
  thumbUrl: string;
}

/** The deal's partner. The back office reads its id, name, email and city; the customer reads the
 * spec's block instead (000 §3: name, slug, summary, photos, vatExemption, cocktails), never its email. */
export interface CompanyPayload {
  id: string;
  name: string;
  city: string | null;
  email?: string;
  slug?: string;
  /** The partner's word on this quote, as plain text (at most COMPANY_SUMMARY_MAX characters). */
  summary?: string;
  /** The partner's photos on this quote (at most 4, as the page shows them). */
  photos?: string[];
  vatExemption?: boolean;
  cocktails?: Catalogue;
}

export interface DealPayload {
  id: number;
  name: string;
  token: string;
  status: DealStatus;
  statusLabel: string;
  hubspotId: string | null;
  refusalReason: string | null;
  refusalBanner: string | null;
  adminComments: string;
  lines: LinePayload[];
  settings: DealSettings;
  choices: { cocktails: string[] };
  adminSettings: AdminSettings;
  adminDescription: string;
  description: string;
  /** The map, rendered by the server from its checked URL (never HTML someone typed). */
  map: string;
  mapUrl: string | null;
  photos: string[];
  photoItems: PhotoPayload[];
  customField1: string;
  customField2: string;
  parameters: { vat: number; commissionRate: number };
  properties: Record<string, unknown>;
  calculations: { nbCocktails: number; officialStaffCount: number };
  totals: TotalsPayload;
  depositPaidAt: number | null;
  depositAmount: number | null;
  /** The quote's total TTC in euros (spec 000 §3 totalAmount; the same as totals.totalTTC). */
  totalAmount: number;
  paidAt: number | null;
  totalAmountPaid: number | null;
  /** The customer's account (masked for a partner), or null when no customer is linked. */
  customer: CustomerPayload | null;
  company: CompanyPayload | null;
  /** The contact the request gave (masked for a partner). */
  firstname: string;
  lastname: string;
  email: string | null;
  phone: string | null;
  createdAt: number;
  editedAt: number | null;
}

const unix = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);
const euros = (cents: number | null | undefined) => (cents == null ? null : centsToEuros(cents));

/** A deal's settings as shown everywhere: the defaults under what is stored, and the deposit as the
 * server offers it (spec 000 §9: unless hasDeposit is explicitly false, for deals stored without it). */
export function settingsOf(stored: Partial<DealSettings>): DealSettings {
  return {
    ...DEFAULT_SETTINGS,
    ...stored,
    hasDeposit: depositOffered(stored),
    customCocktails: stored.customCocktails ?? [],
  };
}

function adminSettingsOf(stored: Partial<AdminSettings>): AdminSettings {
  const settings = { ...DEFAULT_ADMIN_SETTINGS };
  for (const key of ADMIN_SETTING_KEYS) settings[key] = stored[key] === true;
  return settings;
}

export function dealPayload(
  viewer: Viewer,
  deal: DealRow,
  contact: ContactRow | null,
  company: CompanyCard | null,
  photos: PhotoRow[],
  photoUrl: (dealId: number, fileName: string, thumb: boolean) => string,
): DealPayload {
  const vat = deal.parameters.vat ?? 20;
  const totals = deal.totals;
  const properties = { ...deal.properties };
  // The precise address lives with the contact: present only when the viewer may see it.
  if (contact?.serviceAddress) properties.adresse_precise = contact.serviceAddress;
  else delete properties.adresse_precise;
  const customer: CustomerPayload | null = deal.customerId && contact
    ? {
      firstname: contact.customerFirstname,
      lastname: contact.customerLastname,
      email: contact.customerEmail,
      phone: contact.customerPhone,
      name: contact.customerCompany,
      siren: contact.customerSiren,
      address1: contact.customerAddress1,
      address2: contact.customerAddress2,
      zipcode: contact.customerZipcode,
      city: contact.customerCity,
    }
    : null;
  const photoItems = photos.map((p) => ({
    id: p.id,
    url: photoUrl(deal.id, p.fileName, false),
    thumbUrl: photoUrl(deal.id, p.fileName, true),
  }));
  return {
    id: deal.id,
    name: deal.name,
    token: deal.token,
    status: deal.status,
    statusLabel: STATUS_LABELS[deal.status],
    hubspotId: viewer === "Admin" ? deal.hubspotId : null,
    refusalReason: deal.refusalReason,
    refusalBanner: refusalBanner(deal.status, deal.refusalReason),
    adminComments: viewer === "Customer" ? "" : deal.adminComments,
    lines: deal.lines.map((line) => ({
      label: line.label,
      qty: line.qty,
      unitCost: centsToEuros(line.unitCost),
      totalCost: centsToEuros(line.totalCost),
      totalCostVat: centsToEuros(withVat(line.totalCost, vat)),
    })),
    settings: settingsOf(deal.settings),
    choices: { cocktails: deal.choices.cocktails ?? [] },
    adminSettings: adminSettingsOf(deal.adminSettings),
    // Rich text is sanitised again as it is read: what was stored under older rules is shown under
    // today's (lib/richtext/sanitize.ts), on every page, island and API answer built from this shape.
    adminDescription: cleanStoredRichText(deal.adminDescription),
    description: cleanStoredRichText(deal.description),
    map: deal.mapUrl ? mapIframe(deal.mapUrl) : "",
    mapUrl: deal.mapUrl,
    photos: photoItems.map((p) => p.url),
    photoItems,
    customField1: cleanStoredRichText(deal.customField1),
    customField2: cleanStoredRichText(deal.customField2),
    parameters: { vat, commissionRate: deal.parameters.commissionRate ?? 0 },
    properties,
    calculations: {
      nbCocktails: deal.calculations.nbCocktails ?? 0,
      officialStaffCount: deal.calculations.officialStaffCount ?? 0,
    },
    totals: {
      totalCost: centsToEuros(totals.totalCost ?? 0),
      managementFee: centsToEuros(totals.managementFee ?? 0),
      projectManagement: centsToEuros(totals.projectManagement ?? 0),
      totalInvoiceByPartner: centsToEuros(totals.totalInvoiceByPartner ?? 0),
      vatAmount: centsToEuros(totals.vatAmount ?? 0),
      totalTTC: centsToEuros(totals.totalTTC ?? 0),
      fixedCommission: viewer === "Customer" ? 0 : centsToEuros(totals.fixedCommission ?? 0),
      pricePerPerson: centsToEuros(totals.pricePerPerson ?? 0),
      averageCocktailPrice: centsToEuros(totals.averageCocktailPrice ?? 0),
    },
    depositPaidAt: unix(deal.depositPaidAt),
    depositAmount: euros(deal.depositAmount),
    totalAmount: centsToEuros(totals.totalTTC ?? 0),
    paidAt: unix(deal.paidAt),
    totalAmountPaid: euros(deal.totalAmountPaid),
    customer,
    // A customer never reads the partner's email (the customer's use cases add the spec's block).
    company: company
      ? viewer === "Customer"
        ? { id: company.id, name: company.name, city: company.city }
        : { id: company.id, name: company.name, email: company.email, city: company.city }
      : null,
    firstname: contact?.firstname ?? "",
    lastname: contact?.lastname ?? "",
    email: contact?.email ?? null,
    phone: contact?.phone ?? null,
    createdAt: unix(deal.createdAt)!,
    editedAt: unix(deal.editedAt),
  };
}

/** A deal in a list, as the API answers it: euros and unix seconds like the deal itself. */
export interface DealListPayload {
  id: number;
  token: string;
  name: string;
  hubspotId: string | null;
  status: DealStatus;
  statusLabel: string;
  serviceDate: string | null;
  guests: number | null;
  eventType: string | null;
  totalHt: number;
  createdAt: number;
  customerName: string;
  companyId: string | null;
  companyName: string | null;
  depositAmount: number | null;
  totalAmountPaid: number | null;
  /** The kinds of payment received (deposit, balance, total): the invoices due. */
  paidKinds: string[];
  showProforma: boolean;
  depositOffered: boolean;
}

export function dealListPayload(item: DealListItem): DealListPayload {
  return {
    ...item,
    statusLabel: STATUS_LABELS[item.status],
    totalHt: centsToEuros(item.totalHt),
    createdAt: unix(item.createdAt)!,
    depositAmount: euros(item.depositAmount),
    totalAmountPaid: euros(item.totalAmountPaid),
  };
}

export const COMPANY_SUMMARY_MAX = 280;
/** The most photos a quote shows its customer (the page's gallery, spec 000 §9). */
export const CUSTOMER_PHOTOS_MAX = 4;

/** The customer's block of the partner (spec 000 §3 company): what the customer page shows of it. */
export function customerCompanyPayload(
  company: { id: string; name: string; slug: string; city: string | null; vatExemption: boolean },
  deal: Pick<DealPayload, "description" | "photos">,
  cocktails: Catalogue,
): CompanyPayload {
  const text = richTextToPlain(deal.description);
  const summary = text.length > COMPANY_SUMMARY_MAX
    ? `${text.slice(0, COMPANY_SUMMARY_MAX - 1).trimEnd()}…`
    : text;
  return {
    id: company.id,
    name: company.name,
    slug: company.slug,
    city: company.city,
    summary,
    photos: deal.photos.slice(0, CUSTOMER_PHOTOS_MAX),
    vatExemption: company.vatExemption,
    cocktails,
  };
}
