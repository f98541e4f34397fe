// The account API (spec 000 §7 Account, 001 §7 PATCH /api/user/update), mounted at /api/user.
// Guard: a signed-in user — except the flash messages, which anyone may read and which are
// registered before the guard on purpose.
import { Hono } from "hono";
import { type AppEnv, readBody } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { takeFlashes } from "../lib/http/cookies.ts";
import {
  cancelAccountDeletion,
  getProfile,
  requestAccountDeletion,
  updateProfile,
} from "../lib/accounts/actions.ts";
import { exportFileName, exportPersonalData } from "../lib/accounts/export.ts";

export const accountRoutes = new Hono<AppEnv>()
  .get("/flash-messages", async (c) => {
    try {
      return c.json(await takeFlashes(c));
    } catch {
      return c.json([]);
    }
  })
  .use(requireUser("api"))
  .get("/get", async (c) => c.json(await getProfile(c.var.deps, c.var.actor)))
  // GDPR export: a JSON file to download, never cached.
  .get("/export", async (c) => {
    const data = await exportPersonalData(c.var.deps, c.var.actor);
    return c.body(JSON.stringify(data, null, 2), 200, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "no-store",
    });
  })
  .patch("/update", async (c) => c.json(await updateProfile(c.var.deps, c.var.actor, await readBody(c))))
  .delete("/delete", async (c) => c.json(await requestAccountDeletion(c.var.deps, c.var.actor)))
  .patch("/delete/cancel", async (c) => c.json(await cancelAccountDeletion(c.var.deps, c.var.actor)));
