// 'Vos sessions' (spec 000 §2): the customer's registrations — session (title linking to the session's
// page at that date, start DD/MM/YYYY HH:mm, the venue, the order's reference), places, discount,
// amount paid (a booking paid in part by a gift voucher shows what the card paid, the voucher beside
// it), status (§4 colours), actions. The share action is offered while pending; the receipt and the
// invoice once the checkout issued them (§4: invoice when invoiced, receipt unless canceled). A pending
// booking whose checkout was left unpaid says until when its places are held, and offers to finish
// paying (the cart, /panier) or to release them (a form: no JavaScript needed).
import { PageTitle } from "../dashboard/parts.tsx";
import { STACKED } from "../ui/stacked_table.ts";
import { Island } from "../Island.tsx";
import SessionShareButton from "../../islands/SessionShareButton.tsx";
import { formatEuros } from "../../lib/money.ts";
import {
  formatDateTime,
  REGISTRATION_STATUSES,
  registrationActions,
  shareUrl,
} from "../../lib/sessions/rules.ts";
import { CHECKOUT_MESSAGES as C } from "../../lib/orders/rules.ts";
import {
  type CustomerRegistration,
  orderReference,
} from "../../lib/sessions/use_cases/customer_registrations.ts";

const ACTION = "rounded-full border border-slate-300 px-3 py-1 text-xs font-semibold hover:bg-slate-50";

const CHIP = {
  warning: "bg-amber-100 text-amber-900",
  success: "bg-emerald-100 text-emerald-900",
  error: "bg-red-100 text-red-900",
} as const;

export function CustomerSessionsPage(
  { registrations, origin, supportEmail }: {
    registrations: CustomerRegistration[];
    origin: string;
    supportEmail: string;
  },
) {
  return (
    <>
      <PageTitle>Vos sessions</PageTitle>
      {registrations.length === 0 ? <p>Aucune session pour l'instant</p> : (
        <>
          <p role="note" class="mb-4 rounded-lg bg-sky-50 p-3 text-sky-900">
            Vous ne pouvez plus participer ? Écrivez-nous à{" "}
            <a href={`mailto:${supportEmail}`} class="underline">{supportEmail}</a>.
          </p>
          <div class={STACKED.wrap}>
            <table class={`${STACKED.table} sm:min-w-[36rem]`} data-testid="customer-registrations">
              <thead class={STACKED.thead}>
                <tr class="border-b text-left">
                  <th class="p-2">Session</th>
                  <th class="p-2">Places</th>
                  <th class="p-2">Réduction</th>
                  <th class="p-2">Montant</th>
                  <th class="p-2">Statut</th>
                  <th class="p-2">Actions</th>
                </tr>
              </thead>
              <tbody class={STACKED.tbody}>
                {registrations.map((r) => {
                  const status = REGISTRATION_STATUSES[r.status];
                  return (
                    <tr key={r.id} class={STACKED.row}>
                      <td class={STACKED.head}>
                        <a
                          href={r.sessionUrl}
                          class="font-semibold underline"
                          data-testid="registration-session"
                        >
                          {r.session.title}
                        </a>
                        <br />
                        {formatDateTime(r.dtstart)} · <span data-testid="registration-venue">{r.venue}</span>
                        {r.orderId !== null && (
                          <span class="block text-xs text-slate-500" data-testid="registration-order">
                            {orderReference(r.orderId)}
                          </span>
                        )}
                        {r.unpaidUntil !== null && (
                          <span
                            class="mt-2 block max-w-xs text-xs text-amber-800"
                            data-testid="registration-unpaid"
                          >
                            {C.unpaidNote} {formatDateTime(r.unpaidUntil).slice(11)}.
                          </span>
                        )}
                      </td>
                      <td class={STACKED.cell} data-label="Places">{r.quantity}</td>
                      <td class={STACKED.cell} data-label="Réduction">
                        {r.discountCents > 0 ? formatEuros(r.discountCents) : "—"}
                      </td>
                      <td class={STACKED.cell} data-label="Montant">
                        <span data-testid="registration-amount">{formatEuros(r.amountCents)}</span>
                        {r.discountCents > 0 && (
                          <span class="block text-xs text-emerald-800" data-testid="registration-voucher">
                            + {formatEuros(r.discountCents)} en bon cadeau
                          </span>
                        )}
                      </td>
                      <td class={STACKED.cell} data-label="Statut">
                        <span
                          class={`whitespace-nowrap rounded-full px-3 py-1 text-xs font-semibold ${
                            CHIP[status.color]
                          }`}
                        >
                          {status.label}
                        </span>
                      </td>
                      <td class={STACKED.cell} data-label="Actions">
                        <div class="flex flex-wrap items-center gap-2 max-sm:justify-end">
                          {r.unpaidUntil !== null && (
                            <>
                              <a
                                href="/panier"
                                class="rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white hover:bg-brand-700"
                                data-testid="registration-finish-payment"
                              >
                                {C.finishPaying}
                              </a>
                              <form
                                method="post"
                                action={`/dashboard/client/sessions/${r.id}/liberer`}
                                class="contents"
                              >
                                <button
                                  type="submit"
                                  class={`${ACTION} cursor-pointer`}
                                  data-testid="registration-release"
                                >
                                  {C.release}
                                </button>
                              </form>
                            </>
                          )}
                          {r.receiptUrl && (
                            <a
                              href={r.receiptUrl}
                              class={ACTION}
                              data-testid="registration-receipt"
                            >
                              Reçu
                            </a>
                          )}
                          {r.invoiceUrl && (
                            <a
                              href={r.invoiceUrl}
                              class={ACTION}
                              data-testid="registration-invoice"
                            >
                              Facture
                            </a>
                          )}
                          {r.creditNoteUrl && (
                            <a
                              href={r.creditNoteUrl}
                              class={ACTION}
                              data-testid="registration-credit-note"
                            >
                              Avoir
                            </a>
                          )}
                        </div>
                        {registrationActions(r.status).share && (
                          <Island
                            component={SessionShareButton}
                            props={{ url: shareUrl(origin, r.session.slug, r.dtstart) }}
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
