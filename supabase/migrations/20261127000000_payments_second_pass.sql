-- Payments, second pass: money that cannot double.
--   * A deal keeps at most what it owes. deal_amount_due() is the one answer to "what is still due"
--     (total TTC − the payments the deal counts); record_payment() checks it inside its transaction,
--     the deal locked. Money that arrives anyway — a superseded intent paid before its cancel reached
--     the provider, a second payment, a refused deal — is recorded (it was taken) as an overpayment and
--     refunded automatically (refund_overpayment(): a pending refund that the refunds queue sends to the
--     provider; record_refund() and the billing queue then issue the credit note), and logged.
--   * An intent supersedes the deal's other open intents (supersede_open_intents(), called in the
--     intent's transaction and by a trigger when a deal is refused); each superseded intent is canceled
--     at the provider by an outbox job ('payment-intent-cancel'), never inside a user's transaction.
--   * A refund is never asked for beyond what is refundable, pending refunds counted: the payment row is
--     locked and checked by a trigger on every refund the app asks for.

alter table public.payment_intents add column superseded_at timestamptz;
-- An overpayment: recorded because the money was taken, never counted by the deal, refunded.
alter table public.deal_payments add column overpayment boolean not null default false;
-- A refund the system asked for on its own (an overpayment), not an admin.
alter table public.refunds add column automatic boolean not null default false;

-- What the deal still owes: its total TTC less the payments it counts (overpayments excluded), never
-- below zero. Reusable by any payment of the platform (sessions will sell seats through it).
create or replace function public.deal_amount_due(p_deal_id bigint) returns bigint
language sql stable security definer set search_path = '' as $$
  select greatest(0, coalesce((d.totals ->> 'totalTTC')::bigint, 0)
    - coalesce((select sum(p.amount) from public.deal_payments p
                where p.deal_id = d.id and not p.overpayment), 0))::bigint
  from public.deals d where d.id = p_deal_id
$$;
revoke execute on function public.deal_amount_due(bigint) from public;
grant execute on function public.deal_amount_due(bigint) to service_role;

-- Refunds a recorded payment in full, automatically: a pending refund (the refunds queue sends it to
-- the provider with its id as idempotency key), logged for the admins. Returns the refund's id.
create or replace function public.refund_overpayment(p_payment_id uuid, p_reason text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  payment public.deal_payments;
  created uuid;
begin
  select * into payment from public.deal_payments where id = p_payment_id for update;
  if not found then
    raise exception 'payment % not found', p_payment_id using errcode = 'P0002';
  end if;
  insert into public.refunds (payment_id, amount, reason, status, automatic)
  values (payment.id, payment.amount - payment.refunded_amount, p_reason, 'pending', true)
  returning id into created;
  insert into public.logs (service, type, message, context)
  values ('payments', 'warning', 'Trop-perçu remboursé automatiquement',
          jsonb_build_object('dealId', payment.deal_id, 'paymentId', payment.id, 'refundId', created,
                             'amount', payment.amount, 'intent', payment.provider_payment_id, 'reason', p_reason));
  return created;
end $$;
revoke execute on function public.refund_overpayment(uuid, text) from public;
grant execute on function public.refund_overpayment(uuid, text) to service_role;

-- Marks the deal's open intents (but `p_keep`) superseded and enqueues their cancel at the provider.
-- Returns how many it superseded.
create or replace function public.supersede_open_intents(p_deal_id bigint, p_keep text default null)
returns integer
language plpgsql security definer set search_path = '' as $$
declare
  intent record;
  n integer := 0;
begin
  for intent in
    update public.payment_intents set superseded_at = now(), updated_at = now()
    where deal_id = p_deal_id and superseded_at is null and status not in ('succeeded', 'canceled')
      and id is distinct from p_keep
    returning id, provider
  loop
    perform outbox.enqueue('payment-intent-cancel', jsonb_build_object('intentId', intent.id, 'provider', intent.provider),
                           'intent-' || intent.id);
    n := n + 1;
  end loop;
  return n;
end $$;
revoke execute on function public.supersede_open_intents(bigint, text) from public;
grant execute on function public.supersede_open_intents(bigint, text) to service_role;

-- An open intent asks for the amount of the quote as it was: when the deal leaves the statuses a customer
-- pays in (refused, edited back to 'pending', paid…) or its total changes, its open intents are
-- superseded (and canceled by the outbox) in that same transaction, whoever changed it.
create or replace function public.cancel_intents_of_changed_deal() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform public.supersede_open_intents(new.id, null);
  return null;
end $$;
create trigger deals_change_cancels_intents after update of status, totals on public.deals
  for each row when (
    (old.status is distinct from new.status and new.status not in ('send', 'edited', 'accepted', 'pay_partial'))
    or (old.totals ->> 'totalTTC') is distinct from (new.totals ->> 'totalTTC'))
  execute function public.cancel_intents_of_changed_deal();

-- The money held bounds the quote's total (lib/payments/rules.ts totalChangeError says it in French
-- first): once a deposit is received the total stays above it, and a fully paid quote keeps its total.
create or replace function public.guard_total_against_payments() returns trigger
language plpgsql set search_path = '' as $$
declare
  next_total bigint := coalesce((new.totals ->> 'totalTTC')::bigint, 0);
