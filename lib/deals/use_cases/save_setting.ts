// PATCH /api/settings/{key} (admins): each key with its own check — the grids validated, the deviseur
// settings within their bounds, rich texts sanitised, booleans stored as '1' / '0'.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { sanitizeRichText } from "../../richtext/sanitize.ts";
import { MAX_RICH_TEXT, RICH_TEXT_TOO_LONG } from "../../richtext/rules.ts";
import {
  type CommissionTier,
  GRID_SAVED,
  type PricingConfig,
  validateCommissionTiers,
  validatePricing,
} from "../pricing.ts";
import {
  BOOLEAN_KEYS,
  DEFAULT_DEVISEUR_SETTINGS,
  gridFailure,
  type NamedSetting,
  RICH_KEYS,
  SETTING_BOUNDS,
  SETTING_KEYS,
  SETTING_NOT_FOUND,
  type SettingType,
} from "../settings.ts";
import { writeSetting } from "../settings_store.ts";

/** Checks and normalises a setting's value (rich texts sanitised, booleans stored as '1'). */
function checkSetting(key: string, value: unknown): { value: unknown; type: SettingType } {
  if (key === "deviseur_pricing") {
    const error = validatePricing(value as PricingConfig);
    if (error) throw gridFailure(error);
    return { value, type: "json" };
  }
  if (key === "deviseur_fixed_commission_tiers") {
    const error = validateCommissionTiers(value as CommissionTier[]);
    if (error) throw gridFailure(error);
    return { value, type: "json" };
  }
  if (key === "deviseur_settings") {
    if (!Array.isArray(value)) throw new AppError("validation", "Les paramètres sont invalides.");
    const list = DEFAULT_DEVISEUR_SETTINGS.map((d) => {
      const sent = (value as NamedSetting[]).find((s) => s?.id === d.id);
      const v = typeof sent?.value === "string"
        ? Number(String(sent.value).replace(",", "."))
        : sent?.value ?? d.value;
      const [min, max, integer] = SETTING_BOUNDS[d.id];
      if (
        typeof v !== "number" || !Number.isFinite(v) || v < min || v > max ||
        (integer && !Number.isInteger(v))
      ) {
        const message = `« ${d.label} » doit être compris entre ${min} et ${max}.`;
        throw new AppError("validation", message, { [d.id]: message });
      }
      return { ...d, value: v };
    });
    return { value: list, type: "json" };
  }
  if (RICH_KEYS.includes(key)) {
    if (typeof value !== "string") throw new AppError("validation", "Ce texte est invalide.");
    if (value.length > MAX_RICH_TEXT) throw new AppError("validation", RICH_TEXT_TOO_LONG);
    return { value: sanitizeRichText(value), type: "text" };
  }
  if (BOOLEAN_KEYS.includes(key)) {
    const on = value === true || value === "1" || value === 1 || value === "true";
    return { value: on ? "1" : "0", type: "boolean" };
  }
  throw new AppError("not_found", SETTING_NOT_FOUND);
}

export async function saveSetting(
  deps: Deps,
  actor: Actor,
  key: string,
  value: unknown,
): Promise<{ value: unknown; type: string; message: string }> {
  const admin = requireRole(actor, "Admin");
  if (!SETTING_KEYS.includes(key)) throw new AppError("not_found", SETTING_NOT_FOUND);
  const checked = checkSetting(key, value);
  await transactionAs(
    deps.db,
    admin,
    (tx) => writeSetting(tx, key, checked.value, checked.type, admin.user.id),
  );
  await deps.logger.info("deals", "Réglage du deviseur modifié", { key, adminId: admin.user.id });
  return {
    ...checked,
    message: key === "deviseur_pricing" ? GRID_SAVED : "Les paramètres ont été sauvegardés.",
  };
}
