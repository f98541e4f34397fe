// Page rendering: the page body is rendered first, collecting the islands it uses; the document
// then links only those islands' bundles. A page with no island gets no <script>.
import type { ComponentChildren, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { Document } from "./Document.tsx";
import { IslandCollector } from "../Island.tsx";
import { Header } from "./Header.tsx";
import { Footer } from "./Footer.tsx";
import { FlashMessages } from "./FlashMessages.tsx";
import { DashboardLayout } from "./DashboardLayout.tsx";
import { getManifest } from "../../lib/islands/manifest.ts";
import { getSiteChrome } from "../../lib/site/chrome.ts";
import { SITE_NAME } from "../../lib/site/brand.ts";
import { type Ctx, currentUser } from "../../lib/http/context.ts";
import { readCartCookie, takeFlashes } from "../../lib/http/cookies.ts";
import { cartItemCount } from "../../lib/sessions/use_cases/cart_count.ts";

function renderDocument(c: Ctx, title: string, body: VNode, status = 200): Response {
  const manifest = getManifest(c.var.deps.config.watchAssets);
  const used = new Set<string>();
  const bodyHtml = renderToString(<IslandCollector.Provider value={used}>{body}</IslandCollector.Provider>);
  const scripts: string[] = [];
  const preloads = new Set<string>();
  for (const name of used) {
    const asset = manifest.islands[name];
    if (!asset) throw new Error(`Îlot inconnu : ${name} (lancez \`deno task build\`)`);
    scripts.push(asset.file);
    asset.imports.forEach((file) => preloads.add(file));
  }
  const html = "<!DOCTYPE html>" + renderToString(
    <Document
      title={title === SITE_NAME ? title : `${title} | ${SITE_NAME}`}
      css={manifest.css}
      scripts={scripts}
      preloads={[...preloads]}
      bodyHtml={bodyHtml}
    />,
  );
  return c.html(html, status as 200);
}

/** A public page with the site header and footer. */
export async function renderSitePage(
  c: Ctx,
  title: string,
  children: ComponentChildren,
  status = 200,
): Promise<Response> {
  const chrome = await getSiteChrome(c.var.deps.db);
  const flashes = await takeFlashes(c);
  const actor = c.var.actor;
  return renderDocument(
    c,
    title,
    <>
      <FlashMessages messages={flashes} />
      <Header
        menus={chrome.menus}
        user={actor.kind === "user" ? actor.user : null}
        cartCount={await cartItemCount(c.var.deps, actor, readCartCookie(c))}
      />
      <main class="min-h-[50vh]">{children}</main>
      <Footer chrome={chrome} phone={c.var.deps.config.contactPhone} />
    </>,
    status,
  );
}

/** A page of the signed-in area: its route module's guard has made sure there is a user. */
export async function renderDashboardPage(
  c: Ctx,
  title: string,
  children: ComponentChildren,
  status = 200,
): Promise<Response> {
  const actor = currentUser(c);
  const flashes = await takeFlashes(c);
  return renderDocument(
    c,
    title,
    <>
      <FlashMessages messages={flashes} />
      <DashboardLayout
        user={actor.user}
        impersonating={actor.impersonatorId !== null}
        currentPath={c.req.path}
      >
        {children}
      </DashboardLayout>
    </>,
    status,
  );
}

/** A page without the site's or the dashboard's frame (a sheet to print), with the stylesheet. */
export function renderBarePage(c: Ctx, title: string, children: ComponentChildren): Response {
  return renderDocument(c, title, <>{children}</>);
}
