// The public quote request page /demande-de-devis. Public: no guard. The island sends the request to
// POST /api/deal/request (routes/deals_api.ts); the POST below serves the same form without
// JavaScript and answers with the estimate, or the form again with the server's messages.
import { Hono } from "hono";
import { type AppEnv, clientOf, type Ctx, readBody } from "../lib/http/context.ts";
import { AppError } from "../lib/errors.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import { newIdempotencyKey } from "../lib/idempotency/rules.ts";
import { requestQuote } from "../lib/deals/use_cases/request_quote.ts";
import { listCities } from "../lib/site/actions.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { REQUEST_PAGE_TITLE, RequestPage } from "../components/deals/request/RequestPage.tsx";
import {
  EMPTY_REQUEST,
  eventTypeFromQuery,
  requestPayload,
  type RequestValues,
  valuesFromForm,
} from "../components/deals/request/rules.ts";
import type { DealRequestFormProps } from "../islands/DealRequestForm.tsx";

async function page(
  c: Ctx,
  form: Omit<DealRequestFormProps, "today" | "cities" | "idempotencyKey">,
  status = 200,
) {
  const cities = (await listCities(c.var.deps)).map((city) => city.name);
  const today = new Date().toISOString().slice(0, 10);
  // Each rendering of the form carries a new key for its post without JavaScript (a reload or a
  // double submit of this rendering sends the same one: the same answer, one deal).
  const idempotencyKey = newIdempotencyKey();
  return renderSitePage(
    c,
    REQUEST_PAGE_TITLE,
    <RequestPage form={{ ...form, today, cities, idempotencyKey }} />,
    status,
  );
}

/** A signed-in customer finds their name and email already filled in. */
function prefill(c: Ctx): Partial<RequestValues> {
  const actor = c.var.actor;
  if (actor.kind !== "user" || actor.user.type !== "Customer") return {};
  return { firstname: actor.user.firstname, lastname: actor.user.lastname, email: actor.user.email };
}

export const dealRequestRoutes = new Hono<AppEnv>()
  // Links may choose the event type (?evenement=mariage) and the city (?ville=Lyon, from a city page).
  .get("/", (c) =>
    page(c, {
      initial: {
        ...EMPTY_REQUEST,
        ...prefill(c),
        type_d_evenement: eventTypeFromQuery(c.req.query("evenement")),
        ville: (c.req.query("ville") ?? "").trim().slice(0, 120),
      },
    }))
  .post("/", idempotent(), async (c) => {
    const values = valuesFromForm(await readBody(c));
    try {
      const outcome = await requestQuote(c.var.deps, c.var.actor, clientOf(c), requestPayload(values));
      return await page(c, { initial: values, outcome });
    } catch (error) {
      if (!(error instanceof AppError) || !["validation", "too_many_requests"].includes(error.code)) {
        throw error;
      }
      return await page(c, { initial: values, errors: error.fields, formError: error.message }, error.status);
    }
  });
