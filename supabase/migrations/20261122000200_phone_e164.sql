-- Phone numbers are stored in one international form (E.164, France by default), so that
-- "06 00 00 00 05" and "+33 6 00 00 00 05" are one number for the uniqueness index. The app
-- normalises with libphonenumber; this migration converts the forms the first version stored (digits
-- with an optional leading +). A number whose converted form is already taken keeps its old form
-- (the uniqueness index would refuse it) and shows in the log.

do $$
declare
  converted integer;
  left_alone integer;
begin
  create temporary table phone_e164 on commit drop as
  select id, phone,
    case
      when phone ~ '^0[1-9][0-9]{8}$' then '+33' || substr(phone, 2)
      when phone ~ '^0033[1-9][0-9]{8}$' then '+' || substr(phone, 3)
      when phone ~ '^33[1-9][0-9]{8}$' then '+' || phone
      when phone ~ '^\+[1-9][0-9]{7,14}$' then phone
      else null
    end as e164
  from public.users
  where phone is not null and anonymized_at is null;

  update public.users u set phone = p.e164
  from phone_e164 p
  where u.id = p.id and p.e164 is not null and p.e164 <> p.phone
    and not exists (select from public.users o where o.phone = p.e164 and o.id <> p.id and o.anonymized_at is null)
    and (select count(*) from phone_e164 q where q.e164 = p.e164) = 1;
  get diagnostics converted = row_count;

  select count(*) into left_alone from phone_e164 p join public.users u on u.id = p.id
  where u.phone is distinct from p.e164;
  if converted > 0 or left_alone > 0 then
    insert into public.logs (service, type, message, context)
    values ('accounts', case when left_alone > 0 then 'warning' else 'info' end,
            'Numéros de téléphone convertis au format international',
            jsonb_build_object('converted', converted, 'leftAlone', left_alone));
  end if;
end $$;
