-- What the API roles reach (migration 20261128009000_function_privileges.sql): on a hosted Supabase,
-- anon (the public anon key) and authenticated (any Supabase Auth sign-up) call functions through
-- `POST /rest/v1/rpc/<name>` and read tables, views and sequences through the Data API. Every function
-- either role may execute, in every schema, is listed here with its reason: a function left open by a
-- later migration fails this file, as table_privs_are does for tables.
begin;
select plan(21);

select tests.create_user('Customer', 'customer_a'), tests.create_user('Company', 'partner_a');

-- Every function `role` may execute, outside pg_catalog, information_schema, extensions and the test
-- helpers: `schema.name(argument types)`.
create function pg_temp.executable_by(role_name text) returns setof text language sql stable as $$
  select format('%s.%s(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes))
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname not like 'pg\_%' and n.nspname not in ('information_schema', 'tests')
    and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                    and d.deptype = 'e')
    and has_function_privilege(role_name, p.oid, 'execute')
$$;

-- ---------------------------------------------------------------------------------------------
-- Functions, per role
-- ---------------------------------------------------------------------------------------------
select set_eq($$select * from pg_temp.executable_by('anon')$$,
  $$values
    -- the platform's claims readers (Supabase's own auth schema)
    ('auth.jwt()'), ('auth.role()'), ('auth.uid()'),
    -- RLS helpers: read the caller's own claims and type, nothing else
    ('public.current_user_type()'), ('public.is_admin()'),
    -- schemas the Data API does not expose: the idempotency mark (needs the request's token)
    ('idempotency.record_creation(text, text, uuid)')
  $$,
  'anon executes only the claims readers and the two caller helpers');

select set_eq($$select * from pg_temp.executable_by('authenticated')$$,
  $$values
    ('auth.jwt()'), ('auth.role()'), ('auth.uid()'),
    -- RLS helpers called by policies as the signed-in user
    ('public.current_user_type()'), ('public.is_admin()'),
    ('public.is_deal_customer(bigint)'), ('public.is_deal_partner(bigint)'), ('public.is_deal_locked(bigint)'),
    ('public.is_order_customer(bigint)'), ('public.is_voucher_holder(uuid)'), ('public.can_read_deal_chat(bigint)'),
    -- entry points the app calls as the user, each checking its own rule
    ('public.deal_company(uuid)'),                     -- admin, the company itself, or its deals' customer
    ('public.partner_deal_contact(bigint)'),           -- admin or the deal's partner, masked by the deal's flags
    ('public.set_deal_service_address(bigint, text)'), -- admin, or the unlocked deal's partner when allowed
    ('public.set_session_date_closed(uuid, boolean)'), -- admins only
    ('public.admin_deal_search(text[], text[])'),      -- admins only: ids of the deals a search matches
    ('public.admin_deal_count(text[], text[], date, date)'), -- admins only: how many
    -- schemas the Data API does not expose
    ('identity.change_own_password(text, text)'),      -- the caller's own password (auth.uid())
    ('outbox.enqueue(text, jsonb, text, timestamp with time zone, integer)'), -- side effects of a use case, in its transaction
    ('outbox.requeue(bigint)'),                        -- admins only (dead letters)
    ('idempotency.record_creation(text, text, uuid)')  -- the request's own key (needs its token)
  $$,
  'authenticated executes only the RLS helpers and the self-checking entry points');

-- The cart functions are the system's (lib/actor.ts cartActor), after the app's limits.
select tests.act_as_anon();
select throws_ok($$select public.add_to_cart(repeat('a', 40), gen_random_uuid(), 15, 120)$$,
  '42501', 'permission denied for function add_to_cart', 'anon cannot call add_to_cart (the app''s limit on anonymous holds stands)');
select tests.reset_role();
select tests.act_as('customer_a');
select throws_ok($$select public.add_to_cart(null, gen_random_uuid(), 15, 120)$$,
  '42501', 'permission denied for function add_to_cart', 'authenticated cannot call add_to_cart');
select tests.reset_role();
select tests.act_as_anon();
select throws_ok($$select * from public.cart_contents(repeat('a', 40))$$,
  '42501', 'permission denied for function cart_contents', 'anon cannot read a cart through cart_contents');
select tests.reset_role();
select tests.act_as('customer_a');
select throws_ok($$select public.apply_cart_voucher(repeat('0', 64))$$,
  '42501', 'permission denied for function apply_cart_voucher', 'authenticated cannot probe voucher codes past the app''s limit');
select tests.reset_role();
select tests.act_as_anon();
select throws_ok($$select public.claim_seat_offer(repeat('a', 40), gen_random_uuid(), 120)$$,
  '42501', 'permission denied for function claim_seat_offer', 'anon cannot claim a seat offer without the signed link');
select tests.reset_role();

select ok((select bool_and(has_function_privilege('service_role', f, 'execute')) from unnest(array[
    'public.add_to_cart(text, uuid, integer, integer)', 'public.change_cart_line(text, uuid, integer, integer)',
    'public.remove_cart_line(text, uuid)', 'public.cart_contents(text)', 'public.merge_cart(text)',
    'public.claim_seat_offer(text, uuid, integer)', 'public.apply_cart_voucher(text)',
    'public.remove_cart_voucher()']::regprocedure[]) f),
  'service_role executes the cart functions (the app calls them as the system, on the shopper''s behalf)');
