// The workshops' back office (admins): the API under /api/admin/session… and the dashboard's screens
// under /dashboard/admin/ateliers (plain forms: each POST calls the same use case as the API, then
// redirects with a flash message). Guard: an admin; the use cases check again, RLS a third time.
import { Hono } from "hono";
import { type AppEnv, type Ctx, idParam, readBody, success, uuidParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { addFlash } from "../lib/http/cookies.ts";
import { AppError } from "../lib/errors.ts";
import { renderBarePage, renderDashboardPage } from "../components/layout/render.tsx";
import { AdminDatePage, AdminSessionPage, AdminSessionsPage } from "../components/sessions/admin.tsx";
import { listSessionsAsAdmin, sessionAsAdmin } from "../lib/sessions/use_cases/admin_sessions.ts";
import { createSession, editSession } from "../lib/sessions/use_cases/save_session.ts";
import { createDate, editDate } from "../lib/sessions/use_cases/save_date.ts";
import { dateBookings } from "../lib/sessions/use_cases/date_bookings.ts";
import { adminDateJson, toUnix } from "../lib/sessions/offers.ts";
import { OPS_MESSAGES, SESSION_MESSAGES } from "../lib/sessions/rules.ts";
import { cancelSessionDate, closeDate } from "../lib/sessions/use_cases/date_operations.ts";
import { dateAttendees } from "../lib/sessions/use_cases/date_attendees.ts";
import { listUpcomingDates } from "../lib/sessions/use_cases/upcoming_dates.ts";
import { attendeeJson, attendeesCsv } from "../lib/sessions/attendees.ts";
import { SignInSheet } from "../components/sessions/SignInSheet.tsx";
import { CancelDatePage } from "../components/sessions/admin_dates.tsx";

const BASE = "/dashboard/admin/ateliers";
const sessionId = (c: Ctx) => idParam(c, "id", SESSION_MESSAGES.sessionNotFound);
const dateUuid = (c: Ctx) => uuidParam(c, "uuid", SESSION_MESSAGES.notFound);

// Mounted at /api/admin beside other capabilities' admin APIs: the guard covers this module's paths only.
export const adminSessionApiRoutes = new Hono<AppEnv>()
  .use("/sessions", requireUser("api", ["Admin"]))
  .use("/session/*", requireUser("api", ["Admin"]))
  .use("/sessions/*", requireUser("api", ["Admin"]))
  .get("/sessions", async (c) => success(c, await listSessionsAsAdmin(c.var.deps, c.var.actor)))
  .get("/sessions/upcoming", async (c) => {
    const dates = await listUpcomingDates(c.var.deps, c.var.actor);
    return success(c, dates.map((d) => ({ ...d, dtstart: toUnix(d.dtstart) })));
  })
  .post(
    "/session/date/:uuid/close",
    async (c) => success(c, null, await closeDate(c.var.deps, c.var.actor, dateUuid(c), true)),
  )
  .post(
    "/session/date/:uuid/reopen",
    async (c) => success(c, null, await closeDate(c.var.deps, c.var.actor, dateUuid(c), false)),
  )
  .post("/session/date/:uuid/cancel", async (c) => {
    const outcome = await cancelSessionDate(c.var.deps, c.var.actor, dateUuid(c));
    return success(c, outcome, outcome.already ? OPS_MESSAGES.alreadyCanceled : OPS_MESSAGES.canceled);
  })
  .get("/session/date/:uuid/attendees", async (c) => {
    const { date, attendees } = await dateAttendees(c.var.deps, c.var.actor, dateUuid(c));
    return success(c, { date: adminDateJson(date), attendees: attendees.map(attendeeJson) });
  })
  .get("/session/date/:uuid/attendees.csv", async (c) => {
    const { session, date, attendees } = await dateAttendees(c.var.deps, c.var.actor, dateUuid(c));
    const day = new Date(date.dtstart.getTime() + 3600_000).toISOString().slice(0, 10);
    c.header("content-type", "text/csv; charset=utf-8");
    c.header("content-disposition", `attachment; filename="inscrits-${session.slug}-${day}.csv"`);
    return c.body(attendeesCsv(attendees));
  })
  .get("/session/date/:uuid/sign-in-sheet", async (c) => {
    const data = await dateAttendees(c.var.deps, c.var.actor, dateUuid(c));
    return renderBarePage(c, `Émargement — ${data.session.title}`, <SignInSheet {...data} />);
  })
  .post("/sessions", async (c) => {
    const id = await createSession(c.var.deps, c.var.actor, await readBody(c));
    return success(c, { id }, "L'atelier a été créé.");
  })
  .get("/session/date/:uuid/bookings", async (c) => {
    const b = await dateBookings(c.var.deps, c.var.actor, dateUuid(c));
    return success(c, {
      date: adminDateJson(b.date),
      holds: b.holds.map((h) => ({ ...h, expiresAt: toUnix(h.expiresAt) })),
      registrations: b.registrations.map((r) => ({
        ...r,
        amount: r.amount / 100,
        createdAt: toUnix(r.createdAt),
      })),
      alerts: b.alerts,
    });
  })
  .patch("/session/date/:uuid", async (c) => {
    await editDate(c.var.deps, c.var.actor, dateUuid(c), await readBody(c));
    return success(c, null, "La date a été enregistrée.");
  })
  .get("/session/:id", async (c) => {
    const { session, dates } = await sessionAsAdmin(c.var.deps, c.var.actor, sessionId(c));
    return success(c, { ...session, dates: dates.map(adminDateJson) });
  })
  .patch("/session/:id", async (c) => {
    await editSession(c.var.deps, c.var.actor, sessionId(c), await readBody(c));
    return success(c, null, "L'atelier a été enregistré.");
  })
  .post("/session/:id/dates", async (c) => {
    const uuid = await createDate(c.var.deps, c.var.actor, sessionId(c), await readBody(c));
    return success(c, { uuid }, "La date a été ajoutée.");
  });

/** A form's POST: success → flash and redirect; a refusal → its messages as a flash, back to the form. */
async function formPost(c: Ctx, run: () => Promise<string>, back: string, message: string) {
  try {
    const to = await run();
    await addFlash(c, "success", message);
    return c.redirect(to, 303);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "validation") throw error;
    const details = Object.values(error.fields);
    await addFlash(c, "error", details.length ? details.join(" ") : error.message);
    return c.redirect(back, 303);
  }
}

