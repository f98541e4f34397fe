// What this process knows of its own health, for /readyz and /metrics (a primitive: it knows no
// capability). The worker beats after every pass, the LISTEN connection says when it is up or down,
// and the database adapter counts its errors. One object per app instance (tests run several in one
// process), carried in `Deps.health`.

export interface Health {
  /** The worker finished a pass (whatever it handled). */
  workerBeat(at?: number): void;
  /** Unix ms of the worker's last finished pass, or null before the first. */
  readonly lastWorkerBeat: number | null;
  /** A LISTEN channel's connection (re)subscribed (`true`) or was lost (`false`). */
  setListening(channel: string, up: boolean): void;
  /** Channels whose LISTEN connection is not up (empty when every channel listens). */
  listeningDown(): string[];
  /** Every channel that has reported, with its state. */
  listening(): Record<string, boolean>;
}

export function createHealth(now = () => Date.now()): Health {
  let lastBeat: number | null = null;
  const channels = new Map<string, boolean>();
  return {
    workerBeat(at = now()) {
      lastBeat = at;
    },
    get lastWorkerBeat() {
      return lastBeat;
    },
    setListening(channel, up) {
      channels.set(channel, up);
    },
    listeningDown() {
      return [...channels].filter(([, up]) => !up).map(([channel]) => channel);
    },
    listening() {
      return Object.fromEntries(channels);
    },
  };
}
