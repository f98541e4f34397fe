// The demo customer's paid workshop registrations ('Facturé', and 'Annulé' for one canceled by the
// organiser after its payment: cancel_registration gives the places back and queues the refund, which
// the refunds queue pays back and settles with a credit note), made the way a real one is: the places
// held in the customer's cart, the checkout's create_cart_order, a card payment of the simulated
// provider recorded by record_card_payment (which runs order_paid), and the invoice, receipt and email
// issued by settleOrder (no email: demo data sends none). Idempotent: a date the customer already booked is skipped.
import type { Tx } from "../db/database.ts";
import type { Config } from "../config.ts";
import { DEMO_SESSIONS } from "./demo_sessions.ts";
import { orderLineOf } from "../orders/pricing.ts";
import { cancelRegistrationRow, createCartOrder, lockCartForCheckout } from "../orders/store.ts";
import { recordCardPayment } from "../payments/store.ts";
import { settleOrder } from "../orders/use_cases/settle_order.ts";
import { toUnix } from "../sessions/offers.ts";

export async function seedDemoOrders(tx: Tx, config: Pick<Config, "platform" | "appUrl">): Promise<void> {
  for (const session of DEMO_SESSIONS) {
    for (const date of session.dates) {
      for (const [email, quantity, status] of date.booked ?? []) {
        if (status === "pending") continue;
        const [target] = await tx<{ dateId: number; userId: string; booked: boolean }>`
          select d.id as "dateId", u.id::text as "userId",
            exists (select from public.registrations g where g.date_id = d.id and g.user_id = u.id) as booked
          from public.session_dates d join public.workshop_sessions s on s.id = d.session_id
          join public.users u on u.email = ${email}
          where s.slug = ${session.slug}
            and d.dtstart = (date_trunc('day', now() at time zone 'Europe/Paris')
              + make_interval(days => ${date.inDays}, hours => 19)) at time zone 'Europe/Paris'`;
        if (!target || target.booked) continue;
        const orderId = await payDemoBooking(tx, config, target.userId, target.dateId, quantity);
        if (status === "canceled") {
          const [registration] = await tx<{ id: string }>`
            select id::text from public.registrations where order_id = ${orderId} and date_id = ${target.dateId}`;
          await cancelRegistrationRow(tx, registration.id, "Atelier annulé par l'organisateur", null);
        }
      }
    }
  }
}

async function payDemoBooking(
  tx: Tx,
  config: Pick<Config, "platform" | "appUrl">,
  userId: string,
  dateId: number,
  quantity: number,
): Promise<number> {
  // The hold, as add_to_cart makes it (the date's places taken under its lock).
  const [cart] = await tx<{ id: string }>`
    insert into public.carts (user_id) values (${userId}::uuid)
    on conflict (user_id) do update set updated_at = now() returning id::text`;
  await tx`select 1 from public.session_dates where id = ${dateId} for update`;
  await tx`update public.session_dates set places_left = places_left - ${quantity} where id = ${dateId}`;
  await tx`insert into public.cart_lines (cart_id, date_id, quantity, expires_at)
    values (${cart.id}::uuid, ${dateId}, ${quantity}, now() + interval '20 minutes')`;
  const rows = await lockCartForCheckout(tx, userId);
  const lines = rows.filter((r) => r.lineId !== null).map((r) =>
    orderLineOf({
      lineId: r.lineId!,
      title: r.sessionTitle,
      city: r.sessionCity,
      dtstart: toUnix(r.dtstart),
      quantity: r.quantity,
      price: {
        priceTTC: Number(r.priceTTC),
        travelCostTTC: Number(r.travelCostTTC),
        additionalCosts: r.additionalCosts,
      },
    })
  );
  const orderId = await createCartOrder(tx, userId, lines, 20);
  const amount = lines.reduce((sum, l) => sum + l.amount, 0);
  // The simulated provider's intent, succeeded, as its card form leaves it.
  const intentId = `pi_sim_demo_${orderId}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  await tx`insert into public.simulated_payment_intents (id, amount, status, metadata)
    values (${intentId}, ${amount}, 'succeeded', ${JSON.stringify({ orderId: String(orderId) })}::jsonb)`;
  await tx`insert into public.payment_intents (id, provider, order_id, customer_id, kind, amount, status, idempotency_key)
    values (${intentId}, 'simulated', ${orderId}, ${userId}::uuid, 'total', ${amount}, 'requires_payment_method',
            ${`demo-order-${orderId}`})`;
  await recordCardPayment(tx, "simulated", { id: intentId, status: "succeeded", amount, currency: "eur" });
  // Demo data sends no email: the customer counts as told.
  await tx`update public.deal_payments set notified_at = now() where order_id = ${orderId}`;
  await settleOrder(tx, config, orderId);
  return orderId;
}
