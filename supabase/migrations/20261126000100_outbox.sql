-- Outbox: the one work queue of the app (lib/outbox/). A use case enqueues a job inside its own
-- transaction (outbox.enqueue, whatever the actor's role: the job exists if and only if the action
-- committed); every app instance's worker claims due jobs with a lease (`for update skip locked`, so
-- several instances share the work and none runs a job another one holds), runs the queue's handler
-- outside any transaction, then marks the job done, pending again (backoff) or failed. Failed jobs
-- are the dead letters: kept, and readable by admins.
--
--   * A job belongs to a queue (lower-case words: 'send-email', 'crm-push'), carries a JSON object
--     (references such as ids, never secrets: admins read payloads) and may have a key: while a job
--     of a queue and key is pending, enqueueing the same queue and key again updates that job (its
--     payload becomes the new one, it runs at the earlier of the two times) instead of adding one,
--     and a job whose key is running waits for it (one at a time per key).
--   * run_at: not before. attempts: how many times it was claimed. max_attempts: the worker fails the
--     job after that many attempts (its retry delay is the app's one backoff formula).
--   * A running job's lease (locked_until) is renewed by nobody: when it lapses (the instance died)
--     the job is claimed again, or failed if it had no attempt left.
--
-- The schema `outbox` is not one of the schemas a hosted Supabase exposes through its Data API
-- (public, graphql_public): keep it out of them, enqueue is meant for the app's own transactions.

create schema outbox;
grant usage on schema outbox to authenticated, service_role;

create table outbox.jobs (
  id bigint generated always as identity primary key,
  queue text not null check (queue ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$' and length(queue) <= 63),
  payload jsonb not null default '{}'::jsonb check (jsonb_typeof(payload) = 'object'),
  key text check (key is null or length(key) between 1 and 200),
  state text not null default 'pending' check (state in ('pending', 'running', 'done', 'failed')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 8 check (max_attempts between 1 and 50),
  locked_by text,
  locked_until timestamptz,
  last_error text check (length(last_error) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  check ((state = 'running') = (locked_until is not null and locked_by is not null)),
  check ((state in ('done', 'failed')) = (finished_at is not null))
);
-- One pending job per queue and key (coalescing).
create unique index jobs_pending_key on outbox.jobs (queue, key) where state = 'pending' and key is not null;
-- The claim's scans: due pending jobs, lapsed leases, running keys.
create index jobs_due_idx on outbox.jobs (run_at, id) where state = 'pending';
create index jobs_running_idx on outbox.jobs (queue, key, locked_until) where state = 'running';
-- The admins' view and the purge.
create index jobs_failed_idx on outbox.jobs (finished_at desc) where state = 'failed';
create index jobs_done_idx on outbox.jobs (finished_at) where state = 'done';

alter table outbox.jobs enable row level security;
create policy "Admins can read the outbox" on outbox.jobs
  for select to authenticated using ((select public.is_admin()));
-- Users write jobs only through outbox.enqueue(); only the system claims and settles them.
grant select on outbox.jobs to authenticated;
grant select, insert, update, delete on outbox.jobs to service_role;

-- ---------------------------------------------------------------------------------------------------
-- Enqueue: from any signed-in user's or the system's transaction. Returns the job's id (the pending
-- job it was coalesced into, when the key matched one).
create function outbox.enqueue(
  queue text,
  payload jsonb,
  key text default null,
  run_at timestamptz default null,
  max_attempts integer default null
) returns bigint
language sql volatile security definer set search_path = '' as $$
  insert into outbox.jobs as j (queue, payload, key, run_at, max_attempts)
  values (enqueue.queue, coalesce(enqueue.payload, '{}'::jsonb), enqueue.key,
          coalesce(enqueue.run_at, now()), coalesce(enqueue.max_attempts, 8))
  on conflict (queue, key) where state = 'pending' and key is not null do update
    set payload = excluded.payload, run_at = least(j.run_at, excluded.run_at), updated_at = now()
  returning j.id
$$;

-- Claims up to max_jobs due jobs of `queues` for `worker`, each leased for the seconds given for its
-- queue (lease_seconds[i] for queues[i]). A job is due when pending and run_at has come, or running
-- with a lapsed lease; a job whose key is running under a live lease waits. Jobs whose lease lapsed on
-- their last attempt are failed first.
create function outbox.claim(queues text[], lease_seconds integer[], worker text, max_jobs integer)
returns setof outbox.jobs
language plpgsql volatile security definer set search_path = '' as $$
begin
  if coalesce(array_length(claim.queues, 1), 0) <> coalesce(array_length(claim.lease_seconds, 1), 0)
     or claim.max_jobs not between 1 and 1000 or coalesce(claim.worker, '') = '' then
    raise exception 'outbox.claim: invalid arguments' using errcode = '22023';
  end if;

  update outbox.jobs j
  set state = 'failed', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
      last_error = left(coalesce(j.last_error || E'\n', '') ||
        'Délai dépassé pendant la dernière tentative (instance arrêtée ?)', 2000)
  where j.state = 'running' and j.locked_until < now() and j.attempts >= j.max_attempts
    and j.queue = any (claim.queues);

  return query
  with candidates as (
    select c.id, c.queue, c.key, c.state, c.run_at
    from outbox.jobs c
    where c.queue = any (claim.queues)
      and ((c.state = 'pending' and c.run_at <= now()) or (c.state = 'running' and c.locked_until < now()))
      and (c.key is null or not exists (
        select from outbox.jobs r
        where r.state = 'running' and r.queue = c.queue and r.key = c.key and r.id <> c.id
          and r.locked_until >= now()))
    order by c.run_at, c.id
    limit claim.max_jobs
    for update skip locked
  ),
  -- A lapsed running job and the pending job of the same key can both be due: one at a time.
  picked as (
    select ranked.id from (
      select c.id, row_number() over (partition by c.queue, coalesce(c.key, c.id::text)
                                       order by c.state desc, c.run_at, c.id) as rank
      from candidates c
    ) ranked
    where ranked.rank = 1
  )
  update outbox.jobs j
  set state = 'running', attempts = j.attempts + 1, locked_by = claim.worker,
      locked_until = now() + make_interval(secs => claim.lease_seconds[array_position(claim.queues, j.queue)]),
      updated_at = now()
  from picked
  where j.id = picked.id
  returning j.*;
end $$;

-- Settles a job the worker still holds (same worker, still running); false when it no longer holds it
-- (its lease lapsed and another instance claimed it): the other instance's outcome stands.
create function outbox.complete(id bigint, worker text) returns boolean
language sql volatile security definer set search_path = '' as $$
  with done as (
    update outbox.jobs j
    set state = 'done', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
        last_error = null
    where j.id = complete.id and j.state = 'running' and j.locked_by = complete.worker
    returning 1
  )
  select exists (select from done)
$$;

-- Back to pending, due in delay_seconds. count_attempt = false gives the attempt back (the service asked
-- to slow down: nothing was tried). A keyed job for which a newer pending job exists is merged into it
-- (that one runs, at the earlier time) and closed as done.
create function outbox.retry(id bigint, worker text, error text, delay_seconds integer, count_attempt boolean)
returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  job outbox.jobs;
  newer bigint;
begin
  select * into job from outbox.jobs j
  where j.id = retry.id and j.state = 'running' and j.locked_by = retry.worker
  for update;
  if not found then
    return false;
  end if;
  if job.key is not null then
    update outbox.jobs p
    set run_at = least(p.run_at, now() + make_interval(secs => greatest(retry.delay_seconds, 0))),
        updated_at = now()
    where p.queue = job.queue and p.key = job.key and p.state = 'pending'
    returning p.id into newer;
  end if;
  if newer is not null then
    update outbox.jobs j
    set state = 'done', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
        last_error = left(format('%s (fusionnée avec la tâche n° %s)', retry.error, newer), 2000)
    where j.id = job.id;
  else
    update outbox.jobs j
    set state = 'pending', locked_by = null, locked_until = null, updated_at = now(),
        attempts = case when retry.count_attempt then j.attempts else greatest(j.attempts - 1, 0) end,
        run_at = now() + make_interval(secs => greatest(retry.delay_seconds, 0)),
        last_error = left(retry.error, 2000)
    where j.id = job.id;
  end if;
  return true;
end $$;

-- Failed for good: a dead letter, kept for admins.
create function outbox.fail(id bigint, worker text, error text) returns boolean
language sql volatile security definer set search_path = '' as $$
  with failed as (
    update outbox.jobs j
    set state = 'failed', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
        last_error = left(fail.error, 2000)
    where j.id = fail.id and j.state = 'running' and j.locked_by = fail.worker
    returning 1
  )
  select exists (select from failed)
$$;

-- An admin puts a dead letter back in its queue (attempts start again). Checked here as well as in the
-- use case: only admins (not while impersonating someone else), only failed jobs; a pending job of the
-- same key absorbs it.
create function outbox.requeue(id bigint) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  job outbox.jobs;
begin
  if not public.is_admin() then
    raise exception 'permission denied: admins only' using errcode = '42501';
  end if;
  select * into job from outbox.jobs j where j.id = requeue.id and j.state = 'failed' for update;
  if not found then
    return false;
  end if;
  if job.key is not null and exists (
    select from outbox.jobs p where p.queue = job.queue and p.key = job.key and p.state = 'pending'
  ) then
    update outbox.jobs p set run_at = least(p.run_at, now()), updated_at = now()
    where p.queue = job.queue and p.key = job.key and p.state = 'pending';
    update outbox.jobs j set state = 'done', updated_at = now(),
      last_error = left(coalesce(j.last_error, '') || E'\n(relancée : fusionnée avec la tâche en attente)', 2000)
    where j.id = job.id;
  else
    update outbox.jobs j
    set state = 'pending', attempts = 0, run_at = now(), finished_at = null, updated_at = now()
    where j.id = job.id;
  end if;
  return true;
end $$;

-- Jobs done more than 7 days ago are deleted (the job registry runs it hourly; dead letters stay).
create function public.purge_outbox() returns integer
language sql volatile security definer set search_path = '' as $$
  with gone as (
    delete from outbox.jobs where state = 'done' and finished_at < now() - interval '7 days' returning 1
  )
  select count(*)::integer from gone
$$;

revoke execute on all functions in schema outbox from public;
-- A hosted Supabase grants the new functions of `public` to its API roles by default privileges.
revoke execute on function public.purge_outbox() from public, anon, authenticated;
grant execute on function outbox.enqueue(text, jsonb, text, timestamptz, integer) to authenticated, service_role;
grant execute on function outbox.claim(text[], integer[], text, integer) to service_role;
grant execute on function outbox.complete(bigint, text) to service_role;
grant execute on function outbox.retry(bigint, text, text, integer, boolean) to service_role;
grant execute on function outbox.fail(bigint, text, text) to service_role;
grant execute on function outbox.requeue(bigint) to authenticated;
grant execute on function public.purge_outbox() to service_role;
