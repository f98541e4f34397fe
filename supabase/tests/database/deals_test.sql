-- Deals (supabase/migrations/20261123000000_deals.sql): who reads which deal, its contact and its
-- history; what partner_deal_contact() masks; what the guard trigger lets a partner and a customer
-- change; what record_deal_status() writes; deal_company(); who queues deal notifications (CRM
-- syncs: operations_test.sql); company_settings ownership; global settings written by admins only; deal photos by the
-- deal's partner and admins. Each side from anon, customer A/B, partner A/B, admin, an admin
-- impersonating a partner or a customer, and the service role. Users and identity switches come from
-- supabase/tests/helpers.sql.
--
-- Statements expected to be refused or to change rows run through tests.try(), which always rolls its
-- statement back (a subtransaction): a refusal the database forgets to make fails its own test without
-- changing the state the next tests read.
begin;
select plan(296);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Customer', 'customer_b'), tests.create_user('Company', 'partner_a'),
  tests.create_user('Company', 'partner_b');
update public.users set name = 'Société A', siren = '123456782', address1 = '1 rue des Clients',
  address2 = 'Bâtiment B', zipcode = '75001', city = 'Paris', phone = '+33611111111'
where id = tests.user_id('customer_a');

-- 101 start (partner A, customer A); 102 new (partner A, customer A); 103 send (partner B, customer B);
-- 104 new (partner A, a visitor's request); 105 send, edits locked (partner A, customer A);
-- 106 pending (partner A, customer A).
insert into public.deals (id, name, status, company_id, customer_id, admin_settings, lines, properties) values
  (101, 'D101', 'start', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}'),
  (102, 'D102', 'new', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}',
   '[{"label": "Barman", "qty": 1, "unitCost": 20000, "totalCost": 20000}]', '{"ville": "Paris"}'),
  (103, 'D103', 'send', tests.user_id('partner_b'), tests.user_id('customer_b'), '{}', '[]', '{}'),
  (104, 'D104', 'new', tests.user_id('partner_a'), null, '{}', '[]', '{}'),
  (105, 'D105', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{"disableQuoteEdits": true}',
   '[]', '{}'),
  (106, 'D106', 'pending', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}', '[]', '{}');
insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address)
select id, 'Jeanne', 'Contact' || id, 'contact' || id || '@client.test', '+3361000' || id,
  id || ' avenue du Service' from public.deals where id between 101 and 106;
insert into public.deal_photos (id, deal_id, position, file_name, content_type, size) values
  ('c1000000-0000-4000-8000-000000000102', 102, 0, 'photo-0102.jpg', 'image/jpeg', 100),
  ('c1000000-0000-4000-8000-000000000103', 103, 0, 'photo-0103.jpg', 'image/jpeg', 100);
insert into public.company_settings (user_id, name, value) values
  (tests.user_id('partner_a'), 'cocktails', '{"signature": [{"id": "a"}]}'),
  (tests.user_id('partner_b'), 'cocktails', '{"signature": [{"id": "b"}]}');
insert into public.settings (key, value, type) values ('deviseur_description', '"<p>Texte</p>"', 'text');

-- tests.try / tests.denied / tests.changes: supabase/tests/helpers.sql.

-- ---------------------------------------------------------------------------------------------
-- Structure: RLS on, exactly these policies and table privileges.
-- ---------------------------------------------------------------------------------------------
select ok(bool_and(relrowsecurity), 'RLS is enabled on the seven tables of deals') from pg_class
where oid in ('public.deals'::regclass, 'public.deal_contacts'::regclass, 'public.deal_status_changes'::regclass,
  'public.deal_photos'::regclass, 'public.settings'::regclass, 'public.company_settings'::regclass,
  'public.deal_notifications'::regclass);
select policies_are('public', 'deals', array[
  'Admins can read every deal', 'Partners can read the deals of their company', 'Customers can read their own deals',
  'Admins can change every deal', 'Partners can change the deals of their company',
  'Customers can answer their own deals', 'Admins can delete deals'
], 'public.deals has exactly the expected policies');
select policies_are('public', 'deal_contacts', array[
  'Admins can read every deal contact', 'Customers can read the contact of their deals', 'Admins can change deal contacts'
], 'public.deal_contacts has exactly the expected policies');
select policies_are('public', 'deal_status_changes', array[
  'Admins can read every deal''s history', 'Partners can read the history of their deals'
], 'public.deal_status_changes has exactly the expected policies');
select policies_are('public', 'deal_photos', array[
  'Deal parties can see its photos', 'Admins and the deal''s partner can add photos',
  'Admins and the deal''s partner can reorder photos', 'Admins and the deal''s partner can delete photos'
], 'public.deal_photos has exactly the expected policies');
select policies_are('public', 'settings', array[
  'Admins can read the quote settings', 'Partners can read what pricing their quotes needs',
  'Admins can add quote settings', 'Admins can change quote settings'
], 'public.settings has exactly the expected policies (20261127000100_deal_access.sql)');
select policies_are('public', 'company_settings', array[
  'Partners can read their own settings', 'Partners can add their own settings', 'Partners can change their own settings',
  'Admins can read every partner''s settings', 'Admins can add a partner''s settings', 'Admins can change a partner''s settings'
], 'public.company_settings has exactly the expected policies');
select policies_are('public', 'deal_notifications', array['Admins and the deal''s partner can queue its notifications'],
  'public.deal_notifications has exactly the expected policies');

