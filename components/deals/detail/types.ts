// What the deal detail page hands to its islands (JSON-safe: euros as the API gives them, unix
// seconds for dates), and the shapes its parts share. Types only: the islands' bundles take nothing
// from the server files named here.
import type { DealPayload } from "../../../lib/deals/payload.ts";
import type { DealStatus } from "../../../lib/deals/rules.ts";
import type { Catalogue } from "../../../lib/deals/settings.ts";
import type { LedgerPayment } from "../../../lib/payments/rules.ts";

export type { Catalogue, DealPayload, LedgerPayment };

/** Who looks at the page: the guard lets admins and partners in. */
export type DealViewer = "Admin" | "Company";

/** One status change of the deal, as the history list shows it. */
export interface HistoryEntry {
  fromStatus: DealStatus | null;
  toStatus: DealStatus;
  action: string;
  actorRole: string;
  actorName: string | null;
  impersonated: boolean;
  reason: string | null;
  /** Unix seconds. */
  at: number;
}

export interface DealDetailProps {
  deal: DealPayload;
  role: DealViewer;
  history: HistoryEntry[];
  /** The partner's cocktail catalogue (the lists the client chooses from), null without a partner. */
  catalogue: Catalogue | null;
  backHref: string;
  /** Admins: the deal's payments, their refunds and credit notes (cents, unix seconds); null for a
   * partner. */
  ledger: LedgerPayment[] | null;
}

/** The history as the API sends it (dates as ISO text) or the page (dates as Date), made uniform. */
export function historyEntries(
  rows: {
    fromStatus: DealStatus | null;
    toStatus: DealStatus;
    action: string;
    actorRole: string;
    actorName: string | null;
    impersonated: boolean;
    reason: string | null;
    createdAt: Date | string | number;
  }[],
): HistoryEntry[] {
  return rows.map(({ createdAt, ...rest }) => ({
    ...rest,
    at: typeof createdAt === "number" ? createdAt : Math.floor(new Date(createdAt).getTime() / 1000),
  }));
}
