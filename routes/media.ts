// Uploaded files kept by the local (or in-memory) storage adapter, mounted at /media. Public: photo
// names are unguessable and the customer's page shows them to anyone holding its link. A stored name
// never changes content (every upload gets a new name), so browsers may keep files for a year.
// With Supabase Storage, pages link to Supabase's public URLs and nothing is served here.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { AppError } from "../lib/errors.ts";

const MISSING = "Ce fichier n'existe pas.";
/** Lower-case segments of letters, digits, "_", "-" and ".", none made of dots only: no traversal,
 * no encoded characters (the raw path is checked, before any decoding). */
const SEGMENT = /^[a-z0-9][a-z0-9_.-]{0,100}$/;

function mediaPath(requestPath: string): string | null {
  const index = requestPath.indexOf("/media/");
  if (index !== 0) return null;
  const path = requestPath.slice("/media/".length);
  const segments = path.split("/");
  if (path.length > 200 || segments.length > 6) return null;
  return segments.every((s) => SEGMENT.test(s) && !s.includes("..")) ? path : null;
}

export const mediaRoutes = new Hono<AppEnv>()
  .get("/*", async (c) => {
    const storage = c.var.deps.storage;
    const path = mediaPath(c.req.path);
    const file = path && storage.kind !== "supabase" ? await storage.get(path) : null;
    if (!file) throw new AppError("not_found", MISSING);
    return c.body(file.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": file.contentType,
      "content-length": String(file.data.byteLength),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  });