/** A quick action's POST: its message as a flash (success or the refusal), then back. */
async function opsPost(c: Ctx, run: () => Promise<string>, back: string) {
  try {
    await addFlash(c, "success", await run());
  } catch (error) {
    if (!(error instanceof AppError) || !["conflict", "not_found", "validation"].includes(error.code)) {
      throw error;
    }
    await addFlash(c, "error", error.message);
  }
  return c.redirect(back, 303);
}

/** The list's quick actions come back to the list, the date page's to the date page. */
const backTo = (c: Ctx, uuid: string) => c.req.query("retour") === "liste" ? BASE : `${BASE}/date/${uuid}`;

export const adminSessionPageRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]))
  .get("/", async (c) =>
    renderDashboardPage(
      c,
      "Ateliers cocktails",
      <AdminSessionsPage
        sessions={await listSessionsAsAdmin(c.var.deps, c.var.actor)}
        upcoming={await listUpcomingDates(c.var.deps, c.var.actor)}
      />,
    ))
  .post("/", async (c) => {
    const body = await readBody(c);
    return formPost(
      c,
      async () => `${BASE}/${await createSession(c.var.deps, c.var.actor, body)}`,
      BASE,
      "L'atelier a été créé.",
    );
  })
  .get("/date/:uuid/annuler", async (c) => {
    const bookings = await dateBookings(c.var.deps, c.var.actor, dateUuid(c));
    return renderDashboardPage(c, OPS_MESSAGES.cancelConfirmTitle, <CancelDatePage bookings={bookings} />);
  })
  .post("/date/:uuid/annuler", (c) => {
    const uuid = dateUuid(c);
    return opsPost(c, async () => {
      const outcome = await cancelSessionDate(c.var.deps, c.var.actor, uuid);
      return outcome.already ? OPS_MESSAGES.alreadyCanceled : OPS_MESSAGES.canceled;
    }, `${BASE}/date/${uuid}`);
  })
  .post("/date/:uuid/fermer", (c) => {
    const uuid = dateUuid(c);
    return opsPost(c, () => closeDate(c.var.deps, c.var.actor, uuid, true), backTo(c, uuid));
  })
  .post("/date/:uuid/rouvrir", (c) => {
    const uuid = dateUuid(c);
    return opsPost(c, () => closeDate(c.var.deps, c.var.actor, uuid, false), backTo(c, uuid));
  })
  .get("/date/:uuid", async (c) => {
    const bookings = await dateBookings(c.var.deps, c.var.actor, dateUuid(c));
    return renderDashboardPage(c, bookings.session.title, <AdminDatePage bookings={bookings} />);
  })
  .post("/date/:uuid", async (c) => {
    const uuid = dateUuid(c);
    const body = await readBody(c);
    const back = `${BASE}/date/${uuid}`;
    return formPost(
      c,
      async () => (await editDate(c.var.deps, c.var.actor, uuid, body), back),
      back,
      "La date a été enregistrée.",
    );
  })
  .get("/:id", async (c) => {
    const { session, dates } = await sessionAsAdmin(c.var.deps, c.var.actor, sessionId(c));
    return renderDashboardPage(c, session.title, <AdminSessionPage session={session} dates={dates} />);
  })
  .post("/:id", async (c) => {
    const id = sessionId(c);
    const body = await readBody(c);
    const back = `${BASE}/${id}`;
    return formPost(
      c,
      async () => (await editSession(c.var.deps, c.var.actor, id, body), back),
      back,
      "L'atelier a été enregistré.",
    );
  })
  .post("/:id/dates", async (c) => {
    const id = sessionId(c);
    const body = await readBody(c);
    const back = `${BASE}/${id}`;
    return formPost(
      c,
      async () => (await createDate(c.var.deps, c.var.actor, id, body), back),
      back,
      "La date a été ajoutée.",
    );
  });
