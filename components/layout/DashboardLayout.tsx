// Dashboard shell: top bar (logo, menu toggle, user name, logout; 'Mode Administrateur' while an admin
// impersonates someone; both are form buttons that POST: no GET changes a session) and the 255 px side menu of the user's role. No JavaScript: on a phone the
// menu is a native popover (opened by the toggle, closed by its close button, a tap outside or
// Escape); on a desktop it sits beside the page and the toggle (a checkbox label) folds it away.
import type { ComponentChildren } from "preact";
import type { SessionUser } from "../../lib/actor.ts";
import { menuFor } from "../../lib/dashboard/menu.ts";
import { SITE_NAME } from "../../lib/site/brand.ts";
import { Icon } from "../ui/Icon.tsx";
import { LogoutButton } from "./LogoutButton.tsx";
import { renderToString } from "preact-render-to-string";

export function displayName(user: SessionUser): string {
  return `${user.firstname} ${user.lastname}`.trim() || user.name || user.email;
}

// A role's menu for a page is the same markup for every request: rendered once, then reused (it was a
// fifth of a dashboard page's server rendering, scripts/bench.ts).
const menuHtml = new Map<string, string>();

function MenuItems({ user, currentPath }: { user: SessionUser; currentPath: string }) {
  const key = `${user.type} ${currentPath}`;
  let html = menuHtml.get(key);
  if (html === undefined) {
    html = renderToString(<MenuList type={user.type} currentPath={currentPath} />);
    // Bounded: unknown paths (404s under /dashboard) must not grow it without end.
    if (menuHtml.size < 500) menuHtml.set(key, html);
  }
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}

function MenuList({ type, currentPath }: { type: SessionUser["type"]; currentPath: string }) {
  return (
    <ul>
      {menuFor(type).map((route) => {
        const current = route.path === currentPath ||
          (route.path !== "/dashboard" && currentPath.startsWith(`${route.path}/`));
        return (
          <li key={route.path}>
            <a
              href={route.path}
              class={`flex items-center gap-3 px-5 py-2.5 text-sm ${
                current
                  ? "border-r-4 border-brand-500 bg-brand-50 font-semibold text-brand-700"
                  : "text-slate-700 hover:bg-slate-100"
              }`}
              aria-current={current ? "page" : undefined}
            >
              <Icon name={route.icon} />
              {route.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

const MENU_LABEL = "Menu du tableau de bord";

export function DashboardLayout(
  { user, impersonating, currentPath, children }: {
    user: SessionUser;
    impersonating: boolean;
    currentPath: string;
    children: ComponentChildren;
  },
) {
  return (
    <div class="min-h-screen bg-slate-50" data-dashboard>
      <input type="checkbox" id="drawer-folded" class="sr-only" aria-label="Replier le menu" />
      <header
        class={`sticky top-0 z-30 flex min-h-14 items-center gap-3 px-4 text-white shadow ${
          impersonating ? "bg-red-700 max-sm:flex-wrap max-sm:gap-y-1 max-sm:py-2" : "bg-ink"
        }`}
      >
        <button
          type="button"
          {...{ popovertarget: "dashboard-drawer" }}
          class="cursor-pointer rounded p-1 hover:bg-white/10 lg:hidden"
          aria-label="Ouvrir le menu"
          data-testid="drawer-open"
        >
          <Icon name="menu" />
        </button>
        <label
          for="drawer-folded"
          class="hidden cursor-pointer rounded p-1 hover:bg-white/10 lg:inline-flex"
          title="Afficher ou masquer le menu"
          data-testid="drawer-fold"
        >
          <Icon name="menu" />
        </label>
        <a href="/" class="shrink-0 font-extrabold tracking-tight">{SITE_NAME}</a>
        {impersonating && (
          <span
            class="flex shrink-0 items-center gap-2 rounded bg-white/15 px-2 py-1 text-sm font-semibold max-sm:order-last max-sm:w-full max-sm:justify-between sm:ml-2"
            data-testid="admin-mode"
          >
            {/* On a phone this goes to a second row of the bar, so that the name keeps its place. */}
            Mode Administrateur
            <form method="post" action="/admin/switch-back" class="contents">
              <button type="submit" class="cursor-pointer font-semibold underline">
                Revenir à mon compte
              </button>
            </form>
          </span>
        )}
        {
          /* The user's name stays on a phone too (000 §2 top bar), cut with an ellipsis when the bar is
            short of room; the whole name is its title. */
        }
        <span
          class="ml-auto min-w-0 truncate text-sm max-sm:max-w-[9rem]"
          title={displayName(user)}
          data-testid="user-name"
        >
          {displayName(user)}
        </span>
        <LogoutButton class="flex shrink-0 cursor-pointer items-center gap-1 rounded px-2 py-1 text-sm hover:bg-white/10">
          <Icon name="logout" class="h-4 w-4" />
          {/* On a phone the icon alone (beside the name): the button keeps its name. */}
          <span class="max-sm:sr-only">Déconnexion</span>
        </LogoutButton>
      </header>
      <div class="drawer-layout flex">
        <nav
          aria-label={MENU_LABEL}
          class="drawer hidden min-h-[calc(100vh-3.5rem)] shrink-0 border-r border-slate-200 bg-white py-4 lg:block"
        >
          {/* The menu stays in view below the sticky header on long pages. */}
          <div class="sticky top-18">
            <MenuItems user={user} currentPath={currentPath} />
          </div>
        </nav>
        <main class="min-w-0 flex-1 p-4 md:p-8">{children}</main>
      </div>
      <nav
        id="dashboard-drawer"
        {...{ popover: "auto" }}
        aria-label={MENU_LABEL}
        class="drawer-popover bg-white py-4"
      >
        <div class="mb-2 flex items-center justify-between px-5">
          <span class="font-extrabold">{SITE_NAME}</span>
          <button
            type="button"
            {...{ popovertarget: "dashboard-drawer", popovertargetaction: "hide" }}
            class="rounded-full px-2 text-2xl leading-none text-slate-500 hover:bg-slate-100"
            aria-label="Fermer le menu"
            data-testid="drawer-close"
          >
            ×
          </button>
        </div>
        <p class="px-5 pb-3 text-sm text-slate-500">{displayName(user)}</p>
        <MenuItems user={user} currentPath={currentPath} />
      </nav>
    </div>
  );
}
