// Admin pages, mounted at /dashboard/admin. Guard: an admin. The use cases check the role again and
// RLS a third time.
import { Hono } from "hono";
import { type AppEnv, currentUser, uuidParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { addFlash } from "../lib/http/cookies.ts";
import { listAccounts } from "../lib/accounts/actions.ts";
import { readOutbox, readOutboxEmail } from "../lib/mail/actions.ts";
import { EMAIL_VIEW_CSP, emailDocument } from "../components/mail/email_view.ts";
import { acceptApplication, listPartnerApplications, rejectApplication } from "../lib/partners/actions.ts";
import { renderDashboardPage } from "../components/layout/render.tsx";
import { ApplicationsPage, OutboxPage, UsersPage } from "../components/admin/pages.tsx";

const NO_APPLICATION = "Candidature introuvable.";

export const adminRoutes = new Hono<AppEnv>()
  .use(requireUser("page", ["Admin"]))
  .get("/utilisateurs", async (c) => {
    const search = c.req.query("q") ?? "";
    const users = await listAccounts(c.var.deps, c.var.actor, search);
    return renderDashboardPage(
      c,
      "Utilisateurs",
      <UsersPage users={users} search={search} selfId={currentUser(c).user.id} />,
    );
  })
  .get("/emails", async (c) => {
    return renderDashboardPage(
      c,
      "Emails envoyés",
      <OutboxPage
        emails={await readOutbox(c.var.deps, c.var.actor)}
        smtp={c.var.deps.config.smtpUrl !== ""}
      />,
    );
  })
  // One email as rendered HTML, sandboxed by its own CSP: its markup cannot run script in the admin's
  // origin, nor load anything but images.
  .get("/emails/:id/html", async (c) => {
    const email = await readOutboxEmail(c.var.deps, c.var.actor, uuidParam(c, "id"));
    c.header("Content-Security-Policy", EMAIL_VIEW_CSP);
    c.header("X-Frame-Options", "DENY");
    return c.html(emailDocument(email));
  })
  .get("/candidatures", async (c) => {
    const applications = await listPartnerApplications(c.var.deps, c.var.actor);
    return renderDashboardPage(
      c,
      "Candidatures partenaires",
      <ApplicationsPage applications={applications} />,
    );
  })
  .post("/candidatures/:id/accepter", async (c) => {
    await acceptApplication(c.var.deps, c.var.actor, uuidParam(c, "id", NO_APPLICATION));
    await addFlash(
      c,
      "success",
      "Le compte partenaire est créé : un email l'invite à choisir son mot de passe.",
    );
    return c.redirect("/dashboard/admin/candidatures", 303);
  })
  .post("/candidatures/:id/refuser", async (c) => {
    await rejectApplication(c.var.deps, c.var.actor, uuidParam(c, "id", NO_APPLICATION));
    await addFlash(c, "info", "La candidature est refusée.");
    return c.redirect("/dashboard/admin/candidatures", 303);
  });
