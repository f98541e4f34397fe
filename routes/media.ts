// Uploaded files, mounted at /media: the one URL shape of the app's own media (lib/storage). Public:
// photo names are unguessable and the customer's page shows them to anyone holding its link. A stored
// name never changes content (every upload gets a new name), so browsers may keep files for a year.
// The local (or in-memory) storage adapter's files are served here; with Supabase Storage, pages link
// to Supabase's public URLs and a /media/ URL (an image in a rich text) is redirected there.
import { Hono } from "hono";
import type { AppEnv } from "../lib/http/context.ts";
import { AppError } from "../lib/errors.ts";
import { mediaPathOf } from "../lib/storage/storage.ts";

const MISSING = "Ce fichier n'existe pas.";

export const mediaRoutes = new Hono<AppEnv>()
  .get("/*", async (c) => {
    const storage = c.var.deps.storage;
    const path = mediaPathOf(c.req.path);
    if (!path) throw new AppError("not_found", MISSING);
    if (storage.kind === "supabase") {
      c.header("cache-control", "public, max-age=86400");
      return c.redirect(storage.publicUrl(path), 302);
    }
    const file = await storage.get(path);
    if (!file) throw new AppError("not_found", MISSING);
    return c.body(file.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": file.contentType,
      "content-length": String(file.data.byteLength),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  });
