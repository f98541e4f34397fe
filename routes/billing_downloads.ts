// The billing document downloads (spec 000 §7 'Downloads', 001 §7 download links), mounted at "/".
// Guard: a signed-in user, on this module's path groups only (a guard on "/" would catch every path);
// the use cases apply the access rule (the deal's customer, its partner, admins; commission documents
// not the customer) and RLS applies it again.
import { Hono } from "hono";
import type { AppEnv, Ctx } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import {
  dealPdf,
  downloadRequest,
  invoicePdf,
  type PdfFile,
  quotePdf,
} from "../lib/billing/use_cases/download_pdf.ts";

const signedIn = requireUser("api");

function pdf(c: Ctx, file: PdfFile) {
  const ascii = file.fileName.replace(/[^\w.-]/g, "_");
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${
      encodeURIComponent(file.fileName)
    }`,
    "Cache-Control": "no-store",
  });
}

export const billingDownloadRoutes = new Hono<AppEnv>()
  .use("/api/customer/deal/download/*", signedIn)
  .use("/api/company/deal/download/*", signedIn)
  .use("/quote/invoice/*", signedIn)
  .use("/quote/download/*", signedIn)
  .get("/api/customer/deal/download/quote/:token", async (c) => {
    return pdf(c, await dealPdf(c.var.deps, c.var.actor, c.req.param("token"), { what: "quote" }));
  })
  .get("/api/:side{customer|company}/deal/download/:what{invoice|proforma}/:token/:stage", async (c) => {
    const side = c.req.param("side") as "customer" | "company";
    const request = downloadRequest(side, c.req.param("what"), c.req.param("stage"));
    return pdf(c, await dealPdf(c.var.deps, c.var.actor, c.req.param("token"), request));
  })
  .get(
    "/quote/invoice/:orderId",
    async (c) => pdf(c, await invoicePdf(c.var.deps, c.var.actor, c.req.param("orderId"))),
  )
  .get(
    "/quote/download/:id",
    async (c) => pdf(c, await quotePdf(c.var.deps, c.var.actor, c.req.param("id"))),
  );
