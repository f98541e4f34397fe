// The organiser's view of dates (/dashboard/admin/ateliers): the coming dates of every workshop with their
// fill (sold / held / left) and quick actions — edit, close or reopen, cancel (a confirmation dialog),
// attendees, CSV, sign-in sheet — as a table on wide screens and cards on phones, like the deals list.
import { Island } from "../Island.tsx";
import DateCloseButton from "../../islands/DateCloseButton.tsx";
import DateCancelButton from "../../islands/DateCancelButton.tsx";
import { EmptyState, PageTitle } from "../dashboard/parts.tsx";
import { formatDateTime, OPS_MESSAGES } from "../../lib/sessions/rules.ts";
import type { UpcomingDate } from "../../lib/sessions/use_cases/upcoming_dates.ts";
import type { DateBookings } from "../../lib/sessions/use_cases/date_bookings.ts";

export const BASE = "/dashboard/admin/ateliers";
const TH = "px-2 py-3 align-bottom font-semibold";
const TD = "px-2 py-3 align-top";
const ACTION = "rounded-full border border-slate-300 px-3 py-1 text-xs font-semibold hover:bg-slate-50";
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

type State = "open" | "soon" | "full" | "closed" | "canceled" | "past";
const STATE_CHIPS: Record<State, { label: string; class: string }> = {
  open: { label: "Ouverte", class: "bg-emerald-100 text-emerald-900" },
  soon: { label: "Bientôt dispo", class: "bg-sky-100 text-sky-900" },
  full: { label: "Complet", class: "bg-amber-100 text-amber-900" },
  closed: { label: "Fermée", class: "bg-slate-200 text-slate-800" },
  canceled: { label: "Annulée", class: "bg-red-100 text-red-900" },
  past: { label: "Passée", class: "bg-slate-100 text-slate-600" },
};

export function dateStateOf(d: { state: string; soon: boolean; placesLeft: number; dtstart: Date }): State {
  if (d.state === "canceled") return "canceled";
  if (d.dtstart.getTime() <= Date.now()) return "past";
  if (d.state === "closed") return "closed";
  if (d.soon) return "soon";
  return d.placesLeft <= 0 ? "full" : "open";
}

export function DateStateChip({ state }: { state: State }) {
  const chip = STATE_CHIPS[state];
  return (
    <span
      class={`inline-block whitespace-nowrap rounded-full px-3 py-1 text-xs font-semibold ${chip.class}`}
      data-state={state}
    >
      {chip.label}
    </span>
  );
}

/** Sold, held and left as a bar and figures. */
export function FillBar({ places, fill }: { places: number; fill: UpcomingDate["fill"] }) {
  const pct = (n: number) => places > 0 ? `${(n / places) * 100}%` : "0%";
  return (
    <div class="min-w-[9rem]" data-testid="date-fill">
      <div class="flex h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <div class="bg-brand-500" style={{ width: pct(fill.sold) }} />
        <div class="bg-amber-400" style={{ width: pct(fill.held) }} />
      </div>
      <p class="mt-1 text-xs text-slate-600">
        {fill.sold} vendue(s) · {fill.held} gardée(s) · {fill.left} libre(s) sur {places} ({fill.rate} %)
      </p>
    </div>
  );
}

/** The quick actions of one date (the list's rows and cards, and the date's page). */
export function DateActions({ date, label, back }: {
  date: { uuid: string; state: string; dtstart: Date; sold?: number };
  label: string;
  back: "liste" | "date";
}) {
  const api = `/api/admin/session/date/${date.uuid}`;
  const action = (verb: string) =>
    `${BASE}/date/${date.uuid}/${verb}${back === "liste" ? "?retour=liste" : ""}`;
  const live = date.state !== "canceled" && date.dtstart.getTime() > Date.now();
  return (
    <div class="flex min-w-[16rem] flex-wrap items-center justify-end gap-1.5">
      {back === "liste" && <a href={`${BASE}/date/${date.uuid}`} class={ACTION}>Modifier</a>}
      {live && date.state === "open" && (
        <Island component={DateCloseButton} props={{ action: action("fermer"), label, class: ACTION }} />
      )}
      {live && date.state === "closed" && (
        <form method="post" action={action("rouvrir")}>
          <button type="submit" class={ACTION} aria-label={`Rouvrir la date ${label}`}>Rouvrir</button>
        </form>
      )}
      {live && (
        <Island
          component={DateCancelButton}
          props={{ uuid: date.uuid, label, bookers: date.sold ?? 0, compact: true }}
        />
      )}
      {back === "liste" && <a href={`${BASE}/date/${date.uuid}#inscrits`} class={ACTION}>Inscrits</a>}
      <a href={`${api}/attendees.csv`} class={ACTION} download>CSV</a>
      <a href={`${api}/sign-in-sheet`} class={ACTION} target="_blank" rel="noopener">Émargement</a>
    </div>
  );
}

