// The chat of a deal (spec 000 §6, 001 §2.6), on the customer's deal page and the back office's 'Chat'
// tab: the timeline rendered by the server, new entries received live from the server-sent event
// stream (GET /api/chat/stream, caught up from the last id after a cut), and the box to write. The
// message is sent as written (the server answers 422 for an empty one, 429 for a flood); the box clears
// after sending. Entries count as read once the chat is on screen (the browser tab shown, the chat's
// own tab open): the island says so (POST /api/chat/read), which the unread digest email relies on.
// The chat opens on the latest 50 entries; 'Messages précédents' adds the 50 before the oldest shown
// (GET /api/chat/messages?before=…), keeping the reader's place in the list.
// The server decides who may read and write.
import { useEffect, useRef, useState } from "react";
import { api, ApiError, submitOnce } from "../components/ui/api.ts";
import { ChatCard } from "../components/chat/ChatCard.tsx";
import { ChatEntry } from "../components/chat/ChatEntry.tsx";
import {
  CHAT_ENTITY_TYPE,
  CHAT_MESSAGES,
  type ChatMessage,
  type ChatViewer,
  mergeMessages,
  MESSAGE_MAX_LENGTH,
  olderUrl,
  streamUrl,
} from "../lib/chat/rules.ts";

export interface DealChatProps {
  dealId: number;
  viewer: ChatViewer;
  messages: ChatMessage[];
  /** Older entries exist than the first of `messages`. */
  hasOlder?: boolean;
}

type Link = "connecting" | "live" | "retrying" | "ended";

