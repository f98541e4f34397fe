-- Flash messages (migration 20261127000200_deal_spec.sql): kept on the server per session, reached
-- only by the service role (the app's system actor "auth"). Anonymous visitors, customers, partners,
-- admins and an impersonating admin can neither read, write nor delete them; the service role
-- writes, reads and consumes them; the row checks refuse a bad key, type or message.
begin;
select plan(25);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a');

insert into identity.flash_messages (session_key, type, message) values
  (repeat('a', 64), 'success', 'Paiement intégral effectué avec succès ! Vous recevrez un email de confirmation.'),
  (repeat('b', 64), 'info', 'Vous êtes déconnecté.');

select policies_are('identity', 'flash_messages', array[]::name[], 'identity.flash_messages has no policy');
select ok((select relrowsecurity from pg_class where oid = 'identity.flash_messages'::regclass),
  'RLS is enabled on identity.flash_messages');
select table_privs_are('identity', 'flash_messages', 'anon', array[]::text[],
  'anon has no privilege on identity.flash_messages');
select table_privs_are('identity', 'flash_messages', 'authenticated', array[]::text[],
  'authenticated has no privilege on identity.flash_messages');
select table_privs_are('identity', 'flash_messages', 'service_role', array['DELETE', 'INSERT', 'SELECT'],
  'the service role reads, writes and consumes flash messages (never rewrites one)');

-- Denied side: every role but the service role gets 42501.
create function pg_temp.denied(who text, anon boolean) returns setof text language plpgsql as $fn$
declare
  denied text := case when anon then 'permission denied for schema identity'
                      else 'permission denied for table flash_messages' end;
begin
  return next throws_ok('select * from identity.flash_messages', '42501', denied, who || ' cannot read them');
  return next throws_ok(format($$insert into identity.flash_messages (session_key, type, message)
    values (%L, 'success', 'Faux message')$$, repeat('c', 64)), '42501', denied, who || ' cannot write one');
  return next throws_ok('delete from identity.flash_messages', '42501', denied, who || ' cannot consume them');
end $fn$;

select tests.act_as_anon();
select pg_temp.denied('anon', true);
select tests.act_as('customer_a');
select pg_temp.denied('a customer', false);
select tests.act_as('admin');
select pg_temp.denied('an admin', false);
select tests.act_as_impersonating('admin', 'customer_a');
select pg_temp.denied('an impersonating admin', false);

-- Allowed side: the service role consumes one session's messages, and only those.
select tests.act_as_service();
select results_eq(
  $$delete from identity.flash_messages where session_key = repeat('a', 64) returning type, message$$,
  $$values ('success'::text, 'Paiement intégral effectué avec succès ! Vous recevrez un email de confirmation.'::text)$$,
  'the service role takes the messages of one session');
select is((select count(*)::int from identity.flash_messages where session_key = repeat('a', 64)), 0,
  'taken once: nothing left for that session');
select is((select count(*)::int from identity.flash_messages where session_key = repeat('b', 64)), 1,
  'another session keeps its own');
select lives_ok($$insert into identity.flash_messages (session_key, type, message)
  values (repeat('d', 64), 'error', 'Erreur')$$, 'the service role writes one');
select throws_ok($$update identity.flash_messages set message = 'x'$$, '42501', null,
  'a message is never rewritten');
select throws_ok($$insert into identity.flash_messages (session_key, type, message)
  values ('not-a-hash', 'info', 'x')$$, '23514', null, 'the key is a SHA-256 in hexadecimal');
select throws_ok($$insert into identity.flash_messages (session_key, type, message)
  values (repeat('e', 64), 'danger', 'x')$$, '23514', null, 'the type is one of the four');
select throws_ok($$insert into identity.flash_messages (session_key, type, message)
  values (repeat('e', 64), 'info', repeat('x', 501))$$, '23514', null, 'a message has at most 500 characters');

select * from finish();
rollback;
