// SQL of flash messages (identity.flash_messages, migration 20261127000200_deal_spec.sql): kept on the
// server per session and read once. Reached only by the system actor "auth".
import type { Tx } from "../db/database.ts";

export type FlashType = "success" | "error" | "warning" | "info";
export interface FlashMessage {
  type: FlashType;
  message: string;
}

/** A message older than this is not shown any more (the page it was meant for has long been seen). */
export const FLASH_TTL_SECONDS = 300;
/** At most this many messages wait for one session (the shell shows five). */
export const FLASH_MAX_PER_SESSION = 5;
const MAX_MESSAGE = 500;

/** Keeps `message` for the session `sessionKey` (a SHA-256 in hex); messages past their time are
 * purged by the same statement (an index on created_at keeps it cheap). */
export async function addFlashMessage(tx: Tx, sessionKey: string, flash: FlashMessage): Promise<void> {
  await tx`
    with purged as (
      delete from identity.flash_messages
      where created_at < now() - ${`${FLASH_TTL_SECONDS} seconds`}::interval
    )
    insert into identity.flash_messages (session_key, type, message)
    values (${sessionKey}, ${flash.type}, ${flash.message.slice(0, MAX_MESSAGE)})`;
}

/** Takes (reads and deletes) the waiting messages of these session keys, oldest first. */
export async function takeFlashMessages(tx: Tx, sessionKeys: string[]): Promise<FlashMessage[]> {
  const rows = await tx<FlashMessage & { id: number; fresh: boolean }>`
    delete from identity.flash_messages
    where session_key = any(${sessionKeys}::text[])
    returning id, type, message, created_at >= now() - ${`${FLASH_TTL_SECONDS} seconds`}::interval as fresh`;
  return rows
    .filter((row) => row.fresh)
    .sort((a, b) => a.id - b.id)
    .slice(-FLASH_MAX_PER_SESSION)
    .map(({ type, message }) => ({ type, message }));
}
