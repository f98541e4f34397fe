// 'Dates de la session' (spec 000 §2, §4, §5, §8): the period filter 'Choisir une période', each date
// with its quantity selector, places left, price (rules.sessionPrice, as the server computes it), and
// 'Réserver' / 'BIENTÔT DISPO' / 'COMPLET' / 'M'alerter si une place se libère'; the share dialog
// 'Partage ta session !' (500 px) and the seat-alert dialog. Rendered on the server with real forms,
// so that a visitor without JavaScript books with the same POST; with JavaScript the calls are JSON.
import { useEffect, useState } from "react";
import { api, ApiError, submitOnce } from "../components/ui/api.ts";
import { refreshHeaderCart } from "../components/layout/header_cart.ts";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { formatEuros } from "../lib/money.ts";
import {
  ALERT_DIALOG_WIDTH,
  clampQuantity,
  type DateOffer,
  formatDateTime,
  offerPrice,
  offerState,
  placesLabel,
  SESSION_MESSAGES as M,
  sessionPrice,
  SHARE_DIALOG_WIDTH,
  SNACKBAR_MS,
} from "../lib/sessions/rules.ts";

export interface SessionDatesProps {
  slug: string;
  offers: DateOffer[];
  /** The period of the server's list, as YYYY-MM-DD (empty: from today, no end). */
  start: string;
  end: string;
  /** More dates exist after these (the period filter shows them). */
  more?: boolean;
}

/** One grid for every row, so that dates, quantities, prices and buttons line up from row to row: date
 * and actions full width on a phone, quantity and price side by side between them. */
const ROW = "grid grid-cols-2 items-center gap-3 sm:grid-cols-[minmax(0,1fr)_7.5rem_5.5rem_21rem]";

const dayToUnix = (day: string, endOfDay: boolean) =>
  day ? Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + (endOfDay ? 86399 : 0) : undefined;

function failure(error: unknown): string {
  return error instanceof ApiError
    ? error.message
    : "Une erreur inattendue s'est produite, veuillez réessayer";
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // §8: the share falls back to an older copy method when the clipboard call fails.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    if (!ok) throw new Error("copy");
  }
}

