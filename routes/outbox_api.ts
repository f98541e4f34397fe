// The outbox for admins, mounted at /api/admin/outbox: each queue's figures and the dead letters
// (GET), and putting a dead letter back in its queue (POST /{id}/retry). Guard: an admin; the use cases
// check again, and RLS a third time.
import { Hono } from "hono";
import { type AppEnv, idParam, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { outboxOverview, requeueOutboxJob } from "../lib/outbox/actions.ts";
import { OUTBOX_MESSAGES } from "../lib/outbox/rules.ts";

export const outboxApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api", ["Admin"]))
  .get("/", async (c) => success(c, await outboxOverview(c.var.deps, c.var.actor)))
  .post("/:id/retry", async (c) => {
    const id = idParam(c, "id", OUTBOX_MESSAGES.jobNotFound);
    const message = await requeueOutboxJob(c.var.deps, c.var.actor, id);
    return success(c, { id }, message);
  });
