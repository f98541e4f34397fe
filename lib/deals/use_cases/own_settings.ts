// A partner's own screens: 'Ma grille tarifaire' (its grid, or the default grid it starts from) and
// 'Mes cocktails' (its catalogue).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { DEFAULT_PRICING, type PricingConfig } from "../pricing.ts";
import type { Catalogue } from "../settings.ts";
import { loadCatalogue, readCompanySetting, readSetting } from "../settings_store.ts";

/** 'Ma grille tarifaire': the partner's own grid, or the default grid it starts from. */
export async function partnerPricingForEdit(
  deps: Deps,
  actor: Actor,
): Promise<{ config: PricingConfig; own: boolean }> {
  const partner = requireRole(actor, "Company");
  return await transactionAs(deps.db, partner, async (tx) => {
    const own = await readCompanySetting<PricingConfig>(tx, partner.user.id, "deviseur_pricing");
    if (own) return { config: own.value, own: true };
    const base = await readSetting<PricingConfig>(tx, "deviseur_pricing");
    return { config: base?.value ?? DEFAULT_PRICING, own: false };
  });
}

/** 'Mes cocktails': the partner's catalogue. */
export async function ownCatalogue(deps: Deps, actor: Actor): Promise<Catalogue> {
  const partner = requireRole(actor, "Company");
  return await transactionAs(deps.db, partner, (tx) => loadCatalogue(tx, partner.user.id));
}
