// Supabase Storage through @supabase/supabase-js, used when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY
// are set: files go to one bucket (SUPABASE_STORAGE_BUCKET, default "deal-photos"), which must be
// public, and pages link to Supabase's public URLs. The service role key stays on the server: the
// app decides who may upload (use cases and RLS on deal_photos), Supabase only keeps the files.
import { createClient } from "@supabase/supabase-js";
import { checkPath, type Storage } from "./storage.ts";

export const DEFAULT_BUCKET = "deal-photos";
/** Stored names never change content: CDNs and browsers may keep a file for a year. */
const CACHE_SECONDS = "31536000";

export interface SupabaseStorageOptions {
  url: string;
  serviceRoleKey: string;
  bucket?: string;
  /** Tests: the fetch the client library uses. */
  fetch?: typeof fetch;
}

const notFound = (error: { status?: number; statusCode?: string }) =>
  error.status === 404 || error.statusCode === "404" || error.statusCode === "not_found";

export function supabaseStorage(options: SupabaseStorageOptions): Storage {
  const client = createClient(options.url, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: options.fetch ? { fetch: options.fetch } : undefined,
  });
  const bucket = () => client.storage.from(options.bucket || DEFAULT_BUCKET);
  return {
    kind: "supabase",
    async put(path, data, contentType) {
      const { error } = await bucket().upload(checkPath(path), data, {
        contentType,
        cacheControl: CACHE_SECONDS,
        upsert: false,
      });
      if (error) throw new Error(`Supabase Storage : envoi de ${path} impossible (${error.message})`);
    },
    async get(path) {
      const { data, error } = await bucket().download(checkPath(path));
      if (error) {
        if (notFound(error as { status?: number; statusCode?: string })) return null;
        throw new Error(`Supabase Storage : lecture de ${path} impossible (${error.message})`);
      }
      return {
        data: new Uint8Array(await data.arrayBuffer()),
        contentType: data.type || "application/octet-stream",
      };
    },
    async remove(paths) {
      if (paths.length === 0) return;
      const { error } = await bucket().remove(paths.map(checkPath));
      if (error) throw new Error(`Supabase Storage : suppression impossible (${error.message})`);
    },
    publicUrl: (path) => bucket().getPublicUrl(checkPath(path)).data.publicUrl,
  };
}
