-- Site: public.cities, public.menus and public.menu_items. Everyone (anon included) reads them;
-- only admins add, change or remove rows. Identity switches mirror lib/db/database.ts.
begin;
select plan(97);

insert into public.users (id, type, email, firstname, lastname, name) values
  ('a0000000-0000-4000-8000-000000000001', 'Admin', 'admin@example.com', 'Ada', 'Admin', null),
  ('c0000000-0000-4000-8000-00000000000a', 'Customer', 'client.a@example.com', 'Alice', 'Client', null),
  ('c0000000-0000-4000-8000-00000000000b', 'Customer', 'client.b@example.com', 'Bruno', 'Client', null),
  ('b0000000-0000-4000-8000-00000000000a', 'Company', 'partenaire.a@example.com', 'Paul', 'Partenaire', 'Bar A'),
  ('b0000000-0000-4000-8000-00000000000b', 'Company', 'partenaire.b@example.com', 'Pia', 'Partenaire', 'Bar B');

insert into public.cities (id, slug, name, position) values
  ('d0000000-0000-4000-8000-000000000001', 'paris', 'Paris', 1),
  ('d0000000-0000-4000-8000-000000000002', 'lyon', 'Lyon', 2);
insert into public.menus (code, label) values ('main', 'Menu principal'), ('footer1', 'Pied de page');
insert into public.menu_items (id, menu_code, position, label, url) values
  ('e0000000-0000-4000-8000-000000000001', 'main', 1, 'Accueil', '/'),
  ('e0000000-0000-4000-8000-000000000002', 'footer1', 1, 'Contact', 'mailto:contact@example.com');

-- ---------------------------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------------------------
select ok((select bool_and(relrowsecurity) from pg_class
           where oid in ('public.cities'::regclass, 'public.menus'::regclass, 'public.menu_items'::regclass)),
  'RLS is enabled on cities, menus and menu_items');
select policies_are('public', 'cities', array[
  'Anyone can read cities', 'Admins can add cities', 'Admins can change cities', 'Admins can remove cities'
], 'public.cities has exactly the expected policies');
select policies_are('public', 'menus', array['Anyone can read menus', 'Admins can change menus'],
  'public.menus has exactly the expected policies');
select policies_are('public', 'menu_items', array[
  'Anyone can read menu items', 'Admins can add menu items', 'Admins can change menu items',
  'Admins can remove menu items'
], 'public.menu_items has exactly the expected policies');
select table_privs_are('public', 'cities', 'anon', array['SELECT'], 'anon can only read cities');
select table_privs_are('public', 'menus', 'anon', array['SELECT'], 'anon can only read menus');
select table_privs_are('public', 'menu_items', 'anon', array['SELECT'], 'anon can only read menu items');

-- The read-only side, the same for every non-admin user: reads everything, every write is refused
-- (an insert raises the RLS violation 42501, an update or a delete reaches 0 rows).
create function pg_temp.site_is_read_only(who text) returns setof text language plpgsql as $fn$
begin
  return next results_eq($$select slug from public.cities order by position$$, array['paris', 'lyon'],
    who || ' reads the cities');
  return next set_eq($$select code from public.menus$$, array['main', 'footer1'], who || ' reads the menus');
  return next set_eq($$select label from public.menu_items$$, array['Accueil', 'Contact'],
    who || ' reads the menu items');

  return next throws_ok($$insert into public.cities (slug, name) values ('marseille', 'Marseille')$$, '42501',
    'new row violates row-level security policy for table "cities"', who || ' cannot add a city');
  return next results_eq(
    $$with u as (update public.cities set name = 'Piraté' returning 1) select count(*)::int from u$$,
    array[0], who || ' cannot change a city (0 rows)');
  return next results_eq(
    $$with d as (delete from public.cities returning 1) select count(*)::int from d$$,
    array[0], who || ' cannot remove a city (0 rows)');

  return next throws_ok($$insert into public.menus (code, label) values ('tools', 'Outils')$$, '42501',
    'new row violates row-level security policy for table "menus"', who || ' cannot add a menu');
  return next results_eq(
    $$with u as (update public.menus set label = 'Piraté' returning 1) select count(*)::int from u$$,
    array[0], who || ' cannot change a menu (0 rows)');
  return next results_eq(
    $$with d as (delete from public.menus returning 1) select count(*)::int from d$$,
    array[0], who || ' cannot remove a menu (0 rows)');

  return next throws_ok(
    $$insert into public.menu_items (menu_code, label, url) values ('main', 'Pirate', 'https://pirate.example')$$,
    '42501', 'new row violates row-level security policy for table "menu_items"', who || ' cannot add a menu item');
  return next results_eq(
    $$with u as (update public.menu_items set url = 'https://pirate.example' returning 1)
      select count(*)::int from u$$,
    array[0], who || ' cannot change a menu item (0 rows)');
  return next results_eq(
    $$with d as (delete from public.menu_items returning 1) select count(*)::int from d$$,
    array[0], who || ' cannot remove a menu item (0 rows)');
