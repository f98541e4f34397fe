// GET /api/settings/{key} (admins; a partner reads only the base grid its own grid starts from) and the
// admin's 'Paramètres' tab (every setting it shows, in one transaction): the stored value, or the
// default while none is saved. The commission tiers, rates and texts are the platform's business.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import {
  PARTNER_READABLE_SETTINGS,
  RICH_KEYS,
  SETTING_DEFAULTS,
  SETTING_KEYS,
  SETTING_NOT_FOUND,
} from "../settings.ts";
import { cleanStoredRichText } from "../../richtext/sanitize.ts";
import { readSetting } from "../settings_store.ts";

export async function getSetting(
  deps: Deps,
  actor: Actor,
  key: string,
): Promise<{ value: unknown; type: string }> {
  const user = requireRole(actor, ["Admin", "Company"]);
  if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", SETTING_NOT_FOUND);
  if (user.user.type !== "Admin" && !PARTNER_READABLE_SETTINGS.includes(key)) throw new AppError("forbidden");
  const stored = await transactionAs(deps.db, user, (tx) => readSetting(tx, key));
  const setting = stored ?? SETTING_DEFAULTS[key];
  return { ...setting, value: readable(key, setting.value) };
}

/** A setting's value as shown: rich texts sanitised again under today's rules (lib/richtext). */
function readable(key: string, value: unknown): unknown {
  return RICH_KEYS.includes(key) && typeof value === "string" ? cleanStoredRichText(value) : value;
}

/** Every setting of the admin's 'Paramètres' tab, in one transaction (defaults where none is saved). */
export async function deviseurScreen(
  deps: Deps,
  actor: Actor,
  keys: readonly string[],
): Promise<Record<string, unknown>> {
  const admin = requireRole(actor, "Admin");
  return await transactionAs(deps.db, admin, async (tx) => {
    const values: Record<string, unknown> = {};
    for (const key of keys) {
      if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", SETTING_NOT_FOUND);
      values[key] = readable(key, ((await readSetting(tx, key)) ?? SETTING_DEFAULTS[key]).value);
    }
    return values;
  });
}
