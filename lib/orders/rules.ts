// Orders (workshop places, gift vouchers) paid by card, pure rules shared by the server and the
// islands: the statuses and the French texts of the checkout. (What a cart line costs and invoices:
// ./pricing.ts, server side.)

export type OrderKind = "cart" | "voucher";
export type OrderStatus = "pending" | "paid" | "canceled" | "expired";

export const ORDER_STATUSES: Record<OrderStatus, string> = {
  pending: "En attente de paiement",
  paid: "Réglée",
  canceled: "Annulée",
  expired: "Expirée",
};

/** The admin's label of an order: a paid order whose card payments were given back (a canceled date)
 * reads 'Remboursée', or 'Remboursée en partie' (overpayments, refunded on their own, do not count). */
export function orderStatusLabel(
  status: OrderStatus,
  payments: { amount: number; refunded: number; overpayment: boolean }[],
): string {
  const paid = payments.filter((p) => !p.overpayment);
  const refunded = paid.reduce((sum, p) => sum + p.refunded, 0);
  if (status !== "paid" || refunded <= 0) return ORDER_STATUSES[status];
  return refunded >= paid.reduce((sum, p) => sum + p.amount, 0) ? "Remboursée" : "Remboursée en partie";
}

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
  successText: "Retrouvez votre reçu et votre facture dans 'Vos sessions'.",
  toSessions: "Voir mes sessions",
  documentNotAvailable: "Ce document n'est pas disponible pour cette inscription.",
  registrationNotFound: "Cette inscription n'existe pas.",
  holdNote: "Vos places restent réservées pendant le paiement.",
  canceled: "L'inscription a été annulée.",
  alreadyCanceled: "Cette inscription est déjà annulée.",
  // 'Vos sessions': a checkout left unpaid, its places still held.
  unpaidNote: "Paiement non finalisé : vos places sont gardées jusqu'à",
  finishPaying: "Finaliser le paiement",
  release: "Libérer les places",
  released: "Vos places sont libérées et la réservation est annulée.",
  notReleasable: "Cette réservation n'est plus en attente de paiement : elle ne peut pas être libérée.",
} as const;

/** After a payment: places added to the cart during it are not paid, and still held there. */
export function leftInCartMessage(places: number): string {
  return places > 1
    ? `${places} places ajoutées pendant le paiement restent dans votre panier, réservées jusqu'à la fin de leur délai.`
    : "1 place ajoutée pendant le paiement reste dans votre panier, réservée jusqu'à la fin de son délai.";
}
