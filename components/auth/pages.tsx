// Server-rendered auth pages: forgotten password and new password (no JavaScript needed).
import type { ComponentChildren } from "preact";
import { BUTTON_PRIMARY, FormNotice, TextField } from "../form/Field.tsx";
import { REGISTRATION_INVALID } from "../../lib/accounts/rules.ts";

function FormCard({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="px-4 py-12">
      <div class="mx-auto w-full max-w-[500px] rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 class="text-2xl font-bold">{title}</h1>
        {children}
      </div>
    </section>
  );
}

export function ResetPasswordForm(
  { token, errors = {} }: { token: string; errors?: Record<string, string> },
) {
  return (
    <FormCard title="Nouveau mot de passe">
      {Object.keys(errors).length > 0 && (
        <div class="mt-4">
          <FormNotice type="error">{REGISTRATION_INVALID}</FormNotice>
        </div>
      )}
      <form method="post" action={`/reset-password/${encodeURIComponent(token)}`} class="mt-4 space-y-4">
        <TextField
          form="reset"
          name="password"
          label="Mot de passe"
          type="password"
          autoComplete="new-password"
          required
          error={errors.password}
        />
        <TextField
          form="reset"
          name="passwordConfirmation"
          label="Confirmation du mot de passe"
          type="password"
          autoComplete="new-password"
          required
          error={errors.passwordConfirmation}
        />
        <button type="submit" class={`mt-5 w-full ${BUTTON_PRIMARY}`}>Enregistrer</button>
      </form>
    </FormCard>
  );
}

export function ForgottenPasswordPage({ sent, error }: { sent: boolean; error?: string }) {
  return (
    <FormCard title="Mot de passe oublié">
      {sent
        ? (
          <div class="mt-4">
            <FormNotice type="success">
              Si un compte existe pour cet email, vous allez recevoir un lien pour choisir un nouveau mot de
              passe. Il est valable une heure.
            </FormNotice>
          </div>
        )
        : (
          <form method="post" action="/forgotten-password" class="mt-4">
            <p class="text-sm text-slate-600">
              Indiquez l'email de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de
              passe.
            </p>
            <TextField
              class="mt-4 block"
              form="forgotten"
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              required
              error={error}
            />
            <button type="submit" class={`mt-5 w-full ${BUTTON_PRIMARY}`}>Envoyer le lien</button>
          </form>
        )}
      <p class="mt-6 text-center text-sm">
        <a href="/login" class="text-brand-600 hover:underline">Retour à la connexion</a>
      </p>
    </FormCard>
  );
}

/** What GET /logout and GET /admin/switch-back show: a question and a button that posts the action.
 * A GET never ends or changes a session (an image or a link could send it); the button's POST passes
 * the CSRF check (lib/http/security.ts). */
export function ConfirmActionPage(
  { title, question, action, button, testId }: {
    title: string;
    question: string;
    action: "/logout" | "/admin/switch-back";
    button: string;
    testId: string;
  },
) {
  return (
    <FormCard title={title}>
      <p class="mt-4 text-slate-700">{question}</p>
      <form method="post" action={action} class="mt-6" data-testid={testId}>
        <button type="submit" class={`w-full ${BUTTON_PRIMARY}`}>{button}</button>
      </form>
      <p class="mt-6 text-center text-sm">
        <a href="/dashboard" class="text-brand-600 hover:underline">Annuler</a>
      </p>
    </FormCard>
  );
}
