-- Idempotency keys (lib/idempotency/, lib/http/idempotency.ts): the POSTs that create something accept
-- an `Idempotency-Key`; the same key from the same caller within 24 hours answers the first response
-- again and creates nothing.
--
--   * A row is (scope, key): scope is the caller ('user:<id>' for a signed-in user, 'ip:<address>' for
--     an anonymous visitor), key the client's (1 to 255 printable ASCII characters).
--   * fingerprint: method, path and SHA-256 of the body. The same key with another fingerprint is refused.
--   * token: the reservation of the request that holds the key. The app reserves the key in its own
--     statement ('pending', leased until locked_until), runs the handler, then stores the response
--     ('completed') or deletes the row when nothing was created (a retry may run again).
--   * The creation itself marks the row 'committed' inside its own transaction
--     (idempotency.record_creation, with the token): the created thing and the mark commit together.
--     A request whose lease lapsed and whose key was taken over by a retry cannot commit its creation
--     any more (the mark raises IK409 and the creation rolls back): one creation per key, whatever
--     crashes. A 'committed' row without a response is a creation whose answer was lost (the process
--     died between the commit and the storing of the response): retries get a 409, never a second one.
--   * Only the system writes the table (service_role, through the system actor 'idempotency'); users
--     reach it only through record_creation, which needs the request's token.

create table public.idempotency_keys (
  scope text not null check (length(scope) between 1 and 200),
  key text not null check (length(key) between 1 and 255 and key ~ '^[ -~]+$'),
  fingerprint text not null check (length(fingerprint) between 1 and 1000),
  token uuid not null,
  state text not null default 'pending' check (state in ('pending', 'committed', 'completed')),
  locked_until timestamptz not null,
  response_status integer check (response_status between 100 and 599),
  response_headers jsonb check (response_headers is null or jsonb_typeof(response_headers) = 'array'),
  response_body text,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (scope, key),
  check ((state = 'completed') = (response_status is not null and completed_at is not null))
);
-- The purge's scan.
create index idempotency_keys_created_idx on public.idempotency_keys (created_at);

alter table public.idempotency_keys enable row level security;
-- No policy: only the service role (RLS bypassed) reads and writes it.
revoke all on public.idempotency_keys from public, anon, authenticated;
grant select, insert, update, delete on public.idempotency_keys to service_role;

-- The schema `idempotency` holds the one function the users' transactions call; like `outbox`, it is
-- not one of the schemas a hosted Supabase exposes through its Data API.
create schema idempotency;
grant usage on schema idempotency to anon, authenticated, service_role;

-- Marks the key of the running request as used by a creation, in the creation's own transaction
-- (whatever the actor's role: a visitor's quote request, a customer's chat message). The token is the
-- capability: without the request's token the call changes nothing and raises. Raises IK409 when the
-- key is no longer this request's (its lease lapsed and a retry took it over, or it expired).
create function idempotency.record_creation(scope text, key text, token uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  update public.idempotency_keys k set state = 'committed'
  where k.scope = record_creation.scope and k.key = record_creation.key and k.token = record_creation.token
    and k.state in ('pending', 'committed');
  if not found then
    raise exception 'idempotency_key_superseded' using errcode = 'IK409',
      detail = 'The idempotency key is no longer held by this request.';
  end if;
end $$;

-- The scheduled purge (lib/jobs/registry.ts 'purge-idempotency-keys'): keys older than 24 hours are not
-- honoured (the app checks created_at too) and are deleted here.
create function public.purge_idempotency_keys() returns integer
language sql volatile security definer set search_path = '' as $$
  with gone as (
    delete from public.idempotency_keys where created_at < now() - interval '24 hours' returning 1
  )
  select count(*)::integer from gone
$$;

revoke execute on all functions in schema idempotency from public;
revoke execute on function public.purge_idempotency_keys() from public, anon, authenticated;
grant execute on function idempotency.record_creation(text, text, uuid) to anon, authenticated, service_role;
grant execute on function public.purge_idempotency_keys() to service_role;
