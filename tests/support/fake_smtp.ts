// A local SMTP server (smtp-server) on 127.0.0.1 that the real nodemailer client talks to, and that a
// test can turn into an outage: refuse every connection or message with a code (421, 451, 554…),
// answer slowly, or drop the connection in the middle of DATA. Records what it accepted.
import { SMTPServer } from "smtp-server";
import type { Socket } from "node:net";

export type SmtpMode =
  | { kind: "accept"; delayMs?: number }
  | { kind: "refuse-connection"; code: number }
  | { kind: "refuse-data"; code: number }
  | { kind: "drop" };

export interface Received {
  from: string;
  to: string[];
  raw: string;
  messageId: string | null;
}

export interface FakeSmtp {
  url: string;
  received: Received[];
  /** Connections the server saw (accepted or not). */
  connections: number;
  setMode(mode: SmtpMode): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(mode: SmtpMode = { kind: "accept" }): Promise<FakeSmtp> {
  let current = mode;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const refusal = (code: number) =>
    Object.assign(new Error(code >= 500 ? "Service indisponible" : "Réessayez plus tard"), {
      responseCode: code,
    });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      callback(current.kind === "refuse-connection" ? refusal(current.code) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      const mode = current;
      if (mode.kind === "drop") {
        // The connection dies in the middle of the message: the client sees no answer to DATA.
        stream.once("data", () => sockets.forEach((s) => s.destroy()));
        stream.on("data", () => {});
        return;
      }
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        if (mode.kind === "refuse-data") return callback(refusal(mode.code));
        const raw = new TextDecoder().decode(concat(chunks));
        const finish = () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? null,
          });
          callback();
        };
        if (mode.kind === "accept" && mode.delayMs) setTimeout(finish, mode.delayMs);
        else finish();
      });
    },
  });
  server.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // A dropped connection makes smtp-server report an error: expected here.
  server.on("error", () => {});
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get connections() {
      return state.connections;
    },
    setMode(mode: SmtpMode) {
      current = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
