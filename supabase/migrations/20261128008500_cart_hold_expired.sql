-- The cart says when a hold expired ('Votre réservation a expiré…', spec 000 §4 holds) instead of 'Votre
-- panier est vide.', also after the registry's release-expired-holds (or a new hold on the date, or the
-- checkout) deleted the expired line. carts.hold_expired_at remembers the last time one of the cart's
-- lines went away expired; adding a line clears it. cart_hold_expired(token) answers for the caller's
-- cart (the customer's by auth.uid(), a visitor's by its cookie token), for the app's cart actor only.

alter table public.carts add column hold_expired_at timestamptz;

create or replace function public.mark_cart_hold_expired() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'DELETE' then
    if old.expires_at <= now() then
      update public.carts set hold_expired_at = now() where id = old.cart_id;
    end if;
    return old;
  end if;
  update public.carts set hold_expired_at = null where id = new.cart_id and hold_expired_at is not null;
  return new;
end $$;
revoke execute on function public.mark_cart_hold_expired() from public, anon, authenticated;

create trigger cart_lines_mark_hold_expired after delete on public.cart_lines
  for each row execute function public.mark_cart_hold_expired();
create trigger cart_lines_clear_hold_expired after insert on public.cart_lines
  for each row execute function public.mark_cart_hold_expired();

-- True when the caller's cart holds nothing live and a hold of it expired since its last addition
-- (deleted already, or still waiting for the release job).
create or replace function public.cart_hold_expired(p_token text) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  cart uuid;
begin
  if auth.uid() is not null and coalesce(public.current_user_type(), '') <> 'Customer' then
    return false;
  end if;
  cart := public.resolve_cart(p_token, false);
  if cart is null then return false; end if;
  if exists (select from public.cart_lines l where l.cart_id = cart and l.expires_at > now()) then
    return false;
  end if;
  return exists (select from public.carts c where c.id = cart and c.hold_expired_at is not null)
    or exists (select from public.cart_lines l where l.cart_id = cart and l.expires_at <= now());
end $$;
revoke execute on function public.cart_hold_expired(text) from public, anon, authenticated;
grant execute on function public.cart_hold_expired(text) to service_role;
