-- Payments and billing documents.
--   * deal_payments: every payment received for a deal, by card (Stripe, or the simulated provider of
--     the offline default) or recorded by an admin. A card payment is recorded exactly once per
--     PaymentIntent, whoever reports it first (the customer's confirm call, the webhook, the
--     reconciliation job) and however often: unique (provider, provider_payment_id).
--   * record_payment(): the one way a payment is recorded. In one transaction it locks the deal,
--     inserts the payment (or finds it), updates depositPaidAt / paidAt / the amounts and moves the
--     status (pay_partial, pay_total) when the deal's status allows it. Shared by the app and the Stripe
--     webhook edge function (supabase/functions/stripe-webhook), so both record alike.
--   * payment_intents: the intents the app created (amount computed on the server), for the
--     reconciliation job and the confirm call's checks.
--   * invoices: issued documents, never changed nor deleted (corrections are credit notes); numbers
--     gap-free per series and year (invoice_counters, locked in the issuing transaction).
--   * refunds: an admin's refund request, sent to the provider by a job, then recorded with its credit
--     note; a refund reported twice is recorded once.

create table public.payment_intents (
  id text primary key check (length(id) between 3 and 255),
  provider text not null check (provider in ('stripe', 'simulated')),
  deal_id bigint not null references public.deals (id) on delete restrict,
  customer_id uuid references public.users (id) on delete set null,
  kind text not null check (kind in ('deposit', 'balance', 'total')),
  amount bigint not null check (amount > 0),
  currency text not null default 'eur' check (currency = 'eur'),
  status text not null default 'requires_payment_method',
  idempotency_key text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index payment_intents_deal_idx on public.payment_intents (deal_id, created_at desc);
create index payment_intents_open_idx on public.payment_intents (created_at) where status not in ('succeeded', 'canceled');

create table public.deal_payments (
  id uuid primary key default gen_random_uuid(),
  deal_id bigint not null references public.deals (id) on delete restrict,
  kind text not null check (kind in ('deposit', 'balance', 'total')),
  amount bigint not null check (amount > 0),
  currency text not null default 'eur' check (currency = 'eur'),
  method text not null check (method in ('card', 'manual')),
  provider text check (provider in ('stripe', 'simulated')),
  provider_payment_id text,
  refunded_amount bigint not null default 0 check (refunded_amount >= 0),
  recorded_by uuid references public.users (id) on delete set null,
  paid_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  check ((method = 'card') = (provider is not null and provider_payment_id is not null)),
  check (refunded_amount <= amount)
);
create unique index deal_payments_provider_key on public.deal_payments (provider, provider_payment_id)
  where provider_payment_id is not null;
create index deal_payments_deal_idx on public.deal_payments (deal_id, paid_at);

-- One sequence per series, issuer and year: customer invoices are issued by the platform in the name
-- and on behalf of each partner (billing mandate), so each partner has its own continuous numbering;
-- the platform's commission invoices have theirs (issuer 'platform').
create table public.invoice_counters (
  series text not null check (series ~ '^[A-Z]{1,4}$'),
  issuer text not null check (issuer ~ '^(platform|[0-9a-f-]{36})$'),
  year integer not null check (year between 2000 and 2999),
  last_number integer not null default 0,
  primary key (series, issuer, year)
);

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  -- FA customer invoices, AV credit notes, CO commission invoices to partners, CA their credit notes.
  series text not null check (series in ('FA', 'AV', 'CO', 'CA')),
  issuer text not null check (issuer ~ '^(platform|[0-9a-f-]{36})$'),
  year integer not null,
  sequence integer not null check (sequence > 0),
  number text not null unique,
  kind text not null check (kind in ('deposit', 'final', 'full', 'credit_note')),
  deal_id bigint not null references public.deals (id) on delete restrict,
  payment_id uuid references public.deal_payments (id) on delete restrict,
  refund_id uuid,
  -- The deposit invoice a final invoice deducts, or the invoice a credit note corrects.
  related_invoice_id uuid references public.invoices (id) on delete restrict,
  issued_at timestamptz not null default now(),
  total_ht bigint not null,
  total_vat bigint not null,
  total_ttc bigint not null,
  -- Everything the document shows, frozen at issue: seller, buyer, lines, VAT breakdown, mentions.
  document jsonb not null,
  unique (series, issuer, year, sequence)
);
create index invoices_deal_idx on public.invoices (deal_id, issued_at);
create unique index invoices_one_per_payment on public.invoices (series, payment_id) where payment_id is not null and kind <> 'credit_note';

