// SQL of the HubSpot sync switch (migration 20261128006000_growth_indexes.sql): public.set_crm_sync()
// records whether a deal's change queues its sync, and purges the pending syncs when it is off.
import type { Tx } from "../db/database.ts";

/** Records the switch; answers how many pending 'crm-sync' jobs were purged (turned off only). */
export async function setCrmSync(tx: Tx, enabled: boolean): Promise<number> {
  const [row] = await tx<{ purged: number }>`select public.set_crm_sync(${enabled}) as purged`;
  return row.purged;
}

/** Whether a deal's change queues its sync now. */
export async function crmSyncRecorded(tx: Tx): Promise<boolean> {
  const [row] = await tx<{ on: boolean }>`select public.crm_sync_enabled() as on`;
  return row.on;
}
