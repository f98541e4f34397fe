// Islands of the deal page are hydrated separately: they tell each other of a deal's new state with
// one window event. Whoever saves a change dispatches it with the deal payload the server answered;
// islands showing the deal take it.
import type { DealPayload } from "../../../lib/deals/payload.ts";

const DEAL_UPDATED_EVENT = "deal:updated";

export function announceDeal(deal: DealPayload, source: string): void {
  globalThis.dispatchEvent(new CustomEvent(DEAL_UPDATED_EVENT, { detail: { deal, source } }));
}

/** Calls `take` with every deal announced by another source; returns the unsubscribe function. */
export function onDealAnnounced(id: number, source: string, take: (deal: DealPayload) => void): () => void {
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<{ deal: DealPayload; source: string }>).detail;
    if (detail?.deal?.id === id && detail.source !== source) take(detail.deal);
  };
  globalThis.addEventListener(DEAL_UPDATED_EVENT, listener);
  return () => globalThis.removeEventListener(DEAL_UPDATED_EVENT, listener);
}
