// The quote engine's settings API (spec 001 §7), mounted at /api: the back office. Guard: partners and
// admins, on this module's three path groups only (a guard on /api/* would answer 401 for unknown API
// paths); each use case checks the role (admins for global settings — a partner reads only the base
// grid its own starts from — a partner for its own records).
import { Hono } from "hono";
import { type AppEnv, readBody, success, uuidParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { getCompanySetting, saveCompanySetting } from "../lib/deals/use_cases/company_setting.ts";
import { getField } from "../lib/deals/settings.ts";
import { getSetting } from "../lib/deals/use_cases/get_setting.ts";
import { listPartners } from "../lib/deals/use_cases/list_partners.ts";
import { saveSetting } from "../lib/deals/use_cases/save_setting.ts";

const backOffice = requireUser("api", ["Admin", "Company"]);

export const settingsApiRoutes = new Hono<AppEnv>()
  .use("/settings/*", backOffice)
  .use("/company/*", backOffice)
  .use("/field/*", backOffice)
  .get(
    "/settings/:key",
    async (c) => success(c, await getSetting(c.var.deps, c.var.actor, c.req.param("key"))),
  )
  .patch("/settings/:key", async (c) => {
    const body = await readBody(c);
    const saved = await saveSetting(c.var.deps, c.var.actor, c.req.param("key"), body.value);
    return success(c, { value: saved.value, type: saved.type }, saved.message);
  })
  .get("/company/index", async (c) => success(c, await listPartners(c.var.deps, c.var.actor)))
  .get("/company/settings/:name/:userId", async (c) => {
    const userId = uuidParam(c, "userId", "Partenaire introuvable.");
    return success(c, await getCompanySetting(c.var.deps, c.var.actor, c.req.param("name"), userId));
  })
  .patch("/company/settings/:name/:userId", async (c) => {
    const userId = uuidParam(c, "userId", "Partenaire introuvable.");
    const body = await readBody(c);
    const saved = await saveCompanySetting(c.var.deps, c.var.actor, c.req.param("name"), userId, body.value);
    return success(c, { value: saved.value, type: saved.type }, saved.message);
  })
  .get("/field/:name", (c) => success(c, getField(c.req.param("name"))));
