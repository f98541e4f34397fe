// The seller's VAT number rule (issue 11 §2): which partner may send a quote, with which French message
// for the partner and for an admin acting on its behalf.
import { assertEquals } from "../../tests/support/assert.ts";
import { SELLER_VAT_MESSAGES, sellerVatError } from "./rules.ts";

const charging = { vatExemption: false, vatNumber: "FR32123456789", siren: "123456789" };

Deno.test("a partner charging VAT needs a valid VAT number of its own SIREN to send a quote", () => {
  assertEquals(sellerVatError(charging, 20, "Company"), null);
  assertEquals(sellerVatError({ ...charging, vatNumber: null }, 20, "Company"), SELLER_VAT_MESSAGES.missing);
  assertEquals(
    sellerVatError({ ...charging, vatNumber: null }, 20, "Admin"),
    SELLER_VAT_MESSAGES.missingForAdmin,
  );
  // A wrong key, another company's number, a malformed one.
  for (const vatNumber of ["FR12123456789", "FR05987654321", "FR3212345678"]) {
    assertEquals(
      sellerVatError({ ...charging, vatNumber }, 20, "Company"),
      SELLER_VAT_MESSAGES.invalid,
      vatNumber,
    );
    assertEquals(
      sellerVatError({ ...charging, vatNumber }, 20, "Admin"),
      SELLER_VAT_MESSAGES.invalidForAdmin,
    );
  }
  // Not charging VAT on this deal does not matter while the partner is not exempt.
  assertEquals(sellerVatError({ ...charging, vatNumber: null }, 0, "Company"), SELLER_VAT_MESSAGES.missing);
});

Deno.test("a VAT-exempt partner sends its quotes priced without VAT, with or without a VAT number", () => {
  const exempt = { vatExemption: true, vatNumber: null, siren: "552100554" };
  assertEquals(sellerVatError(exempt, 0, "Company"), null);
  assertEquals(sellerVatError(exempt, 0, "Admin"), null);
  // A deal priced with VAT before the exemption: the invoices would charge VAT.
  assertEquals(sellerVatError(exempt, 20, "Company"), SELLER_VAT_MESSAGES.missing);
  // The messages say where to act, in French.
  assertEquals(
    SELLER_VAT_MESSAGES.missing.startsWith("Renseignez votre numéro de TVA intracommunautaire"),
    true,
  );
});
