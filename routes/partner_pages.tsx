// A partner's pages ('Mes devis', 'Ma grille tarifaire', 'Mes cocktails'), mounted at /dashboard/partenaire. Guard: a partner.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";

export const partnerPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Company"]));