select tests.act_as_cart('customer_a');
select is(public.add_to_cart(null, gen_random_uuid(), 1, 20) ->> 'reason', 'not_found',
  'on the shopper''s behalf, add_to_cart runs (an unknown date: not_found)');
select tests.act_as_cart('partner_a');
select throws_ok($$select public.apply_cart_voucher(repeat('0', 64))$$, '42501', 'only customers use vouchers',
  'on behalf of a partner, the function''s own rule refuses (no cart)');
select tests.reset_role();

-- Default privileges, as the migrations left them (tests.default_acl: helpers.sql reopens them for the
-- test files' pg_temp helpers): no EXECUTE for PUBLIC on the migration role's new functions, none for
-- anon and authenticated in the app's schemas, service_role's kept.
select ok(exists (select from tests.default_acl where schema_name = '' and role_name = session_user)
    and not exists (select from tests.default_acl, aclexplode(acl) a
                    where schema_name = '' and role_name = session_user and a.grantee = 0),
  'the migration role''s new functions start without EXECUTE for PUBLIC');
select set_eq($$select schema_name || ' ' || a.privilege_type || ' ' || pg_get_userbyid(a.grantee)
    from tests.default_acl, aclexplode(acl) a where schema_name in ('public', 'identity', 'outbox')$$,
  $$values ('public EXECUTE service_role'), ('identity EXECUTE service_role'), ('outbox EXECUTE service_role')$$,
  'in the app''s schemas, new functions are granted to service_role only');
-- The same defaults, applied again in this transaction: a new function is closed to the API roles.
alter default privileges revoke execute on functions from public;
create function public.zz_exposure_probe() returns int language sql as $$ select 1 $$;
select is(has_function_privilege('anon', 'public.zz_exposure_probe()', 'execute'), false,
  'a new function in public is closed to anon');
select is(has_function_privilege('authenticated', 'public.zz_exposure_probe()', 'execute'), false,
  'a new function in public is closed to authenticated');
select is(has_function_privilege('service_role', 'public.zz_exposure_probe()', 'execute'), true,
  'a new function in public is open to service_role');

-- ---------------------------------------------------------------------------------------------
-- Tables, views, sequences
-- ---------------------------------------------------------------------------------------------
select is_empty($$
  select format('%s.%s', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and not c.relrowsecurity
    and n.nspname not like 'pg\_%' and n.nspname not in ('information_schema', 'tests')
    and (has_table_privilege('anon', c.oid, 'select, insert, update, delete')
      or has_table_privilege('authenticated', c.oid, 'select, insert, update, delete'))$$,
  'every table anon or authenticated may touch has row-level security');

select set_eq($$
  select format('%s.%s %s', schemaname, tablename, cmd) from pg_policies
  where (roles && array['anon', 'authenticated', 'public']::name[])
    and (coalesce(qual, with_check) ~ '^\(?true\)?$')$$,
  $$values
    -- the public catalogue the quote form shows every visitor
    ('public.cities SELECT'), ('public.menus SELECT'), ('public.menu_items SELECT')
  $$,
  'the only always-true policies for the API roles are the public catalogue''s reads');

select is_empty($$
  select format('%s.%s', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('v', 'm') and n.nspname not like 'pg\_%' and n.nspname not in ('information_schema', 'tests')
    and not exists (select from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid
                    and d.deptype = 'e')
    and (has_table_privilege('anon', c.oid, 'select') or has_table_privilege('authenticated', c.oid, 'select'))
    and (c.relkind = 'm' or not coalesce('security_invoker=true' = any(c.reloptions), false))$$,
  'no view or materialized view readable by the API roles bypasses RLS (views are security_invoker)');

select is_empty($$
  select format('%s.%s', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'S' and n.nspname not like 'pg\_%'
    and case when c.relkind = 'S' then has_sequence_privilege('anon', c.oid, 'usage, select, update')
      or has_sequence_privilege('authenticated', c.oid, 'select, update') end$$,
  'anon has no privilege on any sequence; authenticated cannot read nor set one');

select set_eq($$
  select format('%s.%s', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'S' and n.nspname not like 'pg\_%'
    and case when c.relkind = 'S' then has_sequence_privilege('authenticated', c.oid, 'usage') end$$,
  $$values
    -- USAGE (nextval for the bigserial ids of rows the user inserts under RLS); the Data API cannot
    -- call nextval (pg_catalog is not exposed) and USAGE reads nothing
    ('public.deals_id_seq'), ('public.deal_status_changes_id_seq'), ('public.deal_notifications_id_seq'),
    ('public.logs_id_seq')
  $$,
  'authenticated uses only the sequences of the rows it inserts');

select set_eq($$select nspname::text from pg_namespace where has_schema_privilege('anon', oid, 'usage')
    and nspname not like 'pg\_%' and nspname not in ('information_schema', 'tests')$$,
  -- idempotency: its one function, the mark of a creating request's own key (not exposed by the Data API)
  $$values ('public'), ('auth'), ('idempotency')$$, 'anon uses only the public, auth and idempotency schemas');

select * from finish();
rollback;
