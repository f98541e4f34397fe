-- Readiness (GET /readyz, routes/health.ts): whether the schema this code needs is in place, i.e. its
-- last migration is recorded. supabase_migrations is the owner's: the service role asks through this
-- function and learns nothing else.
create function public.migration_applied(p_version text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from supabase_migrations.schema_migrations where version = p_version)
$$;
revoke execute on function public.migration_applied(text) from public, anon, authenticated;
grant execute on function public.migration_applied(text) to service_role;
