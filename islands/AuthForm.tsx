// Login / register form (spec 000 §2, §5, §8). Two modes; the form is sent only when every field
// passes the rules of lib/accounts/rules.ts (the server checks them again); a field's error clears as
// soon as it is edited; a refused form moves the focus to its first field in error, scrolled into view
// (a long registration form in a dialog otherwise hides its errors). On success it dispatches an
// `after-login` event and, unless embedded with `stayOnPage`, goes to /after/login.
import { useEffect, useRef, useState } from "react";
import { api, ApiError, postField, submitOnce } from "../components/ui/api.ts";
import { keepNoticeForReload } from "../components/payments/client.ts";
import { loginInvitation } from "../lib/payments/rules.ts";
import { errorId, FieldError, fieldId, FormNotice, TextField } from "../components/form/Field.tsx";
import {
  EMAIL_TAKEN,
  isEmailShape,
  isPhoneLike,
  PHONE_TAKEN,
  REGISTRATION_INVALID,
  registrationErrors,
  REQUIRED,
  toIsoDate,
} from "../lib/accounts/rules.ts";

export interface AuthFormProps {
  mode?: "login" | "register";
  redirect?: string;
  /** In a dialog: stay on the page after login (the page listens to `after-login`). */
  stayOnPage?: boolean;
  /** What the visitor may do once signed in (a quote page's 'Vous pouvez désormais régler votre
   * acompte'): announced above the form as an invitation ('Connectez-vous … pour régler votre
   * acompte'), and said after the login, by the payment block of the reloaded page. */
  message?: string;
  /** In a dialog: told when the visitor switches between login and registration (the dialog's width
   * follows the card's). */
  onModeChange?: (mode: "login" | "register") => void;
}

type Fields = Record<string, string>;

const FORM = "auth";
const EMPTY_REGISTRATION = {
  name: "",
  siren: "",
  firstname: "",
  lastname: "",
  birthdate: "",
  address: "",
  zipcode: "",
  city: "",
  phone: "",
  email: "",
  password: "",
  passwordConfirmation: "",
};
const CONSENTS = { terms: false, privacy: false, age: false, optin: false };

const today = () => new Date().toISOString().slice(0, 10);
const without = (fields: Fields, name: string) => {
  const { [name]: _gone, ...rest } = fields;
  return rest;
};

