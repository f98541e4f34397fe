// The gift voucher's part of POST /api/cart/checkout (issue 12), inside the checkout's own transaction
// (the system, after the checkout checked the customer): the voucher applied to the cart pays what it
// can of the new order — reserved under the voucher's row lock, so concurrent checkouts on one voucher
// never take more than it has — and an order it covers whole is paid by it at once, without a card
// (seated, invoiced and confirmed by settleOrder in the same transaction).
import type { Tx } from "../../db/database.ts";
import type { Config } from "../../config.ts";
import { settleOrder } from "../../orders/use_cases/settle_order.ts";
import { payOrderWithVoucher, reserveCartVoucher } from "../store.ts";

export interface VoucherAtCheckout {
  /** Cents the voucher pays of the order. */
  discount: number;
  /** The voucher covered the order whole: paid, nothing to pay by card. */
  paid: boolean;
}

export async function redeemAtCheckout(
  tx: Tx,
  config: Pick<Config, "platform" | "appUrl"> & { appSecret?: string },
  userId: string,
  orderId: number,
): Promise<VoucherAtCheckout> {
  const discount = await reserveCartVoucher(tx, userId, orderId);
  if (discount === 0) return { discount, paid: false };
  const paid = await payOrderWithVoucher(tx, orderId);
  if (paid) await settleOrder(tx, config, orderId);
  return { discount, paid };
}

export const PAID_BY_VOUCHER_MESSAGE =
  "Votre bon cadeau couvre toute votre réservation : elle est réglée, vos places sont réservées. Vous recevrez un email de confirmation.";
