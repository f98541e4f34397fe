// GET /discount/pdf/{id} (spec 000 §7): the voucher as a PDF — code, value, what is left, valid until,
// recipient, message. Who: its buyer, a customer holding it (received at their account's email, applied
// or redeemed: RLS), admins — or anyone presenting its code (`?code=`, the link of the recipient's email:
// the code is the voucher's bearer secret anyway). Others get 404; a wrong code counts as a failed guess
// (lib/vouchers/guesses.ts: per client address and voucher, and per client address, taken atomically
// before the lookup and given back when the code was right, as for the cart).
import { type Actor, requireSignedIn, systemActor, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { takeGuess } from "../guesses.ts";
import { codeHash, openCode } from "../codes.ts";
import { renderVoucherPdf } from "../pdf.ts";
import { normalizeCode, VOUCHER_MESSAGES } from "../rules.ts";
import { voucherById, voucherByIdAndHash, type VoucherRow } from "../store.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const VOUCHERS = systemActor("vouchers");

export interface VoucherFile {
  fileName: string;
  bytes: Uint8Array;
}

export async function voucherPdf(
  deps: Deps,
  actor: Actor,
  id: string,
  typedCode: string | null,
  ip: string,
): Promise<VoucherFile> {
  if (!UUID.test(id)) throw new AppError("not_found", VOUCHER_MESSAGES.notFound);
  let row: VoucherRow | null;
  if (typedCode) {
    const guess = await takeGuess(deps.db, `voucher-pdf:${ip}:${id}`, ip);
    const code = normalizeCode(typedCode.slice(0, 64));
    try {
      row = code
        ? await transactionAs(
          deps.db,
          VOUCHERS,
          async (tx) => voucherByIdAndHash(tx, id, await codeHash(code)),
        )
        : null;
    } catch (error) {
      await guess.giveBack();
      throw error;
    }
    if (row) await guess.giveBack();
  } else {
    const user = requireSignedIn(actor);
    row = await transactionAs(deps.db, user, (tx) => voucherById(tx, id));
  }
  if (!row) throw new AppError("not_found", VOUCHER_MESSAGES.notFound);
  if (row.status !== "active" || !row.validUntil) {
    throw new AppError("conflict", VOUCHER_MESSAGES.invoiceNotYet);
  }
  const code = await openCode(row.codeSealed, deps.config.appSecret);
  if (!code) throw new AppError("conflict", VOUCHER_MESSAGES.notFound);
  const bytes = await renderVoucherPdf({
    code,
    amount: row.amount,
    remaining: row.remaining,
    validUntil: Math.floor(row.validUntil.getTime() / 1000),
    recipientName: row.recipientName,
    buyerName: row.buyerName,
    message: row.message,
    platformName: deps.config.platform.name,
    siteUrl: deps.config.appUrl,
  });
  return { fileName: `bon-cadeau-${row.id.slice(0, 8)}.pdf`, bytes };
}
