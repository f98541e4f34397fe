// A lock file in the embedded database's folder, naming the process that holds it. Created with
// O_EXCL so two starting processes cannot both take it; a lock left by a process that no longer runs
// (a crash) is taken over. Removed when the database closes.
import { hostname } from "node:os";

const LOCK_FILE = "instance.lock";

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  port: string | null;
}

function isRunning(pid: number): boolean {
  if (pid === Deno.pid) return true;
  try {
    return Deno.statSync(`/proc/${pid}`).isDirectory;
  } catch {
    return false;
  }
}

export class FolderInUseError extends Error {}

export async function acquireFolderLock(dir: string): Promise<{ release(): Promise<void> }> {
  const path = `${dir.replace(/\/$/, "")}/${LOCK_FILE}`;
  const info: LockInfo = {
    pid: Deno.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    port: Deno.env.get("PORT") ?? null,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await Deno.writeTextFile(path, JSON.stringify(info), { createNew: true });
      return {
        async release() {
          await Deno.remove(path).catch(() => {});
        },
      };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    let holder: Partial<LockInfo> = {};
    try {
      holder = JSON.parse(await Deno.readTextFile(path));
    } catch { /* unreadable: treated as stale below */ }
    const sameHost = holder.host === undefined || holder.host === info.host;
    if (typeof holder.pid === "number" && (!sameHost || isRunning(holder.pid))) {
      throw new FolderInUseError(
        `Le dossier de la base embarquée ${dir} est déjà utilisé par une autre instance de l'application ` +
          `(processus ${holder.pid} sur ${holder.host ?? "?"}${
            holder.port ? `, port ${holder.port}` : ""
          }, ` +
          `démarrée le ${
            holder.startedAt ?? "?"
          }). Arrêtez-la d'abord, ou choisissez un autre dossier avec ` +
          `DATA_DIR. Si aucune instance ne tourne, supprimez ${path}.`,
      );
    }
    // The holder is gone (crash): take the lock over.
    await Deno.remove(path).catch(() => {});
  }
  throw new FolderInUseError(`Impossible de verrouiller le dossier de la base embarquée ${dir}.`);
}
