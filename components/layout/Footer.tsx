import { cityColumns, type SiteChrome } from "../../lib/site/chrome.ts";
import { ALCOHOL_WARNING, CREDIT_LINE, SITE_NAME } from "../../lib/site/brand.ts";
import { MenuLink } from "./Header.tsx";

export function Footer({ chrome, phone }: { chrome: SiteChrome; phone: string }) {
  const { menus, cities } = chrome;
  return (
    <footer class="mt-16 bg-ink text-slate-300">
      <div class="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-4">
        <div>
          <p class="text-lg font-bold text-white">{SITE_NAME}</p>
          <p class="mt-2 text-sm">
            Une question ? Appelez-nous au{" "}
            <a href={`tel:${phone.replace(/\s/g, "")}`} class="font-semibold text-white">{phone}</a>
          </p>
          <nav aria-label="Réseaux sociaux" class="mt-4 flex gap-3 text-sm">
            {menus.social.map((item) => <MenuLink key={item.id} item={item} class="hover:text-white" />)}
          </nav>
        </div>
        <nav aria-label="Pied de page 1" class="flex flex-col gap-2 text-sm">
          {menus.footer1.map((item) => <MenuLink key={item.id} item={item} class="hover:text-white" />)}
        </nav>
        <nav aria-label="Pied de page 2" class="flex flex-col gap-2 text-sm">
          {menus.footer2.map((item) => <MenuLink key={item.id} item={item} class="hover:text-white" />)}
        </nav>
      </div>
      {cities.length > 0 && (
        <div class="border-t border-white/10">
          <div class="mx-auto max-w-6xl px-4 py-8">
            <p class="mb-3 text-sm font-semibold text-white">Nos bars à cocktails par ville</p>
            <div class="flex flex-wrap gap-x-12 gap-y-4" data-testid="city-columns">
              {cityColumns(cities).map((column) => (
                <ul key={column[0].slug} class="flex flex-col gap-1 text-sm">
                  {column.map((city) => (
                    <li key={city.slug}>
                      <a href={`/ville/${city.slug}`} class="hover:text-white">{city.name}</a>
                    </li>
                  ))}
                </ul>
              ))}
            </div>
          </div>
        </div>
      )}
      <div class="border-t border-white/10">
        <div class="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-xs md:flex-row md:items-center md:justify-between">
          <nav aria-label="Mentions" class="flex flex-wrap gap-4">
            {menus.bottom.map((item) => <MenuLink key={item.id} item={item} class="hover:text-white" />)}
          </nav>
          <p class="font-semibold text-amber-300">{ALCOHOL_WARNING}</p>
          <p>
            <a
              href={CREDIT_LINE.developer.url}
              target="_blank"
              rel="noopener noreferrer"
              class="hover:text-white"
            >
              {CREDIT_LINE.developer.label}
            </a>{" "}
            ·{" "}
            <a
              href={CREDIT_LINE.artDirector.url}
              target="_blank"
              rel="noopener noreferrer"
              class="hover:text-white"
            >
              {CREDIT_LINE.artDirector.label}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
