-- Function privileges, closed by default (issue "Production, part 2" §3). PostgreSQL grants EXECUTE on
-- every new function to PUBLIC, and a hosted Supabase grants default privileges on `public` to anon
-- and authenticated, whose Data API (`POST /rest/v1/rpc/<name>`) then calls them with the public anon
-- key. This migration sorts last: it sweeps every function of the app's schemas (whatever migration
-- created it, including the ones written in parallel with it), revokes EXECUTE from PUBLIC, anon and
-- authenticated, keeps it for service_role (the app's system actor), and grants back to the API roles
-- only the allow-list below. supabase/tests/database/function_privileges_test.sql holds the same list:
-- a function left open later fails the suite.

-- 1. The sweep. App schemas: every schema that is not the platform's (pg_*, information_schema, and
--    the schemas a hosted Supabase owns) nor the test helpers'; extension members are left alone; only
--    functions this role may change (on a hosted Supabase the platform's are not ours).
do $$
declare
  f record;
begin
  for f in
    select p.oid::regprocedure as sig, p.prokind,
      has_function_privilege('service_role', p.oid, 'execute') as service
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not like 'pg\_%' and n.nspname <> 'information_schema'
      and n.nspname not in ('auth', 'storage', 'extensions', 'graphql', 'graphql_public', 'realtime',
        'vault', 'pgsodium', 'pgsodium_masks', 'net', 'supabase_functions', 'supabase_migrations', 'cron',
        'pgbouncer', 'pgtle', 'tests')
      and p.prokind in ('f', 'p')
      and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                      and d.deptype = 'e')
      and pg_has_role(current_user, p.proowner, 'USAGE')
  loop
    execute format('revoke execute on %s %s from public, anon, authenticated',
      case f.prokind when 'p' then 'procedure' else 'function' end, f.sig);
    -- What the system actor could call (through PUBLIC or its own grant), it still can.
    if f.service then
      execute format('grant execute on %s %s to service_role',
        case f.prokind when 'p' then 'procedure' else 'function' end, f.sig);
    end if;
  end loop;
end $$;

-- The cart functions took the caller's word for the hold time and quantity, and the app's limits
-- (anonymous holds per address, voucher-code tries, the signed seat-offer link) were only in the app:
-- closed to anon and authenticated above, they are called by the system on the shopper's behalf
-- (lib/actor.ts cartActor: service_role with the user's id as `sub`).
grant execute on function public.add_to_cart(text, uuid, integer, integer) to service_role;
grant execute on function public.change_cart_line(text, uuid, integer, integer) to service_role;
grant execute on function public.remove_cart_line(text, uuid) to service_role;
grant execute on function public.cart_contents(text) to service_role;
grant execute on function public.merge_cart(text) to service_role;
grant execute on function public.claim_seat_offer(text, uuid, integer) to service_role;
grant execute on function public.apply_cart_voucher(text) to service_role;
grant execute on function public.remove_cart_voucher() to service_role;

-- 2. The allow-list: what anon and authenticated may execute, each for a reason.
-- RLS helpers called by policies as the querying role (they read the caller's claims only).
grant execute on function public.is_admin() to anon, authenticated;
grant execute on function public.current_user_type() to anon, authenticated;
grant execute on function public.is_deal_customer(bigint) to authenticated;
grant execute on function public.is_deal_partner(bigint) to authenticated;
grant execute on function public.is_deal_locked(bigint) to authenticated;
grant execute on function public.is_order_customer(bigint) to authenticated;
grant execute on function public.is_voucher_holder(uuid) to authenticated;
grant execute on function public.can_read_deal_chat(bigint) to authenticated;
-- Security-definer entry points the app calls as the signed-in user, each checking its own rule:
-- the deal's company card (admin, the company itself, or a customer of one of its deals), the masked
-- contact (admin or the deal's partner), the service address (admin, or the unlocked deal's partner
-- when allowed), closing a date (admins only).
grant execute on function public.deal_company(uuid) to authenticated;
grant execute on function public.partner_deal_contact(bigint) to authenticated;
grant execute on function public.set_deal_service_address(bigint, text) to authenticated;
grant execute on function public.set_session_date_closed(uuid, boolean) to authenticated;
-- The admin deals list's search and count (20261128006000_growth_indexes.sql): they return ids and a
-- count only, and only to an admin (is_admin() inside); the rows shown are read under the admin's rights.
grant execute on function public.admin_deal_search(text[], text[]) to authenticated;
grant execute on function public.admin_deal_count(text[], text[], date, date) to authenticated;
-- Schemas the Data API does not expose (identity, outbox): the user's own password change, the
-- outbox rows a use case writes in the user's transaction, an admin's requeue of a dead letter.
grant execute on function identity.change_own_password(text, text) to authenticated;
grant execute on function outbox.enqueue(text, jsonb, text, timestamptz, integer) to authenticated;
grant execute on function outbox.requeue(bigint) to authenticated;
-- The idempotency mark (20261128003000_idempotency.sql): a creation's own transaction calls it under the
-- caller's role (a visitor's quote request, a customer's chat message); the request's token is the
-- capability, without it the call changes nothing.
grant execute on function idempotency.record_creation(text, text, uuid) to anon, authenticated;

-- 3. Default privileges: a function created later by this role starts closed (no PUBLIC; Supabase's
--    per-schema grants to anon and authenticated removed) and open to service_role. Default
--    privileges belong to the role that creates the objects: if migrations run as another role than
--    the one running this file, an operator runs, as that role (or a member of it):
--      alter default privileges for role <role> revoke execute on functions from public;
--      alter default privileges for role <role> in schema public revoke execute on functions from anon, authenticated;
--    (ARCHITECTURE.md, "What hosted Supabase exposes, secrets and input hygiene").
alter default privileges revoke execute on functions from public;
do $$
declare
  s text;
begin
  foreach s in array array['public', 'identity', 'outbox', 'idempotency'] loop
    if exists (select from pg_namespace where nspname = s) then
      execute format('alter default privileges in schema %I revoke execute on functions from anon, authenticated', s);
      execute format('alter default privileges in schema %I grant execute on functions to service_role', s);
    end if;
  end loop;
end $$;