create table public.refunds (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references public.deal_payments (id) on delete restrict,
  amount bigint not null check (amount > 0),
  reason text not null default '' check (length(reason) <= 500),
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  provider_refund_id text,
  requested_by uuid references public.users (id) on delete set null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  created_at timestamptz not null default now(),
  succeeded_at timestamptz,
  -- Set when the provider reports a succeeded refund as failed after all (the money came back to the
  -- merchant): the refund no longer counts, and a late 'succeeded' report of it is ignored.
  reversed_at timestamptz
);
create unique index refunds_provider_key on public.refunds (provider_refund_id) where provider_refund_id is not null;
create index refunds_pending_idx on public.refunds (next_attempt_at) where status = 'pending';
alter table public.invoices add constraint invoices_refund_fk foreign key (refund_id) references public.refunds (id) on delete restrict;

-- Webhook events already handled (a provider may send one several times).
create table public.provider_events (
  id text primary key,
  provider text not null,
  type text not null,
  received_at timestamptz not null default now()
);

-- The simulated provider's intents (offline default; never in production): what Stripe would hold.
create table public.simulated_payment_intents (
  id text primary key,
  amount bigint not null check (amount > 0),
  currency text not null default 'eur',
  status text not null default 'requires_payment_method'
    check (status in ('requires_payment_method', 'processing', 'succeeded', 'canceled')),
  metadata jsonb not null default '{}',
  idempotency_key text unique,
  last_error text,
  refunded_amount bigint not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------------
-- Who sees what: a deal's customer sees its payments and its customer invoices and credit notes; its
-- partner sees the payments and every invoice of the deal (it sells the first, buys the commission);
-- admins see everything. Nobody but the system
-- writes: payments, invoices and refunds are recorded by use cases acting as the system after their
-- checks (an admin's manual payment or refund included: the use case checks the admin first).

alter table public.payment_intents enable row level security;
alter table public.deal_payments enable row level security;
alter table public.invoice_counters enable row level security;
alter table public.invoices enable row level security;
alter table public.refunds enable row level security;
alter table public.provider_events enable row level security;
alter table public.simulated_payment_intents enable row level security;

create policy "Admins can read every payment" on public.deal_payments for select to authenticated
  using ((select public.is_admin()));
create policy "Deal parties can read its payments" on public.deal_payments for select to authenticated
  using ((select public.is_deal_customer(deal_id)) or (select public.is_deal_partner(deal_id)));
create policy "Admins can read every invoice" on public.invoices for select to authenticated
  using ((select public.is_admin()));
create policy "Customers can read their deals' invoices" on public.invoices for select to authenticated
  using (series in ('FA', 'AV') and (select public.is_deal_customer(deal_id)));
-- The partner is the seller of the customer's invoices and the buyer of the commission invoices.
create policy "Partners can read their deals' invoices" on public.invoices for select to authenticated
  using ((select public.is_deal_partner(deal_id)));
create policy "Admins can read refunds" on public.refunds for select to authenticated
  using ((select public.is_admin()));
create policy "Admins can read payment intents" on public.payment_intents for select to authenticated
  using ((select public.is_admin()));

grant select on public.deal_payments, public.invoices, public.refunds, public.payment_intents to authenticated;
grant select, insert, update, delete on public.payment_intents, public.deal_payments, public.invoice_counters,
  public.invoices, public.refunds, public.provider_events, public.simulated_payment_intents to service_role;

-- An issued invoice is never changed nor deleted.
create or replace function public.refuse_invoice_change() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'an issued invoice cannot be changed or deleted; issue a credit note' using errcode = '42501';
end $$;
create trigger invoices_immutable before update or delete on public.invoices
  for each row execute function public.refuse_invoice_change();

-- The next number of a series for a year: gap-free, because the counter row is locked until the
-- issuing transaction ends (a rolled-back issue gives its number back).
create or replace function public.next_invoice_number(p_series text, p_issuer text, p_year integer) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  next_number integer;
begin
  insert into public.invoice_counters as c (series, issuer, year, last_number) values (p_series, p_issuer, p_year, 1)
  on conflict (series, issuer, year) do update set last_number = c.last_number + 1
  returning c.last_number into next_number;
  return next_number;
end $$;
revoke execute on function public.next_invoice_number(text, text, integer) from public;
grant execute on function public.next_invoice_number(text, text, integer) to service_role;

-- ---------------------------------------------------------------------------------------------------
-- record_payment: records a payment exactly once and moves the deal. Returns the payment's id and
-- whether this call recorded it (false: it was already there).
--   kind deposit: depositPaidAt, depositAmount, status → pay_partial (from send, edited, accepted)
--   kind balance: paidAt, totalAmountPaid = deposit + balance, status → pay_total (from pay_partial)
--   kind total:   paidAt, totalAmountPaid, status → pay_total (from send, edited, accepted)
-- Money received is always recorded; when the deal's status no longer allows the move (refused in
-- the meantime…), the status stays and the payment is logged for an admin to look at.

create or replace function public.record_payment(
  p_deal_id bigint, p_kind text, p_amount bigint, p_method text, p_provider text, p_provider_payment_id text,
  p_recorded_by uuid, p_paid_at timestamptz default now()
) returns table (payment_id uuid, recorded boolean)
language plpgsql security definer set search_path = '' as $$
declare
  deal public.deals;
  existing uuid;
  created uuid;
  next_status text;
begin
  select * into deal from public.deals where id = p_deal_id for update;
  if not found then
    raise exception 'deal % not found', p_deal_id using errcode = 'P0002';
  end if;
  if p_provider_payment_id is not null then
    select id into existing from public.deal_payments
    where provider = p_provider and provider_payment_id = p_provider_payment_id;
    if found then
      return query select existing, false;
      return;
    end if;
  end if;
  insert into public.deal_payments (deal_id, kind, amount, method, provider, provider_payment_id, recorded_by, paid_at)
  values (p_deal_id, p_kind, p_amount, p_method, p_provider, p_provider_payment_id, p_recorded_by, p_paid_at)
  returning id into created;

  perform set_config('app.deal_actor', coalesce(p_recorded_by::text, ''), true);
  perform set_config('app.deal_action', case p_method when 'card' then 'card_' else 'manual_' end
    || case p_kind when 'deposit' then 'pay_deposit' when 'balance' then 'pay_balance' else 'pay_total' end, true);
  next_status := case
    when p_kind = 'deposit' and deal.status in ('send', 'edited', 'accepted') then 'pay_partial'
    when p_kind = 'balance' and deal.status = 'pay_partial' then 'pay_total'
    when p_kind = 'total' and deal.status in ('send', 'edited', 'accepted') then 'pay_total'
    else deal.status
  end;
  if p_kind = 'deposit' then
    update public.deals set deposit_paid_at = p_paid_at, deposit_amount = coalesce(deposit_amount, 0) + p_amount,
      status = next_status where id = p_deal_id;
  else
    update public.deals set paid_at = p_paid_at,
      total_amount_paid = (select sum(amount) from public.deal_payments where deal_id = p_deal_id),
      status = next_status where id = p_deal_id;
  end if;
  if next_status = deal.status then
    insert into public.logs (service, type, message, context)
    values ('payments', 'warning', 'Paiement reçu pour un devis dont le statut ne permet pas ce paiement',
            jsonb_build_object('dealId', p_deal_id, 'kind', p_kind, 'amount', p_amount, 'status', deal.status,
                               'paymentId', created));
  end if;
  return query select created, true;
end $$;
revoke execute on function public.record_payment(bigint, text, bigint, text, text, text, uuid, timestamptz) from public;
grant execute on function public.record_payment(bigint, text, bigint, text, text, text, uuid, timestamptz) to service_role;

-- A card payment reported by the provider (confirm call, webhook or reconciliation), with the
-- PaymentIntent as the provider holds it (re-fetched, never taken from the request): recorded only when
-- it succeeded and matches an intent this app created. An amount other than the one asked (changed at
-- the provider) is recorded as paid, since the money was taken, and logged as an error for the admins.
-- Returns the same as record_payment, or nothing when the intent is unknown or not succeeded.
create or replace function public.record_card_payment(
  p_provider text, p_intent_id text, p_status text, p_amount bigint, p_currency text
) returns table (payment_id uuid, recorded boolean, deal_id bigint, kind text)
language plpgsql security definer set search_path = '' as $$
declare
  intent public.payment_intents;
begin
  select * into intent from public.payment_intents where id = p_intent_id and provider = p_provider;
  if not found then
    return;
  end if;
  update public.payment_intents set status = p_status, updated_at = now() where id = p_intent_id;
  if p_status <> 'succeeded' then
    return;
  end if;
  if p_amount <> intent.amount or p_currency <> intent.currency then
    insert into public.logs (service, type, message, context)
    values ('payments', 'error', 'Montant payé différent du montant demandé',
            jsonb_build_object('intent', p_intent_id, 'asked', intent.amount, 'paid', p_amount));
  end if;
  return query select r.payment_id, r.recorded, intent.deal_id, intent.kind
    from public.record_payment(intent.deal_id, intent.kind, p_amount, 'card', p_provider, p_intent_id, intent.customer_id) r;
end $$;
revoke execute on function public.record_card_payment(text, text, text, bigint, text) from public;
grant execute on function public.record_card_payment(text, text, text, bigint, text) to service_role;

-- A refund as the provider reports it (the refund job's answer, or a webhook; a refund made in the
-- provider's dashboard arrives here too). `p_local_id` is our refunds row when we asked for it (the
-- provider keeps it in the refund's metadata). The payment's refunded amount grows once, when the
-- refund becomes 'succeeded', however often and in whatever order it is reported; a succeeded refund
-- the provider then reports failed no longer counts (reversed_at), and stays failed.
create or replace function public.record_refund(
  p_provider text, p_refund_id text, p_intent_id text, p_amount bigint, p_status text, p_local_id uuid default null
) returns table (refund_id uuid, succeeded_now boolean)
language plpgsql security definer set search_path = '' as $$
declare
  payment public.deal_payments;
  refund public.refunds;
  was_succeeded boolean;
  succeeds_now boolean;
  reversed_now boolean;
begin
  select * into payment from public.deal_payments
  where provider = p_provider and provider_payment_id = p_intent_id for update;
  if not found then
    return;
  end if;
  select * into refund from public.refunds
  where provider_refund_id = p_refund_id or (p_local_id is not null and id = p_local_id)
  order by (provider_refund_id = p_refund_id) desc nulls last limit 1 for update;
  if not found then
    insert into public.refunds (payment_id, amount, status, provider_refund_id, reason)
    values (payment.id, p_amount, 'pending', p_refund_id, 'Remboursement fait chez le prestataire de paiement')
    returning * into refund;
  end if;
  was_succeeded := refund.status = 'succeeded';
  succeeds_now := p_status = 'succeeded' and not was_succeeded and refund.reversed_at is null;
  reversed_now := p_status in ('failed', 'canceled') and was_succeeded;
  update public.refunds set provider_refund_id = p_refund_id,
    status = case when succeeds_now then 'succeeded' when p_status in ('failed', 'canceled') then 'failed' else status end,
    succeeded_at = case when succeeds_now then now() else succeeded_at end,
    reversed_at = case when reversed_now then now() else reversed_at end
  where id = refund.id;
  if succeeds_now then
    update public.deal_payments set refunded_amount = refunded_amount + refund.amount where id = payment.id;
  elsif reversed_now then
    update public.deal_payments set refunded_amount = refunded_amount - refund.amount where id = payment.id;
    insert into public.logs (service, type, message, context)
    values ('payments', 'error', 'Remboursement annulé par le prestataire après succès',
            jsonb_build_object('refund', refund.id, 'providerRefund', p_refund_id, 'amount', refund.amount));
  end if;
  return query select refund.id, succeeds_now;
end $$;
revoke execute on function public.record_refund(text, text, text, bigint, text, uuid) from public;
grant execute on function public.record_refund(text, text, text, bigint, text, uuid) to service_role;

alter table public.simulated_payment_intents add column refund_keys text[] not null default '{}';
