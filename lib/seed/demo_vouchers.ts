// The demo customer's gift vouchers (issue 12): one client@example.fr bought for a friend, and one
// client2@example.fr bought for client@example.fr (listed as received). Made the way a real purchase is:
// the voucher order and the voucher through the purchase's own store functions, a succeeded payment of
// the simulated provider recorded by record_card_payment (which runs order_paid → order_paid_voucher),
// then settleOrder (the invoice in the FA series; no email: seeding sends none). Idempotent: a buyer who already has a
// voucher is skipped.
import type { Tx } from "../db/database.ts";
import type { Config } from "../config.ts";
import { recordCardPayment } from "../payments/store.ts";
import { settleOrder } from "../orders/use_cases/settle_order.ts";
import { codeHash, generateCode, sealCode } from "../vouchers/codes.ts";
import { parisToday, VOUCHER_PRICE_CENTS } from "../vouchers/rules.ts";
import { insertVoucher, insertVoucherOrder } from "../vouchers/store.ts";

const DEMO_VOUCHERS = [
  {
    buyer: "client@example.fr",
    recipientName: "Julie Martin",
    recipientEmail: "julie.martin@example.fr",
    message: "Joyeux anniversaire Julie ! Un atelier mojito t'attend.",
  },
  {
    buyer: "client2@example.fr",
    recipientName: "Camille Bernard",
    recipientEmail: "client@example.fr",
    message: "Merci pour tout, à toi de choisir ton atelier !",
  },
];

export async function seedDemoVouchers(
  tx: Tx,
  config: Pick<Config, "platform" | "appUrl" | "appSecret">,
): Promise<void> {
  for (const demo of DEMO_VOUCHERS) {
    const [buyer] = await tx<{ id: string; has: boolean; name: string }>`
      select u.id::text as id, exists (select from public.vouchers v where v.buyer_id = u.id) as has,
        trim(u.firstname || ' ' || u.lastname) as name
      from public.users u where u.email = ${demo.buyer}`;
    if (!buyer || buyer.has) continue;
    const code = generateCode();
    const orderId = await insertVoucherOrder(
      tx,
      buyer.id,
      VOUCHER_PRICE_CENTS,
      `Bon cadeau pour ${demo.recipientName}`,
    );
    await insertVoucher(tx, {
      buyerId: buyer.id,
      orderId,
      codeHash: await codeHash(code),
      codeSealed: await sealCode(code, config.appSecret),
      amount: VOUCHER_PRICE_CENTS,
      senderName: buyer.name,
      recipientName: demo.recipientName,
      recipientEmail: demo.recipientEmail,
      message: demo.message,
      sendOn: parisToday(),
    });
    const intentId = `pi_sim_demo_voucher_${orderId}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
    await tx`insert into public.simulated_payment_intents (id, amount, status, metadata)
      values (${intentId}, ${VOUCHER_PRICE_CENTS}, 'succeeded', ${
      JSON.stringify({ orderId: String(orderId) })
    }::jsonb)`;
    await tx`insert into public.payment_intents (id, provider, order_id, customer_id, kind, amount, status, idempotency_key)
      values (${intentId}, 'simulated', ${orderId}, ${buyer.id}::uuid, 'total', ${VOUCHER_PRICE_CENTS},
              'requires_payment_method', ${`demo-order-${orderId}`})`;
    await recordCardPayment(tx, "simulated", {
      id: intentId,
      status: "succeeded",
      amount: VOUCHER_PRICE_CENTS,
      currency: "eur",
    });
    // Its invoice, as the payment's settlement issues it; no email (seeding sends none).
    await settleOrder(tx, { platform: config.platform, appUrl: config.appUrl }, orderId);
  }
}
