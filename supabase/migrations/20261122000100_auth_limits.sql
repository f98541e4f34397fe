-- Auth limits: login attempts remember the client address (the lock after 10 failures applies to one
-- account from one address, and 20 failures from one address lock it for every account), and rate-limit
-- counters shared by every app instance (password reset, existence checks, all logins together).

alter table identity.login_attempts add column ip text not null default 'unknown';
create index login_attempts_ip_idx on identity.login_attempts (ip, attempted_at desc);

create table identity.rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);
alter table identity.rate_limits enable row level security;
grant select, insert, update, delete on identity.rate_limits to service_role;

-- Counts one hit and returns the hits of the sliding window ending now, estimated from the current
-- fixed window and the previous one weighted by how much of it the sliding window still covers.
create or replace function identity.hit_rate_limit(p_bucket text, p_window_seconds integer) returns double precision
language plpgsql security definer set search_path = '' as $$
declare
  w_start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  current_hits integer;
  previous_hits integer;
  elapsed double precision;
begin
  insert into identity.rate_limits as r (bucket, window_start, hits) values (p_bucket, w_start, 1)
  on conflict (bucket, window_start) do update set hits = r.hits + 1
  returning r.hits into current_hits;
  select r.hits into previous_hits from identity.rate_limits r
  where r.bucket = p_bucket and r.window_start = w_start - make_interval(secs => p_window_seconds);
  elapsed := extract(epoch from now() - w_start) / p_window_seconds;
  return current_hits + coalesce(previous_hits, 0) * (1 - elapsed);
end $$;
revoke execute on function identity.hit_rate_limit(text, integer) from public;
grant execute on function identity.hit_rate_limit(text, integer) to service_role;

create or replace function identity.purge_expired() returns void
language sql security definer set search_path = '' as $$
  delete from identity.sessions where expires_at < now();
  delete from identity.login_attempts where attempted_at < now() - interval '1 day';
  delete from identity.password_reset_tokens where expires_at < now() - interval '1 day';
  delete from identity.rate_limits where window_start < now() - interval '2 days';
$$;