export default function DealChat({ dealId, viewer, messages: initial, hasOlder = false }: DealChatProps) {
  const [messages, setMessages] = useState(initial);
  const [older, setOlder] = useState<"more" | "loading" | "error" | "none">(hasOlder ? "more" : "none");
  /** Set while older entries are added: the list keeps the reader's place instead of scrolling down. */
  const keepPlace = useRef<number | null>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<Link>("connecting");
  const [ended, setEnded] = useState<string | null>(null);
  const lastId = useRef(initial.length ? initial[initial.length - 1].id : 0);
  const list = useRef<HTMLOListElement>(null);
  const readThrough = useRef(0);
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** Marks what is shown as read, a second after it is (one request for a burst), when on screen. */
  const markRead = () => {
    if (readTimer.current !== undefined) return;
    readTimer.current = setTimeout(async () => {
      readTimer.current = undefined;
      const through = lastId.current;
      const shown = document.visibilityState === "visible" && list.current?.offsetParent != null;
      if (!shown || through <= readThrough.current) return;
      try {
        await api("POST", "/api/chat/read", { entityId: dealId, entityType: CHAT_ENTITY_TYPE, through });
        readThrough.current = through;
      } catch {
        // Not read after all (the right is gone: the stream says so); tried again with the next entry.
      }
    }, 1000);
  };

  useEffect(() => {
    markRead();
    // Shown again: the browser tab comes back, or the deal page's 'Chat' tab opens.
    document.addEventListener("visibilitychange", markRead);
    globalThis.addEventListener("hashchange", markRead);
    return () => {
      document.removeEventListener("visibilitychange", markRead);
      globalThis.removeEventListener("hashchange", markRead);
      clearTimeout(readTimer.current);
    };
  }, []);

  const add = (incoming: ChatMessage[]) => {
    if (!incoming.length) return;
    lastId.current = Math.max(lastId.current, ...incoming.map((m) => m.id));
    setMessages((current) => mergeMessages(current, incoming));
  };

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const connect = () => {
      if (stopped) return;
      setLink("connecting");
      source = new EventSource(streamUrl(dealId, lastId.current));
      source.addEventListener("ready", () => setLink("live"));
      source.onmessage = (event) => add([JSON.parse(event.data) as ChatMessage]);
      source.addEventListener("end", (event) => {
        source?.close();
        const { reason, message } = JSON.parse((event as MessageEvent).data);
        if (reason === "reconnect") connect();
        else {
          setLink("ended");
          setEnded(message || CHAT_MESSAGES.ended);
        }
      });
      source.onerror = () => {
        // The browser reconnects by itself (with Last-Event-ID) unless the server refused the stream.
        if (source?.readyState !== EventSource.CLOSED) {
          setLink("retrying");
          return;
        }
        setLink("retrying");
        retry = setTimeout(check, 3000);
      };
    };
    // After a refusal: still allowed? Then catch up and listen again; 401/403: the chat is over here.
    const check = async () => {
      try {
        const answer = await api<{ results: ChatMessage[] }>(
          "GET",
          `/api/chat/messages?entityId=${dealId}&entityType=${CHAT_ENTITY_TYPE}&after=${lastId.current}`,
        );
        add(answer.results);
        connect();
      } catch (e) {
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
          setLink("ended");
          setEnded(e.status === 401 ? CHAT_MESSAGES.anonymous : CHAT_MESSAGES.ended);
        } else retry = setTimeout(check, 5000);
      }
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [dealId]);

  useEffect(() => {
    const el = list.current;
    if (el && keepPlace.current !== null) {
      el.scrollTop = el.scrollHeight - keepPlace.current;
      keepPlace.current = null;
    } else if (el) el.scrollTop = el.scrollHeight;
    markRead();
  }, [messages.length]);

  const loadOlder = async () => {
    if (older === "loading" || messages.length === 0) return;
    setOlder("loading");
    try {
      const answer = await api<{ results: ChatMessage[]; hasOlder: boolean }>(
        "GET",
        olderUrl(dealId, messages[0].id),
      );
      const el = list.current;
      keepPlace.current = el ? el.scrollHeight - el.scrollTop : null;
      setMessages((current) => mergeMessages(current, answer.results));
      setOlder(answer.hasOlder ? "more" : "none");
    } catch {
      setOlder("error");
    }
  };

  const send = async (event: Event) => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setError(null);
    try {
      const answer = await submitOnce<{ results: ChatMessage }>("/api/chat/messages", {
        entityId: dealId,
        entityType: CHAT_ENTITY_TYPE,
        type: "message",
        text,
      });
      add([answer.results]);
      setText("");
    } catch (e) {
      setError(e instanceof ApiError ? e.message : CHAT_MESSAGES.sendError);
    } finally {
      setSending(false);
    }
  };

  const status = link === "live"
    ? <span class="text-xs font-semibold text-green-700" data-testid="chat-live">● En direct</span>
    : link === "retrying"
    ? <span class="text-xs text-slate-500">{CHAT_MESSAGES.reconnecting}</span>
    : null;

  return (
    <ChatCard status={status}>
      <ol
        ref={list}
        class="max-h-[28rem] space-y-2 overflow-y-auto pr-1"
        aria-live="polite"
        data-testid="chat-timeline"
      >
        {older !== "none" && (
          <li class="text-center">
            <button
              type="button"
              class="rounded-full border border-slate-300 bg-white px-4 py-1.5 text-xs font-semibold text-slate-700 hover:border-brand-500 disabled:opacity-60"
              onClick={loadOlder}
              disabled={older === "loading"}
              data-testid="chat-older"
            >
              {older === "loading" ? CHAT_MESSAGES.olderLoading : CHAT_MESSAGES.older}
            </button>
            {older === "error" && (
              <p class="mt-1 text-xs text-red-700" role="alert">{CHAT_MESSAGES.olderError}</p>
            )}
          </li>
        )}
        {messages.length === 0 && <li class="text-sm text-slate-500">{CHAT_MESSAGES.none}</li>}
        {messages.map((m) => <ChatEntry key={m.id} message={m} viewer={viewer} />)}
      </ol>
      {ended
        ? <p class="mt-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900" role="status">{ended}</p>
        : (
          <form class="mt-3 space-y-2" onSubmit={send} data-testid="chat-form">
            <label class="sr-only" for={`chat-text-${dealId}`}>{CHAT_MESSAGES.placeholder}</label>
            <textarea
              id={`chat-text-${dealId}`}
              class="block w-full resize-y rounded-xl border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              rows={3}
              maxLength={MESSAGE_MAX_LENGTH}
              placeholder={CHAT_MESSAGES.placeholder}
              value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
              data-testid="chat-input"
            />
            {error && <p class="text-sm text-red-700" role="alert" data-testid="chat-error">{error}</p>}
            <div class="flex justify-end">
              <button
                type="submit"
                class="rounded-full bg-brand-600 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
                disabled={sending}
                data-testid="chat-send"
              >
                {CHAT_MESSAGES.send}
              </button>
            </div>
          </form>
        )}
    </ChatCard>
  );
}
