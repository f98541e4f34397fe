// Login, registration, logout, post-login redirect, existence checks and password reset.
import type { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../lib/errors.ts";
import { type AppEnv, type Ctx, readBody } from "../lib/http/context.ts";
import { addFlash, clearSessionCookie, setSessionCookie } from "../lib/http/cookies.ts";
import { renderSitePage } from "../lib/http/render.tsx";
import { Island } from "../components/Island.tsx";
import AuthForm from "../islands/AuthForm.tsx";
import { userClaims } from "../lib/db/database.ts";
import { getUser } from "../lib/accounts/users.ts";
import { passwordResetSchema, REGISTRATION_INVALID, registrationSchema } from "../lib/accounts/rules.ts";
import { parseInput } from "../lib/validation.ts";
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
} from "../lib/auth/service.ts";
import { safeRedirect } from "../lib/auth/policy.ts";
import { isForeignNavigation } from "../lib/http/security.ts";
import { homeFor } from "../lib/dashboard/menu.ts";

const today = () => new Date().toISOString().slice(0, 10);

async function respondWithUser(c: Ctx, userId: string, token: string) {
  setSessionCookie(c, token);
  const user = await c.var.deps.db.transaction(userClaims(userId), (tx) => getUser(tx, userId));
  // `token` only tells client code that it is logged in: the session itself is the HttpOnly cookie.
  return c.json({ ...user, token: user.id });
}

function FormCard({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <section class="px-4 py-12">
      <div class="mx-auto w-full max-w-[500px] rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 class="text-2xl font-bold">{title}</h1>
        {children}
      </div>
    </section>
  );
}

const inputClass = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2";
const buttonClass =
  "mt-5 w-full rounded-full bg-brand-500 py-2.5 font-semibold text-white hover:bg-brand-600";

function ResetForm({ token, errors = {} }: { token: string; errors?: Record<string, string> }) {
  return (
    <FormCard title="Nouveau mot de passe">
      {Object.keys(errors).length > 0 && (
        <p role="alert" class="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700">
          Veuillez renseigner tous les champs obligatoires
        </p>
      )}
      <form method="post" action={`/reset-password/${encodeURIComponent(token)}`} class="mt-4 space-y-4">
        <label class="block text-sm">
          <span class="font-medium">Mot de passe</span>
          <input name="password" type="password" autocomplete="new-password" class={inputClass} required />
          {errors.password && <span class="mt-1 block text-xs text-red-600">{errors.password}</span>}
        </label>
        <label class="block text-sm">
          <span class="font-medium">Confirmation du mot de passe</span>
          <input
            name="passwordConfirmation"
            type="password"
            autocomplete="new-password"
            class={inputClass}
            required
          />
          {errors.passwordConfirmation && (
            <span class="mt-1 block text-xs text-red-600">{errors.passwordConfirmation}</span>
          )}
        </label>
        <button type="submit" class={buttonClass}>Enregistrer</button>
      </form>
    </FormCard>
  );
}

