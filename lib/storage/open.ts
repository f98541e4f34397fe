import type { Config } from "../config.ts";
import { localStorage, memoryStorage, type Storage } from "./storage.ts";
import { supabaseStorage } from "./supabase.ts";

export type StorageConfig =
  & Pick<Config, "dataDir" | "uploadsDir">
  & Partial<Pick<Config, "supabaseUrl" | "supabaseServiceRoleKey" | "supabaseStorageBucket">>;

/** The configured storage: Supabase Storage when a Supabase project is configured (SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY), else memory with an in-memory database, else a local folder. */
export function openStorage(config: StorageConfig): Storage {
  if (config.supabaseUrl && config.supabaseServiceRoleKey) {
    return supabaseStorage({
      url: config.supabaseUrl,
      serviceRoleKey: config.supabaseServiceRoleKey,
      bucket: config.supabaseStorageBucket,
    });
  }
  if (config.dataDir.startsWith("memory://") && !config.uploadsDir) return memoryStorage();
  return localStorage(config.uploadsDir || "./data/uploads");
}
