// The workshop cart (spec 000 §7 'Sessions'): GET /api/cart, PATCH and DELETE /api/cart/line/{id}, and
// the cart page /panier. No guard: an anonymous visitor's cart is the cookie's; a customer's is its
// own; partners and admins have none (403, from the use cases).
import { Hono } from "hono";
import { type AppEnv, readBody, success, uuidParam } from "../lib/http/context.ts";
import { readCartCookie } from "../lib/http/cookies.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { CartPage } from "../components/sessions/pages.tsx";
import { readCart } from "../lib/sessions/use_cases/read_cart.ts";
import { changeCartLine, removeCartLine } from "../lib/sessions/use_cases/change_cart_line.ts";
import { SESSION_MESSAGES } from "../lib/sessions/rules.ts";

export const cartRoutes = new Hono<AppEnv>()
  .get("/api/cart", async (c) => success(c, await readCart(c.var.deps, c.var.actor, readCartCookie(c))))
  .patch("/api/cart/line/:id", async (c) => {
    const id = uuidParam(c, "id", SESSION_MESSAGES.lineNotFound);
    const hold = await changeCartLine(c.var.deps, c.var.actor, readCartCookie(c), id, await readBody(c));
    return success(c, hold, SESSION_MESSAGES.lineUpdated);
  })
  .delete("/api/cart/line/:id", async (c) => {
    const id = uuidParam(c, "id", SESSION_MESSAGES.lineNotFound);
    await removeCartLine(c.var.deps, c.var.actor, readCartCookie(c), id);
    return success(c, null, SESSION_MESSAGES.lineRemoved);
  })
  .get("/panier", async (c) => {
    const cart = await readCart(c.var.deps, c.var.actor, readCartCookie(c));
    const actor = c.var.actor;
    const canPay = actor.kind === "user" && actor.user.type === "Customer";
    // Back from the bank's page (Stripe's 3-D Secure redirect): the island confirms that intent.
    const returned = c.req.query("payment_intent") ?? "";
    const returnedIntent = canPay && /^pi_[A-Za-z0-9_-]{3,250}$/.test(returned) ? returned : null;
    return renderSitePage(
      c,
      "Mon panier",
      <CartPage cart={cart} canPay={canPay} returnedIntent={returnedIntent} />,
    );
  });