export function authRoutes(app: Hono<AppEnv>) {
  app.get("/login", (c) => {
    if (c.var.session) return c.redirect("/after/login", 303);
    const mode = c.req.query("mode") === "register" ? "register" : "login";
    const redirect = safeRedirect(c.req.query("redirect"), "");
    return renderSitePage(
      c,
      mode === "register" ? "Inscription" : "Connexion",
      <section class="px-4 py-12">
        <Island component={AuthForm} props={{ mode, ...(redirect ? { redirect } : {}) }} />
      </section>,
    );
  });

  app.post("/api/security/login", async (c) => {
    const body = await readBody(c);
    const username = typeof body.username === "string"
      ? body.username
      : typeof body.email === "string"
      ? body.email
      : "";
    const password = typeof body.password === "string" ? body.password : "";
    const result = await login(c.var.deps, username, password, c.req.header("user-agent"));
    if (result.reactivated) {
      await addFlash(c, "success", "Votre compte a été réactivé : sa suppression est annulée.");
    }
    return respondWithUser(c, result.userId, result.token);
  });

  app.post("/api/security/registration", async (c) => {
    const input = parseInput(registrationSchema(today()), await readBody(c), REGISTRATION_INVALID);
    const { userId, token } = await register(c.var.deps, input, c.req.header("user-agent"));
    await addFlash(c, "success", "Bienvenue ! Votre compte a bien été créé.");
    return respondWithUser(c, userId, token);
  });

  const doLogout = async (c: Ctx) => {
    if (isForeignNavigation(c)) return c.redirect("/", 303);
    if (c.var.session) await logout(c.var.deps.db, c.var.session);
    clearSessionCookie(c);
    await addFlash(c, "info", "Vous êtes déconnecté.");
    return c.redirect("/", 303);
  };
  app.get("/logout", doLogout);
  app.post("/logout", doLogout);

  app.get("/after/login", (c) => {
    const session = c.var.session;
    if (!session) return c.redirect("/login", 303);
    return c.redirect(safeRedirect(c.req.query("redirect"), homeFor(session.user.type)), 303);
  });

  app.post("/email/exists", async (c) => {
    const body = await readBody(c);
    return c.json({ exists: await emailExists(c.var.deps.db, String(body.email ?? "")) });
  });
  app.post("/phone/exists", async (c) => {
    const body = await readBody(c);
    return c.json({ exists: await phoneExists(c.var.deps.db, String(body.phone ?? "")) });
  });

  const forgottenPage = (c: Ctx, sent: boolean, error = "") =>
    renderSitePage(
      c,
      "Mot de passe oublié",
      <FormCard title="Mot de passe oublié">
        {sent
          ? (
            <p class="mt-4 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-800" role="status">
              Si un compte existe pour cet email, vous allez recevoir un lien pour choisir un nouveau mot de
              passe. Il est valable une heure.
            </p>
          )
          : (
            <form method="post" action="/forgotten-password" class="mt-4">
              <p class="text-sm text-slate-600">
                Indiquez l'email de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de
                passe.
              </p>
              <label class="mt-4 block text-sm">
                <span class="font-medium">Email</span>
                <input name="email" type="email" autocomplete="email" class={inputClass} required />
                {error && <span class="mt-1 block text-xs text-red-600">{error}</span>}
              </label>
              <button type="submit" class={buttonClass}>Envoyer le lien</button>
            </form>
          )}
        <p class="mt-6 text-center text-sm">
          <a href="/login" class="text-brand-600 hover:underline">Retour à la connexion</a>
        </p>
      </FormCard>,
      error ? 422 : 200,
    );

  app.get("/forgotten-password", (c) => forgottenPage(c, false));
  app.post("/forgotten-password", async (c) => {
    const body = await readBody(c);
    const parsed = z.string().trim().min(1).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/).safeParse(body.email);
    if (!parsed.success) return forgottenPage(c, false, "L'email doit être valide.");
    await requestPasswordReset(c.var.deps, parsed.data);
    return forgottenPage(c, true);
  });

  app.get("/reset-password/:token", async (c) => {
    const token = c.req.param("token");
    if (!(await isResetTokenValid(c.var.deps.db, token))) {
      throw new AppError("bad_request", RESET_LINK_INVALID);
    }
    return renderSitePage(c, "Nouveau mot de passe", <ResetForm token={token} />);
  });
  app.post("/reset-password/:token", async (c) => {
    const token = c.req.param("token");
    const result = passwordResetSchema.safeParse(await readBody(c));
    if (!result.success) {
      const errors: Record<string, string> = {};
      for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
      return renderSitePage(c, "Nouveau mot de passe", <ResetForm token={token} errors={errors} />, 422);
    }
    await resetPassword(c.var.deps, token, result.data.password);
    await addFlash(c, "success", "Votre mot de passe a été modifié. Vous pouvez vous connecter.");
    return c.redirect("/login", 303);
  });
}
