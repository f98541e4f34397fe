// Header and footer data: the six menus and the cities. Read on every public page, so kept in memory
// for a short time; admin changes call `invalidateSiteChrome()` and other instances catch up within
// the TTL.
import { ANONYMOUS, transactionAs } from "../actor.ts";
import type { Database, Tx } from "../db/database.ts";

export type MenuCode = "main" | "tools" | "social" | "footer1" | "footer2" | "bottom";

export interface MenuItem {
  id: string;
  class: string;
  url: string;
  isBlank: boolean;
  label: string;
}

export interface City {
  slug: string;
  name: string;
}

export interface SiteChrome {
  menus: Record<MenuCode, MenuItem[]>;
  cities: City[];
}

const TTL_MS = 60_000;
let cache: { value: SiteChrome; at: number } | null = null;

const invalidationListeners = new Set<() => void>();

/** Lets caches built on the menus and cities (such as rendered public pages) clear with them. */
export function onSiteChromeInvalidated(listener: () => void): void {
  invalidationListeners.add(listener);
}

export function invalidateSiteChrome(): void {
  cache = null;
  invalidationListeners.forEach((listener) => listener());
}

async function readMenus(tx: Tx): Promise<SiteChrome["menus"]> {
  const rows = await tx<MenuItem & { menu: MenuCode }>`
    select menu_code as menu, id, css_class as class, url, is_blank as "isBlank", label
    from public.menu_items order by menu_code, position, label`;
  const menus: SiteChrome["menus"] = {
    main: [],
    tools: [],
    social: [],
    footer1: [],
    footer2: [],
    bottom: [],
  };
  for (const { menu, ...item } of rows) menus[menu].push(item);
  return menus;
}

function readCities(tx: Tx): Promise<City[]> {
  return tx<City>`select slug, name from public.cities order by position, name`;
}

export async function getSiteChrome(db: Database, now = Date.now()): Promise<SiteChrome> {
  if (cache && now - cache.at < TTL_MS) return cache.value;
  const value = await transactionAs(
    db,
    ANONYMOUS,
    async (tx) => ({ menus: await readMenus(tx), cities: await readCities(tx) }),
  );
  cache = { value, at: now };
  return value;
}

/** Footer cities, in columns of 12. */
export function cityColumns(cities: City[], size = 12): City[][] {
  const columns: City[][] = [];
  for (let i = 0; i < cities.length; i += size) columns.push(cities.slice(i, i + size));
  return columns;
}

export interface CityPage {
  slug: string;
  name: string;
  intro: string;
}

export async function findCity(tx: Tx, slug: string): Promise<CityPage | null> {
  const [city] = await tx<CityPage>`select slug, name, intro from public.cities where slug = ${slug}`;
  return city ?? null;
}
