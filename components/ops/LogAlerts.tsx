// The alerts above the logs (lib/ops/alerts.ts): dead letters and a stalled worker, shown as errors.
// Nothing at all when there is none.
import { ALERT_MESSAGES, type OpsAlert } from "../../lib/ops/alerts.ts";
import { LOG_TYPE_LABELS } from "../../lib/ops/rules.ts";

const dateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});

export function LogAlerts({ alerts }: { alerts: OpsAlert[] }) {
  if (!alerts.length) return null;
  return (
    <section
      class="mb-6 rounded-xl border-2 border-red-300 bg-red-50 p-4 text-sm text-red-900"
      role="alert"
      data-testid="ops-alerts"
    >
      <h2 class="mb-2 font-semibold">{ALERT_MESSAGES.title}</h2>
      <ul class="space-y-2">
        {alerts.map((alert) => (
          <li key={`${alert.kind}:${alert.queue ?? ""}`} data-alert={alert.kind} data-type="error">
            <span class="mr-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">
              {LOG_TYPE_LABELS.error}
            </span>
            {alert.message}
            {alert.jobs && (
              <ul class="mt-1 ml-4 list-disc text-xs text-red-800">
                {alert.jobs.map((job) => (
                  <li key={job.id}>
                    {ALERT_MESSAGES.jobLine(job)}, le {dateTime.format(job.failedAt * 1000)}
                    {job.lastError && <span class="break-all">: {job.lastError}</span>}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
