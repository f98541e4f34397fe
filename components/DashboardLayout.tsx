// Dashboard shell: top bar (logo, menu toggle, user name, logout; 'Mode Administrateur' while an
// admin impersonates someone) and the 255 px side menu of the user's role. The drawer toggle is a
// checkbox, so the shell itself needs no JavaScript.
import type { ComponentChildren } from "preact";
import type { SessionUser } from "../lib/auth/sessions.ts";
import { menuFor } from "../lib/dashboard/menu.ts";
import { SITE_NAME } from "../lib/site/brand.ts";
import { Icon } from "./Icon.tsx";

export function displayName(user: SessionUser): string {
  return `${user.firstname} ${user.lastname}`.trim() || user.name || user.email;
}

export function DashboardLayout(
  { user, impersonating, currentPath, children }: {
    user: SessionUser;
    impersonating: boolean;
    currentPath: string;
    children: ComponentChildren;
  },
) {
  return (
    <div class="min-h-screen bg-slate-50">
      <input type="checkbox" id="drawer-toggle" class="peer sr-only" aria-label="Afficher le menu" />
      <header
        class={`sticky top-0 z-30 flex h-14 items-center gap-3 px-4 text-white shadow ${
          impersonating ? "bg-red-700" : "bg-ink"
        }`}
      >
        <label
          for="drawer-toggle"
          class="cursor-pointer rounded p-1 hover:bg-white/10 lg:hidden"
          title="Menu"
        >
          <Icon name="menu" />
        </label>
        <a href="/" class="font-extrabold tracking-tight">{SITE_NAME}</a>
        {impersonating && (
          <span
            class="ml-2 flex items-center gap-2 rounded bg-white/15 px-2 py-1 text-sm font-semibold"
            data-testid="admin-mode"
          >
            Mode Administrateur
            <a href="/admin/switch-back" class="underline">Revenir à mon compte</a>
          </span>
        )}
        <span class="ml-auto text-sm" data-testid="user-name">{displayName(user)}</span>
        <a href="/logout" class="flex items-center gap-1 rounded px-2 py-1 text-sm hover:bg-white/10">
          <Icon name="logout" class="h-4 w-4" /> Déconnexion
        </a>
      </header>
      <div class="drawer-layout flex">
        <nav
          aria-label="Menu du tableau de bord"
          class="drawer min-h-[calc(100vh-3.5rem)] shrink-0 border-r border-slate-200 bg-white py-4"
        >
          <ul>
            {menuFor(user.type).map((route) => (
              <li key={route.path}>
                <a
                  href={route.path}
                  class={`flex items-center gap-3 px-5 py-2.5 text-sm ${
                    route.path === currentPath
                      ? "border-r-4 border-brand-500 bg-brand-50 font-semibold text-brand-700"
                      : "text-slate-700 hover:bg-slate-100"
                  }`}
                  aria-current={route.path === currentPath ? "page" : undefined}
                >
                  <Icon name={route.icon} />
                  {route.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main class="min-w-0 flex-1 p-4 md:p-8">{children}</main>
      </div>
    </div>
  );
}
