// Admin impersonation, mounted at /admin: an admin takes a user's identity, and comes back. Guard: a
// signed-in user (the use cases check the admin right and the impersonation state). Both are POSTs,
// which the CSRF check refuses from another site; GET /admin/switch-back changes nothing and asks to
// confirm with the same button as the 'Mode Administrateur' bar.
import { Hono } from "hono";
import { type AppEnv, uuidParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { setSessionCookie } from "../lib/http/cookies.ts";
import { impersonate, impersonatingAdmin, switchBack } from "../lib/auth/actions.ts";
import { homeFor } from "../lib/dashboard/menu.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { ConfirmActionPage } from "../components/auth/pages.tsx";
import { displayName } from "../components/layout/DashboardLayout.tsx";

export const impersonationRoutes = new Hono<AppEnv>()
  .use(requireUser("page"))
  .post("/switch/:userId", async (c) => {
    const token = await impersonate(
      c.var.deps,
      c.var.actor,
      uuidParam(c, "userId", "Utilisateur introuvable."),
    );
    setSessionCookie(c, token);
    return c.redirect("/dashboard", 303);
  })
  .get("/switch-back", (c) => {
    const { actor } = impersonatingAdmin(c.var.actor);
    return renderSitePage(
      c,
      "Mode Administrateur",
      <ConfirmActionPage
        title="Mode Administrateur"
        question={`Vous êtes connecté en tant que ${
          displayName(actor.user)
        }. Revenir à votre compte administrateur ?`}
        action="/admin/switch-back"
        button="Revenir à mon compte"
        testId="switch-back-confirm"
      />,
    );
  })
  .post("/switch-back", async (c) => {
    setSessionCookie(c, await switchBack(c.var.deps, c.var.actor));
    return c.redirect(homeFor("Admin"), 303);
  });
