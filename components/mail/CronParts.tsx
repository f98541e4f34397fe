// The parts of 'Gestion des emails programmés (Cron)' (spec 001 §2.14): the stat cards and the table
// of scheduled emails (sorted by scheduleAt ascending, each row linking to its deal, ready ones
// highlighted with their remaining time).
import {
  type CronStats,
  remainingLabel,
  SCHEDULED_LABELS,
  scheduledDisplay,
  type ScheduledEmailJson,
  TEMPLATE_LABELS,
} from "../../lib/mail/rules.ts";

const CARDS: { key: keyof CronStats; label: string; tone: string }[] = [
  { key: "pending", label: "Programmés", tone: "text-slate-800" },
  { key: "ready", label: "Prêts à envoyer", tone: "text-amber-600" },
  { key: "sentToday", label: "Envoyés aujourd'hui", tone: "text-emerald-600" },
  { key: "totalSent", label: "Total envoyés", tone: "text-slate-800" },
];

export function CronStatCards({ stats }: { stats: CronStats }) {
  return (
    <div class="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="cron-stats">
      {CARDS.map((card) => (
        <div key={card.key} class="rounded-xl border border-slate-200 bg-white p-4" data-stat={card.key}>
          <p class="text-xs font-medium uppercase tracking-wide text-slate-500">{card.label}</p>
          <p class={`mt-1 text-2xl font-semibold ${card.tone}`}>{stats[card.key]}</p>
        </div>
      ))}
    </div>
  );
}

const dateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});
const when = (seconds: number) => dateTime.format(new Date(seconds * 1000)).replace(" ", " à ");

const CHIP = {
  sent: "bg-emerald-100 text-emerald-800",
  ready: "bg-amber-100 text-amber-800",
  scheduled: "bg-slate-100 text-slate-700",
} as const;

export function CronTable({ rows }: { rows: ScheduledEmailJson[] }) {
  return (
    <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table class="w-full min-w-[640px] text-left text-sm">
        <thead class="bg-slate-50 text-slate-600">
          <tr>
            <th class="px-4 py-3">Email</th>
            <th class="px-4 py-3">Devis</th>
            <th class="px-4 py-3">HubSpot</th>
            <th class="px-4 py-3">Prévu le</th>
            <th class="px-4 py-3">Temps restant</th>
            <th class="px-4 py-3">Statut</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const display = scheduledDisplay(row);
            return (
              <tr
                key={row.id}
                class={`border-t border-slate-100 ${display === "ready" ? "bg-amber-50" : ""}`}
                data-scheduled={row.id}
                data-display={display}
              >
                <td class="px-4 py-3">
                  {TEMPLATE_LABELS[row.template] ?? row.template}
                  <span class="hidden text-xs text-slate-500 sm:block">{row.template}</span>
                </td>
                <td class="px-4 py-3">
                  {row.entityId !== null && (
                    <a
                      class="text-brand-700 underline"
                      href={`/dashboard/espace-partenaire/deal/${row.entityId}`}
                    >
                      #{row.entityId}
                    </a>
                  )}
                </td>
                <td class="px-4 py-3">{row.data.hubspotId ?? "—"}</td>
                <td class="px-4 py-3 whitespace-nowrap">{when(row.scheduleAt)}</td>
                <td class="px-4 py-3 whitespace-nowrap">
                  {display === "sent" ? "—" : (
                    <span
                      class={display === "ready" ? "rounded bg-amber-200 px-1.5 py-0.5 font-semibold" : ""}
                    >
                      {remainingLabel(row.timeRemaining)}
                    </span>
                  )}
                </td>
                <td class="px-4 py-3">
                  <span class={`rounded-full px-2 py-0.5 text-xs font-medium ${CHIP[display]}`}>
                    {SCHEDULED_LABELS[display]}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
