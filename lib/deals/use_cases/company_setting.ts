// GET/PATCH /api/company/settings/{name}/{userId}: a partner's own records (its grid, its cocktail
// catalogue), or any partner's for admins.
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { GRID_SAVED, type PricingConfig, validatePricing } from "../pricing.ts";
import { COCKTAIL_MESSAGES } from "../rules.ts";
import { checkCatalogue, COMPANY_SETTING_NAMES, gridFailure, SETTING_NOT_FOUND } from "../settings.ts";
import { companyAccountExists, readCompanySetting, writeCompanySetting } from "../settings_store.ts";

/** The partner itself, or an admin. */
function companyAccess(actor: Actor, userId: string) {
  const user = requireRole(actor, ["Company", "Admin"]);
  if (user.user.type === "Company" && user.user.id !== userId) throw new AppError("forbidden");
  return user;
}

export async function getCompanySetting(
  deps: Deps,
  actor: Actor,
  name: string,
  userId: string,
): Promise<{ value: unknown; type: string } | null> {
  const user = companyAccess(actor, userId);
  if (!COMPANY_SETTING_NAMES.includes(name)) throw new AppError("not_found", SETTING_NOT_FOUND);
  return await transactionAs(deps.db, user, (tx) => readCompanySetting(tx, userId, name));
}

export async function saveCompanySetting(
  deps: Deps,
  actor: Actor,
  name: string,
  userId: string,
  value: unknown,
): Promise<{ value: unknown; type: string; message: string }> {
  const user = companyAccess(actor, userId);
  if (!COMPANY_SETTING_NAMES.includes(name)) throw new AppError("not_found", SETTING_NOT_FOUND);
  let checked: unknown;
  if (name === "deviseur_pricing") {
    const error = validatePricing(value as PricingConfig);
    if (error) throw gridFailure(error);
    checked = value;
  } else {
    checked = checkCatalogue(value);
  }
  await transactionAs(deps.db, user, async (tx) => {
    if (!(await companyAccountExists(tx, userId))) throw new AppError("not_found", "Partenaire introuvable.");
    await writeCompanySetting(tx, userId, name, checked, "json");
  });
  return {
    value: checked,
    type: "json",
    message: name === "deviseur_pricing" ? GRID_SAVED : COCKTAIL_MESSAGES.saved,
  };
}
