// Providers' webhooks, mounted at /api/webhooks. Public: authenticated by their signature, not by a
// session (servers send no Origin, so the CSRF check lets them through).
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { stripeWebhook } from "../lib/payments/webhook.ts";
import { hubspotWebhook } from "../lib/crm/webhook.ts";

export const stripeWebhookRoutes = new Hono<AppEnv>()
  .post("/stripe", (c) => stripeWebhook(c.var.deps)(c.req.raw))
  .post("/hubspot", (c) => hubspotWebhook(c.var.deps)(c.req.raw));
