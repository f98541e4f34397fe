// Sending a quote to the customer (the partner validating its availability, or an admin doing it on the
// partner's behalf) needs the seller's VAT number when the partner charges VAT: every invoice of the
// deal is issued in the partner's name and must print it (lib/partners/rules.ts sellerVatError).
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { sellerVatError } from "../partners/rules.ts";
import { sellerTaxIdentity } from "../partners/store.ts";

/** Throws a 409 with the French message when the deal's partner may not send its quote yet. Runs in
 * the sending transaction, as its actor (the partner reads its own account, an admin any). */
export async function requireSellerVatNumber(
  tx: Tx,
  deal: { companyId: string | null; parameters: { vat?: number } },
  /** The sender's role: the partner reads a message about its profile, anyone else about the partner's. */
  role: string,
): Promise<void> {
  if (!deal.companyId) return;
  const seller = await sellerTaxIdentity(tx, deal.companyId);
  if (!seller) return; // not a partner (the platform sells): its VAT number is the configuration's
  const error = sellerVatError(
    seller,
    Number(deal.parameters.vat ?? 20),
    role === "Company" ? "Company" : "Admin",
  );
  if (error) throw new AppError("conflict", error, { vatNumber: error });
}
