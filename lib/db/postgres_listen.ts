// LISTEN on PostgreSQL, kept alive by the adapter rather than by postgres.js: postgres.js subscribes
// again once when its listening connection closes, and if that one attempt fails (the database is
// still away) the channel is dropped for good. Here one connection of its own carries every channel;
// when it closes, each channel is reported down and subscribed again every LISTEN_RETRY_MS until it
// is back, then its listeners' `onListening` run (notifications sent meanwhile are lost).

// deno-lint-ignore no-explicit-any
type Sql = any;

const LISTEN_RETRY_MS = 500;

interface Listener {
  onMessage: (payload: string) => void;
  onListening?: () => void;
}

export interface Listening {
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onListening?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** `open(onNotify, onClose)` creates the single-connection postgres.js pool that carries the LISTENs. */
export function createListening(
  open: (onNotify: (channel: string, payload: string) => void, onClose: () => void) => Sql,
  options: { attemptMs: number; onState?: (channel: string, up: boolean) => void },
): Listening {
  const channels = new Map<string, { listeners: Set<Listener>; up: boolean }>();
  let closed = false;
  let retrying = false;
  let sql: Sql = null;
  const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

  const connection = (): Sql =>
    sql ??= open(
      (channel, payload) => channels.get(channel)?.listeners.forEach((l) => l.onMessage(payload)),
      () => lost(),
    );

  const setState = (channel: string, up: boolean) => {
    const state = channels.get(channel);
    if (!state || state.up === up) return;
    state.up = up;
    options.onState?.(channel, up);
  };

  /** One LISTEN within the deadline. */
  const subscribe = async (channel: string): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        connection().unsafe(`listen ${quoted(channel)}`),
        new Promise((_, reject) =>
          timer = setTimeout(() => reject(new Error("LISTEN timeout")), options.attemptMs)
        ),
      ]);
    } finally {
      clearTimeout(timer);
    }
    const state = channels.get(channel);
    if (!state || closed) return;
    setState(channel, true);
    state.listeners.forEach((l) => l.onListening?.());
  };

  const lost = () => {
    if (closed) return;
    for (const channel of channels.keys()) setState(channel, false);
    resubscribe();
  };

  const resubscribe = async () => {
    if (retrying || closed) return;
    retrying = true;
    try {
      while (!closed && [...channels.values()].some((s) => !s.up)) {
        for (const [channel, state] of channels) {
          if (!state.up && !closed) await subscribe(channel).catch(() => {});
        }
        if ([...channels.values()].some((s) => !s.up)) {
          await new Promise((r) => setTimeout(r, LISTEN_RETRY_MS));
        }
      }
    } finally {
      retrying = false;
    }
  };

  return {
    async listen(channel, onMessage, onListening) {
      if (closed) throw new Error("Database closed");
      const listener = { onMessage, onListening };
      const state = channels.get(channel);
      if (state) {
        state.listeners.add(listener);
        if (state.up) onListening?.();
      } else {
        channels.set(channel, { listeners: new Set([listener]), up: false });
        // Down until subscribed: /readyz must not take a channel that never listened for a live one.
        options.onState?.(channel, false);
        // Not up yet: the retry loop keeps trying (and the caller is not held by an outage).
        // Not awaited: a database away at start must not hold the caller (the app's start) either.
        await subscribe(channel).catch(() => {
          void resubscribe();
        });
      }
      return async () => {
        const state = channels.get(channel);
        if (!state?.listeners.delete(listener) || state.listeners.size) return;
        channels.delete(channel);
        if (state.up) await connection().unsafe(`unlisten ${quoted(channel)}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      await sql?.end({ timeout: 1 });
    },
  };
}
