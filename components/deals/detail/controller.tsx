// The state the deal page's parts share: the deal as last answered by the server, who looks at it, and
// `run`, which sends one request, takes the deal it answers, and shows the outcome at the top of the
// screen (6 s for the quote detail, 2.5 s for settings toasts, spec 001 §9).
import { createContext } from "preact";
import { useContext } from "react";
import type { NoticeState } from "../../ui/Notice.tsx";
import type { DealAnswer } from "./requests.ts";
import type { DealPayload, DealViewer, LedgerPayment } from "./types.ts";

/** Spec 001 §2.2: the quote detail's success notification. */
export const SAVE_NOTICE_MS = 6000;
/** Spec 001 §9: description and admin settings saves. */
export const TOAST_MS = 2500;
export const DEFAULT_SAVED = "Informations mises à jour !";

export interface PageNotice extends NoticeState {
  durationMs: number;
  /** Offer 'Voir le statut' (quote detail saves). */
  statusLink: boolean;
}

export interface RunOptions {
  /** The spec's message when the server gives none. */
  error: string;
  /** Shown when the server's answer has no message. */
  success?: string;
  durationMs?: number;
  statusLink?: boolean;
}

export type RunResult = { ok: true; deal: DealPayload } | {
  ok: false;
  message: string;
  fields: Record<string, string>;
};

export interface DealController {
  deal: DealPayload;
  role: DealViewer;
  isAdmin: boolean;
  /** adminSettings.disableQuoteEdits */
  locked: boolean;
  run(request: () => Promise<DealAnswer>, options: RunOptions): Promise<RunResult>;
  notify(notice: Omit<PageNotice, "key">): void;
  showTab(tab: string): void;
  /** Admins: the deal's payments and refunds as last read (null for a partner). */
  ledger: LedgerPayment[] | null;
  /** Reads them again (GET /api/deal/{id}/payments); false when that failed. */
  reloadLedger(): Promise<boolean>;
}

export const DealContext = createContext<DealController | null>(null);

export function useDeal(): DealController {
  const controller = useContext(DealContext);
  if (!controller) throw new Error("useDeal() outside the deal page");
  return controller;
}