create function pg_temp.privileges_are_exact() returns setof text language plpgsql as $fn$
declare
  r record;
begin
  for r in select * from (values
      ('deals', array[]::text[], array['DELETE', 'SELECT', 'UPDATE']),
      ('deal_contacts', array[]::text[], array['SELECT', 'UPDATE']),
      ('deal_status_changes', array[]::text[], array['SELECT']),
      ('deal_photos', array[]::text[], array['DELETE', 'INSERT', 'SELECT', 'UPDATE']),
      ('settings', array[]::text[], array['INSERT', 'SELECT', 'UPDATE']),
      ('company_settings', array[]::text[], array['INSERT', 'SELECT', 'UPDATE']),
      ('deal_notifications', array[]::text[], array[]::text[])) t (name, anon, auth) loop
    return next table_privs_are('public', r.name, 'anon', r.anon, format('anon privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'authenticated', r.auth,
      format('authenticated privileges on %s', r.name));
    return next table_privs_are('public', r.name, 'service_role', array['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
      format('service_role privileges on %s', r.name));
  end loop;
end $fn$;
select * from pg_temp.privileges_are_exact();
-- The outboxes: authenticated inserts only the columns that name the work, never its state.
select column_privs_are('public', 'deal_notifications', c, 'authenticated',
  case when c in ('deal_id', 'kind') then array['INSERT'] else array[]::text[] end,
  format('authenticated privileges on deal_notifications.%s', c))
from unnest(array['id', 'created_at', 'deal_id', 'kind', 'status', 'attempts', 'next_attempt_at', 'processed_at',
  'last_error']) c;

-- ---------------------------------------------------------------------------------------------
-- Who reads which deal, contact and history.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.reads(who text, deals int[], contacts int[], history int[]) returns setof text
language plpgsql as $fn$
declare
  seen int[];
begin
  -- Dynamic statements: a plan cached under one role must not answer for the next one.
  execute 'select coalesce(array_agg(id::int order by id), ''{}'') from public.deals' into seen;
  return next is(seen, deals, who || ' reads exactly deals ' || deals::text);
  execute 'select coalesce(array_agg(deal_id::int order by deal_id), ''{}'') from public.deal_contacts' into seen;
  return next is(seen, contacts, who || ' reads exactly the contacts of ' || contacts::text);
  execute 'select coalesce(array_agg(distinct deal_id::int), ''{}'') from public.deal_status_changes' into seen;
  return next is(seen, history, who || ' reads exactly the history of ' || history::text);
  execute 'select coalesce(array_agg(distinct deal_id::int), ''{}'') from public.deal_photos' into seen;
  return next is(seen, (select coalesce(array_agg(x order by x), '{}') from unnest(deals) x where x in (102, 103)),
    who || ' sees the photos of the deals it reads');
end $fn$;

select tests.act_as_anon();
select throws_ok($$select id from public.deals$$, '42501', 'permission denied for table deals', 'anon reads no deal');
select throws_ok($$select deal_id from public.deal_contacts$$, '42501', 'permission denied for table deal_contacts',
  'anon reads no contact');
select throws_ok($$select deal_id from public.deal_status_changes$$, '42501',
  'permission denied for table deal_status_changes', 'anon reads no history');
select throws_ok($$select deal_id from public.deal_photos$$, '42501', 'permission denied for table deal_photos',
  'anon sees no photo');

select tests.act_as('customer_a');
select * from pg_temp.reads('customer A', '{101,102,105,106}', '{101,102,105,106}', '{}');
select tests.act_as('customer_b');
select * from pg_temp.reads('customer B', '{103}', '{103}', '{}');
select tests.act_as('partner_a');
select * from pg_temp.reads('partner A (never its deal in start)', '{102,104,105,106}', '{}', '{102,104,105,106}');
select tests.act_as('partner_b');
select * from pg_temp.reads('partner B', '{103}', '{}', '{103}');
select tests.act_as('admin');
select * from pg_temp.reads('the admin', '{101,102,103,104,105,106}', '{101,102,103,104,105,106}',
  '{101,102,103,104,105,106}');
select tests.act_as_impersonating('admin', 'partner_a');
select * from pg_temp.reads('an admin impersonating partner A', '{102,104,105,106}', '{}', '{102,104,105,106}');
select tests.act_as_impersonating('admin', 'customer_b');
select * from pg_temp.reads('an admin impersonating customer B', '{103}', '{103}', '{}');
select tests.act_as_service();
select * from pg_temp.reads('service_role', '{101,102,103,104,105,106}', '{101,102,103,104,105,106}',
  '{101,102,103,104,105,106}');

-- The contacts: only admins change them; a partner, a customer or anon cannot.
select tests.act_as('partner_a');
select * from tests.changes($$update public.deal_contacts set service_address = 'x' where deal_id = 102$$, 0,
  'partner A cannot rewrite the contact of its deal (0 rows)');
select tests.act_as('customer_a');
select * from tests.changes($$update public.deal_contacts set email = 'x@y.z' where deal_id = 102$$, 0,
  'customer A cannot rewrite the contact of its deal (0 rows)');
select * from tests.denied($$insert into public.deal_contacts (deal_id) values (101)$$,
  'customer A cannot add a contact');
select tests.act_as('admin');
select * from tests.changes($$update public.deal_contacts set service_address = '9 quai' where deal_id = 102$$, 1,
  'the admin changes a deal''s contact');
select * from tests.denied($$delete from public.deal_contacts where deal_id = 102$$,
  'nobody signed in removes a contact, not even the admin');

-- ---------------------------------------------------------------------------------------------
-- partner_deal_contact(): names always; email, phone, company/SIREN/address and the precise service
-- address only with their flag; admins everything; anyone else nothing.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.contact_as_seen(target int) returns text language sql as $fn$
  select concat_ws('|', firstname, lastname,
    'email=' || (email is not null and customer_email is not null)::text,
    'phone=' || (phone is not null and customer_phone is not null)::text,
    'address=' || (customer_company is not null and customer_siren is not null and customer_address1 is not null
                   and customer_address2 is not null and customer_zipcode is not null and customer_city is not null)::text,
    'service=' || (service_address is not null)::text,
    'email_or_phone_or_address_leak=' || (coalesce(email, phone, service_address, customer_email, customer_phone,
      customer_company, customer_siren, customer_address1, customer_address2, customer_zipcode, customer_city)
      is not null)::text)
  from public.partner_deal_contact(target)
$fn$;

create function pg_temp.masking(flags jsonb, expected text, description text) returns setof text
language plpgsql as $fn$
begin
  perform tests.reset_role();
  update public.deals set admin_settings = flags where id = 102;
  perform tests.act_as('partner_a');
  return next is(pg_temp.contact_as_seen(102), expected, 'partner A, ' || description);
  perform tests.act_as_impersonating('admin', 'partner_a');
  return next is(pg_temp.contact_as_seen(102), expected, 'an admin impersonating partner A, ' || description);
  perform tests.act_as('admin');
  return next is(pg_temp.contact_as_seen(102),
    'Jeanne|Contact102|email=true|phone=true|address=true|service=true|email_or_phone_or_address_leak=true',
    'the admin sees everything whatever the flags, ' || description);
end $fn$;

select * from pg_temp.masking('{}',
  'Jeanne|Contact102|email=false|phone=false|address=false|service=false|email_or_phone_or_address_leak=false',
  'no flag: names only');
select * from pg_temp.masking('{"showEmailForPartner": false, "showPhoneForPartner": false}',
  'Jeanne|Contact102|email=false|phone=false|address=false|service=false|email_or_phone_or_address_leak=false',
  'flags off: names only');
select * from pg_temp.masking('{"showEmailForPartner": true}',
  'Jeanne|Contact102|email=true|phone=false|address=false|service=false|email_or_phone_or_address_leak=true',
  'showEmailForPartner: the emails');
select * from pg_temp.masking('{"showPhoneForPartner": true}',
  'Jeanne|Contact102|email=false|phone=true|address=false|service=false|email_or_phone_or_address_leak=true',
  'showPhoneForPartner: the phones');
select * from pg_temp.masking('{"showAddressForPartner": true}',
  'Jeanne|Contact102|email=false|phone=false|address=true|service=false|email_or_phone_or_address_leak=true',
  'showAddressForPartner: company, SIREN and postal address');
select * from pg_temp.masking('{"showServiceAddress": true}',
  'Jeanne|Contact102|email=false|phone=false|address=false|service=true|email_or_phone_or_address_leak=true',
  'showServiceAddress: the precise service address');
select * from pg_temp.masking(
  '{"showEmailForPartner": true, "showPhoneForPartner": true, "showAddressForPartner": true, "showServiceAddress": true}',
  'Jeanne|Contact102|email=true|phone=true|address=true|service=true|email_or_phone_or_address_leak=true',
  'every flag: everything');
select tests.reset_role();
update public.deals set admin_settings = '{}' where id = 102;
-- The flags of partner B's deal do not reach partner A, nor those of a deal in start.
update public.deals set admin_settings = '{"showEmailForPartner": true}' where id in (101, 103);

create function pg_temp.sees_no_contact(who text) returns setof text language plpgsql as $fn$
declare
  target int;
begin
  foreach target in array array[101, 102, 103, 104, 105, 106] loop
    if who like 'partner A%' and target in (102, 104, 105, 106) then continue; end if;
    if who like 'partner B%' and target = 103 then continue; end if;
    return next is_empty(format('select * from public.partner_deal_contact(%s)', target),
      format('%s gets nothing from partner_deal_contact(%s)', who, target));
  end loop;
end $fn$;
select tests.act_as('partner_a');
select * from pg_temp.sees_no_contact('partner A (start deal, partner B''s deal)');
select tests.act_as('partner_b');
select * from pg_temp.sees_no_contact('partner B (partner A''s deals)');
select tests.act_as('customer_a');
select * from pg_temp.sees_no_contact('customer A (the function is for partners)');
select tests.act_as_impersonating('admin', 'customer_a');
select * from pg_temp.sees_no_contact('an admin impersonating customer A');
select tests.act_as_anon();
select throws_ok($$select * from public.partner_deal_contact(102)$$, '42501', null,
  'anon may not call partner_deal_contact()');
select tests.reset_role();
update public.deals set admin_settings = '{}' where id in (101, 103);

-- ---------------------------------------------------------------------------------------------
-- The guard trigger: what a partner may change.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('partner_a');
select tests.denied(format('update public.deals set %s where id = 102', change),
  'partner A cannot change ' || change)
from unnest(array[
  $$admin_settings = '{"showEmailForPartner": true}'$$,
  $$admin_comments = 'Moi'$$,
  $$admin_description = '<p>Moi</p>'$$,
  $$hubspot_id = 'HS-1'$$,
  $$custom_field_1 = 'x'$$,
  $$custom_field_2 = 'x'$$,
  $$parameters = '{"commissionRate": 0}'$$,
  $$token = 'volé'$$,
  $$customer_id = null$$,
  $$deposit_paid_at = now(), deposit_amount = 100$$,
  $$paid_at = now(), total_amount_paid = 100$$,
  $$created_at = now() - interval '1 year'$$
]) change;
select * from tests.denied(
  format($$update public.deals set company_id = %L where id = 102$$, tests.user_id('partner_b')),
  'partner A cannot hand its deal to partner B');
-- Its moves: validate (new → send, pending → edited), edit (send/edited → pending), refuse when unlocked.
select * from tests.changes($$update public.deals set status = 'send' where id = 102$$, 1,
  'partner A validates: new → send');
select * from tests.changes($$update public.deals set status = 'edited' where id = 106$$, 1,
  'partner A revalidates: pending → edited');
select * from tests.changes($$update public.deals set status = 'refused_partner', refusal_reason = 'partner_unavailable'
  where id = 102$$, 1, 'partner A refuses an unlocked deal: new → refused_partner');
select tests.denied(format('update public.deals set status = %L where id = 102', s),
  'partner A cannot move its deal from new to ' || s)
from unnest(array['pending', 'edited', 'accepted', 'pay_partial', 'pay_total', 'win', 'refused', 'refused_client']) s;
select * from tests.denied($$update public.deals set status = 'start' where id = 102$$,
  'partner A cannot put its deal back in start');
select tests.denied(format('update public.deals set status = %L where id = 105', s),
  'partner A cannot move its locked deal from send to ' || s)
from unnest(array['refused_partner', 'accepted', 'new']) s;
select * from tests.denied($$update public.deals set status = 'pending' where id = 105$$,
  'partner A cannot send its locked quote back to pending (editing it is locked)');
-- The lock: lines, properties, description, map, settings and choices refused
-- (supabase/tests/database/deal_access_test.sql tests the last two further).
select tests.denied(format('update public.deals set %s where id = 105', change),
  'partner A cannot change ' || split_part(change, ' ', 1) || ' of a locked deal')
from unnest(array[
  $$lines = '[{"label": "x", "qty": 1, "unitCost": 1, "totalCost": 1}]'$$,
  $$properties = '{"nombre_de_participants": 10}'$$,
  $$description = '<p>x</p>'$$,
  $$map_url = 'https://www.google.com/maps/embed?pb=1'$$,
  $$settings = '{"hasDeposit": true}'$$
]) change;
select tests.changes(format('update public.deals set %s where id = 102', change), 1,
  'partner A changes ' || split_part(change, ' ', 1) || ' of an unlocked deal')
from unnest(array[
  $$lines = '[{"label": "x", "qty": 1, "unitCost": 1, "totalCost": 1}]'$$,
  $$properties = '{"nombre_de_participants": 10}'$$,
  $$description = '<p>x</p>'$$,
  $$map_url = 'https://www.google.com/maps/embed?pb=1'$$,
  $$settings = '{"hasDeposit": true}'$$,
  $$choices = '{"cocktails": []}'$$
]) change;
select * from tests.changes($$update public.deals set status = status where id = 105$$, 1,
  'partner A''s update of a locked deal that changes nothing under the lock passes');
select * from tests.denied($$update public.deals set choices = '{"cocktails": ["a"]}' where id = 102$$,
  'partner A cannot choose cocktails for the customer (it may only empty the choice)');
-- Other deals: nothing.
select tests.changes(format('update public.deals set description = %L where id = %s', 'x', d), 0,
  'partner A changes nothing of deal ' || d)
from unnest(array[101, 103]) d;
select * from tests.changes($$delete from public.deals where id in (102, 104)$$, 0,
  'partner A deletes no deal');
select * from tests.denied($$insert into public.deals (name) values ('x')$$, 'partner A inserts no deal');

select tests.act_as('partner_b');
select * from tests.changes($$update public.deals set status = 'send' where id = 102$$, 0,
  'partner B cannot validate partner A''s deal (0 rows)');

select tests.act_as_impersonating('admin', 'partner_a');
select * from tests.denied($$update public.deals set admin_settings = '{"showEmailForPartner": true}' where id = 102$$,
  'an admin impersonating partner A cannot change admin settings');
select * from tests.denied($$update public.deals set status = 'accepted' where id = 102$$,
  'an admin impersonating partner A cannot accept');
select * from tests.changes($$update public.deals set status = 'send' where id = 102$$, 1,
  'an admin impersonating partner A validates as the partner would');

-- ---------------------------------------------------------------------------------------------
-- The guard trigger: a customer only answers (choices, refusal).
-- ---------------------------------------------------------------------------------------------
select tests.act_as('customer_a');
select * from tests.changes($$update public.deals set choices = '{"cocktails": ["a", "b"]}' where id = 105$$, 1,
  'customer A chooses its cocktails');
select * from tests.changes($$update public.deals set status = 'refused_client', refusal_reason = 'budget'
  where id = 105$$, 1, 'customer A refuses its quote (send → refused_client)');
select tests.denied(format('update public.deals set %s where id = 105', change),
  'customer A cannot change ' || split_part(change, ' ', 1))
from unnest(array[
  $$lines = '[]'::jsonb || '[{"label": "x", "qty": 1, "unitCost": 1, "totalCost": 1}]'$$,
  $$properties = '{"nombre_de_participants": 1}'$$,
  $$description = 'x'$$,
  $$map_url = 'https://www.google.com/maps/embed?pb=1'$$,
  $$settings = '{"nbCocktailsAuthorized": 50}'$$,
  $$name = 'Mon devis'$$,
  $$calculations = '{"nbCocktails": 1}'$$,
  $$totals = '{"totalTTC": 1}'$$,
  $$admin_settings = '{"showEmailForPartner": true}'$$,
  $$admin_comments = 'x'$$,
  $$deposit_paid_at = now(), deposit_amount = 100$$,
  $$paid_at = now(), total_amount_paid = 1$$
]) change;
select * from tests.denied(format($$update public.deals set company_id = %L where id = 105$$,
  tests.user_id('partner_b')), 'customer A cannot choose another partner');
select tests.denied(format('update public.deals set status = %L where id = 105', s),
  'customer A cannot move its quote to ' || s)
from unnest(array['accepted', 'pay_total', 'win', 'new', 'refused_partner']) s;
select tests.reset_role();
update public.deals set status = 'accepted' where id = 106;
select tests.act_as('customer_a');
select * from tests.denied($$update public.deals set status = 'refused_client', refusal_reason = 'budget' where id = 106$$,
  'customer A cannot refuse an accepted quote');
select * from tests.changes($$update public.deals set choices = '{"cocktails": ["x"]}' where id = 103$$, 0,
  'customer A answers nobody else''s quote (0 rows)');
select * from tests.changes($$delete from public.deals where id = 102$$, 0, 'customer A deletes no deal');
select tests.act_as_anon();
select throws_ok($$update public.deals set status = 'win'$$, '42501', 'permission denied for table deals',
  'anon changes no deal');

-- The admin changes anything, locked or not, and deletes; nobody signed in inserts a deal.
select tests.act_as('admin');
select * from tests.changes($$update public.deals set lines = '[]', admin_comments = 'ok', status = 'win',
  deposit_paid_at = now(), deposit_amount = 1, company_id = null where id = 105$$, 1,
  'the admin changes every column of a locked deal');
select * from tests.changes($$delete from public.deals where id = 104$$, 1, 'the admin deletes a deal');
select * from tests.denied($$insert into public.deals (name) values ('x')$$,
  'the admin inserts no deal (public requests are created by the system)');
select tests.act_as_service();
select * from tests.changes($$insert into public.deals (name) values ('Demande')$$, 1,
  'service_role (the intake) creates a deal');

-- ---------------------------------------------------------------------------------------------
-- record_deal_status(): who, the admin behind an impersonation, from, to, the action, the reason.
-- ---------------------------------------------------------------------------------------------
select tests.reset_role();
update public.deals set status = 'send' where id = 106;
delete from public.deal_status_changes where deal_id in (102, 104, 106);
select tests.act_as('partner_a');
select set_config('app.deal_action', 'validate', true);
update public.deals set status = 'send' where id = 102;
select tests.act_as_impersonating('admin', 'partner_a');
select set_config('app.deal_action', 'edit', true);
update public.deals set status = 'pending' where id = 102;
select tests.act_as('admin');
select set_config('app.deal_action', '', true);
update public.deals set status = 'refused_client', refusal_reason = 'budget' where id = 102;
update public.deals set description = 'pas de changement de statut' where id = 102;
select tests.act_as('customer_a');
select set_config('app.deal_action', 'refuse', true);
update public.deals set status = 'refused_client', refusal_reason = 'event_cancelled' where id = 106;
select tests.reset_role();
select set_config('app.deal_action', '', true);
select results_eq(
  $$select from_status, to_status, action, actor_id, impersonator_id, actor_role, reason
    from public.deal_status_changes where deal_id = 102 order by id$$,
  $$values ('new', 'send', 'validate', tests.user_id('partner_a'), null::uuid, 'Company', null::text),
           ('send', 'pending', 'edit', tests.user_id('partner_a'), tests.user_id('admin'), 'Company', null),
           ('pending', 'refused_client', 'set_status', tests.user_id('admin'), null, 'Admin', 'budget')$$,
  'the history of deal 102: the partner, the admin behind an impersonation, the admin; from, to, action, reason');
select results_eq(
  $$select from_status, to_status, action, actor_id, actor_role, reason from public.deal_status_changes
    where deal_id = 106 order by id$$,
  $$values ('send', 'refused_client', 'refuse', tests.user_id('customer_a'), 'Customer', 'event_cancelled')$$,
  'a customer''s refusal is recorded with its reason');
select tests.act_as_service();
insert into public.deals (id, name) values (107, 'Demande système');
select tests.reset_role();
select results_eq(
  $$select from_status, to_status, action, actor_id, actor_role from public.deal_status_changes where deal_id = 107$$,
  $$values (null::text, 'start', 'request', null::uuid, 'service_role')$$,
  'a new request is recorded as the system''s, action request');
select tests.act_as('admin');
select * from tests.denied($$insert into public.deal_status_changes (deal_id, to_status, actor_role)
  values (102, 'win', 'Admin')$$, 'the admin cannot write the history by hand');
select * from tests.denied($$update public.deal_status_changes set action = 'x'$$,
  'the admin cannot rewrite the history');
select * from tests.denied($$delete from public.deal_status_changes$$, 'the admin cannot erase the history');
select tests.act_as('partner_a');
select * from tests.denied($$insert into public.deal_status_changes (deal_id, to_status, actor_role)
  values (106, 'win', 'Company')$$, 'partner A cannot write the history');

-- ---------------------------------------------------------------------------------------------
-- deal_company(): a partner's card for admins, the partner itself and the customers of its deals.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.cards(who text, visible text[]) returns setof text language plpgsql as $fn$
declare
  label text;
begin
  foreach label in array array['partner_a', 'partner_b', 'customer_a', 'admin'] loop
    return next is(
      (select count(*)::int from public.deal_company(tests.user_id(label))),
      case when label = any (visible) then 1 else 0 end,
      format('%s %s partner card of %s', who, case when label = any (visible) then 'reads the' else 'gets no' end, label));
  end loop;
end $fn$;
select tests.act_as('admin');
select * from pg_temp.cards('the admin', array['partner_a', 'partner_b']);
select tests.act_as('partner_a');
select * from pg_temp.cards('partner A', array['partner_a']);
select tests.act_as('partner_b');
select * from pg_temp.cards('partner B', array['partner_b']);
select tests.act_as('customer_a');
select * from pg_temp.cards('customer A (partner A has its deals)', array['partner_a']);
select tests.act_as('customer_b');
select * from pg_temp.cards('customer B (partner B has its deal)', array['partner_b']);
select tests.act_as_impersonating('admin', 'customer_b');
select * from pg_temp.cards('an admin impersonating customer B', array['partner_b']);
select results_eq($$select name, email from public.deal_company(tests.user_id('partner_b'))$$,
  $$values ('partner_b', 'partner_b@test.invalid')$$, 'the card carries the name and email');
select tests.act_as_anon();
select throws_ok(format('select * from public.deal_company(%L)', tests.user_id('partner_a')), '42501', null,
  'anon may not call deal_company()');

-- ---------------------------------------------------------------------------------------------
-- Outboxes: who queues a deal notification, a CRM event; nobody signed in reads them.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.notify(target int) returns text language sql as $fn$
  select format($$insert into public.deal_notifications (deal_id, kind) values (%s, 'quote_ready')$$, target)
$fn$;
select tests.reset_role();
update public.deals set status = 'new' where id = 102;
select tests.act_as('partner_a');
select * from tests.changes(pg_temp.notify(102), 1, 'partner A queues a notification about its deal');
select * from tests.denied(pg_temp.notify(101), 'partner A queues none about its deal in start');
select * from tests.denied(pg_temp.notify(103), 'partner A queues none about partner B''s deal');
select * from tests.denied($$insert into public.deal_notifications (deal_id, kind, status) values (102, 'quote_ready', 'done')$$,
  'partner A cannot queue a notification already done');
select * from tests.denied($$insert into public.deal_notifications (deal_id, kind, attempts) values (102, 'quote_ready', 0)$$,
  'partner A cannot set the attempts');
select throws_ok($$select id from public.deal_notifications$$, '42501', 'permission denied for table deal_notifications',
  'partner A reads no notification (their recipients are the customer''s)');
select tests.act_as('partner_b');
select * from tests.denied(pg_temp.notify(102), 'partner B queues none about partner A''s deal');
select tests.act_as('customer_a');
select * from tests.denied(pg_temp.notify(102), 'customer A queues no notification');
select tests.act_as_impersonating('admin', 'customer_a');
select tests.act_as('admin');
select * from tests.changes(pg_temp.notify(101), 1, 'the admin queues a notification about any deal');
select tests.act_as_anon();
select * from tests.denied(pg_temp.notify(102), 'anon queues no notification');
select tests.act_as_service();
-- (The emails migration's triggers queue status and payment emails for the set-up's deals: only the
-- kinds users queue count here.)
select * from tests.changes($$update public.deal_notifications set status = 'done'
  where kind in ('new_deal_partner', 'quote_ready', 'quote_updated')$$, 0,
  'service_role (the worker) drains the notifications (none queued outside the rolled-back tries)');

-- ---------------------------------------------------------------------------------------------
-- company_settings: a partner's own records; admins any partner's.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.setting(label text, name text default 'deviseur_pricing') returns text language sql as $fn$
  select format($$insert into public.company_settings (user_id, name, value) values (%L, %L, '{}')$$,
    tests.user_id(label), name)
$fn$;
select tests.act_as('partner_a');
select set_eq($$select name from public.company_settings$$, array['cocktails'], 'partner A reads its own records only');
select is((select value -> 'signature' -> 0 ->> 'id' from public.company_settings), 'a', '… its own catalogue');
select * from tests.changes(pg_temp.setting('partner_a'), 1, 'partner A adds its own pricing grid');
select * from tests.denied(pg_temp.setting('partner_b'), 'partner A cannot add partner B''s record');
select * from tests.changes(format($$update public.company_settings set value = '{}' where user_id = %L$$,
  tests.user_id('partner_b')), 0, 'partner A cannot change partner B''s catalogue (0 rows)');
select * from tests.denied(format($$update public.company_settings set user_id = %L where user_id = %L$$,
  tests.user_id('partner_b'), tests.user_id('partner_a')), 'partner A cannot give its record to partner B');
select * from tests.changes(format($$update public.company_settings set value = '{}' where user_id = %L$$,
  tests.user_id('partner_a')), 1, 'partner A changes its own catalogue');
select * from tests.denied($$delete from public.company_settings$$, 'partner A deletes no record');
select tests.act_as_impersonating('admin', 'partner_a');
select set_eq($$select name from public.company_settings$$, array['cocktails'],
  'an admin impersonating partner A reads partner A''s records only');
select * from tests.denied(pg_temp.setting('partner_b'), 'an admin impersonating partner A cannot write partner B''s');
select tests.act_as('customer_a');
select is_empty($$select name from public.company_settings$$, 'customer A reads no record');
select * from tests.denied(pg_temp.setting('customer_a'), 'customer A cannot add a record, even its own');
select tests.act_as('admin');
select is((select count(*)::int from public.company_settings), 2, 'the admin reads every partner''s records');
select * from tests.changes(pg_temp.setting('partner_b'), 1, 'the admin adds a partner''s record');
select * from tests.changes($$update public.company_settings set value = '{}'$$, 2, 'the admin changes any record');
select * from tests.denied($$delete from public.company_settings$$, 'the admin deletes no record');
select tests.act_as_anon();
select throws_ok($$select name from public.company_settings$$, '42501', 'permission denied for table company_settings',
  'anon reads no record');

-- ---------------------------------------------------------------------------------------------
-- settings: admins read and write; a partner reads what pricing needs (deal_access_test.sql), the
-- others nothing.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.settings_read_only(who text) returns setof text language plpgsql as $fn$
begin
  if who = 'anon' then
    return next throws_ok($$select key from public.settings$$, '42501', 'permission denied for table settings',
      who || ' reads no setting');
  else
    return next is_empty($$select key from public.settings where key = 'deviseur_description'$$,
      who || ' does not read the settings'' texts');
  end if;
  return next tests.denied($$insert into public.settings (key, value) values ('deviseur_custom_field_1', '"x"')$$,
    who || ' cannot add a setting');
  if who = 'anon' then
    return next tests.denied($$update public.settings set value = '"x"' where key = 'deviseur_description'$$,
      who || ' cannot change a setting');
  else
    return next tests.changes($$update public.settings set value = '"x"' where key = 'deviseur_description'$$, 0,
      who || ' cannot change a setting (0 rows)');
  end if;
  return next tests.denied($$delete from public.settings$$, who || ' cannot delete a setting');
end $fn$;
select tests.act_as_anon();
select * from pg_temp.settings_read_only('anon');
select tests.act_as('customer_a');
select * from pg_temp.settings_read_only('customer A');
select tests.act_as('partner_a');
select * from pg_temp.settings_read_only('partner A');
select tests.act_as_impersonating('admin', 'partner_a');
select * from pg_temp.settings_read_only('an admin impersonating partner A');
select tests.act_as('admin');
select * from tests.changes($$insert into public.settings (key, value, type) values ('deviseur_custom_field_1', '"x"', 'text')$$,
  1, 'the admin adds a setting');
select * from tests.changes($$update public.settings set value = '"<p>Autre</p>"' where key = 'deviseur_description'$$,
  1, 'the admin changes a setting');
select * from tests.denied($$delete from public.settings$$, 'the admin deletes no setting');

-- ---------------------------------------------------------------------------------------------
-- deal_photos: the deal's partner (never in start, never another's) and admins add, reorder, delete.
-- ---------------------------------------------------------------------------------------------
create function pg_temp.photo(target int) returns text language sql as $fn$
  select format($$insert into public.deal_photos (deal_id, file_name, content_type, size)
    values (%s, 'nouvelle-%s.jpg', 'image/jpeg', 10)$$, target, target)
$fn$;
select tests.act_as('partner_a');
select * from tests.changes(pg_temp.photo(102), 1, 'partner A adds a photo to its deal');
select * from tests.denied(pg_temp.photo(101), 'partner A adds no photo to its deal in start');
select * from tests.denied(pg_temp.photo(103), 'partner A adds no photo to partner B''s deal');
select * from tests.changes($$update public.deal_photos set position = 3 where deal_id = 102$$, 1,
  'partner A reorders the photos of its deal');
select * from tests.changes($$update public.deal_photos set position = 3 where deal_id = 103$$, 0,
  'partner A cannot reorder partner B''s photos');
select * from tests.denied(format($$update public.deal_photos set deal_id = 103 where deal_id = 102$$),
  'partner A cannot move its photo to partner B''s deal');
select * from tests.changes($$delete from public.deal_photos where deal_id = 102$$, 1,
  'partner A deletes a photo of its deal');
select * from tests.changes($$delete from public.deal_photos where deal_id = 103$$, 0,
  'partner A cannot delete partner B''s photo');
select tests.reset_role();
update public.deals set admin_settings = '{"disableQuoteEdits": true}' where id = 102;
select tests.act_as('partner_a');
select * from tests.denied(pg_temp.photo(102), 'partner A adds no photo to a locked deal');
-- The lock is in the policies' USING clause: the locked deal's photos are filtered out (0 rows).
select * from tests.changes($$update public.deal_photos set position = 4 where deal_id = 102$$, 0,
  'partner A cannot reorder the photos of a locked deal');
select * from tests.changes($$delete from public.deal_photos where deal_id = 102$$, 0,
  'partner A cannot delete a photo of a locked deal');
select tests.act_as_impersonating('admin', 'partner_b');
select * from tests.denied(pg_temp.photo(102), 'an admin impersonating partner B adds no photo to partner A''s deal');
select tests.act_as('customer_a');
select * from tests.denied(pg_temp.photo(102), 'customer A adds no photo');
select * from tests.changes($$delete from public.deal_photos$$, 0, 'customer A deletes no photo');
select tests.act_as('admin');
select * from tests.changes(pg_temp.photo(101), 1, 'the admin adds a photo to any deal');
select * from tests.changes($$update public.deal_photos set position = 5$$, 2, 'the admin reorders any photo');
select * from tests.changes($$delete from public.deal_photos where deal_id = 102$$, 1,
  'the admin deletes a photo of a locked deal');
select tests.act_as_anon();
select * from tests.denied(pg_temp.photo(102), 'anon adds no photo');

select * from finish();
rollback;
