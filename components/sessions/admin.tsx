// The back office's workshop screens (/dashboard/admin/ateliers), plain server forms: the list of
// sessions with their upcoming fill, a session's settings and dates (with a form to add one, prefilled
// from the last date), and a date's page (its settings, the carts holding places, the registrations,
// the visitors waiting for a place). The first screen lists the coming dates of every workshop with
// their fill and quick actions (admin_dates.tsx).
import type { ComponentChildren } from "preact";
import { EmptyState, PageTitle } from "../dashboard/parts.tsx";
import { BUTTON_PRIMARY } from "../form/Field.tsx";
import { centsToEuros, formatEuros } from "../../lib/money.ts";
import {
  fillOf,
  formatDateTime,
  MAX_PLACES_PER_DATE,
  REGISTRATION_STATUSES,
  unitPrice,
} from "../../lib/sessions/rules.ts";
import type { UpcomingDate } from "../../lib/sessions/use_cases/upcoming_dates.ts";
import { DateActions, DateStateChip, dateStateOf, FillBar, UpcomingDates } from "./admin_dates.tsx";
import type { AdminSessionRow, DateRow, SessionRow } from "../../lib/sessions/store.ts";
import type { DateBookings } from "../../lib/sessions/use_cases/date_bookings.ts";
import { AdminDatePayments } from "../orders/AdminDatePayments.tsx";

const BASE = "/dashboard/admin/ateliers";
const INPUT = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2";
const CARD = "rounded-xl border border-slate-200 bg-white p-4";
const TABLE_FRAME = "overflow-x-auto rounded-xl border border-slate-200 bg-white";
const THEAD = "bg-slate-50 text-slate-600";
const TH = "px-3 py-3 align-bottom font-semibold";
const TD = "px-3 py-3 align-top";
const H2 = "mb-3 text-lg font-semibold";
const CHIP = {
  warning: "bg-amber-100 text-amber-900",
  success: "bg-emerald-100 text-emerald-900",
  error: "bg-red-100 text-red-900",
} as const;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** "2026-12-05T19:00" in Paris time, for datetime-local inputs. */
function parisInput(date: Date): string {
  const p = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Paris",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const g = (t: string) => p.find((x) => x.type === t)?.value ?? "";
  return `${g("year")}-${g("month")}-${g("day")}T${g("hour")}:${g("minute")}`;
}

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return <label class="block text-sm font-medium text-slate-700">{label}{children}</label>;
}

function SessionForm({ action, session }: { action: string; session?: SessionRow }) {
  return (
    <form method="post" action={action} class={`${CARD} grid gap-3 sm:grid-cols-2`}>
      <Field label="Titre">
        <input name="title" required maxLength={200} value={session?.title ?? ""} class={INPUT} />
      </Field>
      <Field label="Adresse (slug)">
        <input
          name="slug"
          required
          maxLength={120}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          value={session?.slug ?? ""}
          class={INPUT}
        />
      </Field>
      <Field label="Ville">
        <input name="city" required maxLength={100} value={session?.city ?? ""} class={INPUT} />
      </Field>
      <Field label="Places par date et par panier (au plus)">
        <input
          name="maxPlacesPerDate"
          type="number"
          min={1}
          max={1000}
          required
          value={String(session?.maxPlacesPerDate ?? MAX_PLACES_PER_DATE)}
          class={INPUT}
        />
      </Field>
      <label class="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input type="checkbox" name="published" value="1" checked={session?.published ?? true} /> Publiée
      </label>
      <div class="sm:col-span-2">
        <Field label="Description">
          <textarea name="description" rows={4} class={INPUT}>{session?.description ?? ""}</textarea>
        </Field>
      </div>
      <div class="sm:col-span-2">
        <Field label="Photos (une adresse par ligne)">
          <textarea name="photos" rows={2} class={INPUT}>{(session?.photos ?? []).join("\n")}</textarea>
        </Field>
      </div>
      <div class="sm:col-span-2">
        <button type="submit" class={BUTTON_PRIMARY}>{session ? "Enregistrer" : "Créer l'atelier"}</button>
      </div>
    </form>
  );
}

/** What the public sees of a date, one control: open, 'BIENTÔT DISPO', or closed ('COMPLET', no new
 * booking). Canceling is the 'Annuler' action (it tells and refunds the bookers), not a choice here. */
const SALE_LABELS = {
  open: "Ouverte à la réservation",
  soon: "Bientôt disponible",
  closed: "Fermée (COMPLET)",
};