export default function SessionDates({ slug, offers: initial, start, end, more = false }: SessionDatesProps) {
  const [offers, setOffers] = useState(initial);
  const [hasMore, setHasMore] = useState(more);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [share, setShare] = useState<DateOffer | null>(null);
  const [alertFor, setAlertFor] = useState<DateOffer | null>(null);
  const [busy, setBusy] = useState(false);
  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });

  const quantityOf = (offer: DateOffer) =>
    clampQuantity(quantities[offer.uuid] ?? offer.quantity, offer.places, offer.soon);
  const setQuantity = (offer: DateOffer, value: number) =>
    setQuantities({ ...quantities, [offer.uuid]: clampQuantity(value, offer.places, offer.soon) });

  const book = async (offer: DateOffer, quantity: number) => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await submitOnce<{ message: string; results: { placesLeft: number } }>(offer.url, {
        session: offer.session_id,
        timestamp: offer.timestamp,
        quantity,
      });
      setOffers((list) =>
        list.map((o) => o.uuid === offer.uuid ? { ...o, places: answer.results.placesLeft } : o)
      );
      say("success", answer.message);
      refreshHeaderCart();
    } catch (error) {
      say("error", failure(error));
    } finally {
      setBusy(false);
    }
  };

  // §4: a date the server marks selected and popup goes to the cart as soon as the dates load.
  useEffect(() => {
    const auto = initial.find((o) => o.selected && o.popup);
    if (auto) book(auto, 1);
  }, []);

  const filter = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    try {
      const answer = await api<{ results: DateOffer[] }>("POST", `/session/${slug}/dates`, {
        start: dayToUnix(String(form.get("start") ?? ""), false),
        end: dayToUnix(String(form.get("end") ?? ""), true),
      });
      setOffers(answer.results);
      setHasMore(false);
    } catch (error) {
      say("error", failure(error));
    }
  };

  return (
    <section class="space-y-4" aria-labelledby="session-dates-title" data-testid="session-dates">
      <h2 id="session-dates-title" class="text-xl font-semibold">{M.datesTitle}</h2>
      <form method="get" action={`/session/${slug}`} class="flex flex-wrap items-end gap-3" onSubmit={filter}>
        <fieldset class="flex flex-wrap items-end gap-3">
          <legend class="mb-1 text-sm font-medium text-slate-700">{M.periodTitle}</legend>
          <label class="text-sm">
            Du <input type="date" name="start" defaultValue={start} class="ml-1 rounded border px-2 py-1" />
          </label>
          <label class="text-sm">
            Au <input type="date" name="end" defaultValue={end} class="ml-1 rounded border px-2 py-1" />
          </label>
        </fieldset>
        <button type="submit" class="rounded border px-3 py-1 text-sm">Filtrer</button>
      </form>
      {offers.length === 0 && <p class="text-slate-600">{M.noDates}</p>}
      <ul class="space-y-3">
        {offers.map((offer) => {
          const state = offerState(offer);
          const quantity = quantityOf(offer);
          const price = sessionPrice(offerPrice(offer), quantity);
          return (
            <li
              key={offer.uuid}
              data-testid="session-date"
              data-state={state}
              class={`rounded-xl border p-4 ${
                offer.selected ? "border-brand-600 ring-2 ring-brand-600" : "border-slate-200"
              }`}
            >
              <form
                method="post"
                action={offer.url}
                class={ROW}
                onSubmit={(event) => {
                  event.preventDefault();
                  if (state === "open") book(offer, quantity);
                }}
              >
                <input type="hidden" name="session" value={offer.session_id} />
                <input type="hidden" name="timestamp" value={offer.timestamp} />
                <div class="col-span-2 min-w-0 sm:col-span-1">
                  <p class="font-semibold">
                    {formatDateTime(offer.dtstart)}
                    {offer.selected && (
                      <span class="ml-2 rounded bg-brand-600 px-2 py-0.5 text-xs text-white">
                        {M.selected}
                      </span>
                    )}
                  </p>
                  {/* A 'BIENTÔT DISPO' date shows its places like any other (000 §2): not yet open, not full. */}
                  {(state === "open" || state === "soon") && (
                    <p class="text-sm text-slate-600" data-testid="session-date-places">
                      {placesLabel(offer.places)}
                    </p>
                  )}
                </div>
                {state === "full" || state === "closed"
                  ? (
                    <p>
                      <span class="inline-block rounded-full bg-slate-200 px-3 py-1.5 text-sm font-semibold">
                        {M.full}
                      </span>
                    </p>
                  )
                  : (
                    <div class="flex items-center gap-1" role="group" aria-label="Nombre de places">
                      <button
                        type="button"
                        aria-label="Une place de moins"
                        class="h-8 w-8 rounded border"
                        disabled={state !== "open" || quantity <= 1}
                        onClick={() => setQuantity(offer, quantity - 1)}
                      >
                        −
                      </button>
                      <input
                        type="number"
                        name="quantity"
                        aria-label="Quantité"
                        min={1}
                        max={Math.max(1, offer.places)}
                        value={quantity}
                        disabled={state !== "open"}
                        class="w-12 rounded border px-1 py-1 text-center"
                        onInput={(event) =>
                          setQuantity(offer, Number((event.target as HTMLInputElement).value))}
                      />
                      <button
                        type="button"
                        aria-label="Une place de plus"
                        class="h-8 w-8 rounded border"
                        disabled={state !== "open" || quantity >= offer.places}
                        onClick={() => setQuantity(offer, quantity + 1)}
                      >
                        +
                      </button>
                    </div>
                  )}
                <p class="text-right font-semibold" data-testid="session-date-price">
                  {formatEuros(price)}
                </p>
                <div class="col-span-2 flex flex-wrap items-center justify-end gap-2 sm:col-span-1">
                  <button
                    type="button"
                    aria-label="Partager cette date"
                    class="rounded border px-2 py-1 text-sm"
                    onClick={() => setShare(offer)}
                  >
                    Partager
                  </button>
                  {state === "open" && (
                    <button type="submit" disabled={busy} class="rounded bg-brand-600 px-4 py-2 text-white">
                      {M.book}
                    </button>
                  )}
                  {state === "soon" && (
                    <button type="button" disabled class="rounded bg-slate-200 px-4 py-2 text-slate-600">
                      {M.soon}
                    </button>
                  )}
                  {state === "full" && (
                    <button
                      type="button"
                      class="rounded border border-brand-600 px-3 py-2 text-sm font-semibold text-brand-700"
                      onClick={() => setAlertFor(offer)}
                    >
                      {M.alertButton}
                    </button>
                  )}
                </div>
              </form>
            </li>
          );
        })}
      </ul>
      {hasMore && <p class="text-sm text-slate-600">{M.moreDates}</p>}
      <ShareDialog offer={share} onClose={() => setShare(null)} say={say} />
      <AlertDialog offer={alertFor} onClose={() => setAlertFor(null)} say={say} />
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={SNACKBAR_MS} />
    </section>
  );
}

