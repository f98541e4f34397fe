-- Shared pgTAP helpers, in the style of Basejump's supabase_test_helpers. scripts/pgtap.ts installs
-- this file into the throw-away database after the migrations and the pgtap extension, before any
-- file of supabase/tests/database/ runs; every test file uses it instead of its own set-up.
--
--   select tests.create_user('Customer', 'customer_a');   -- a user of a type, known by its label
--   select tests.act_as_anon();                           -- an anonymous visitor
--   select tests.act_as('customer_a');                    -- a signed-in user
--   select tests.act_as_impersonating('admin', 'customer_a');  -- an admin impersonating a user
--   select tests.act_as_service();                        -- the app's auth service / jobs
--   select tests.reset_role();                            -- back to the session user (superuser)
--   ... where id = tests.user_id('customer_a') ...        -- a user's id, under any role
--
-- The act_as helpers set the role and the request claims for the rest of the transaction, exactly as
-- lib/db/database.ts's CLAIMS_SQL does (`set_config('role', …, true), set_config('request.jwt.claims',
-- …, true)`), and return a TAP comment line ("# as customer_a (role authenticated)") so that each
-- switch shows in the output, as diag() would. They are security invoker (PostgreSQL refuses to
-- change the role inside a security definer function); the functions that read or write users are
-- security definer, so that every helper can be called under anon, authenticated or service_role.
--
-- A user created by tests.create_user(type, label) has the email `<label>@test.invalid`, firstname
-- <label>, lastname 'Test', and, for a Company, the name <label>. Labels are lower-case
-- (letters, digits, `_`, `.`, `-`): the email column only takes lower-case addresses.

create schema if not exists tests;

-- Label → id. Kept apart from public.users so that a label still finds its user after the user's
-- email changed (anonymisation, an admin's edit).
create table tests.users (
  label text primary key,
  id uuid not null unique references public.users (id) on delete cascade
);

/** Creates a user of `type` ('Admin', 'Company' or 'Customer') known as `label`; returns its id. */
create function tests.create_user(type text, label text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  new_id uuid;
begin
  if create_user.label is null or create_user.label !~ '^[a-z0-9][a-z0-9_.-]*$' then
    raise exception 'tests.create_user: invalid label %', create_user.label;
  end if;
  insert into public.users (type, email, firstname, lastname, name)
  values (create_user.type, create_user.label || '@test.invalid', create_user.label, 'Test',
          case when create_user.type = 'Company' then create_user.label end)
  returning id into new_id;
  insert into tests.users (label, id) values (create_user.label, new_id);
  return new_id;
end $$;

/** The id of the user created as `label`; an error for an unknown label. */
create function tests.user_id(label text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  found uuid;
begin
  select u.id into found from tests.users u where u.label = user_id.label;
  if found is null then
    raise exception 'tests.user_id: no test user labelled %', user_id.label;
  end if;
  return found;
end $$;

/**
 * Switches to `role_name` with `claims` as request.jwt.claims (null: no claims at all) until the end
 * of the transaction. The other act_as helpers go through it; call it directly for unusual claims.
 */
create function tests.set_claims(role_name text, claims jsonb, who text default null) returns text
language plpgsql as $$
begin
  perform pg_catalog.set_config('role', role_name, true),
    pg_catalog.set_config('request.jwt.claims', coalesce(claims::text, ''), true);
  return '# as ' || coalesce(who || ' (role ' || role_name || ')',
                            role_name || ' with claims ' || coalesce(claims::text, '(none)'));
end $$;

/** An anonymous visitor: role anon, claims {"role":"anon"}. */
create function tests.act_as_anon() returns text
language sql as $$
  select tests.set_claims('anon', '{"role":"anon"}'::jsonb, 'anon')
$$;

/** The user created as `label`: role authenticated, claims {"role":"authenticated","sub":<id>}. */
create function tests.act_as(label text) returns text
language sql as $$
  select tests.set_claims('authenticated',
    jsonb_build_object('role', 'authenticated', 'sub', tests.user_id(label)), label)
$$;

/**
 * The admin `admin_label` impersonating `user_label`: the user's claims plus "act":{"sub":<admin>},
 * as the app sets them for an impersonation session.
 */
create function tests.act_as_impersonating(admin_label text, user_label text) returns text
language sql as $$
  select tests.set_claims('authenticated',
    jsonb_build_object('role', 'authenticated', 'sub', tests.user_id(user_label),
                       'act', jsonb_build_object('sub', tests.user_id(admin_label))),
    admin_label || ' impersonating ' || user_label)
$$;

/** The system (auth service, jobs): role service_role, claims {"role":"service_role"}. */
create function tests.act_as_service() returns text
language sql as $$
  select tests.set_claims('service_role', '{"role":"service_role"}'::jsonb, 'service_role')
$$;

/**
 * The system acting on a shopper's cart, as lib/actor.ts's cartActor(): role service_role, claims
 * {"role":"service_role","reason":"cart"} plus "sub" = the user created as `label` (null: an anonymous
 * visitor, whose cart the functions find by its token). The cart functions are closed to anon and
 * authenticated (20261128009000_function_privileges.sql).
 */
create function tests.act_as_cart(label text default null) returns text
language sql as $$
  select tests.set_claims('service_role',
    jsonb_strip_nulls(jsonb_build_object('role', 'service_role', 'reason', 'cart',
      'sub', case when label is not null then tests.user_id(label) end)),
    'cart of ' || coalesce(label, 'an anonymous visitor'))
$$;

/** Back to the session user (the superuser running the tests), with no claims. */
create function tests.reset_role() returns text
language plpgsql as $$
begin
  perform pg_catalog.set_config('role', 'none', true), pg_catalog.set_config('request.jwt.claims', '', true);
  return '# as ' || session_user || ' (role reset)';
end $$;

-- Statements tried as the current role, always rolled back:
--   select * from tests.denied($$delete from public.x$$, 'anon cannot delete x');      -- refused (42501)
--   select * from tests.changes($$update public.x set …$$, 0, 'filtered out by RLS'); -- exactly n rows

/** Runs `stmt` in a subtransaction that is always rolled back; returns the SQLSTATE it raised ('00000'
 * when it succeeded), its message, and the number of rows it touched. */
create function tests.try(stmt text, out state text, out message text, out n bigint) language plpgsql as $fn$
begin
  begin
    execute stmt;
    get diagnostics n = row_count;
    raise exception using errcode = 'PTRY0', message = 'rolled back';
  exception when others then
    get stacked diagnostics state = returned_sqlstate, message = message_text;
    if state = 'PTRY0' then
      state := '00000';
      message := null;
    else
      n := null;
    end if;
  end;
end $fn$;

/** The statement is refused with 42501 (privilege, RLS or a trigger). */
create function tests.denied(stmt text, description text) returns text language plpgsql as $fn$
declare
  r record;
begin
  select * into r from tests.try(stmt);
  return ok(r.state = '42501', description) || case when r.state = '42501' then '' else E'\n' || diag(
    case when r.state = '00000' then format('    the statement succeeded and changed %s row(s)', r.n)
         else format('    got %s: %s', r.state, r.message) end) end;
end $fn$;

/** The statement succeeds and touches exactly `rows` rows (0: filtered out by RLS, silently). */
create function tests.changes(stmt text, rows bigint, description text) returns text language plpgsql as $fn$
declare
  r record;
begin
  select * into r from tests.try(stmt);
  return ok(r.state = '00000' and r.n = rows, description) ||
    case when r.state = '00000' and r.n = rows then '' else E'\n' || diag(
      case when r.state = '00000' then format('    changed %s row(s), expected %s', r.n, rows)
           else format('    got %s: %s', r.state, r.message) end) end;
end $fn$;

grant usage on schema tests to anon, authenticated, service_role;
grant execute on all functions in schema tests to anon, authenticated, service_role;

-- The migrations close every function created later by their role (20261128009000_function_privileges
-- .sql: `alter default privileges revoke execute on functions from public`). The test files create
-- their own helpers in pg_temp and call them under the API roles: the default privileges as the
-- migrations left them are kept in tests.default_acl (function_privileges_test.sql checks them), then
-- reopened for this database's tests.
create table tests.default_acl as
  select pg_get_userbyid(defaclrole) as role_name, case when defaclnamespace = 0 then '' else defaclnamespace::regnamespace::text end as schema_name,
    defaclacl as acl
  from pg_default_acl where defaclobjtype = 'f';
alter default privileges grant execute on functions to public;

-- pgTAP itself is installed after the migrations, whose default privileges close every new function
-- (20261128009000_function_privileges.sql): its functions are opened here, for the tests that run
-- under the API roles.
do $$
declare
  f regprocedure;
begin
  for f in
    select d.objid::regprocedure from pg_depend d join pg_extension e on e.oid = d.refobjid
    where d.classid = 'pg_proc'::regclass and d.deptype = 'e' and e.extname = 'pgtap'
  loop
    execute format('grant execute on function %s to public', f);
  end loop;
end $$;