begin
  if new.paid_at is not null and old.paid_at is not null then
    raise exception 'the total of a paid deal cannot change' using errcode = '23514';
  end if;
  if new.deposit_paid_at is not null and new.paid_at is null and next_total <= coalesce(new.deposit_amount, 0) then
    raise exception 'the total cannot go below the deposit received' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger deals_total_within_payments before update of totals on public.deals
  for each row when ((old.totals ->> 'totalTTC') is distinct from (new.totals ->> 'totalTTC'))
  execute function public.guard_total_against_payments();

-- record_payment, second pass: the payment counts only when the deal owes it —
--   deposit: no deposit nor full payment yet, at most what is due;
--   balance: a deposit paid, exactly what is due (paidAt, totalAmountPaid = the total, pay_total);
--   total:   nothing paid yet, exactly the total;
-- and the deal is not refused. A manual payment that does not fit is refused (the use case said why);
-- a card payment that does not fit is recorded as an overpayment and refunded automatically.
create or replace function public.record_payment(
  p_deal_id bigint, p_kind text, p_amount bigint, p_method text, p_provider text, p_provider_payment_id text,
  p_recorded_by uuid, p_paid_at timestamptz default now()
) returns table (payment_id uuid, recorded boolean)
language plpgsql security definer set search_path = '' as $$
declare
  deal public.deals;
  existing uuid;
  created uuid;
  due bigint;
  owed boolean;
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
  due := public.deal_amount_due(p_deal_id);
  -- Only a quote the customer may pay counts money (sent, updated, accepted, or its deposit paid): a quote
  -- edited back to 'pending' or refused while an intent was open owes nothing until it is sent again.
  owed := deal.status in ('send', 'edited', 'accepted', 'pay_partial') and deal.paid_at is null and p_amount > 0
    and case p_kind
      when 'deposit' then deal.deposit_paid_at is null and p_amount < due
      when 'balance' then deal.deposit_paid_at is not null and p_amount = due
      else deal.deposit_paid_at is null and p_amount = due
    end;
  if not owed then
    if p_method = 'manual' then
      raise exception 'this payment is not due (due: %)', due using errcode = '23514';
    end if;
    return query select public.record_overpayment(p_deal_id, p_kind, p_amount, p_provider, p_provider_payment_id,
      p_recorded_by, p_paid_at, 'Paiement non dû pour ce devis'), true;
    return;
  end if;
  insert into public.deal_payments (deal_id, kind, amount, method, provider, provider_payment_id, recorded_by, paid_at)
  values (p_deal_id, p_kind, p_amount, p_method, p_provider, p_provider_payment_id, p_recorded_by, p_paid_at)
  returning id into created;

  perform set_config('app.deal_actor', coalesce(p_recorded_by::text, ''), true);
  perform set_config('app.deal_action', case p_method when 'card' then 'card_' else 'manual_' end
    || case p_kind when 'deposit' then 'pay_deposit' when 'balance' then 'pay_balance' else 'pay_total' end, true);
  -- The status follows the money, whatever payable status the deal was in: status, depositPaidAt,
  -- paidAt and totalAmountPaid always agree.
  next_status := case when p_kind = 'deposit' then 'pay_partial' else 'pay_total' end;
  if p_kind = 'deposit' then
    update public.deals set deposit_paid_at = p_paid_at, deposit_amount = coalesce(deposit_amount, 0) + p_amount,
      status = next_status where id = p_deal_id;
  else
    update public.deals set paid_at = p_paid_at,
      total_amount_paid = (select sum(amount) from public.deal_payments where deal_id = p_deal_id and not overpayment),
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

