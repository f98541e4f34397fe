// Every SQL statement of the chat, each a named function taking the use case's transaction.
import type { Tx } from "../db/database.ts";
import type { ChatMessage } from "./rules.ts";

const COLUMNS = `id, deal_id as "entityId", entity_type as "entityType", type, text, author_id as "authorId",
  author_type as "authorType", author_name as "authorName",
  extract(epoch from created_at)::bigint as "createdAt"`;

const SELECT_AFTER = `select ${COLUMNS} from public.chat_messages
  where deal_id = $1 and id > $2 order by id limit $3`;
const SELECT_LATEST = `select * from (select ${COLUMNS} from public.chat_messages
  where deal_id = $1 order by id desc limit $2) m order by id`;
const SELECT_BEFORE = `select * from (select ${COLUMNS} from public.chat_messages
  where deal_id = $1 and id < $2 order by id desc limit $3) m order by id`;

/** May the transaction's user read (and write in) the deal's chat? (RLS says the same.) */
export async function canReadChat(tx: Tx, dealId: number): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }>`select public.can_read_deal_chat(${dealId}) as ok`;
  return row.ok === true;
}

/** Entries after `after` (oldest first), or the latest `limit` before `before` (the latest of all
 * when both are null), oldest first. Each reads the (deal_id, id) index from its cursor. */
export function messagesOf(
  tx: Tx,
  dealId: number,
  cursor: { after: number | null; before?: number | null },
  limit: number,
): Promise<ChatMessage[]> {
  if (cursor.after !== null) return tx.query<ChatMessage>(SELECT_AFTER, [dealId, cursor.after, limit]);
  if (cursor.before != null) return tx.query<ChatMessage>(SELECT_BEFORE, [dealId, cursor.before, limit]);
  return tx.query<ChatMessage>(SELECT_LATEST, [dealId, limit]);
}

export async function insertMessage(
  tx: Tx,
  dealId: number,
  authorId: string,
  text: string,
): Promise<ChatMessage> {
  const [row] = await tx<ChatMessage>`
    insert into public.chat_messages (deal_id, type, text, author_id)
    values (${dealId}, 'message', ${text}, ${authorId})
    returning id, deal_id as "entityId", entity_type as "entityType", type, text, author_id as "authorId",
      author_type as "authorType", author_name as "authorName", extract(epoch from created_at)::bigint as "createdAt"`;
  return row;
}

/** The user has read the deal's chat up to `through` (never moves back). */
export async function markRead(tx: Tx, dealId: number, userId: string, through: number): Promise<void> {
  await tx`
    insert into public.chat_reads (deal_id, user_id, last_read_id, read_at)
    values (${dealId}, ${userId}, ${through}, now())
    on conflict (deal_id, user_id) do update
      set last_read_id = greatest(public.chat_reads.last_read_id, excluded.last_read_id), read_at = now()
      where public.chat_reads.last_read_id < excluded.last_read_id`;
}

// ---------------------------------------------------------------------------------------------------
// The digest (system actor).

export interface DigestCandidate {
  dealId: number;
  userId: string;
  throughId: number;
  unread: number;
}

export function digestCandidates(tx: Tx, minutes: number): Promise<DigestCandidate[]> {
  return tx<DigestCandidate>`
    select deal_id as "dealId", user_id as "userId", through_id as "throughId", unread
    from public.chat_digest_candidates(${minutes}) order by deal_id, user_id`;
}

/** Locks the reader's marker row (made if missing) and answers what is still neither read nor emailed. */
export async function lockMarker(tx: Tx, dealId: number, userId: string): Promise<number> {
  await tx`insert into public.chat_reads (deal_id, user_id, last_read_id) values (${dealId}, ${userId}, 0)
    on conflict do nothing`;
  const [row] = await tx<{ since: number }>`
    select greatest(last_read_id, digest_through_id) as since from public.chat_reads
    where deal_id = ${dealId} and user_id = ${userId} for update`;
  return row.since;
}

export function unreadFor(tx: Tx, dealId: number, userId: string, since: number): Promise<ChatMessage[]> {
  return tx.query<ChatMessage>(
    `select ${COLUMNS} from public.chat_messages
     where deal_id = $1 and id > $2 and type = 'message' and author_id is distinct from $3 order by id`,
    [dealId, since, userId],
  );
}

export async function setDigestThrough(tx: Tx, dealId: number, userId: string, through: number) {
  await tx`update public.chat_reads set digest_through_id = ${through}
    where deal_id = ${dealId} and user_id = ${userId}`;
}

export interface DigestRecipient {
  email: string;
  firstname: string;
  type: string;
  dealName: string;
  dealToken: string;
}

export async function digestRecipient(
  tx: Tx,
  dealId: number,
  userId: string,
): Promise<DigestRecipient | null> {
  const [row] = await tx<DigestRecipient>`
    select u.email, u.firstname, u.type, d.name as "dealName", d.token as "dealToken"
    from public.users u, public.deals d
    where u.id = ${userId} and d.id = ${dealId} and u.deleted_at is null and u.anonymized_at is null`;
  return row ?? null;
}
