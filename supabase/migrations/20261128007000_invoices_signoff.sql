-- Invoices an accountant signs off (ARCHITECTURE.md, same title):
-- 1. An invoice's issue time is taken under the same lock as its number: next_invoice_number() stamps
--    the series' counter with clock_timestamp() while it holds the counter's row lock (kept until the
--    issuing transaction commits), and every new invoice takes that stamp as issued_at. Numbers and
--    times of a series then always run together (now() was the transaction's start: a transaction that
--    began earlier but took its number later stated an earlier time than the number before it).
-- 2. A registration's cancellation records what went back where: the card refund it queued
--    (cancel_refund_id) and what it gave back to gift vouchers (voucher_returned). Its credit note (AV,
--    one per canceled registration: invoices.registration_id) cancels the registration's whole price and
--    VAT, stating both parts; a cancellation a voucher paid whole (no card refund) gets its credit note
--    from the 'order-settle' job it now enqueues.

alter table public.invoice_counters add column last_issued_at timestamptz;

create or replace function public.next_invoice_number(p_series text, p_issuer text, p_year integer) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  next_number integer;
begin
  insert into public.invoice_counters as c (series, issuer, year, last_number, last_issued_at)
  values (p_series, p_issuer, p_year, 1, clock_timestamp())
  on conflict (series, issuer, year) do update set last_number = c.last_number + 1, last_issued_at = clock_timestamp()
  returning c.last_number into next_number;
  return next_number;
end $$;
revoke execute on function public.next_invoice_number(text, text, integer) from public, anon, authenticated;
grant execute on function public.next_invoice_number(text, text, integer) to service_role;

-- The issue time of a new invoice: its number's stamp (the counter row is locked by this transaction
-- since next_invoice_number(), so the stamp read is the one taken with this number).
create or replace function public.invoice_issued_at_of_number() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  stamp timestamptz;
begin
  select c.last_issued_at into stamp from public.invoice_counters c
  where c.series = new.series and c.issuer = new.issuer and c.year = new.year and c.last_number = new.sequence;
  if stamp is not null then new.issued_at := stamp; end if;
  return new;
end $$;
revoke execute on function public.invoice_issued_at_of_number() from public, anon, authenticated;
create trigger invoices_issued_at_of_number before insert on public.invoices
  for each row execute function public.invoice_issued_at_of_number();

alter table public.registrations add column cancel_refund_id uuid references public.refunds (id) on delete restrict;
alter table public.registrations add column voucher_returned bigint not null default 0 check (voucher_returned >= 0);
alter table public.invoices add column registration_id uuid references public.registrations (id) on delete restrict;
create unique index invoices_one_credit_note_per_registration on public.invoices (registration_id)
  where registration_id is not null and series = 'AV';

