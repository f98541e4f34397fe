-- Sessions resolved by the app are kept in each instance's memory for a few seconds
-- (lib/auth/session_cache.ts). Whatever ends a session or changes what a session's actor carries tells
-- every instance at once through NOTIFY on the channel 'app_sessions' (delivered on commit):
--   'h:<id_hash>'  a session was deleted (logout, password reset, impersonation switch, expiry purge)
--   'u:<user id>'  a user's type, names, email, deletion or anonymisation changed
-- A lost notification (the listening connection dropped) is covered by the cache clearing itself when
-- it listens again, and by its short lifetime.

create or replace function identity.notify_session_deleted() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('app_sessions', 'h:' || old.id_hash);
  return null;
end $$;
revoke execute on function identity.notify_session_deleted() from public;

create trigger sessions_notify_deleted
  after delete on identity.sessions
  for each row execute function identity.notify_session_deleted();

create or replace function public.notify_session_user_changed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('app_sessions', 'u:' || new.id);
  return null;
end $$;
revoke execute on function public.notify_session_user_changed() from public;

create trigger users_notify_session_actor
  after update of type, firstname, lastname, name, email, deleted_at, anonymized_at on public.users
  for each row
  when (old.type is distinct from new.type or old.firstname is distinct from new.firstname
        or old.lastname is distinct from new.lastname or old.name is distinct from new.name
        or old.email is distinct from new.email or old.deleted_at is distinct from new.deleted_at
        or old.anonymized_at is distinct from new.anonymized_at)
  execute function public.notify_session_user_changed();
