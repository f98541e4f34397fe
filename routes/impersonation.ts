// Admin impersonation, mounted at /admin: an admin takes a user's identity, and comes back. Guard: a
// signed-in user (the use cases check the admin right and the impersonation state).
import { Hono } from "hono";
import { type AppEnv, uuidParam } from "../lib/http/context.ts";
import { requireUser } from "../lib/http/guards.ts";
import { setSessionCookie } from "../lib/http/cookies.ts";
import { isForeignNavigation } from "../lib/http/security.ts";
import { impersonate, switchBack } from "../lib/auth/actions.ts";
import { homeFor } from "../lib/dashboard/menu.ts";

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
  // The spec's switch-back is a plain link: it acts only on navigations from this site or typed by
  // the user, never on a link or image from another site.
  .get("/switch-back", async (c) => {
    if (isForeignNavigation(c)) return c.redirect("/dashboard", 303);
    setSessionCookie(c, await switchBack(c.var.deps, c.var.actor));
    return c.redirect(homeFor("Admin"), 303);
  });
