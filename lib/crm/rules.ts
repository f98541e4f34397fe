// When accepting a quote really updates the CRM phase: a worker delivers the crm_outbox row only when
// a HubSpot token is configured (lib/jobs/queues.ts), and a row whose deal has no HubSpot id is skipped.
// The admin's message claims the HubSpot update only when both hold (spec 001 §4).
import type { Config } from "../config.ts";

export function crmUpdateQueued(
  config: Pick<Config, "hubspotToken">,
  hubspotId: string | null | undefined,
): boolean {
  return config.hubspotToken !== "" && (hubspotId ?? "").trim() !== "";
}
