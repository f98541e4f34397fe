-- Secrets in the email outbox (issue "Production, part 2" §4). An email that carries a secret (a
-- password-reset or invitation link, a gift voucher's code and PDF link, a seat offer's link) is
-- written with its secrets masked in text_body/html_body (what admins and backups see) and its real
-- bodies in `sealed_body`, AES-256-GCM under a key derived from APP_SECRET (lib/mail/secrets.ts). The
-- SMTP worker opens it at send time; once the email is settled (sent or failed for good) the sealed
-- copy is dropped, so no usable secret stays. Sent and failed emails are deleted after the retention
-- (purge_sent_emails, job 'purge-sent-emails', 90 days); an erased account's emails go with it.

alter table public.email_outbox add column if not exists sealed_body text;

-- The sealed copy lives only while the email may still be sent.
create or replace function public.drop_sealed_body_once_settled() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.status <> 'pending' then
    new.sealed_body := null;
  end if;
  return new;
end $$;
revoke execute on function public.drop_sealed_body_once_settled() from public, anon, authenticated;

drop trigger if exists email_outbox_drop_sealed_body on public.email_outbox;
create trigger email_outbox_drop_sealed_body before insert or update of status, sealed_body on public.email_outbox
  for each row execute function public.drop_sealed_body_once_settled();

-- Retention: sent and failed emails older than `p_days` days (90 by default, lib/mail/rules.ts
-- SENT_EMAIL_RETENTION_DAYS) are deleted. Returns how many.
create or replace function public.purge_sent_emails(p_days integer default 90) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  purged integer;
begin
  delete from public.email_outbox
  where status in ('sent', 'failed')
    and coalesce(sent_at, next_attempt_at, created_at) < now() - make_interval(days => greatest(p_days, 1));
  get diagnostics purged = row_count;
  return purged;
end $$;
revoke execute on function public.purge_sent_emails(integer) from public, anon, authenticated;
grant execute on function public.purge_sent_emails(integer) to service_role;

create index if not exists email_outbox_recipient_idx on public.email_outbox (recipient);

-- Erasure (purge_deleted_accounts anonymises the user after the grace period): the account's emails,
-- to its address and its extra addresses, are deleted with it.
create or replace function public.erase_emails_of_anonymised_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.email_outbox
  where recipient = old.email or recipient = any(old.emails);
  return new;
end $$;
revoke execute on function public.erase_emails_of_anonymised_user() from public, anon, authenticated;

drop trigger if exists users_erase_emails on public.users;
create trigger users_erase_emails after update of anonymized_at on public.users
  for each row when (old.anonymized_at is null and new.anonymized_at is not null)
  execute function public.erase_emails_of_anonymised_user();

-- Emails written before this migration kept their secrets in clear: the settled ones are masked now
-- (reset and invitation links, seat-offer links, voucher codes and their PDF links); pending ones are
-- left to be sent as written.
update public.email_outbox set
  text_body = regexp_replace(regexp_replace(regexp_replace(regexp_replace(text_body,
    '/reset-password/[A-Za-z0-9_-]+', '/reset-password/[masqué]', 'g'),
    '/date/alert/offre/[^\s"<]+', '/date/alert/offre/[masqué]', 'g'),
    '\?code=[^\s"<]+', '?code=[masqué]', 'g'),
    '[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}', '[masqué]', 'g'),
  html_body = regexp_replace(regexp_replace(regexp_replace(regexp_replace(html_body,
    '/reset-password/[A-Za-z0-9_-]+', '/reset-password/[masqué]', 'g'),
    '/date/alert/offre/[^\s"<]+', '/date/alert/offre/[masqué]', 'g'),
    '\?code=[^\s"<]+', '?code=[masqué]', 'g'),
    '[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}', '[masqué]', 'g')
where status <> 'pending'
  and template in ('password-reset', 'partner-invitation', 'seat-offer', 'gift-voucher');