create or replace function public.cancel_registration(p_registration uuid, p_reason text, p_by uuid default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  g public.registrations;
  payment public.deal_payments;
  refundable bigint;
  amount_back bigint := 0;
  refund uuid;
  held integer;
  voucher_back bigint := 0;
  voucher_until timestamptz;
begin
  select * into g from public.registrations where id = p_registration;
  if not found then return jsonb_build_object('ok', false, 'reason', 'not_found'); end if;
  if g.order_id is not null then
    perform from public.orders where id = g.order_id for update;
  end if;
  perform from public.session_dates where id = g.date_id for update;
  select * into g from public.registrations where id = p_registration for update;
  if g.status = 'canceled' then return jsonb_build_object('ok', false, 'reason', 'already_canceled'); end if;
  update public.registrations set status = 'canceled' where id = g.id;
  if g.status = 'invoiced' then
    update public.session_dates set places_left = least(places, places_left + g.quantity) where id = g.date_id;
    select * into payment from public.deal_payments p
    where p.order_id = g.order_id and not p.overpayment and p.method = 'card' order by p.paid_at limit 1 for update;
    if found then
      refundable := payment.amount - payment.refunded_amount
        - coalesce((select sum(r.amount) from public.refunds r where r.payment_id = payment.id and r.status = 'pending'), 0);
      amount_back := least(greatest(g.amount - g.discount_amount, 0), refundable);
      if amount_back > 0 then
        insert into public.refunds (payment_id, amount, reason, status, requested_by, automatic)
        values (payment.id, amount_back, left(coalesce(nullif(p_reason, ''), 'Inscription annulée'), 500), 'pending', p_by, p_by is null)
        returning id into refund;
      end if;
    end if;
    -- What a gift voucher paid of this registration goes back to the voucher, not to the card
    -- (return_registration_vouchers, vouchers migration; only vouchers set a discount).
    if g.discount_amount > 0 then
      voucher_back := public.return_registration_vouchers(g.id);
      select max(v.valid_until) into voucher_until from public.vouchers v
      where v.id in (select r.voucher_id from public.voucher_redemptions r
                     where r.order_id = g.order_id and r.returned_amount > 0);
    end if;
    update public.registrations set cancel_refund_id = refund, voucher_returned = voucher_back where id = g.id;
    -- No card refund to wait for: the credit note of what went back to the voucher is issued now.
    if refund is null and voucher_back > 0 and g.order_id is not null then
      perform outbox.enqueue('order-settle', jsonb_build_object('orderId', g.order_id), 'order-cancel-' || g.id);
    end if;
  elsif g.order_id is not null then
    -- An unpaid order is canceled as a whole: its holds go back on sale, its intents are canceled (a
    -- payment that still arrives is refunded), its other pending registrations canceled too.
    perform from public.session_dates d
    where d.id in (select l.date_id from public.cart_lines l where l.order_id = g.order_id) order by d.id for update;
    with gone as (delete from public.cart_lines l where l.order_id = g.order_id returning l.date_id, l.quantity),
    freed as (update public.session_dates d set places_left = d.places_left + x.q
              from (select date_id, sum(quantity)::int as q from gone group by date_id) x where d.id = x.date_id
              returning 1)
    select count(*)::int into held from freed;
    update public.registrations set status = 'canceled' where order_id = g.order_id and status = 'pending';
    perform public.supersede_order_intents(g.order_id, null);
    update public.orders set status = 'canceled', canceled_at = now() where id = g.order_id and status in ('pending', 'expired');
  end if;
  insert into public.logs (service, type, message, context)
  values ('sessions', 'info', 'Inscription annulée',
          jsonb_build_object('registrationId', g.id, 'orderId', g.order_id, 'refundId', refund,
                             'refunded', amount_back, 'voucherReturned', voucher_back, 'by', p_by,
                             'reason', p_reason));
  return jsonb_build_object('ok', true, 'refundId', refund, 'refunded', amount_back, 'wasStatus', g.status,
    'voucherReturned', voucher_back, 'voucherValidUntil', extract(epoch from voucher_until)::bigint);
end $$;
revoke execute on function public.cancel_registration(uuid, text, uuid) from public, anon, authenticated;
grant execute on function public.cancel_registration(uuid, text, uuid) to service_role;

-- 3. A partner's VAT status cannot change under its open quotes. A quote's VAT rate is frozen when it is
--    priced (deals.parameters.vat, 0 for a partner exempt then): switching to the exemption (franchise
--    en base, art. 293 B du CGI) while quotes priced with VAT are open, or back to VAT while quotes
--    priced without are open, would issue documents that charge VAT and state the exemption, or state
--    no VAT for a seller that owes it; removing the VAT number while quotes priced with VAT are open
--    would issue VAT invoices without it. Open: not refused, not fully paid (start … pay_partial). The
--    error (SQLSTATE VT409) names the quotes; lib/accounts maps it to a 409 in French. Documents never
--    carry both the VAT and the 293 B mention whatever the profile says (lib/billing/document.ts).
create or replace function public.open_quotes_against_vat_status(p_company uuid, p_exempt boolean) returns bigint[]
language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(d.id order by d.id), '{}') from public.deals d
  where d.company_id = p_company
    and d.status in ('start', 'new', 'pending', 'send', 'edited', 'accepted', 'pay_partial')
    and (coalesce(nullif(d.parameters->>'vat', '')::numeric, 20) > 0) = p_exempt
$$;
revoke execute on function public.open_quotes_against_vat_status(uuid, boolean) from public, anon, authenticated;
grant execute on function public.open_quotes_against_vat_status(uuid, boolean) to service_role;

create or replace function public.guard_vat_status_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  open_ids bigint[];
begin
  -- A signed-in user's change (the partner in 'Mon profil', an admin for it); the system's own
  -- maintenance (service role, no user) is not guarded.
  if new.type <> 'Company' or (select auth.uid()) is null then return new; end if;
  if new.vat_exemption is distinct from old.vat_exemption then
    open_ids := public.open_quotes_against_vat_status(new.id, coalesce(new.vat_exemption, false));
    if cardinality(open_ids) > 0 then
      raise exception 'open quotes priced % VAT: %', case when new.vat_exemption then 'with' else 'without' end,
        array_to_string(open_ids, ', ') using errcode = 'VT409', detail = array_to_string(open_ids, ',');
    end if;
  elsif old.vat_number is not null and new.vat_number is null and not coalesce(new.vat_exemption, false) then
    -- Their invoices charge VAT: they must carry the seller's VAT number (EN 16931 BR-S-02, BT-31).
    open_ids := public.open_quotes_against_vat_status(new.id, true);
    if cardinality(open_ids) > 0 then
      raise exception 'open quotes priced with VAT need the VAT number: %', array_to_string(open_ids, ', ')
        using errcode = 'VT409', detail = array_to_string(open_ids, ',');
    end if;
  end if;
  return new;
end $$;
revoke execute on function public.guard_vat_status_change() from public, anon, authenticated;
create trigger users_guard_vat_status_change before update of vat_exemption, vat_number on public.users
  for each row execute function public.guard_vat_status_change();
