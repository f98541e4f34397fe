// SQL of the quote engine's settings, taking the use case's transaction: the global settings (admins
// write, everyone reads), a partner's own records (its grid, its cocktail catalogue), the partner list,
// and the reads pricing needs, with their defaults.
import type { Tx } from "../db/database.ts";
import {
  type CommissionTier,
  DEFAULT_COMMISSION_TIERS,
  DEFAULT_PRICING,
  type PricingConfig,
  validatePricing,
} from "./pricing.ts";
import {
  type Catalogue,
  DEFAULT_DEVISEUR_SETTINGS,
  type Deviseur,
  deviseurOf,
  EMPTY_CATALOGUE,
  type NamedSetting,
} from "./settings.ts";

export async function readSetting<T>(tx: Tx, key: string): Promise<{ value: T; type: string } | null> {
  const [row] = await tx<
    { value: T; type: string }
  >`select value, type from public.settings where key = ${key}`;
  return row ?? null;
}

export async function writeSetting(tx: Tx, key: string, value: unknown, type: string, userId: string | null) {
  await tx`insert into public.settings (key, value, type, updated_by) values (${key}, ${
    JSON.stringify(value)
  }::jsonb, ${type}, ${userId})
           on conflict (key) do update set value = excluded.value, type = excluded.type, updated_at = now(),
             updated_by = excluded.updated_by`;
}

export async function readCompanySetting<T>(
  tx: Tx,
  userId: string,
  name: string,
): Promise<{ value: T; type: string } | null> {
  const [row] = await tx<{ value: T; type: string }>`
    select value, type from public.company_settings where user_id = ${userId} and name = ${name}`;
  return row ?? null;
}

export async function writeCompanySetting(
  tx: Tx,
  userId: string,
  name: string,
  value: unknown,
  type: string,
) {
  await tx`insert into public.company_settings (user_id, name, value, type)
           values (${userId}, ${name}, ${JSON.stringify(value)}::jsonb, ${type})
           on conflict (user_id, name) do update set value = excluded.value, type = excluded.type, updated_at = now()`;
}

export interface CompanyListItem {
  id: string;
  name: string;
  email: string;
  city: string | null;
}

/** Partner companies (admins: RLS shows other accounts to admins only). */
export function listCompanies(tx: Tx): Promise<CompanyListItem[]> {
  return tx<CompanyListItem>`
    select id, coalesce(name, trim(firstname || ' ' || lastname)) as name, email, city
    from public.users where type = 'Company' and anonymized_at is null order by name`;
}

// ---------------------------------------------------------------------------------------------------
// What pricing reads, with the defaults.

export async function loadDeviseurSettings(tx: Tx): Promise<Deviseur> {
  return deviseurOf(
    (await readSetting<NamedSetting[]>(tx, "deviseur_settings"))?.value ?? DEFAULT_DEVISEUR_SETTINGS,
  );
}

/** The partner's own grid when it has one, else the default grid (spec: the partner's overrides). */
export async function loadPricing(tx: Tx, companyId: string | null): Promise<PricingConfig> {
  if (companyId) {
    const own = await readCompanySetting<PricingConfig>(tx, companyId, "deviseur_pricing");
    if (own && !validatePricing(own.value)) return own.value;
  }
  const base = await readSetting<PricingConfig>(tx, "deviseur_pricing");
  return base && !validatePricing(base.value) ? base.value : DEFAULT_PRICING;
}

export async function loadCommissionTiers(tx: Tx): Promise<CommissionTier[]> {
  return (await readSetting<CommissionTier[]>(tx, "deviseur_fixed_commission_tiers"))?.value ??
    DEFAULT_COMMISSION_TIERS;
}

export async function loadCatalogue(tx: Tx, companyId: string): Promise<Catalogue> {
  const stored = await readCompanySetting<Catalogue>(tx, companyId, "cocktails");
  return { ...EMPTY_CATALOGUE, ...(stored?.value ?? {}) };
}

/** Whether `id` is a partner account (anonymised ones included: their records stay theirs). */
export async function companyAccountExists(tx: Tx, id: string): Promise<boolean> {
  const [target] = await tx`select 1 from public.users where id = ${id} and type = 'Company'`;
  return !!target;
}