export function UpcomingDates({ dates }: { dates: UpcomingDate[] }) {
  if (dates.length === 0) return <EmptyState>Aucune date à venir : ajoutez-en depuis un atelier.</EmptyState>;
  return (
    <>
      <div class="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white xl:block">
        <table class="w-full text-left text-sm" data-testid="upcoming-dates">
          <thead class="bg-slate-50 text-slate-600">
            <tr>
              <th class={TH} scope="col">Date</th>
              <th class={TH} scope="col">Atelier</th>
              <th class={TH} scope="col">Remplissage</th>
              <th class={`${TH} text-right`} scope="col">En attente</th>
              <th class={TH} scope="col">État</th>
              <th class={`${TH} text-right`} scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {dates.map((d) => {
              const when = formatDateTime(unix(d.dtstart));
              return (
                <tr key={d.uuid} class="border-t border-slate-100" data-date={d.uuid}>
                  <td class={`${TD} whitespace-nowrap font-semibold`}>
                    <a href={`${BASE}/date/${d.uuid}`} class="hover:underline">{when}</a>
                  </td>
                  <td class={TD}>
                    <span class="font-medium">{d.sessionTitle}</span>
                    <br />
                    <span class="text-xs text-slate-500">{d.city}</span>
                  </td>
                  <td class={TD}>
                    <FillBar places={d.places} fill={d.fill} />
                  </td>
                  <td class={`${TD} text-right`}>{d.waiting}</td>
                  <td class={TD}>
                    <DateStateChip state={dateStateOf(d)} />
                  </td>
                  <td class={`${TD} w-px`}>
                    <DateActions date={d} label={`${d.sessionTitle} — ${when}`} back="liste" />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ul class="space-y-3 xl:hidden" data-testid="upcoming-dates-cards">
        {dates.map((d) => {
          const when = formatDateTime(unix(d.dtstart));
          return (
            <li
              key={d.uuid}
              class="rounded-xl border border-slate-200 bg-white p-4 text-sm"
              data-date={d.uuid}
            >
              <div class="flex items-start justify-between gap-3">
                <div class="min-w-0">
                  <a href={`${BASE}/date/${d.uuid}`} class="font-semibold hover:underline">{when}</a>
                  <p class="truncate">
                    {d.sessionTitle} · <span class="text-slate-500">{d.city}</span>
                  </p>
                </div>
                <DateStateChip state={dateStateOf(d)} />
              </div>
              <div class="mt-3">
                <FillBar places={d.places} fill={d.fill} />
                {d.waiting > 0 && <p class="mt-1 text-xs text-slate-600">{d.waiting} en liste d'attente</p>}
              </div>
              <div class="mt-3 border-t border-slate-100 pt-3">
                <DateActions date={d} label={`${d.sessionTitle} — ${when}`} back="liste" />
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The cancellation's confirmation as a page (the link's target without JavaScript). */
export function CancelDatePage({ bookings }: { bookings: DateBookings }) {
  const { session, date, registrations } = bookings;
  const live = registrations.filter((r) => r.status !== "canceled").length;
  const back = `${BASE}/date/${date.uuid}`;
  return (
    <>
      <PageTitle>{OPS_MESSAGES.cancelConfirmTitle}</PageTitle>
      <div class="max-w-[500px] rounded-xl border border-slate-200 bg-white p-5">
        <p class="font-semibold">{session.title} — {formatDateTime(unix(date.dtstart))}</p>
        {date.state === "canceled" ? <p class="mt-2">{OPS_MESSAGES.alreadyCanceled}</p> : (
          <>
            <p class="mt-2 text-sm text-slate-700">
              {live > 0 ? `${live} inscription(s) concernée(s). ` : ""}
              {OPS_MESSAGES.cancelConfirm}
            </p>
            <form method="post" action={`${back}/annuler`} class="mt-5 flex flex-wrap justify-end gap-2">
              <a href={back} class="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold">
                Retour
              </a>
              <button
                type="submit"
                class="rounded-full bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700"
              >
                Annuler la date
              </button>
            </form>
          </>
        )}
      </div>
    </>
  );
}
