// The admin deals list's calls to the API, each answer read in one place: when an answer's shape
// changes (GET /api/deal/index's page, for one), only its function here changes.
import { api } from "../../ui/api.ts";
import { eurosToCents } from "../../../lib/money.ts";
import {
  type AdminListQuery,
  type DealListRow,
  type ListItemJson,
  queryString,
  rowFromJson,
} from "./rows.ts";

export interface Company {
  id: string;
  name: string;
  email: string;
  city: string | null;
}

/** GET /api/deal/index: one page of the list, as rows in cents. */
export async function fetchDealPage(query: AdminListQuery): Promise<{ rows: DealListRow[]; total: number }> {
  const answer = await api<{ results: ListItemJson[]; total: number }>(
    "GET",
    `/api/deal/index${queryString(query)}`,
  );
  return { rows: answer.results.map(rowFromJson), total: answer.total };
}

/** GET /api/company/index: the partners a deal may be given to. */
export async function fetchPartners(): Promise<Company[]> {
  return (await api<{ results: Company[] }>("GET", "/api/company/index")).results;
}

/** The totals before and after a change of partner, in cents, as the server's quote engine gives them
 * (lib/deals/use_cases/partner_change.ts PartnerChangePreview). */
export interface PartnerPreview {
  repriced: boolean;
  current: { totalHtCents: number; totalTtcCents: number };
  next: { totalHtCents: number; totalTtcCents: number };
  /** The deal goes back to 'Nouvelle demande' for the new partner. */
  backToNew: boolean;
  /** What the change does beyond the totals (status reset, emails to both partners), or null. */
  notice: string | null;
}

/** GET /api/deal/{id}/partner-preview: what giving the deal to `companyId` would do; nothing changes. */
export async function fetchPartnerPreview(dealId: number, companyId: string): Promise<PartnerPreview> {
  return (await api<{ results: PartnerPreview }>(
    "GET",
    `/api/deal/${dealId}/partner-preview?company=${encodeURIComponent(companyId)}`,
  )).results;
}

/** PATCH /api/deal/{id} with the partner: the row's new partner, status and total HT (cents). */
export async function changePartner(dealId: number, companyId: string): Promise<{
  company: { id: string; name: string } | null;
  status: DealListRow["status"] | undefined;
  totalHt: number | null;
  /** The server's confirmation when it says more than the list's own (the deal went back to 'new'). */
  message: string | null;
}> {
  const answer = await api<{
    message?: string;
    results: {
      company: { id: string; name: string } | null;
      status: DealListRow["status"];
      totals: { totalInvoiceByPartner?: number };
    };
  }>("PATCH", `/api/deal/${dealId}`, { company: companyId });
  const { company, status, totals } = answer.results;
  return {
    company,
    status,
    totalHt: eurosToCents(totals?.totalInvoiceByPartner),
    message: answer.message ?? null,
  };
}

/** DELETE /api/deal/{id} (a paid deal answers 409 with the reason, in French). */
export async function deleteDeal(dealId: number): Promise<void> {
  await api("DELETE", `/api/deal/${dealId}`);
}