-- A card payment the deal does not count: recorded (the money was taken), refunded in full. The caller
-- holds the deal's lock.
create or replace function public.record_overpayment(
  p_deal_id bigint, p_kind text, p_amount bigint, p_provider text, p_provider_payment_id text,
  p_recorded_by uuid, p_paid_at timestamptz, p_reason text
) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  created uuid;
begin
  insert into public.deal_payments (deal_id, kind, amount, method, provider, provider_payment_id, recorded_by,
                                    paid_at, overpayment)
  values (p_deal_id, p_kind, p_amount, 'card', p_provider, p_provider_payment_id, p_recorded_by, p_paid_at, true)
  returning id into created;
  perform public.refund_overpayment(created, 'Trop-perçu remboursé automatiquement : ' || p_reason);
  return created;
end $$;
revoke execute on function public.record_overpayment(bigint, text, bigint, text, text, uuid, timestamptz, text) from public;
grant execute on function public.record_overpayment(bigint, text, bigint, text, text, uuid, timestamptz, text) to service_role;

-- record_card_payment, second pass: an intent superseded by another one (or by a refusal) no longer
-- asks for money; when it succeeds anyway, it is recorded as an overpayment and refunded. Its
-- superseded mark is read under the deal's lock, which supersede_open_intents' callers hold too.
-- Returns also whether the payment is an overpayment (the customer is told it is refunded).
drop function public.record_card_payment(text, text, text, bigint, text);
create function public.record_card_payment(
  p_provider text, p_intent_id text, p_status text, p_amount bigint, p_currency text
) returns table (payment_id uuid, recorded boolean, deal_id bigint, kind text, overpayment boolean)
language plpgsql security definer set search_path = '' as $$
declare
  intent public.payment_intents;
  existing public.deal_payments;
  result record;
begin
  select * into intent from public.payment_intents where id = p_intent_id and provider = p_provider;
  if not found then
    return;
  end if;
  -- The deal first, then the intent: the order supersede_open_intents' callers lock them in.
  perform 1 from public.deals d where d.id = intent.deal_id for update;
  update public.payment_intents set status = p_status, updated_at = now() where id = p_intent_id;
  if p_status <> 'succeeded' then
    return;
  end if;
  select * into existing from public.deal_payments p where p.provider = p_provider and p.provider_payment_id = p_intent_id;
  if found then
    return query select existing.id, false, intent.deal_id, intent.kind, existing.overpayment;
    return;
  end if;
  select * into intent from public.payment_intents where id = p_intent_id;
  if p_amount <> intent.amount or p_currency <> intent.currency then
    insert into public.logs (service, type, message, context)
    values ('payments', 'error', 'Montant payé différent du montant demandé',
            jsonb_build_object('intent', p_intent_id, 'asked', intent.amount, 'paid', p_amount));
  end if;
  if intent.superseded_at is not null then
    return query select public.record_overpayment(intent.deal_id, intent.kind, p_amount, p_provider, p_intent_id,
      intent.customer_id, now(), 'paiement remplacé ou annulé avant d''être réglé'), true, intent.deal_id, intent.kind, true;
    return;
  end if;
  select * into result
  from public.record_payment(intent.deal_id, intent.kind, p_amount, 'card', p_provider, p_intent_id, intent.customer_id) r;
  return query select result.payment_id, result.recorded, intent.deal_id, intent.kind,
    (select p.overpayment from public.deal_payments p where p.id = result.payment_id);
end $$;
revoke execute on function public.record_card_payment(text, text, text, bigint, text) from public;
grant execute on function public.record_card_payment(text, text, text, bigint, text) to service_role;

-- Never more refunded than paid, pending refunds counted: every refund the app asks for (no provider
-- id yet) locks its payment and is checked against what is still refundable. A refund the provider
-- reports on its own (made in its dashboard) has already happened and is recorded as it is.
create or replace function public.check_refundable() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  payment public.deal_payments;
  pending bigint;
begin
  if new.provider_refund_id is not null then
    return new;
  end if;
  select * into payment from public.deal_payments where id = new.payment_id for update;
  -- A second statement, after the lock: it sees the refunds committed while this one waited.
  select coalesce(sum(r.amount), 0) into pending from public.refunds r
  where r.payment_id = new.payment_id and r.status = 'pending';
  if payment.refunded_amount + pending + new.amount > payment.amount then
    raise exception 'refund of % exceeds the refundable amount of payment % (% left)', new.amount, new.payment_id,
      payment.amount - payment.refunded_amount - pending using errcode = '23514';
  end if;
  return new;
end $$;
create trigger refunds_within_refundable before insert on public.refunds
  for each row execute function public.check_refundable();
