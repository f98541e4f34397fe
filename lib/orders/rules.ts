// Orders (workshop places, gift vouchers) paid by card, pure rules shared by the server and the
// islands: the French texts of the checkout, the VAT of a workshop, and the invoice lines of a cart
// line (cents HT, frozen on the order at checkout).
import type { DocumentLine } from "../billing/document.ts";
import { splitTTC } from "../billing/document.ts";
import { type DatePrice, formatDateTime, sessionPrice, unitPrice } from "../sessions/rules.ts";

/** Workshops are sold by the platform, VAT included at the standard rate (their price and travel cost
 * are TTC; additional costs carry their own rate). */
export const WORKSHOP_VAT_RATE = 20;

export type OrderKind = "cart" | "voucher";
export type OrderStatus = "pending" | "paid" | "canceled" | "expired";

export const ORDER_STATUSES: Record<OrderStatus, string> = {
  pending: "En attente de paiement",
  paid: "Réglée",
  canceled: "Annulée",
  expired: "Expirée",
};

export const CHECKOUT_MESSAGES = {
  customersOnly:
    "Seuls les clients peuvent régler une réservation. Veuillez vous connecter avec un compte client.",
  loginRequired: "Veuillez vous connecter pour régler votre réservation.",
  emptyCart: "Votre panier est vide.",
  expired:
    "Votre réservation a expiré et ses places ont été remises en vente : ajoutez de nouveau la date à votre panier.",
  dateUnavailable:
    "Une date de votre panier n'est plus ouverte aux réservations : retirez-la pour continuer.",
  orderChanged: "Votre panier a changé pendant le paiement : veuillez recommencer.",
  pay: "Payer",
  payTitle: "Paiement de votre réservation",
  paid: "Paiement effectué avec succès ! Vos places sont réservées. Vous recevrez un email de confirmation.",
  refunding:
    "Les places de cette réservation ne sont plus disponibles : votre paiement vous est remboursé intégralement, un avoir vous sera adressé.",
  successTitle: "Merci, votre réservation est confirmée !",
  successText: "Vos places sont réservées. Retrouvez votre reçu et votre facture dans 'Vos sessions'.",
  toSessions: "Voir mes sessions",
  documentNotAvailable: "Ce document n'est pas disponible pour cette inscription.",
  registrationNotFound: "Cette inscription n'existe pas.",
  holdNote: "Vos places restent réservées pendant le paiement.",
  canceled: "L'inscription a été annulée.",
  alreadyCanceled: "Cette inscription est déjà annulée.",
} as const;

/** The invoice lines (HT) of `quantity` places of a date: the place and the travel cost at the
 * workshop's VAT, each additional cost at its own rate. */
export function registrationLines(
  label: string,
  price: DatePrice,
  quantity: number,
): Omit<DocumentLine, "totalHT">[] {
  const lines: Omit<DocumentLine, "totalHT">[] = [{
    label,
    qty: quantity,
    unitPriceHT: splitTTC(price.priceTTC, WORKSHOP_VAT_RATE).ht,
    vatRate: WORKSHOP_VAT_RATE,
  }];
  if (price.travelCostTTC > 0) {
    lines.push({
      label: "Frais de déplacement",
      qty: quantity,
      unitPriceHT: splitTTC(price.travelCostTTC, WORKSHOP_VAT_RATE).ht,
      vatRate: WORKSHOP_VAT_RATE,
    });
  }
  for (const cost of price.additionalCosts) {
    lines.push({ label: cost.title, qty: quantity, unitPriceHT: cost.ht, vatRate: cost.vat });
  }
  return lines;
}

/** "Atelier « Cocktails d'hiver » — Bordeaux, 12/12/2026 19:00". */
export function registrationLabel(title: string, city: string, dtstart: number): string {
  return `Atelier « ${title} » — ${city}, ${formatDateTime(dtstart)}`;
}

/** One cart line as the order keeps it (cents TTC; the invoice lines HT). */
export function orderLineOf(
  line: { lineId: string; title: string; city: string; dtstart: number; quantity: number; price: DatePrice },
) {
  const label = registrationLabel(line.title, line.city, line.dtstart);
  return {
    lineId: line.lineId,
    label,
    unitAmount: unitPrice(line.price),
    amount: sessionPrice(line.price, line.quantity),
    detail: registrationLines(label, line.price, line.quantity),
  };
}
