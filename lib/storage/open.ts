import type { Config } from "../config.ts";
import { localStorage, memoryStorage, type Storage } from "./storage.ts";

/** The configured storage: memory with an in-memory database, else a local folder. */
export function openStorage(config: Pick<Config, "dataDir" | "uploadsDir">): Storage {
  if (config.dataDir.startsWith("memory://") && !config.uploadsDir) return memoryStorage();
  return localStorage(config.uploadsDir || "./data/uploads");
}
