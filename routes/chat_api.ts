// The deal chat's API (issue 13), mounted at /api/chat: the timeline, posting a message, marking it
// read, and the server-sent event stream fed by this instance's hub (lib/chat/hub.ts). Guard: a signed-in user; the
// use cases check the chat's right (403), RLS a third time.
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { type AppEnv, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { parsePost, parseRead, parseThread } from "../lib/chat/input.ts";
import { listMessages } from "../lib/chat/use_cases/list_messages.ts";
import { postMessage } from "../lib/chat/use_cases/post_message.ts";
import { openStream } from "../lib/chat/use_cases/open_stream.ts";
import { markChatRead } from "../lib/chat/use_cases/mark_read.ts";
import { CHAT_MESSAGES } from "../lib/chat/rules.ts";

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;

export const chatApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api"))
  .get("/messages", async (c) => {
    const { messages, hasOlder } = await listMessages(c.var.deps, c.var.actor, parseThread(c.req.query()));
    // `results` is the timeline (spec 000 §7); whether older entries exist goes beside it.
    return c.json({ status: "success", results: messages, hasOlder });
  })
  .post("/messages", idempotent(), async (c) => {
    return success(c, await postMessage(c.var.deps, c.var.actor, parsePost(await readBody(c))));
  })
  .post("/read", async (c) => {
    return success(c, await markChatRead(c.var.deps, c.var.actor, parseRead(await readBody(c))));
  })
  .get("/stream", async (c) => {
    const { deps, actor } = c.var;
    const query: Record<string, string> = c.req.query();
    // A reconnecting EventSource sends the last id it received.
    const lastEventId = c.req.header("last-event-id");
    if (lastEventId && query.after === undefined) query.after = lastEventId;
    const input = parseThread(query);
    const open = await openStream(deps, actor, input);
    const { subscription } = open;
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => open.close());
      try {
        await stream.writeSSE({
          event: "ready",
          data: JSON.stringify({ after: subscription.lastId }),
          retry: 2000,
        });
        let ended = false;
        while (!ended && !stream.aborted) {
          const events = await subscription.next(HEARTBEAT_MS);
          if (stream.aborted) break;
          if (!events.length) {
            if (subscription.closed) break;
            await stream.write(": ping\n\n");
            continue;
          }
          for (const event of events) {
            if (event.kind === "messages") {
              for (const m of event.messages) {
                await stream.writeSSE({ id: String(m.id), data: JSON.stringify(m) });
              }
            } else {
              const message = event.reason === "reconnect"
                ? ""
                : event.reason === "access"
                ? CHAT_MESSAGES.ended
                : CHAT_MESSAGES.anonymous;
              await stream.writeSSE({
                event: "end",
                data: JSON.stringify({ reason: event.reason, message }),
              });
              ended = true;
            }
          }
        }
      } finally {
        open.close();
      }
    });
  });
