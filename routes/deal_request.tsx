// The public quote request page /demande-de-devis. Public: no guard.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";

export const dealRequestRoutes = new Hono<AppEnv>();