end $fn$;

-- The superuser's view after a batch of refused writes: nothing changed.
create function pg_temp.site_is_unchanged(after text) returns setof text language plpgsql as $fn$
begin
  return next results_eq($$select slug, name, position from public.cities order by position$$,
    $$values ('paris', 'Paris', 1), ('lyon', 'Lyon', 2)$$, 'cities unchanged after ' || after);
  return next results_eq($$select code, label from public.menus order by code$$,
    $$values ('footer1', 'Pied de page'), ('main', 'Menu principal')$$, 'menus unchanged after ' || after);
  return next results_eq($$select menu_code, label, url from public.menu_items order by menu_code$$,
    $$values ('footer1', 'Contact', 'mailto:contact@example.com'), ('main', 'Accueil', '/')$$,
    'menu items unchanged after ' || after);
end $fn$;

-- ---------------------------------------------------------------------------------------------
-- Anonymous visitor: reads, and has no write privilege at all.
-- ---------------------------------------------------------------------------------------------
set local role anon;
select diag('as anon: ' || set_config('request.jwt.claims', '{"role":"anon"}', true));

select results_eq($$select slug from public.cities order by position$$, array['paris', 'lyon'],
  'anon reads the cities');
select set_eq($$select code from public.menus$$, array['main', 'footer1'], 'anon reads the menus');
select set_eq($$select label from public.menu_items$$, array['Accueil', 'Contact'], 'anon reads the menu items');
select throws_ok($$insert into public.cities (slug, name) values ('marseille', 'Marseille')$$, '42501',
  'permission denied for table cities', 'anon cannot add a city');
select throws_ok($$update public.cities set name = 'Piraté'$$, '42501', 'permission denied for table cities',
  'anon cannot change a city');
select throws_ok($$delete from public.cities$$, '42501', 'permission denied for table cities',
  'anon cannot remove a city');
select throws_ok($$insert into public.menus (code, label) values ('tools', 'Outils')$$, '42501',
  'permission denied for table menus', 'anon cannot add a menu');
select throws_ok($$update public.menus set label = 'Piraté'$$, '42501', 'permission denied for table menus',
  'anon cannot change a menu');
select throws_ok($$delete from public.menus$$, '42501', 'permission denied for table menus',
  'anon cannot remove a menu');
select throws_ok($$insert into public.menu_items (menu_code, label, url) values ('main', 'Pirate', '/p')$$,
  '42501', 'permission denied for table menu_items', 'anon cannot add a menu item');
select throws_ok($$update public.menu_items set label = 'Piraté'$$, '42501',
  'permission denied for table menu_items', 'anon cannot change a menu item');
select throws_ok($$delete from public.menu_items$$, '42501', 'permission denied for table menu_items',
  'anon cannot remove a menu item');

-- ---------------------------------------------------------------------------------------------
-- Customers and partners: read-only.
-- ---------------------------------------------------------------------------------------------
set local role authenticated;
select diag('as customer A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000a"}', true));
select * from pg_temp.site_is_read_only('customer A');

set local role authenticated;
select diag('as customer B: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000b"}', true));
select * from pg_temp.site_is_read_only('customer B');

