// SQL of the logs page, under the admin's claims (RLS: admins read and delete public.logs).
import type { Tx } from "../db/database.ts";
import { LOG_PAGE_SIZE, type LogEntry, type LogFilters, type LogStats } from "./rules.ts";

// Counts come from public.log_counts (kept by triggers): no scan of the table, whatever its size.

export async function logStats(tx: Tx): Promise<LogStats> {
  const [row] = await tx<LogStats>`
    select coalesce((select sum(n) from public.log_counts), 0)::integer as total,
           coalesce((select sum(n) from public.log_counts where type = 'error'), 0)::integer as errors,
           coalesce((select sum(n) from public.log_counts where type = 'warning'), 0)::integer as warnings,
           coalesce((select sum(n) from public.log_counts where type = 'info'), 0)::integer as info,
           (select count(*) from public.logs
            where created_at >= (date_trunc('day', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris')
           )::integer as today`;
  return row;
}

/** The services that have rows, in order. */
export async function logServices(tx: Tx): Promise<string[]> {
  const rows = await tx<{ service: string }>`
    select distinct service from public.log_counts where n > 0 order by service`;
  return rows.map((r) => r.service);
}

export async function countLogs(tx: Tx, filters: LogFilters): Promise<number> {
  const [row] = await tx<{ n: number }>`
    select coalesce(sum(n), 0)::integer as n from public.log_counts
    where (${filters.service} = '' or service = ${filters.service})
      and (${filters.type} = '' or type = ${filters.type})`;
  return row.n;
}

export function listLogs(tx: Tx, filters: LogFilters): Promise<LogEntry[]> {
  const offset = (filters.page - 1) * LOG_PAGE_SIZE;
  // One statement per filter combination, so that each uses its index (service or type, newest first).
  const columns =
    `id, extract(epoch from created_at)::bigint as "createdAt", service, type, message, context`;
  const order = `order by created_at desc, id desc limit ${LOG_PAGE_SIZE} offset $1`;
  if (filters.service && filters.type) {
    return tx.query<LogEntry>(
      `select ${columns} from public.logs where service = $2 and type = $3 ${order}`,
      [offset, filters.service, filters.type],
    );
  }
  if (filters.service) {
    return tx.query<LogEntry>(`select ${columns} from public.logs where service = $2 ${order}`, [
      offset,
      filters.service,
    ]);
  }
  if (filters.type) {
    return tx.query<LogEntry>(`select ${columns} from public.logs where type = $2 ${order}`, [
      offset,
      filters.type,
    ]);
  }
  return tx.query<LogEntry>(`select ${columns} from public.logs ${order}`, [offset]);
}

export async function deleteLog(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx<{ id: number }>`delete from public.logs where id = ${id} returning id`;
  return rows.length > 0;
}

/** Rows older than the retention, deleted under the caller's claims (an admin: RLS allows it). */
export async function deleteOldLogs(tx: Tx, days: number): Promise<number> {
  const rows = await tx<{ n: number }>`
    with gone as (delete from public.logs where created_at < now() - make_interval(days => ${days}) returning 1)
    select count(*)::integer as n from gone`;
  return rows[0].n;
}
