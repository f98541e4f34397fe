// Uploaded files kept by the local (or in-memory) storage adapter, mounted at /media. Public: photo
// names are unguessable and the customer's page shows them to anyone holding its link.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";

export const mediaRoutes = new Hono<AppEnv>();
