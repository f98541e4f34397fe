// Login, registration, logout, post-login redirect, existence checks and password reset. Public: no
// guard (each use case checks what it needs).
import { Hono } from "hono";
import { type AppEnv, clientOf, type Ctx, field, readBody } from "../lib/http/context.ts";
import { idempotent } from "../lib/http/idempotency.ts";
import {
  addFlash,
  clearCartCookie,
  clearSessionCookie,
  readCartCookie,
  setSessionCookie,
} from "../lib/http/cookies.ts";
import { mergeCartAtLogin } from "../lib/sessions/use_cases/merge_cart.ts";
import { parseInput } from "../lib/validation.ts";
import { AppError } from "../lib/errors.ts";
import {
  EMAIL_INVALID,
  isEmailShape,
  passwordResetSchema,
  REGISTRATION_INVALID,
  registrationSchema,
} from "../lib/accounts/rules.ts";
import {
  emailExists,
  isResetTokenValid,
  login,
  logout,
  phoneExists,
  register,
  requestPasswordReset,
  RESET_LINK_INVALID,
  resetPassword,
  type SignedIn,
} from "../lib/auth/actions.ts";
import { safeRedirect } from "../lib/auth/policy.ts";
import { homeFor } from "../lib/dashboard/menu.ts";
import { fieldErrors } from "../lib/validation.ts";
import { renderSitePage } from "../components/layout/render.tsx";
import { ConfirmActionPage, ForgottenPasswordPage, ResetPasswordForm } from "../components/auth/pages.tsx";
import { Island } from "../components/Island.tsx";
import AuthForm from "../islands/AuthForm.tsx";

const today = () => new Date().toISOString().slice(0, 10);

/** The user, and a `token` that only tells client code it is logged in: the session is the cookie. A
 * customer's anonymous workshop cart joins its account. */
async function signedIn(c: Ctx, result: SignedIn) {
  setSessionCookie(c, result.token);
  const cart = readCartCookie(c);
  if (cart && result.user.type === "Customer") {
    // Signing in never fails because of the cart: the anonymous cart then simply stays with its cookie.
    try {
      await mergeCartAtLogin(c.var.deps, result.user, cart);
      clearCartCookie(c);
    } catch (error) {
      await c.var.deps.logger.error("sessions", "Rattachement du panier impossible", {
        error: String(error),
      });
    }
  }
  return c.json({ ...result.user, token: result.user.id });
}

const forgottenPage = (c: Ctx, sent: boolean, error = "") =>
  renderSitePage(
    c,
    "Mot de passe oublié",
    <ForgottenPasswordPage sent={sent} error={error} />,
    error ? 422 : 200,
  );

export const authRoutes = new Hono<AppEnv>()
  .get("/login", (c) => {
    if (c.var.actor.kind === "user") return c.redirect("/after/login", 303);
    const mode = c.req.query("mode") === "register" ? "register" : "login";
    const redirect = safeRedirect(c.req.query("redirect"), "");
    return renderSitePage(
      c,
      mode === "register" ? "Inscription" : "Connexion",
      <section class="px-4 py-12">
        <Island component={AuthForm} props={{ mode, ...(redirect ? { redirect } : {}) }} />
      </section>,
    );
  })
  .post("/api/security/login", async (c) => {
    const body = await readBody(c);
    const result = await login(c.var.deps, clientOf(c), {
      username: body.username ?? body.email,
      password: body.password,
    });
    if (result.reactivated) {
      await addFlash(c, "success", "Votre compte a été réactivé : sa suppression est annulée.");
    }
    return signedIn(c, result);
  })
  .post("/api/security/registration", idempotent(), async (c) => {
    const input = parseInput(registrationSchema(today()), await readBody(c), REGISTRATION_INVALID);
    const result = await register(c.var.deps, clientOf(c), input);
    await addFlash(c, "success", "Bienvenue ! Votre compte a bien été créé.");
    return signedIn(c, result);
  })
  // Logging out is a POST (the menus' 'Déconnexion' is a form button), which the CSRF check refuses
  // from another site. A GET changes nothing: an image or a link pointing at /logout ends no session;
  // someone who typed the address is asked to confirm with the same button.
  .get("/logout", (c) => {
    if (c.var.actor.kind !== "user") return c.redirect("/", 303);
    return renderSitePage(
      c,
      "Déconnexion",
      <ConfirmActionPage
        title="Déconnexion"
        question="Voulez-vous vous déconnecter ?"
        action="/logout"
        button="Se déconnecter"
        testId="logout-confirm"
      />,
    );
  })
  .post("/logout", async (c) => {
    await logout(c.var.deps, c.var.actor);
    clearSessionCookie(c);
    await addFlash(c, "info", "Vous êtes déconnecté.", { signedOut: true });
    return c.redirect("/", 303);
  })
  .get("/after/login", (c) => {
    const actor = c.var.actor;
    if (actor.kind !== "user") return c.redirect("/login", 303);
    return c.redirect(safeRedirect(c.req.query("redirect"), homeFor(actor.user.type)), 303);
  })
  .post("/email/exists", async (c) => {
    const body = await readBody(c);
    return c.json({ exists: await emailExists(c.var.deps, clientOf(c), body.email) });
  })
  .post("/phone/exists", async (c) => {
    const body = await readBody(c);
    return c.json({ exists: await phoneExists(c.var.deps, clientOf(c), body.phone) });
  })
  .get("/forgotten-password", (c) => forgottenPage(c, false))
  .post("/forgotten-password", async (c) => {
    const email = field(await readBody(c), "email").trim();
    if (!isEmailShape(email)) {
      return forgottenPage(c, false, EMAIL_INVALID);
    }
    await requestPasswordReset(c.var.deps, clientOf(c), email);
    return forgottenPage(c, true);
  })
  .get("/reset-password/:token", async (c) => {
    const token = c.req.param("token");
    if (!(await isResetTokenValid(c.var.deps, token))) throw new AppError("bad_request", RESET_LINK_INVALID);
    return renderSitePage(c, "Nouveau mot de passe", <ResetPasswordForm token={token} />);
  })
  .post("/reset-password/:token", async (c) => {
    const token = c.req.param("token");
    const result = passwordResetSchema().safeParse(await readBody(c));
    if (!result.success) {
      return renderSitePage(
        c,
        "Nouveau mot de passe",
        <ResetPasswordForm token={token} errors={fieldErrors(result.error)} />,
        422,
      );
    }
    await resetPassword(c.var.deps, token, result.data.password, clientOf(c));
    await addFlash(c, "success", "Votre mot de passe a été modifié. Vous pouvez vous connecter.");
    return c.redirect("/login", 303);
  });
