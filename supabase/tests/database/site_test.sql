-- Site: public.cities, public.menus and public.menu_items. Everyone (anon included) reads them;
-- only admins add, change or remove rows. Users and identity switches come from
-- supabase/tests/helpers.sql.
begin;
select plan(100);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');

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
select table_privs_are('public', 'cities', 'authenticated', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'authenticated may read and write cities (RLS keeps writes to admins)');
select table_privs_are('public', 'menus', 'authenticated', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'authenticated may read and write menus (RLS keeps writes to admins)');
select table_privs_are('public', 'menu_items', 'authenticated', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
  'authenticated may read and write menu items (RLS keeps writes to admins)');

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
select tests.act_as_anon();

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
select tests.act_as('customer_a');
select * from pg_temp.site_is_read_only('customer A');

select tests.act_as('customer_b');
select * from pg_temp.site_is_read_only('customer B');

select tests.act_as('partner_a');
select * from pg_temp.site_is_read_only('partner A');

select tests.act_as('partner_b');
select * from pg_temp.site_is_read_only('partner B');

select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.site_is_read_only('an admin impersonating customer A');

select tests.reset_role();
select * from pg_temp.site_is_unchanged('the writes of anon, customers, partners and an impersonating admin');

-- ---------------------------------------------------------------------------------------------
-- Admin: adds, changes and removes.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('admin');

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

select tests.reset_role();
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
select tests.act_as_service();
select results_eq($$insert into public.cities (slug, name) values ('nice', 'Nice') returning slug$$,
  $$values ('nice')$$, 'service_role adds a city without any policy');
select results_eq(
  $$with u as (update public.menu_items set position = 9 returning 1) select count(*)::int from u$$,
  array[1], 'service_role changes menu items without any policy');

select * from finish();
rollback;
