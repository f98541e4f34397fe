// The HubSpot sync switch, written by the app at start (main.ts) from its configuration: with a
// HUBSPOT_TOKEN a deal's change queues one coalesced 'crm-sync' job (the deals trigger); without one it
// queues nothing and the pending jobs are purged, instead of one job per deal waiting forever. Turning
// the sync on later sends each deal at its next change (or when HubSpot's webhook asks for it): the
// deals changed meanwhile are not queued again in bulk. Several instances must share one configuration.
import { systemActor, transactionAs } from "../actor.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { crmSyncEnabled } from "./rules.ts";
import { setCrmSync } from "./switch_store.ts";

/** Records in the database whether the sync is on; answers the number of pending syncs purged. */
export function recordCrmSync(db: Database, config: Pick<Config, "hubspotToken">): Promise<number> {
  return transactionAs(db, systemActor("job"), (tx) => setCrmSync(tx, crmSyncEnabled(config)));
}
