// The back office's workshop screens (/dashboard/admin/ateliers), plain server forms: the list of
// sessions with their upcoming fill, a session's settings and dates (with a form to add one, prefilled
// from the last date), and a date's page (its settings, the carts holding places, the registrations,
// the visitors waiting for a place).
import type { ComponentChildren } from "preact";
import { PageTitle } from "../dashboard/parts.tsx";
import { BUTTON_PRIMARY } from "../form/Field.tsx";
import { centsToEuros, formatEuros } from "../../lib/money.ts";
import { formatDateTime, REGISTRATION_STATUSES, unitPrice } from "../../lib/sessions/rules.ts";
import type { AdminSessionRow, DateRow, SessionRow } from "../../lib/sessions/store.ts";
import type { DateBookings } from "../../lib/sessions/use_cases/date_bookings.ts";
import { AdminDatePayments } from "../orders/AdminDatePayments.tsx";

const BASE = "/dashboard/admin/ateliers";
const INPUT = "mt-1 w-full rounded border border-slate-300 px-2 py-1";
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const STATE_LABELS = { open: "Ouverte", closed: "Fermée", canceled: "Annulée" } as const;

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
    <form method="post" action={action} class="grid gap-3 rounded-xl border bg-white p-4 sm:grid-cols-2">
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

function DateForm({ action, date, submit }: { action: string; date?: Partial<DateRow>; submit: string }) {
  const cost = date?.additionalCosts?.[0];
  return (
    <form method="post" action={action} class="grid gap-3 rounded-xl border bg-white p-4 sm:grid-cols-4">
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
      <Field label="État">
        <select name="state" class={INPUT}>
          {(["open", "closed", "canceled"] as const).map((s) => (
            <option key={s} value={s} selected={(date?.state ?? "open") === s}>{STATE_LABELS[s]}</option>
          ))}
        </select>
      </Field>
      <label class="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input type="checkbox" name="soon" value="1" checked={date?.soon ?? false} /> Bientôt disponible
      </label>
      <div class="sm:col-span-4">
        <button type="submit" class={BUTTON_PRIMARY}>{submit}</button>
      </div>
    </form>
  );
}

export function AdminSessionsPage({ sessions }: { sessions: AdminSessionRow[] }) {
  return (
    <>
      <PageTitle>Ateliers cocktails</PageTitle>
      <table class="w-full border-collapse bg-white text-sm" data-testid="admin-sessions">
        <thead>
          <tr class="border-b text-left">
            <th class="p-2">Atelier</th>
            <th class="p-2">Ville</th>
            <th class="p-2">Dates à venir</th>
            <th class="p-2">Places restantes</th>
            <th class="p-2">Publiée</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} class="border-b">
              <td class="p-2">
                <a href={`${BASE}/${s.id}`} class="font-semibold underline">{s.title}</a>
              </td>
              <td class="p-2">{s.city}</td>
              <td class="p-2">{s.upcoming} / {s.dates}</td>
              <td class="p-2">{s.placesLeft} / {s.places}</td>
              <td class="p-2">{s.published ? "Oui" : "Non"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 class="mt-8 mb-2 text-lg font-semibold">Nouvel atelier</h2>
      <SessionForm action={BASE} />
    </>
  );
}

export function AdminSessionPage({ session, dates }: { session: SessionRow; dates: DateRow[] }) {
  const last = dates[dates.length - 1];
  const next = last
    ? { ...last, dtstart: new Date(last.dtstart.getTime() + 7 * 86400_000), soon: false }
    : {};
  return (
    <>
      <PageTitle>{session.title}</PageTitle>
      <p class="mb-4 text-sm">
        <a href={BASE} class="underline">Tous les ateliers</a> ·{" "}
        <a href={`/session/${session.slug}`} class="underline">Voir la page publique</a>
      </p>
      <SessionForm action={`${BASE}/${session.id}`} session={session} />
      <h2 class="mt-8 mb-2 text-lg font-semibold">Dates</h2>
      {dates.length === 0
        ? <p>Aucune date pour l'instant.</p>
        : (
          <table class="w-full border-collapse bg-white text-sm" data-testid="admin-dates">
            <thead>
              <tr class="border-b text-left">
                <th class="p-2">Date</th>
                <th class="p-2">Places restantes</th>
                <th class="p-2">Prix par personne</th>
                <th class="p-2">État</th>
              </tr>
            </thead>
            <tbody>
              {dates.map((d) => (
                <tr key={d.uuid} class="border-b">
                  <td class="p-2">
                    <a href={`${BASE}/date/${d.uuid}`} class="underline">{formatDateTime(unix(d.dtstart))}</a>
                  </td>
                  <td class="p-2">{d.placesLeft} / {d.places}</td>
                  <td class="p-2">{formatEuros(unitPrice(d))}</td>
                  <td class="p-2">{d.soon ? "Bientôt disponible" : STATE_LABELS[d.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <h2 class="mt-8 mb-2 text-lg font-semibold">Ajouter une date</h2>
      <DateForm action={`${BASE}/${session.id}/dates`} date={next} submit="Ajouter la date" />
    </>
  );
}

export function AdminDatePage({ bookings }: { bookings: DateBookings }) {
  const { session, date, holds, registrations, alerts } = bookings;
  const now = Date.now();
  return (
    <>
      <PageTitle>{session.title} — {formatDateTime(unix(date.dtstart))}</PageTitle>
      <p class="mb-4 text-sm">
        <a href={`${BASE}/${session.id}`} class="underline">Retour à l'atelier</a> · {date.placesLeft}{" "}
        place(s) restante(s) sur {date.places} · {alerts} alerte(s) en attente
      </p>
      <DateForm action={`${BASE}/date/${date.uuid}`} date={date} submit="Enregistrer la date" />
      <h2 class="mt-8 mb-2 text-lg font-semibold">Paniers en cours</h2>
      {holds.length === 0
        ? <p>Aucune place gardée en panier.</p>
        : (
          <table class="w-full border-collapse bg-white text-sm" data-testid="admin-holds">
            <thead>
              <tr class="border-b text-left">
                <th class="p-2">Client</th>
                <th class="p-2">Places</th>
                <th class="p-2">Gardées jusqu'à</th>
              </tr>
            </thead>
            <tbody>
              {holds.map((h) => (
                <tr key={h.lineId} class="border-b">
                  <td class="p-2">{h.customer ?? "Visiteur non connecté"}</td>
                  <td class="p-2">{h.quantity}</td>
                  <td class="p-2">
                    {formatDateTime(unix(h.expiresAt))}
                    {h.expiresAt.getTime() <= now ? " (expiré, remis en vente sous une minute)" : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <h2 class="mt-8 mb-2 text-lg font-semibold">Inscriptions</h2>
      {registrations.length === 0
        ? <p>Aucune inscription pour l'instant.</p>
        : (
          <table class="w-full border-collapse bg-white text-sm" data-testid="admin-registrations">
            <thead>
              <tr class="border-b text-left">
                <th class="p-2">Client</th>
                <th class="p-2">Places</th>
                <th class="p-2">Montant</th>
                <th class="p-2">Statut</th>
              </tr>
            </thead>
            <tbody>
              {registrations.map((r) => (
                <tr key={r.id} class="border-b">
                  <td class="p-2">{r.customer ?? "—"}</td>
                  <td class="p-2">{r.quantity}</td>
                  <td class="p-2">{formatEuros(r.amount)}</td>
                  <td class="p-2">{REGISTRATION_STATUSES[r.status].label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <AdminDatePayments orders={bookings.orders} />
    </>
  );
}
