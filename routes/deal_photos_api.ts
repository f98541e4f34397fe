// The photos of a deal (spec 001 §7), mounted at /api/deal. Guard: a signed-in user.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";

export const dealPhotoApiRoutes = new Hono<AppEnv>()
  .use(requireUser("api"));
