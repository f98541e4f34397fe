// A paid workshop registration canceled by the organiser: what is canceled, what is refunded.
import type { OutgoingEmail } from "../outbox.ts";
import { formatEuros } from "../../money.ts";
import { formatDateTime } from "../../sessions/rules.ts";
import { formatDay } from "../../vouchers/rules.ts";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function registrationCanceledEmail(
  c: {
    to: string;
    firstname: string;
    title: string;
    dtstart: number;
    quantity: number;
    /** Cents refunded to the card. */
    refunded: number;
    /** Cents given back to the gift voucher that paid part of it (0: none). */
    voucherReturned?: number;
    /** Unix seconds: the voucher's validity after the give-back. */
    voucherValidUntil?: number | null;
    reason: string;
    sessionsUrl: string;
  },
): OutgoingEmail {
  const greeting = c.firstname ? `Bonjour ${c.firstname},` : "Bonjour,";
  const when = formatDateTime(c.dtstart);
  const places = `${c.quantity} ${c.quantity > 1 ? "places" : "place"}`;
  const refund = c.refunded > 0
    ? `Votre paiement de ${
      formatEuros(c.refunded)
    } vous est remboursé sur votre carte (sous quelques jours selon votre banque) ; un avoir vous sera adressé.`
    : "";
  const voucher = (c.voucherReturned ?? 0) > 0
    ? `La part réglée par bon cadeau, ${
      formatEuros(c.voucherReturned ?? 0)
    }, est recréditée sur votre bon cadeau${
      c.voucherValidUntil ? `, valable jusqu'au ${formatDay(c.voucherValidUntil)}` : ""
    } : utilisez-la pour une autre date.`
    : "";
  const reason = c.reason ? `Motif : ${c.reason}` : "";
  const text = [
    greeting,
    "",
    `Votre inscription à l'atelier « ${c.title} » du ${when} (${places}) est annulée.`,
    reason,
    refund,
    voucher,
    "",
    `Choisissez une autre date quand vous le souhaitez : ${c.sessionsUrl}`,
    "",
    "Toutes nos excuses pour ce contretemps.",
  ].filter((line, i, all) => line !== "" || all[i - 1] !== "").join("\n");
  const html = `<p>${escapeHtml(greeting)}</p>
<p>Votre inscription à l'atelier « ${escapeHtml(c.title)} » du ${
    escapeHtml(when)
  } (${places}) est annulée.</p>
${reason ? `<p>${escapeHtml(reason)}</p>` : ""}${refund ? `<p>${escapeHtml(refund)}</p>` : ""}${
    voucher ? `<p>${escapeHtml(voucher)}</p>` : ""
  }
<p><a href="${escapeHtml(c.sessionsUrl)}">Choisir une autre date</a></p>
<p>Toutes nos excuses pour ce contretemps.</p>`;
  return {
    to: c.to,
    template: "registration-canceled",
    subject: `Inscription annulée : ${c.title}, ${when}`,
    text,
    html,
  };
}
