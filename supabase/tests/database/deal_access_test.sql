-- What partners and customers must not reach (supabase/migrations/20261127000100_deal_access.sql):
-- the quote engine's settings are the admins' (a partner reads only what pricing its quotes needs:
-- the base grid and the commission tiers; a customer and a visitor nothing), and the admin's edit lock
-- also covers the deal's settings (deposit, cocktail list) and 'Demander un nouveau choix' (emptying the
-- customer's choices). Each side as anon, customer, partner, an admin impersonating a partner or a
-- customer, the admin and the service role.
begin;
select plan(25);

select tests.create_user('Admin', 'admin'), tests.create_user('Customer', 'customer_a'),
  tests.create_user('Company', 'partner_a');

-- 201 accepted and locked, 202 send and unlocked: partner A's, customer A's, cocktails chosen.
insert into public.deals (id, name, status, company_id, customer_id, admin_settings, settings, choices) values
  (201, 'D201', 'accepted', tests.user_id('partner_a'), tests.user_id('customer_a'), '{"disableQuoteEdits": true}',
   '{"hasDeposit": true, "depositPercentage": 30}', '{"cocktails": ["mojito", "spritz"]}'),
  (202, 'D202', 'send', tests.user_id('partner_a'), tests.user_id('customer_a'), '{}',
   '{"hasDeposit": true, "depositPercentage": 30}', '{"cocktails": ["mojito"]}');
insert into public.settings (key, value, type) values
  ('deviseur_pricing', '{"grid": 1}', 'json'),
  ('deviseur_fixed_commission_tiers', '[{"from": 0, "to": 1000, "cost": 50}]', 'json'),
  ('deviseur_settings', '[{"id": "commission_rate", "value": 15}]', 'json'),
  ('deviseur_description', '"<p>Texte</p>"', 'text');

-- ---------------------------------------------------------------------------------------------
-- Settings: exactly these policies and privileges; who reads which key.
-- ---------------------------------------------------------------------------------------------
select policies_are('public', 'settings', array[
  'Admins can read the quote settings', 'Partners can read what pricing their quotes needs',
  'Admins can add quote settings', 'Admins can change quote settings'
], 'public.settings has exactly the expected policies');
select table_privs_are('public', 'settings', 'anon', array[]::text[], 'anon has no privilege on settings');
select table_privs_are('public', 'settings', 'authenticated', array['INSERT', 'SELECT', 'UPDATE'],
  'authenticated privileges on settings');

select tests.act_as_anon();
select throws_ok($$select key from public.settings$$, '42501', 'permission denied for table settings',
  'anon reads no setting');
select tests.act_as('customer_a');
select is_empty($$select key from public.settings$$, 'customer A reads no setting');
select tests.act_as_impersonating('admin', 'customer_a');
select is_empty($$select key from public.settings$$, 'an admin impersonating customer A reads no setting');
select tests.act_as('partner_a');
select set_eq($$select key from public.settings$$, array['deviseur_pricing', 'deviseur_fixed_commission_tiers'],
  'partner A reads the base grid and the commission tiers only');
select * from tests.changes($$update public.settings set value = '"x"'$$, 0, 'partner A changes no setting');
select tests.act_as_impersonating('admin', 'partner_a');
select set_eq($$select key from public.settings$$, array['deviseur_pricing', 'deviseur_fixed_commission_tiers'],
  'an admin impersonating partner A reads what partner A reads');
select tests.act_as('admin');
select set_eq($$select key from public.settings$$,
  array['deviseur_pricing', 'deviseur_fixed_commission_tiers', 'deviseur_settings', 'deviseur_description'],
  'the admin reads every setting');
select tests.act_as_service();
select is((select count(*)::int from public.settings), 4, 'the service role reads every setting');

-- ---------------------------------------------------------------------------------------------
-- The lock covers the deal's settings (the deposit first) and emptying the customer's choices.
-- ---------------------------------------------------------------------------------------------
select tests.act_as('partner_a');
select tests.denied(format('update public.deals set settings = %L where id = 201', s),
  'partner A cannot change the settings of its locked deal: ' || s)
from unnest(array[
  '{"hasDeposit": true, "depositPercentage": 1}',
  '{"hasDeposit": false, "depositPercentage": 30}',
  '{"hasDeposit": true, "depositPercentage": 30, "nbCocktailsAuthorized": 50}'
]) s;
select * from tests.denied($$update public.deals set settings = settings || '{"depositPercentage": 1}' where id = 201$$,
  'partner A cannot set a 1 % deposit on its locked deal (a partial change)');
select * from tests.denied($$update public.deals set choices = '{"cocktails": []}' where id = 201$$,
  'partner A cannot empty the customer''s choices of its accepted, locked quote');
select * from tests.changes($$update public.deals set settings = settings || '{"depositPercentage": 40}' where id = 202$$,
  1, 'partner A changes the deposit of its unlocked deal');
select * from tests.changes($$update public.deals set choices = '{"cocktails": []}' where id = 202$$, 1,
  'partner A empties the choices of its unlocked deal');
select * from tests.changes($$update public.deals set status = status where id = 201$$, 1,
  'partner A''s untouched update of its locked deal passes (nothing under the lock changed)');

select tests.act_as_impersonating('admin', 'partner_a');
select * from tests.denied($$update public.deals set settings = settings || '{"depositPercentage": 1}' where id = 201$$,
  'an admin impersonating partner A cannot change the deposit of the locked deal');
select * from tests.denied($$update public.deals set choices = '{"cocktails": []}' where id = 201$$,
  'an admin impersonating partner A cannot empty the choices of the locked deal');

select tests.act_as('customer_a');
select * from tests.changes($$update public.deals set choices = '{"cocktails": ["mojito"]}' where id = 201$$, 1,
  'customer A still chooses its cocktails on the locked deal');
select * from tests.denied($$update public.deals set settings = settings || '{"depositPercentage": 1}' where id = 201$$,
  'customer A cannot change the deposit');

select tests.act_as('admin');
select * from tests.changes($$update public.deals set settings = settings || '{"depositPercentage": 50}' where id = 201$$,
  1, 'the admin changes the deposit of the locked deal');
select * from tests.changes($$update public.deals set choices = '{"cocktails": []}' where id = 201$$, 1,
  'the admin empties the choices of the locked deal');

select * from finish();
rollback;
