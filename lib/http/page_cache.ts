// Public pages (home, city pages, legal pages) are the same for every anonymous visitor: their HTML is
// kept in memory for a minute and cleared whenever the site's menus or cities change. Visitors with a
// session or a pending flash message always get a fresh render.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "./context.ts";
import { onSiteChromeInvalidated } from "../site/chrome.ts";

const TTL_MS = 60_000;
const MAX_ENTRIES = 500;

interface Entry {
  html: string;
  at: number;
}

const pages = new Map<string, Entry>();

export function clearPageCache(): void {
  pages.clear();
}
onSiteChromeInvalidated(clearPageCache);

export function cachePublicPage(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { config } = c.var.deps;
    const cacheable = config.pageCache && !config.watchAssets && c.var.actor.kind === "anonymous" &&
      !getCookie(c, "flash");
    if (!cacheable) return await next();
    // The path alone is the key: these pages ignore the query string, so it cannot grow the cache.
    const key = c.req.path;
    const hit = pages.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return c.html(hit.html);
    await next();
    if (c.res.status === 200 && !c.res.headers.has("set-cookie")) {
      if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
      pages.set(key, { html: await c.res.clone().text(), at: Date.now() });
    }
  };
}
