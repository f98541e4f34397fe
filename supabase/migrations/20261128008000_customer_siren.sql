-- Customers' SIREN (spec 001 §5): the 9-digit rule is the partners' (type Company); a customer's SIREN
-- field only has a 9-character maximum. The accounts migration checked 9 digits for every user.
alter table public.users drop constraint users_siren_check;
alter table public.users add constraint users_siren_check check (
  siren is null
  or (type = 'Company' and siren ~ '^[0-9]{9}$')
  or (type <> 'Company' and char_length(siren) between 1 and 9)
);