function DateForm({ action, date, submit }: { action: string; date?: Partial<DateRow>; submit: string }) {
  const cost = date?.additionalCosts?.[0];
  const sale = date?.state === "closed" ? "closed" : date?.soon ? "soon" : "open";
  return (
    <form method="post" action={action} class={`${CARD} grid gap-3 sm:grid-cols-2 lg:grid-cols-4`}>
      <Field label="Date et heure (Paris)">
        <input
          type="datetime-local"
          name="dtstart"
          required
          value={date?.dtstart ? parisInput(date.dtstart) : ""}
          class={INPUT}
        />
      </Field>
      <Field label="Places">
        <input
          type="number"
          name="places"
          min={0}
          max={10000}
          required
          value={date?.places ?? 12}
          class={INPUT}
        />
      </Field>
      <Field label="Prix TTC par personne (€)">
        <input
          name="priceTTC"
          required
          inputMode="decimal"
          value={centsToEuros(date?.priceTTC ?? 0)}
          class={INPUT}
        />
      </Field>
      <Field label="Déplacement TTC (€)">
        <input
          name="travelCostTTC"
          inputMode="decimal"
          value={centsToEuros(date?.travelCostTTC ?? 0)}
          class={INPUT}
        />
      </Field>
      <Field label="Frais annexe (intitulé)">
        <input name="costTitle" maxLength={120} value={cost?.title ?? ""} class={INPUT} />
      </Field>
      <Field label="Frais annexe HT (€)">
        <input name="costHt" inputMode="decimal" value={cost ? centsToEuros(cost.ht) : ""} class={INPUT} />
      </Field>
      <Field label="TVA du frais (%)">
        <input name="costVat" inputMode="decimal" value={cost?.vat ?? 20} class={INPUT} />
      </Field>
      {date?.state === "canceled"
        ? <p class="self-end text-sm font-semibold text-red-700">Date annulée</p>
        : (
          <Field label="Mise en vente">
            <select name="sale" class={INPUT}>
              {(["open", "soon", "closed"] as const).map((s) => (
                <option key={s} value={s} selected={sale === s}>{SALE_LABELS[s]}</option>
              ))}
            </select>
          </Field>
        )}
      <div class="sm:col-span-2 lg:col-span-4">
        <button type="submit" class={BUTTON_PRIMARY}>{submit}</button>
      </div>
    </form>
  );
}

export function AdminSessionsPage(
  { sessions, upcoming }: { sessions: AdminSessionRow[]; upcoming: UpcomingDate[] },
) {
  return (
    <>
      <PageTitle>Ateliers cocktails</PageTitle>
      <section aria-labelledby="upcoming-title">
        <h2 id="upcoming-title" class={H2}>Prochaines dates</h2>
        <UpcomingDates dates={upcoming} />
      </section>
      <section aria-labelledby="sessions-title" class="mt-10">
        <h2 id="sessions-title" class={H2}>Ateliers</h2>
        <div class={TABLE_FRAME}>
          <table class="w-full text-left text-sm" data-testid="admin-sessions">
            <thead class={THEAD}>
              <tr>
                <th class={TH} scope="col">Atelier</th>
                <th class={TH} scope="col">Ville</th>
                <th class={`${TH} text-right`} scope="col">Dates à venir</th>
                <th class={`${TH} text-right`} scope="col">Places restantes</th>
                <th class={TH} scope="col">Publiée</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} class="border-t border-slate-100">
                  <td class={TD}>
                    <a href={`${BASE}/${s.id}`} class="font-semibold hover:underline">{s.title}</a>
                  </td>
                  <td class={TD}>{s.city}</td>
                  <td class={`${TD} text-right`}>{s.upcoming} / {s.dates}</td>
                  <td class={`${TD} text-right`}>{s.placesLeft} / {s.places}</td>
                  <td class={TD}>{s.published ? "Oui" : "Non"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <details class="mt-10">
        <summary class={`${H2} cursor-pointer`}>Nouvel atelier</summary>
        <SessionForm action={BASE} />
      </details>
    </>
  );
}

