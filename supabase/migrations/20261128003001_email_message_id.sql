-- SMTP delivery (lib/mail/delivery.ts): the Message-ID of an email is chosen once, at its first claim,
-- and stored on the row in the claim's transaction, before anything is sent. Every later attempt (a
-- retry after a failure, or after a worker died between the SMTP server's acceptance and the mark)
-- sends the same Message-ID, whatever the configuration says by then, so receivers can drop the copy.
alter table public.email_outbox add column if not exists message_id text
  check (message_id is null or length(message_id) between 3 and 300);
