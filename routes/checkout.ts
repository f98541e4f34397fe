// Paying the workshop cart and its documents (issue 12): POST /api/cart/checkout (a customer; answers
// a payment intent like /api/payment/intent, paid through the same confirm and webhook paths), the
// registration's receipt and invoice (its customer, admins), and an admin's cancellation of a
// registration (places back on sale, paid amount refunded with its credit note).
import { Hono } from "hono";
import { type AppEnv, readBody, success } from "../lib/http/context.ts";
import type { Ctx } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { checkoutCart } from "../lib/orders/use_cases/checkout.ts";
import { registrationPdf } from "../lib/orders/use_cases/registration_documents.ts";
import { cancelRegistration } from "../lib/orders/use_cases/cancel_registration.ts";
import { CHECKOUT_MESSAGES } from "../lib/orders/rules.ts";

function pdf(c: Ctx, file: { fileName: string; bytes: Uint8Array }) {
  const ascii = file.fileName.replace(/[^\w.-]/g, "_");
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${
      encodeURIComponent(file.fileName)
    }`,
    "Cache-Control": "no-store",
  });
}

export const checkoutRoutes = new Hono<AppEnv>()
  .use("/api/customer/registration/*", requireUser("api"))
  .use("/api/admin/registration/*", requireUser("api", ["Admin"]))
  .post("/api/cart/checkout", idempotent(), async (c) => {
    const intent = await checkoutCart(c.var.deps, c.var.actor);
    return c.json({ status: "success", ...intent, results: intent });
  })
  .get(
    "/api/customer/registration/:what{receipt|invoice|credit-note}/:id",
    async (c) =>
      pdf(
        c,
        await registrationPdf(
          c.var.deps,
          c.var.actor,
          c.req.param("id"),
          c.req.param("what") as "receipt" | "invoice" | "credit-note",
        ),
      ),
  )
  .post("/api/admin/registration/:id/cancel", async (c) => {
    const result = await cancelRegistration(c.var.deps, c.var.actor, c.req.param("id"), await readBody(c));
    return success(c, result, CHECKOUT_MESSAGES.canceled);
  });
