// Gift vouchers (spec 000 §2 'Vos bons cadeaux', §7; issue 12), mounted at "/":
//   GET /bons-cadeaux                       public page (the menus' 'Bons cadeaux'), the form for customers
//   GET /dashboard/client/bons-cadeaux      'Vos bons cadeaux' (customers)
//   GET|POST /api/customer/discounts        the customer's vouchers (results) | buy one (a payment intent)
//   GET /discount/pdf/{id}[?code=]          the voucher's PDF (buyer, holder, admins, or its code)
//   GET /discount/invoice/{id}              its invoice (buyer, admins)
//   POST|DELETE /api/cart/code              apply a code to the customer's cart | take it off
// Guards per path group: customers for the dashboard page and the API; the downloads' rules live in
// their use cases (a code opens the PDF without an account); RLS applies them again.
import { Hono } from "hono";
import { type AppEnv, clientOf, type Ctx, readBody, success } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { renderDashboardPage, renderSitePage } from "../components/layout/render.tsx";
import { CustomerVouchersPage } from "../components/vouchers/CustomerVouchersPage.tsx";
import { PublicVouchersPage } from "../components/vouchers/PublicVouchersPage.tsx";
import { parisToday, VOUCHER_MESSAGES } from "../lib/vouchers/rules.ts";
import { customerVouchers, voucherPayload } from "../lib/vouchers/use_cases/list_vouchers.ts";
import { voucherPdf } from "../lib/vouchers/use_cases/voucher_pdf.ts";
import { voucherInvoicePdf } from "../lib/vouchers/use_cases/voucher_invoice.ts";
import { applyCode, removeCode } from "../lib/vouchers/use_cases/apply_code.ts";
import { buyVoucher } from "../lib/vouchers/use_cases/buy_voucher.ts";

function pdf(c: Ctx, file: { fileName: string; bytes: Uint8Array }) {
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${file.fileName.replace(/[^\w.-]/g, "_")}"`,
    "Cache-Control": "no-store",
  });
}

const senderNameOf = (c: Ctx) => {
  const actor = c.var.actor;
  return actor.kind === "user" ? `${actor.user.firstname ?? ""} ${actor.user.lastname ?? ""}`.trim() : "";
};

export const voucherRoutes = new Hono<AppEnv>()
  .use("/dashboard/client/bons-cadeaux", requireUser("page", ["Customer"], VOUCHER_MESSAGES.customersOnly))
  .use("/api/customer/discounts", requireUser("api", ["Customer"], VOUCHER_MESSAGES.customersOnly))
  .get("/bons-cadeaux", (c) => {
    const actor = c.var.actor;
    const viewer = actor.kind !== "user"
      ? "anonymous"
      : actor.user.type === "Customer"
      ? "customer"
      : "other";
    return renderSitePage(
      c,
      "Bons cadeaux",
      <PublicVouchersPage viewer={viewer} senderName={senderNameOf(c)} today={parisToday()} />,
    );
  })
  .get("/dashboard/client/bons-cadeaux", async (c) => {
    const vouchers = await customerVouchers(c.var.deps, c.var.actor);
    return renderDashboardPage(
      c,
      "Vos bons cadeaux",
      <CustomerVouchersPage
        vouchers={vouchers}
        senderName={senderNameOf(c)}
        today={parisToday()}
        now={Math.floor(Date.now() / 1000)}
      />,
    );
  })
  .get("/api/customer/discounts", async (c) => {
    const vouchers = await customerVouchers(c.var.deps, c.var.actor);
    return success(c, vouchers.map(voucherPayload));
  })
  .post("/api/customer/discounts", idempotent(), async (c) => {
    const intent = await buyVoucher(c.var.deps, c.var.actor, await readBody(c));
    return c.json({ status: "success", ...intent, results: intent });
  })
  .get("/discount/pdf/:id", async (c) => {
    const file = await voucherPdf(
      c.var.deps,
      c.var.actor,
      c.req.param("id"),
      c.req.query("code") ?? null,
      clientOf(c).ip,
    );
    return pdf(c, file);
  })
  .get(
    "/discount/invoice/:id",
    async (c) => pdf(c, await voucherInvoicePdf(c.var.deps, c.var.actor, c.req.param("id"))),
  )
  .post("/api/cart/code", async (c) => {
    const { voucher, message } = await applyCode(c.var.deps, c.var.actor, await readBody(c), clientOf(c).ip);
    return success(c, voucher, message);
  })
  .delete("/api/cart/code", async (c) => success(c, null, await removeCode(c.var.deps, c.var.actor)));
