// Use cases of the public site, as the anonymous visitor (everyone may read cities and menus).
import { ANONYMOUS, transactionAs } from "../actor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { type City, type CityPage, findCity, getSiteChrome } from "./chrome.ts";

export async function getCityPage(deps: Deps, slug: string): Promise<CityPage> {
  const city = /^[a-z0-9-]{1,100}$/.test(slug)
    ? await transactionAs(deps.db, ANONYMOUS, (tx) => findCity(tx, slug))
    : null;
  if (!city) throw new AppError("not_found", "Cette ville n'existe pas.");
  return city;
}

export async function listCities(deps: Deps): Promise<City[]> {
  return (await getSiteChrome(deps.db)).cities;
}