set local role authenticated;
select diag('as partner A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"b0000000-0000-4000-8000-00000000000a"}', true));
select * from pg_temp.site_is_read_only('partner A');

set local role authenticated;
select diag('as partner B: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"b0000000-0000-4000-8000-00000000000b"}', true));
select * from pg_temp.site_is_read_only('partner B');

set local role authenticated;
select diag('as admin impersonating customer A: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"c0000000-0000-4000-8000-00000000000a","act":{"sub":"a0000000-0000-4000-8000-000000000001"}}',
  true));
select * from pg_temp.site_is_read_only('an admin impersonating customer A');

reset role;
select diag('as superuser: ' || set_config('request.jwt.claims', '', true));
select * from pg_temp.site_is_unchanged('the writes of anon, customers, partners and an impersonating admin');

-- ---------------------------------------------------------------------------------------------
-- Admin: adds, changes and removes.
-- ---------------------------------------------------------------------------------------------
set local role authenticated;
select diag('as admin: ' || set_config('request.jwt.claims',
  '{"role":"authenticated","sub":"a0000000-0000-4000-8000-000000000001"}', true));

select results_eq($$select count(*)::int from public.cities$$, array[2], 'the admin reads the cities');
select results_eq(
  $$insert into public.cities (slug, name, position) values ('marseille', 'Marseille', 3) returning slug$$,
  $$values ('marseille')$$, 'the admin adds a city');
select results_eq(
  $$update public.cities set intro = 'La ville lumière' where slug = 'paris' returning intro$$,
  $$values ('La ville lumière')$$, 'the admin changes a city');
select results_eq(
  $$with d as (delete from public.cities where slug = 'lyon' returning 1) select count(*)::int from d$$,
  array[1], 'the admin removes a city');

select results_eq($$insert into public.menus (code, label) values ('tools', 'Outils') returning code$$,
  $$values ('tools')$$, 'the admin adds a menu');
select results_eq($$update public.menus set label = 'Navigation' where code = 'main' returning label$$,
  $$values ('Navigation')$$, 'the admin changes a menu');

select results_eq(
  $$insert into public.menu_items (menu_code, position, label, url) values ('tools', 1, 'Blog', 'https://blog.example.com')
    returning label$$,
  $$values ('Blog')$$, 'the admin adds a menu item');
select results_eq(
  $$update public.menu_items set label = 'Accueil !' where id = 'e0000000-0000-4000-8000-000000000001'
    returning label$$,
  $$values ('Accueil !')$$, 'the admin changes a menu item');
select results_eq(
  $$with d as (delete from public.menu_items where id = 'e0000000-0000-4000-8000-000000000001' returning 1)
    select count(*)::int from d$$,
  array[1], 'the admin removes a menu item');
select results_eq(
  $$with d as (delete from public.menus where code = 'footer1' returning 1) select count(*)::int from d$$,
  array[1], 'the admin removes a menu');

reset role;
select diag('as superuser: ' || set_config('request.jwt.claims', '', true));
select results_eq($$select slug, intro from public.cities order by position$$,
  $$values ('paris', 'La ville lumière'), ('marseille', '')$$, 'the admin''s city changes were stored');
select results_eq($$select code, label from public.menus order by code$$,
  $$values ('main', 'Navigation'), ('tools', 'Outils')$$, 'the admin''s menu changes were stored');
select results_eq($$select menu_code, label from public.menu_items order by menu_code$$,
  $$values ('tools', 'Blog')$$,
  'the admin''s menu item changes were stored (footer1''s item went with its menu)');

-- ---------------------------------------------------------------------------------------------
-- service_role bypasses RLS.
-- ---------------------------------------------------------------------------------------------
set local role service_role;
select diag('as service_role: ' || set_config('request.jwt.claims', '{"role":"service_role"}', true));
select results_eq($$insert into public.cities (slug, name) values ('nice', 'Nice') returning slug$$,
  $$values ('nice')$$, 'service_role adds a city without any policy');
select results_eq(
  $$with u as (update public.menu_items set position = 9 returning 1) select count(*)::int from u$$,
  array[1], 'service_role changes menu items without any policy');

select * from finish();
rollback;
