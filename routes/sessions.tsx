// Cocktail-workshop sessions, public (spec 000 §2, §7 'Sessions'): the catalogue, a session's page and
// dates, adding a date to the cart, the seat alert. No guard: anonymous visitors book into a cart kept
// by a cookie; the use cases refuse partners and admins. JSON calls answer JSON; the same POSTs from a
// page without JavaScript (forms) answer with a redirect and a flash message.
import { Hono } from "hono";
import {
  type AppEnv,
  clientOf,
  type Ctx,
  readBody,
  success,
  uuidParam,
  wantsJson,
} from "../lib/http/context.ts";
import { addFlash, newCartToken, readCartCookie, setCartCookie } from "../lib/http/cookies.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { AppError } from "../lib/errors.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { CataloguePage, SessionPage } from "../components/sessions/pages.tsx";
import { listSessions } from "../lib/sessions/use_cases/list_sessions.ts";
import { listDates } from "../lib/sessions/use_cases/list_dates.ts";
import { addToCart } from "../lib/sessions/use_cases/add_to_cart.ts";
import { createSeatAlert } from "../lib/sessions/use_cases/create_seat_alert.ts";
import { OPS_MESSAGES, SESSION_MESSAGES } from "../lib/sessions/rules.ts";
import { claimSeatOffer, seatOfferView } from "../lib/sessions/use_cases/seat_offer.ts";
import { SeatOfferPage } from "../components/sessions/SeatOfferPage.tsx";

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function slugParam(c: Ctx): string {
  const slug = c.req.param("slug") ?? "";
  if (!SLUG.test(slug) || slug.length > 120) {
    throw new AppError("not_found", SESSION_MESSAGES.sessionNotFound);
  }
  return slug;
}

/** A form post (no JavaScript) answers with a redirect and a flash message; errors too. */
async function formAnswer(c: Ctx, run: () => Promise<string>, back: string, done: string) {
  try {
    const message = await run();
    await addFlash(c, "success", message);
    return c.redirect(done, 303);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await addFlash(c, "error", error.message);
    return c.redirect(back, 303);
  }
}

const OFFER_TOKEN = /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/;
function offerToken(c: Ctx): string {
  const token = c.req.param("token") ?? "";
  if (!OFFER_TOKEN.test(token)) throw new AppError("not_found", OPS_MESSAGES.offerInvalid);
  return token;
}

const heldMessage = (minutes: number) => `${SESSION_MESSAGES.added} ${minutes} minutes.`;

export const sessionRoutes = new Hono<AppEnv>()
  .get("/sessions", async (c) => {
    return renderSitePage(
      c,
      "Ateliers cocktails",
      <CataloguePage entries={await listSessions(c.var.deps, c.var.actor)} />,
    );
  })
  .get("/session/:slug", async (c) => {
    const query = c.req.query();
    const { session, offers } = await listDates(c.var.deps, c.var.actor, slugParam(c), query);
    const day = (v: string | undefined) => v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : "";
    return renderSitePage(
      c,
      session.title,
      <SessionPage session={session} offers={offers} start={day(query.start)} end={day(query.end)} />,
    );
  })
  .post("/session/:slug/dates", async (c) => {
    const body = await readBody(c);
    const { offers } = await listDates(c.var.deps, c.var.actor, slugParam(c), body);
    return success(c, offers);
  })
  .post("/session/:slug/date/:uuid", idempotent(), async (c) => {
    const slug = slugParam(c);
    const dateUuid = uuidParam(c, "uuid", SESSION_MESSAGES.notFound);
    const body = await readBody(c);
    const existing = readCartCookie(c);
    const token = c.var.actor.kind === "anonymous" ? existing ?? newCartToken() : null;
    const book = async () => {
      const hold = await addToCart(c.var.deps, c.var.actor, {
        slug,
        dateUuid,
        token,
        body,
        ip: clientOf(c).ip,
      });
      if (token && token !== existing) setCartCookie(c, token);
      return hold;
    };
    const message = heldMessage(c.var.deps.config.cartHoldMinutes);
    if (wantsJson(c)) return success(c, await book(), message);
    return formAnswer(c, async () => (await book(), message), `/session/${slug}`, "/panier");
  })
  .post("/date/mail/alert", async (c) => {
    const body = await readBody(c);
    if (wantsJson(c)) {
      const { message, note } = await createSeatAlert(c.var.deps, c.var.actor, body, clientOf(c).ip);
      return c.json({ status: "success", results: { message, note }, message, note });
    }
    const back = c.req.header("referer")?.startsWith(c.var.deps.config.appUrl)
      ? c.req.header("referer")!
      : "/sessions";
    return formAnswer(
      c,
      async () => {
        const { message, note } = await createSeatAlert(c.var.deps, c.var.actor, body, clientOf(c).ip);
        return `${message}. ${note}`;
      },
      back,
      back,
    );
  })
  // The waiting list's link (emailed): the page (GET changes nothing), then the place into the cart.
  .get("/date/alert/offre/:token", async (c) => {
    const offer = await seatOfferView(c.var.deps, offerToken(c));
    return renderSitePage(c, OPS_MESSAGES.offerTitle, <SeatOfferPage offer={offer} />);
  })
  .post("/date/alert/offre/:token", async (c) => {
    const token = offerToken(c);
    const existing = readCartCookie(c);
    const cartToken = c.var.actor.kind === "anonymous" ? existing ?? newCartToken() : null;
    const claim = async () => {
      const hold = await claimSeatOffer(c.var.deps, c.var.actor, { token, cartToken });
      if (cartToken && cartToken !== existing) setCartCookie(c, cartToken);
      return hold;
    };
    if (wantsJson(c)) return success(c, await claim(), OPS_MESSAGES.offerTaken);
    return formAnswer(
      c,
      async () => (await claim(), OPS_MESSAGES.offerTaken),
      `/date/alert/offre/${token}`,
      "/panier",
    );
  });