function ShareDialog({ offer, onClose, say }: {
  offer: DateOffer | null;
  onClose: () => void;
  say: (type: NoticeState["type"], text: string) => void;
}) {
  const copy = async () => {
    if (!offer) return;
    try {
      await copyText(offer.shareUrl);
      say("success", M.linkCopied);
      onClose();
    } catch {
      say("error", M.copyFailed);
    }
  };
  return (
    <Dialog open={offer !== null} onClose={onClose} title={M.shareTitle} width={SHARE_DIALOG_WIDTH}>
      <input
        readOnly
        value={offer?.shareUrl ?? ""}
        aria-label="Lien"
        class="w-full rounded border px-2 py-1"
      />
      <div class="mt-4 flex justify-end gap-2">
        <button type="button" class="rounded border px-3 py-2" onClick={onClose}>Annuler</button>
        <button type="button" class="rounded bg-brand-600 px-3 py-2 text-white" onClick={copy}>
          {M.copy}
        </button>
      </div>
    </Dialog>
  );
}

function AlertDialog({ offer, onClose, say }: {
  offer: DateOffer | null;
  onClose: () => void;
  say: (type: NoticeState["type"], text: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [optin, setOptin] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!offer) return;
    const local: Record<string, string> = {};
    if (!email.trim()) local.email = M.alertEmailRequired;
    if (!optin) local.optin = M.alertOptinRequired;
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const answer = await api<{ message: string; note: string }>("POST", "/date/mail/alert", {
        date: offer.uuid,
        email,
        optin,
      });
      setSent(answer.note);
      say("success", answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.body.errors) setErrors(error.body.errors);
      say("error", failure(error));
    }
  };
  const close = () => {
    setSent(null);
    setErrors({});
    onClose();
  };
  return (
    <Dialog open={offer !== null} onClose={close} title={M.alertButton} width={ALERT_DIALOG_WIDTH}>
      {sent
        ? (
          <div>
            <p class="font-semibold">{M.alertSaved}</p>
            <p class="mt-2 text-sm text-slate-600">{sent}</p>
          </div>
        )
        : (
          <form class="space-y-3" onSubmit={submit} noValidate>
            <label class="block text-sm">
              Email
              <input
                type="email"
                value={email}
                class="mt-1 w-full rounded border px-2 py-1"
                onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
              />
            </label>
            {errors.email && <p class="text-sm text-red-600">{errors.email}</p>}
            <label class="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={optin}
                onChange={(event) => setOptin((event.target as HTMLInputElement).checked)}
              />
              J'accepte d'être contacté au sujet de cette session.
            </label>
            {errors.optin && <p class="text-sm text-red-600">{errors.optin}</p>}
            <div class="flex justify-end">
              <button type="submit" class="rounded bg-brand-600 px-3 py-2 text-white">Valider</button>
            </div>
          </form>
        )}
    </Dialog>
  );
}
