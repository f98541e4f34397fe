// Site header: main, tools and social menus and the account link. Works without JavaScript: the
// mobile menu is a <details> element.
import type { MenuItem, SiteChrome } from "../../lib/site/chrome.ts";
import type { SessionUser } from "../../lib/actor.ts";
import { SITE_NAME } from "../../lib/site/brand.ts";
import { LogoutButton } from "./LogoutButton.tsx";
import { Icon } from "../ui/Icon.tsx";
import { cartLinkLabel } from "./header_cart.ts";

export function MenuLink({ item, class: className }: { item: MenuItem; class?: string }) {
  return (
    <a
      href={item.url}
      class={`${className ?? ""} ${item.class}`.trim()}
      {...(item.isBlank ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      {item.label}
    </a>
  );
}

function AccountLinks({ user }: { user: SessionUser | null }) {
  return user
    ? (
      <>
        <a
          href="/dashboard"
          class="whitespace-nowrap rounded-full bg-brand-500 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600"
        >
          Mon espace
        </a>
        <LogoutButton class="cursor-pointer whitespace-nowrap text-left text-sm text-slate-600 hover:text-brand-600">
          Déconnexion
        </LogoutButton>
      </>
    )
    : (
      <a
        href="/login"
        class="rounded-full bg-brand-500 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600"
      >
        Connexion
      </a>
    );
}

/** The workshop cart: a compact icon with the count, hidden while the cart is empty. The count comes with
 * the page (no JavaScript); the islands that change the cart update it (header_cart.ts). Partners and
 * admins have no cart: no link. */
function CartLink({ count, user }: { count: number; user: SessionUser | null }) {
  if (user && user.type !== "Customer") return null;
  return (
    <a
      href="/panier"
      hidden={count <= 0}
      class="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-full border border-slate-300 px-2.5 py-1.5 text-sm font-semibold hover:border-brand-500 hover:text-brand-600"
      aria-label={cartLinkLabel(count)}
      title="Panier"
      data-testid="header-cart"
      data-cart-link
    >
      <Icon name="receipt" class="h-4 w-4" />
      <span class="sr-only">Panier</span>
      <span class="rounded-full bg-brand-500 px-2 text-xs text-white" data-cart-count>{count}</span>
    </a>
  );
}

export function Header({ menus, user, cartCount = 0 }: {
  menus: SiteChrome["menus"];
  user: SessionUser | null;
  cartCount?: number;
}) {
  return (
    <header class="border-b border-slate-200 bg-white">
      <div class="hidden border-b border-slate-100 bg-slate-50 xl:block">
        <div class="mx-auto flex max-w-7xl items-center justify-between px-4 py-1.5 text-xs text-slate-600">
          <nav aria-label="Outils" class="flex gap-4">
            {menus.tools.map((item) => <MenuLink key={item.id} item={item} class="hover:text-brand-600" />)}
          </nav>
          <nav aria-label="Réseaux sociaux" class="flex gap-3">
            {menus.social.map((item) => <MenuLink key={item.id} item={item} class="hover:text-brand-600" />)}
          </nav>
        </div>
      </div>
      <div class="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
        <a
          href="/"
          class="shrink-0 whitespace-nowrap text-lg font-extrabold tracking-tight text-brand-600 sm:text-xl"
        >
          {SITE_NAME}
        </a>
        <nav aria-label="Menu principal" class="hidden items-center gap-3 whitespace-nowrap xl:flex">
          {menus.main.map((item) => (
            <MenuLink
              item={item}
              class="text-sm font-medium hover:text-brand-600"
            />
          ))}
        </nav>
        <div class="hidden shrink-0 items-center gap-2 whitespace-nowrap xl:flex">
          <CartLink count={cartCount} user={user} />
          <AccountLinks user={user} />
        </div>
        <div class="flex shrink-0 items-center gap-2 xl:hidden">
          <CartLink count={cartCount} user={user} />
          <details class="relative">
            <summary class="flex cursor-pointer list-none items-center gap-1.5 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-semibold">
              <Icon name="menu" class="h-4 w-4" />
              Menu
            </summary>
            <div class="absolute right-0 z-30 mt-2 flex w-64 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-lg">
              {[...menus.main, ...menus.tools].map((item) => (
                <MenuLink key={item.id} item={item} class="text-sm" />
              ))}
              <AccountLinks user={user} />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
