// The public card of a partner (GET /bar/{slug}, linked from a quote's partner profile block): its
// name, its city and the names and descriptions of its cocktail catalogue — never its email, phone,
// SIREN or address. Read by the system (a visitor cannot read users' rows) once the slug matched.
import { systemActor, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { companySlug } from "../deals/rules.ts";
import { loadCatalogue } from "../deals/settings_store.ts";

const PUBLIC_PAGE = systemActor("intake");

const PARTNER_NOT_FOUND = "Ce partenaire n'existe pas ou n'est plus référencé.";

export interface PublicCocktail {
  name: string;
  description: string;
}

export interface PartnerProfile {
  name: string;
  slug: string;
  city: string | null;
  cocktails: Record<"signature" | "classic" | "mocktail", PublicCocktail[]>;
}

/** companySlug() gives `<name in kebab case>-<first 8 hex digits of the id>`. */
const SLUG = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*-)?([0-9a-f]{8})$/;

export async function partnerProfile(deps: Pick<Deps, "db">, slug: string): Promise<PartnerProfile> {
  const match = slug.length <= 200 ? SLUG.exec(slug) : null;
  if (!match) throw new AppError("not_found", PARTNER_NOT_FOUND);
  return await transactionAs(deps.db, PUBLIC_PAGE, async (tx) => {
    // The slug's 8 hex digits begin the id: a range on the primary key, not a scan of users.
    const candidates = await tx<{ id: string; name: string; city: string | null }>`
      select id::text as id, coalesce(name, trim(firstname || ' ' || lastname)) as name, city
      from public.users
      where type = 'Company' and anonymized_at is null and deleted_at is null
        and id between ${`${match[1]}-0000-0000-0000-000000000000`}::uuid
                   and ${`${match[1]}-ffff-ffff-ffff-ffffffffffff`}::uuid`;
    const partner = candidates.find((c) => companySlug(c.name, c.id) === slug);
    if (!partner) throw new AppError("not_found", PARTNER_NOT_FOUND);
    const catalogue = await loadCatalogue(tx, partner.id);
    const card = (list: { name: string; description: string }[] | undefined) =>
      (list ?? []).map((c) => ({ name: String(c.name ?? ""), description: String(c.description ?? "") }));
    return {
      name: partner.name,
      slug,
      city: partner.city,
      cocktails: {
        signature: card(catalogue.signature),
        classic: card(catalogue.classic),
        mocktail: card(catalogue.mocktail),
      },
    };
  });
}
