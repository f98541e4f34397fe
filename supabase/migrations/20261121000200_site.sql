-- Site: the cities of the footer and their /ville/{slug} pages, and the header/footer menus.
-- Everyone reads them; only admins change them.

create table public.cities (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text not null,
  intro text not null default '',
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger cities_set_updated_at before update on public.cities
  for each row execute function public.set_updated_at();

create table public.menus (
  code text primary key check (code in ('main', 'tools', 'social', 'footer1', 'footer2', 'bottom')),
  label text not null
);

create table public.menu_items (
  id uuid primary key default gen_random_uuid(),
  menu_code text not null references public.menus (code) on delete cascade,
  position integer not null default 0,
  label text not null,
  url text not null check (url ~ '^(/|https://|mailto:|tel:)'),
  css_class text not null default '',
  is_blank boolean not null default false
);
create index menu_items_menu_idx on public.menu_items (menu_code, position);

alter table public.cities enable row level security;
alter table public.menus enable row level security;
alter table public.menu_items enable row level security;

create policy "Anyone can read cities" on public.cities for select to anon, authenticated using (true);
create policy "Admins can add cities" on public.cities for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins can change cities" on public.cities for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Admins can remove cities" on public.cities for delete to authenticated
  using ((select public.is_admin()));

create policy "Anyone can read menus" on public.menus for select to anon, authenticated using (true);
create policy "Admins can change menus" on public.menus for all to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "Anyone can read menu items" on public.menu_items for select to anon, authenticated using (true);
create policy "Admins can add menu items" on public.menu_items for insert to authenticated
  with check ((select public.is_admin()));
create policy "Admins can change menu items" on public.menu_items for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "Admins can remove menu items" on public.menu_items for delete to authenticated
  using ((select public.is_admin()));

grant select on public.cities, public.menus, public.menu_items to anon, authenticated;
grant insert, update, delete on public.cities, public.menus, public.menu_items to authenticated;
grant select, insert, update, delete on public.cities, public.menus, public.menu_items to service_role;