export function AdminSessionPage({ session, dates }: { session: SessionRow; dates: DateRow[] }) {
  const last = dates[dates.length - 1];
  const next = last
    ? {
      ...last,
      dtstart: new Date(last.dtstart.getTime() + 7 * 86400_000),
      soon: false,
      state: "open" as const,
    }
    : {};
  return (
    <>
      <PageTitle>{session.title}</PageTitle>
      <p class="mb-4 text-sm">
        <a href={BASE} class="underline">Tous les ateliers</a> ·{" "}
        <a href={`/session/${session.slug}`} class="underline">Voir la page publique</a>
      </p>
      <SessionForm action={`${BASE}/${session.id}`} session={session} />
      <h2 class={`mt-8 ${H2}`}>Dates</h2>
      {dates.length === 0 ? <EmptyState>Aucune date pour l'instant.</EmptyState> : (
        <div class={TABLE_FRAME}>
          <table class="w-full text-left text-sm" data-testid="admin-dates">
            <thead class={THEAD}>
              <tr>
                <th class={TH} scope="col">Date</th>
                <th class={`${TH} text-right`} scope="col">Places restantes</th>
                <th class={`${TH} text-right`} scope="col">Prix par personne</th>
                <th class={TH} scope="col">État</th>
              </tr>
            </thead>
            <tbody>
              {dates.map((d) => (
                <tr key={d.uuid} class="border-t border-slate-100">
                  <td class={TD}>
                    <a href={`${BASE}/date/${d.uuid}`} class="font-semibold hover:underline">
                      {formatDateTime(unix(d.dtstart))}
                    </a>
                  </td>
                  <td class={`${TD} text-right`}>{d.placesLeft} / {d.places}</td>
                  <td class={`${TD} text-right`}>{formatEuros(unitPrice(d))}</td>
                  <td class={TD}>
                    <DateStateChip state={dateStateOf(d)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 class={`mt-8 ${H2}`}>Ajouter une date</h2>
      <DateForm action={`${BASE}/${session.id}/dates`} date={next} submit="Ajouter la date" />
    </>
  );
}

export function AdminDatePage({ bookings }: { bookings: DateBookings }) {
  const { session, date, holds, attendees, alerts } = bookings;
  const now = Date.now();
  const when = formatDateTime(unix(date.dtstart));
  const sold = attendees.filter((a) => a.status !== "canceled").reduce((n, a) => n + a.quantity, 0);
  const fill = fillOf(date.places, sold, date.placesLeft);
  return (
    <>
      <PageTitle>{session.title} — {when}</PageTitle>
      <p class="mb-4 text-sm">
        <a href={`${BASE}/${session.id}`} class="underline">Retour à l'atelier</a> ·{" "}
        <a href={BASE} class="underline">Toutes les dates</a>
      </p>
      <div class={`${CARD} mb-6 flex flex-wrap items-center justify-between gap-4`}>
        <div class="flex flex-wrap items-center gap-4">
          <DateStateChip state={dateStateOf(date)} />
          <FillBar places={date.places} fill={fill} />
          <p class="text-sm text-slate-600">{alerts} personne(s) en liste d'attente</p>
        </div>
        <DateActions
          date={{
            uuid: date.uuid,
            state: date.state,
            dtstart: date.dtstart,
            sold: attendees.filter((a) => a.status !== "canceled").length,
          }}
          label={`${session.title} — ${when}`}
          back="date"
        />
      </div>
      <h2 id="inscrits" class={H2}>Inscrits</h2>
      {attendees.length === 0
        ? <EmptyState>Aucune inscription pour l'instant.</EmptyState>
        : (
          <div class={TABLE_FRAME}>
            <table class="w-full min-w-[40rem] text-left text-sm" data-testid="admin-registrations">
              <thead class={THEAD}>
                <tr>
                  <th class={TH} scope="col">Nom</th>
                  <th class={TH} scope="col">Email</th>
                  <th class={TH} scope="col">Téléphone</th>
                  <th class={`${TH} text-right`} scope="col">Places</th>
                  <th class={TH} scope="col">Statut</th>
                  <th class={`${TH} text-right`} scope="col">Payé</th>
                </tr>
              </thead>
              <tbody>
                {attendees.map((a) => (
                  <tr key={a.registrationId} class="border-t border-slate-100">
                    <td class={TD}>{`${a.firstname} ${a.lastname}`.trim() || "—"}</td>
                    <td class={TD}>{a.email}</td>
                    <td class={`${TD} whitespace-nowrap`}>{a.phone || "—"}</td>
                    <td class={`${TD} text-right`}>{a.quantity}</td>
                    <td class={TD}>
                      <span
                        class={`rounded-full px-3 py-1 text-xs font-semibold ${
                          CHIP[REGISTRATION_STATUSES[a.status].color]
                        }`}
                      >
                        {REGISTRATION_STATUSES[a.status].label}
                      </span>
                    </td>
                    <td class={`${TD} text-right whitespace-nowrap`}>{formatEuros(a.paid)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <h2 class={`mt-8 ${H2}`}>Paniers en cours</h2>
      {holds.length === 0
        ? <EmptyState>Aucune place gardée en panier.</EmptyState>
        : (
          <div class={TABLE_FRAME}>
            <table class="w-full text-left text-sm" data-testid="admin-holds">
              <thead class={THEAD}>
                <tr>
                  <th class={TH} scope="col">Client</th>
                  <th class={`${TH} text-right`} scope="col">Places</th>
                  <th class={TH} scope="col">Gardées jusqu'à</th>
                </tr>
              </thead>
              <tbody>
                {holds.map((h) => (
                  <tr key={h.lineId} class="border-t border-slate-100">
                    <td class={TD}>{h.customer ?? "Visiteur non connecté"}</td>
                    <td class={`${TD} text-right`}>{h.quantity}</td>
                    <td class={TD}>
                      {formatDateTime(unix(h.expiresAt))}
                      {h.expiresAt.getTime() <= now ? " (expiré, remis en vente sous une minute)" : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <AdminDatePayments orders={bookings.orders} />
      <h2 class={`mt-8 ${H2}`}>Modifier la date</h2>
      <DateForm action={`${BASE}/date/${date.uuid}`} date={date} submit="Enregistrer la date" />
    </>
  );
}
