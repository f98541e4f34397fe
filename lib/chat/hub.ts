// One listener per app instance fans the database's chat notices out to this instance's open streams
// (DESIGN: LISTEN/NOTIFY → server-sent events). The database announces, on commit:
//   'm:<deal id>'  new entries in a deal's chat (app_chat): the hub reads what its streams of that deal
//                  have not had yet, once for all of them, and hands it to each;
//   'a:<deal id>'  who may read a deal's chat changed (app_chat): each stream of that deal checks its
//                  viewer's right again, as the viewer, and ends when it is gone;
//   'h:<hash>'     a session ended (app_sessions, migration 20261125000000): its streams end;
//   'u:<user id>'  a user's type or names changed (app_sessions): their streams end and reconnect.
// On PostgreSQL postgres.js keeps every LISTEN of the process on one connection; on PGlite the
// database itself is in the process.
import { statementAs, systemActor, type UserActor } from "../actor.ts";
import type { Database } from "../db/database.ts";
import { SESSION_CHANNEL } from "../auth/session_cache.ts";
import { type ChatMessage, PAGE_SIZE } from "./rules.ts";
import { chatStreamClosed, chatStreamOpened } from "../metrics/registry.ts";

export const CHAT_CHANNEL = "app_chat";

/** Why a stream ends: the viewer lost the right, the session ended, or it should reconnect. */
export type EndReason = "access" | "session" | "reconnect";

export type StreamEvent = { kind: "messages"; messages: ChatMessage[] } | { kind: "end"; reason: EndReason };

/** One open stream: a queue the route drains. */
export class ChatSubscription {
  private queue: StreamEvent[] = [];
  private wake: (() => void) | null = null;
  closed = false;

  constructor(readonly dealId: number, readonly actor: UserActor, public lastId: number) {}

  /** Hands entries newer than what the stream has already had. */
  push(messages: ChatMessage[]) {
    const fresh = messages.filter((m) => m.id > this.lastId);
    if (!fresh.length || this.closed) return;
    this.lastId = fresh[fresh.length - 1].id;
    this.enqueue({ kind: "messages", messages: fresh });
  }

  end(reason: EndReason) {
    if (this.closed) return;
    this.enqueue({ kind: "end", reason });
    this.closed = true;
  }

  private enqueue(event: StreamEvent) {
    this.queue.push(event);
    this.wake?.();
    this.wake = null;
  }

  /** The next events, waiting up to `timeoutMs` (an empty list then: time for a heartbeat). */
  async next(timeoutMs: number): Promise<StreamEvent[]> {
    if (!this.queue.length && !this.closed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
      this.wake = null;
    }
    return this.queue.splice(0);
  }

  /** The client went away: wakes the pump so that it stops. */
  abort() {
    this.closed = true;
    this.wake?.();
  }
}

interface DealStreams {
  subs: Set<ChatSubscription>;
  fetching: Promise<void> | null;
  dirty: boolean;
}

export interface ChatHub {
  /** Adds a stream; returns the function that removes it. */
  subscribe(sub: ChatSubscription): () => void;
  /** Reads what the deal's streams have not had (after a subscription: the catch-up). */
  refresh(dealId: number): Promise<void>;
  /** Open streams on this instance. */
  readonly size: number;
  stop(): Promise<void>;
}

const SELECT_NEW = `select id, deal_id as "entityId", entity_type as "entityType", type, text,
  author_id as "authorId", author_type as "authorType", author_name as "authorName",
  extract(epoch from created_at)::bigint as "createdAt"
  from public.chat_messages where deal_id = $1 and id > $2 order by id limit $3`;

export async function startChatHub(
  db: Database,
  onError: (error: unknown) => void = console.error,
): Promise<ChatHub> {
  const deals = new Map<number, DealStreams>();
  const system = systemActor("job");
  let size = 0;

  const fetchNew = (dealId: number): Promise<void> => {
    const state = deals.get(dealId);
    if (!state) return Promise.resolve();
    state.dirty = true;
    if (state.fetching) return state.fetching;
    state.fetching = (async () => {
      try {
        while (state.dirty && state.subs.size) {
          state.dirty = false;
          const after = Math.min(...[...state.subs].map((s) => s.lastId));
          const rows = await statementAs<ChatMessage>(db, system, SELECT_NEW, [dealId, after, PAGE_SIZE]);
          for (const sub of state.subs) sub.push(rows);
          if (rows.length === PAGE_SIZE) state.dirty = true;
        }
      } catch (error) {
        onError(error);
      } finally {
        state.fetching = null;
      }
    })();
    return state.fetching;
  };

  const recheck = async (dealId: number) => {
    const state = deals.get(dealId);
    if (!state) return;
    await Promise.all([...state.subs].map(async (sub) => {
      try {
        const [row] = await statementAs<{ ok: boolean }>(
          db,
          sub.actor,
          "select public.can_read_deal_chat($1) as ok",
          [dealId],
        );
        if (row?.ok !== true) sub.end("access");
      } catch (error) {
        onError(error);
        sub.end("reconnect");
      }
    }));
  };

  const everySub = (fn: (sub: ChatSubscription) => void) => {
    for (const state of deals.values()) for (const sub of state.subs) fn(sub);
  };

  let listening = false;
  const stopChat = await db.listen(CHAT_CHANNEL, (payload) => {
    const dealId = Number(payload.slice(2));
    if (!Number.isSafeInteger(dealId) || !deals.has(dealId)) return;
    if (payload.startsWith("m:")) fetchNew(dealId);
    else if (payload.startsWith("a:")) recheck(dealId);
  }, () => {
    // Notices sent while the connection was away are lost: catch every stream up and check again.
    if (listening) { for (const dealId of deals.keys()) fetchNew(dealId).then(() => recheck(dealId)); }
    listening = true;
  });
  const stopSessions = await db.listen(SESSION_CHANNEL, (payload) => {
    if (payload.startsWith("h:")) {
      const hash = payload.slice(2);
      everySub((sub) => sub.actor.sessionHash === hash && sub.end("session"));
    } else if (payload.startsWith("u:")) {
      const id = payload.slice(2);
      everySub((sub) =>
        (sub.actor.user.id === id || sub.actor.impersonatorId === id) && sub.end("reconnect")
      );
    }
  });

  return {
    subscribe(sub) {
      let state = deals.get(sub.dealId);
      if (!state) deals.set(sub.dealId, state = { subs: new Set(), fetching: null, dirty: false });
      state.subs.add(sub);
      size++;
      chatStreamOpened();
      return () => {
        if (!state.subs.delete(sub)) return;
        size--;
        chatStreamClosed();
        if (!state.subs.size && deals.get(sub.dealId) === state) deals.delete(sub.dealId);
      };
    },
    refresh: fetchNew,
    get size() {
      return size;
    },
    async stop() {
      everySub((sub) => sub.end("reconnect"));
      await stopChat();
      await stopSessions();
    },
  };
}

const hubs = new WeakMap<Database, Promise<ChatHub>>();

/** This instance's hub for `db` (started on first use: one per database handle, i.e. per instance). */
export function chatHubOf(db: Database, onError?: (error: unknown) => void): Promise<ChatHub> {
  let hub = hubs.get(db);
  if (!hub) hubs.set(db, hub = startChatHub(db, onError));
  return hub;
}
