// The header's cart link follows the cart without a page load: the islands that change the cart
// (session dates, cart page) call these after each change. Pages without islands ship no JavaScript,
// so the link itself is server-rendered (hidden while the cart is empty) and only updated here.
import { api } from "../ui/api.ts";

/** The link's accessible name, as the server renders it. */
export function cartLinkLabel(count: number): string {
  return `Mon panier : ${count} ${count > 1 ? "places" : "place"}`;
}

/** Shows the header's cart links with this many places (hides them at 0). */
export function setHeaderCartCount(count: number): void {
  if (typeof document === "undefined") return;
  for (const link of document.querySelectorAll<HTMLElement>("[data-cart-link]")) {
    link.hidden = count <= 0;
    link.setAttribute("aria-label", cartLinkLabel(count));
    const badge = link.querySelector<HTMLElement>("[data-cart-count]");
    if (badge) badge.textContent = String(count);
  }
}

/** Reads the cart again (GET /api/cart) and updates the header; the header only shows it, so a failure is ignored. */
export async function refreshHeaderCart(): Promise<void> {
  try {
    const { results } = await api<{ results: { lines: { quantity: number }[] } }>("GET", "/api/cart");
    setHeaderCartCount(results.lines.reduce((sum, line) => sum + line.quantity, 0));
  } catch {
    // The next page load shows the right count.
  }
}
