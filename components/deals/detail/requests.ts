// The deal API as the page's islands call it (spec 001 §7 and the workflow actions of
// routes/deals_api.ts), and the choice of the message to show when a call fails.
import { api, ApiError, submitOnce } from "../../ui/api.ts";
import type { CocktailValidation, DealStatus, RepricingProposal } from "../../../lib/deals/rules.ts";
import type { DealPayload, LedgerPayment } from "./types.ts";

export type { RepricingProposal };

export interface DealAnswer {
  status: "success";
  results: DealPayload;
  message?: string;
}

export type DealAction =
  | "send-to-partner"
  | "validate-availability"
  | "accept"
  | "payments"
  | "refuse"
  | "reset-choices";

export const dealApi = {
  patch: (id: number, body: Record<string, unknown>) => api<DealAnswer>("PATCH", `/api/deal/${id}`, body),
  act: (id: number, action: DealAction, body: Record<string, unknown> = {}) =>
    // A manual payment creates one: one Idempotency-Key per submission, resent on its retries.
    action === "payments"
      ? submitOnce<DealAnswer>(`/api/deal/${id}/payments`, body)
      : api<DealAnswer>("POST", `/api/deal/${id}/${action}`, body),
  history: (id: number) =>
    api<{
      results: {
        fromStatus: DealStatus | null;
        toStatus: DealStatus;
        action: string;
        actorRole: string;
        actorName: string | null;
        impersonated: boolean;
        reason: string | null;
        createdAt: string;
      }[];
    }>("GET", `/api/deal/${id}/history`),
  repricing: (id: number) => api<{ results: RepricingProposal }>("GET", `/api/deal/${id}/repricing`),
  applyRepricing: (id: number, expectedTotalHt: number) =>
    api<DealAnswer>("POST", `/api/deal/${id}/repricing`, { expectedTotalHt }),
  cocktailValidation: (id: number) =>
    api<{ results: CocktailValidation }>("GET", `/api/deal/${id}/cocktail-validation`),
  /** The admin's view of the deal's payments and refunds (cents). */
  ledger: (id: number) => api<{ results: LedgerPayment[] }>("GET", `/api/deal/${id}/payments`),
  /** POST /api/deal/{id}/refunds: the amount in euros, as the API reads amounts (lib/money.ts). */
  refund: (id: number, body: { paymentId: string; amount: number; reason: string }) =>
    api<{ status: "success"; results: null; message?: string }>("POST", `/api/deal/${id}/refunds`, body),
};

/** What went wrong, in French: the server's message for a refused request (4xx), else `fallback`
 * (the spec's message for the action: network failures and server errors say nothing useful). */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status < 500) {
    const body = error.body;
    const fields = Object.values(body.errors ?? {}).filter((m) => m && m !== body.message);
    return fields[0] ?? body.message ?? body.error ?? fallback;
  }
  return fallback;
}

/** The per-field messages of a refused request (keyed by the payload's top-level field). */
export function failureFields(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.body.errors ?? {} : {};
}