export default function AuthForm(
  { mode: initialMode = "login", redirect, stayOnPage, message, onModeChange }: AuthFormProps,
) {
  const [mode, setMode] = useState(initialMode);
  const [login, setLogin] = useState({ username: "", password: "" });
  const [form, setForm] = useState(EMPTY_REGISTRATION);
  const [consents, setConsents] = useState(CONSENTS);
  const [professional, setProfessional] = useState(false);
  const [errors, setErrors] = useState<Fields>({});
  const [taken, setTaken] = useState<Fields>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const checks = useRef<number | undefined>(undefined);
  const card = useRef<HTMLDivElement>(null);
  // Set when a submission is refused: the next render focuses the first field in error.
  const focusError = useRef(false);

  useEffect(() => {
    if (!focusError.current) return;
    focusError.current = false;
    const first = card.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    first.focus({ preventScroll: true });
    first.scrollIntoView({ block: "center" });
  }, [errors, formError]);

  // Live existence checks when the email or phone changes (spec 000 §5), once they look complete.
  useEffect(() => {
    if (mode !== "register") return;
    clearTimeout(checks.current);
    checks.current = setTimeout(async () => {
      const next: Fields = {};
      try {
        if (
          isEmailShape(form.email.trim()) && (await postField("/email/exists", "email", form.email)).exists
        ) {
          next.email = EMAIL_TAKEN;
        }
        if (isPhoneLike(form.phone) && (await postField("/phone/exists", "phone", form.phone)).exists) {
          next.phone = PHONE_TAKEN;
        }
      } catch {
        // Existence checks are a convenience: failures are ignored, the server checks again.
      }
      setTaken(next);
    }, 400) as unknown as number;
    return () => clearTimeout(checks.current);
  }, [mode, form.email, form.phone]);

  const done = (user: unknown) => {
    if (message && stayOnPage) keepNoticeForReload(message, "success");
    globalThis.dispatchEvent(new CustomEvent("after-login", { detail: user }));
    if (!stayOnPage) {
      globalThis.location.href = `/after/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ""}`;
    }
  };

  const fail = (error: unknown, fallback: string) => {
    focusError.current = true;
    if (error instanceof ApiError) {
      setErrors(error.body.errors ?? {});
      setFormError(error.body.message ?? error.body.error ?? fallback);
    } else setFormError(fallback);
  };

  const submitLogin = async (event: Event) => {
    event.preventDefault();
    const missing: Fields = {};
    if (!login.username.trim()) missing.username = REQUIRED;
    if (!login.password) missing.password = REQUIRED;
    setErrors(missing);
    focusError.current = Object.keys(missing).length > 0;
    if (Object.keys(missing).length) return setFormError(REGISTRATION_INVALID);
    setBusy(true);
    setFormError("");
    try {
      done(await api("POST", "/api/security/login", login));
    } catch (error) {
      fail(error, "Une erreur est survenue lors de la connexion.");
    } finally {
      setBusy(false);
    }
  };

  const submitRegister = async (event: Event) => {
    event.preventDefault();
    const payload = {
      ...form,
      ...consents,
      professional,
      ...(professional ? {} : { name: "", siren: "" }),
    };
    const trimmed = Object.fromEntries(
      Object.entries(payload).map((
        [k, v],
      ) => [k, typeof v === "string" && !k.startsWith("password") ? v.trim() : v]),
    ) as typeof payload;
    const found = {
      ...registrationErrors(
        {
          ...trimmed,
          siren: trimmed.siren.replace(/\s/g, ""),
          email: trimmed.email.toLowerCase(),
          birthdate: toIsoDate(trimmed.birthdate) ?? (trimmed.birthdate ? "invalid" : ""),
        },
        today(),
      ),
      ...taken,
    };
    setErrors(found);
    focusError.current = Object.keys(found).length > 0;
    if (Object.keys(found).length) return setFormError(REGISTRATION_INVALID);
    setBusy(true);
    setFormError("");
    try {
      done(await submitOnce("/api/security/registration", payload));
    } catch (error) {
      fail(error, "Une erreur est survenue lors de l'inscription.");
    } finally {
      setBusy(false);
    }
  };

  const switchTo = (next: "login" | "register") => (event: Event) => {
    event.preventDefault();
    setErrors({});
    setFormError("");
    setMode(next);
    onModeChange?.(next);
  };

  const field = (
    name: keyof typeof EMPTY_REGISTRATION,
    label: string,
    type = "text",
    autoComplete?: string,
  ) => (
    <TextField
      form={FORM}
      name={name}
      label={label}
      type={type}
      autoComplete={autoComplete}
      value={form[name]}
      error={taken[name] ?? errors[name]}
      onInput={(v) => {
        setForm({ ...form, [name]: v });
        // A message about this field no longer applies once it is edited.
        if (errors[name]) setErrors(without(errors, name));
        if (taken[name]) setTaken(without(taken, name));
      }}
    />
  );

  const consent = (name: keyof typeof CONSENTS, label: preact.ComponentChildren) => (
    <div>
      <label class="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          id={fieldId(FORM, name)}
          name={name}
          aria-invalid={errors[name] ? "true" : undefined}
          aria-describedby={errors[name] ? errorId(FORM, name) : undefined}
          checked={consents[name]}
          onChange={(e) => {
            setConsents({ ...consents, [name]: (e.target as HTMLInputElement).checked });
            if (errors[name]) setErrors(without(errors, name));
          }}
          class="mt-0.5 h-4 w-4 accent-brand-500"
        />
        <span>{label}</span>
      </label>
      <FieldError form={FORM} name={name} message={errors[name]} />
    </div>
  );

  return (
    <div
      ref={card}
      class={`mx-auto w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${
        mode === "login" ? "max-w-[500px]" : "max-w-[800px]"
      }`}
      data-testid="auth-card"
      data-mode={mode}
    >
      {message && (
        <div class="mb-4">
          <FormNotice type="info" testId="login-invitation">{loginInvitation(message)}</FormNotice>
        </div>
      )}
      {formError && (
        <div class="mb-4">
          <FormNotice type="error" testId="form-error">{formError}</FormNotice>
        </div>
      )}
      {mode === "login"
        ? (
          <form onSubmit={submitLogin} noValidate class="space-y-4">
            <h1 class="text-2xl font-bold">Connexion</h1>
            <TextField
              form={FORM}
              name="username"
              label="Email"
              type="email"
              autoComplete="username"
              value={login.username}
              error={errors.username}
              onInput={(v) => {
                setLogin({ ...login, username: v });
                if (errors.username) setErrors(without(errors, "username"));
              }}
            />
            <TextField
              form={FORM}
              name="password"
              label="Mot de passe"
              type="password"
              autoComplete="current-password"
              value={login.password}
              error={errors.password}
              onInput={(v) => {
                setLogin({ ...login, password: v });
                if (errors.password) setErrors(without(errors, "password"));
              }}
            />
            <div class="flex items-center justify-between text-sm">
              <a href="/forgotten-password" class="text-brand-600 hover:underline">Mot de passe oublié ?</a>
            </div>
            <button
              type="submit"
              disabled={busy}
              class="w-full rounded-full bg-brand-500 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
            >
              Se connecter
            </button>
            <p class="text-center text-sm">
              <a
                href="/login?mode=register"
                onClick={switchTo("register")}
                class="text-brand-600 hover:underline"
              >
                Pas encore de compte / inscription
              </a>
            </p>
          </form>
        )
        : (
          <form onSubmit={submitRegister} noValidate class="space-y-4">
            <h1 class="text-2xl font-bold">Inscription</h1>
            <label class="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                name="professional"
                checked={professional}
                onChange={(e) => setProfessional((e.target as HTMLInputElement).checked)}
                class="h-4 w-4 accent-brand-500"
              />
              Je suis un professionnel
            </label>
            <div class="grid gap-4 md:grid-cols-2">
              {professional && field("name", "Nom de la société", "text", "organization")}
              {professional && field("siren", "SIREN")}
              {field("firstname", "Prénom", "text", "given-name")}
              {field("lastname", "Nom", "text", "family-name")}
              {field("birthdate", "Date de naissance", "date", "bday")}
              {field("phone", "Téléphone", "tel", "tel")}
              {field("address", "Adresse", "text", "street-address")}
              {field("zipcode", "Code postal", "text", "postal-code")}
              {field("city", "Ville", "text", "address-level2")}
              {field("email", "Email", "email", "email")}
              {field("password", "Mot de passe", "password", "new-password")}
              {field("passwordConfirmation", "Confirmation du mot de passe", "password", "new-password")}
            </div>
            <div class="space-y-2">
              {consent(
                "terms",
                <>
                  J'accepte les{" "}
                  <a href="/cgu-cgv" target="_blank" class="text-brand-600 underline">conditions générales</a>
                </>,
              )}
              {consent(
                "privacy",
                <>
                  J'accepte la{" "}
                  <a href="/politique-de-confidentialite" target="_blank" class="text-brand-600 underline">
                    politique de confidentialité
                  </a>
                </>,
              )}
              {consent("age", "Je certifie avoir plus de 18 ans")}
              {consent("optin", "J'accepte d'être contacté dans le cadre de l'organisation de mon événement")}
            </div>
            <button
              type="submit"
              disabled={busy}
              class="w-full rounded-full bg-brand-500 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
            >
              S'inscrire
            </button>
            <p class="text-center text-sm">
              <a href="/login" onClick={switchTo("login")} class="text-brand-600 hover:underline">
                J'ai déjà un compte / connexion
              </a>
            </p>
          </form>
        )}
    </div>
  );
}
