// The outbox queues of the workshop operations, run by every instance's worker (claimed with a lease and
// `for update skip locked`, lib/outbox), each in the transaction that marks its job done: exactly once.
//   * seat-offer-mail: the waiting list set a place aside for a subscriber (the migration's trigger
//     enqueued the job in the very transaction that freed the place): write the email with its signed,
//     single-use link, and start the offer's 2 hours.
//   * session-date-canceled-mail: a date was canceled: one email to each booker it concerned.
import type { OutboxHandler } from "../outbox/worker.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import { seatOfferEmail } from "../mail/templates/seat-offer.ts";
import { sessionDateCanceledEmail } from "../mail/templates/session-date-canceled.ts";
import { formatEuros } from "../money.ts";
import { formatDateTime, SEAT_OFFER_HOURS } from "./rules.ts";
import { findOffer, markOfferMailed, registrationContact } from "./ops_store.ts";
import { offerLink, signOfferToken } from "./offer_token.ts";
import { toUnix } from "./offers.ts";

const PARIS_TIME = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  hour: "2-digit",
  minute: "2-digit",
});

export const seatOfferMailHandler: OutboxHandler<{ offerId: string }> = {
  queue: "seat-offer-mail",
  async runInTransaction(tx, deps, job) {
    const offer = await findOffer(tx, job.payload.offerId, true);
    // Mailed already (a job run twice), or settled before its email (date closed meanwhile): nothing.
    if (!offer || offer.status !== "offered" || offer.mailedAt) return;
    const expiresAt = await markOfferMailed(tx, offer.id);
    const token = await signOfferToken(deps.config.appSecret, offer.id);
    const link = offerLink(deps.config.appUrl, token);
    // Kept readable in the outbox, unlike reset links and voucher codes: the link is signed, lapses in
    // SEAT_OFFER_HOURS, and only puts the offered place in its holder's own cart (an admin, who reads
    // the outbox, can seat anyone anyway); the organiser can forward it when the subscriber asks.
    await enqueueEmail(
      tx,
      seatOfferEmail({
        to: offer.email,
        title: offer.sessionTitle,
        when: formatDateTime(toUnix(offer.dtstart)),
        until: PARIS_TIME.format(expiresAt),
        hours: SEAT_OFFER_HOURS,
        link,
      }),
    );
  },
};

export interface CanceledMailPayload {
  title: string;
  dtstart: number;
  /** Registration id → cents refunded (0: nothing was paid). */
  registrations: Record<string, number>;
}

export const dateCanceledMailHandler: OutboxHandler<CanceledMailPayload> = {
  queue: "session-date-canceled-mail",
  async runInTransaction(tx, deps, job) {
    const { title, dtstart, registrations } = job.payload;
    for (const [id, refunded] of Object.entries(registrations)) {
      const contact = await registrationContact(tx, id);
      if (!contact) continue;
      await enqueueEmail(
        tx,
        sessionDateCanceledEmail({
          to: contact.email,
          firstname: contact.firstname,
          title,
          when: formatDateTime(dtstart),
          quantity: contact.quantity,
          refund: refunded > 0 ? formatEuros(refunded) : null,
          link: `${deps.config.appUrl}/sessions`,
        }),
      );
    }
  },
};
