// Login / register form (spec 000 §2, §5, §8). Two modes; on success it dispatches an
// `after-login` event and, unless embedded with `stayOnPage`, goes to /after/login.
import { useEffect, useRef, useState } from "react";
import { api, ApiError, postField } from "../components/ui/api.ts";

export interface AuthFormProps {
  mode?: "login" | "register";
  redirect?: string;
  /** In a dialog: stay on the page after login (the page listens to `after-login`). */
  stayOnPage?: boolean;
  /** Message shown above the form (e.g. in the quote-payment context). */
  message?: string;
}

type Fields = Record<string, string>;

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
const CONSENTS = {
  terms: false,
  privacy: false,
  age: false,
  optin: false,
};

function FieldError({ message, id }: { message?: string; id: string }) {
  return message ? <p id={id} class="mt-1 text-xs text-red-600" data-error-for={id}>{message}</p> : null;
}

function TextField(
  { name, label, type = "text", value, error, onInput, autoComplete }: {
    name: string;
    label: string;
    type?: string;
    value: string;
    error?: string;
    onInput: (v: string) => void;
    autoComplete?: string;
  },
) {
  // The error sits after the label, tied to the input by aria-describedby, so that screen readers
  // read the field's name alone and then its error.
  return (
    <div class="text-sm">
      <label for={`field-${name}`} class="block font-medium text-slate-700">{label}</label>
      <input
        id={`field-${name}`}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        class={`mt-1 w-full rounded-lg border px-3 py-2 outline-none focus:ring-2 focus:ring-brand-500 ${
          error ? "border-red-500" : "border-slate-300"
        }`}
      />
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

export default function AuthForm(
  { mode: initialMode = "login", redirect, stayOnPage, message }: AuthFormProps,
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

  // Live existence checks on every change of the email or phone (spec 000 §5).
  useEffect(() => {
    if (mode !== "register") return;
    clearTimeout(checks.current);
    checks.current = setTimeout(async () => {
      const next: Fields = {};
      try {
        if (form.email.includes("@") && (await postField("/email/exists", "email", form.email)).exists) {
          next.email = "Cet email existe déjà chez nous.";
        }
        if (form.phone.trim().length >= 8 && (await postField("/phone/exists", "phone", form.phone)).exists) {
          next.phone = "Ce téléphone existe déjà chez nous.";
        }
      } catch {
        // Existence checks are a convenience: failures are ignored, the server checks again.
      }
      setTaken(next);
    }, 300) as unknown as number;
    return () => clearTimeout(checks.current);
  }, [mode, form.email, form.phone]);

  const done = (user: unknown) => {
    globalThis.dispatchEvent(new CustomEvent("after-login", { detail: user }));
    if (!stayOnPage) {
      globalThis.location.href = `/after/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ""}`;
    }
  };

  const fail = (error: unknown, fallback: string) => {
    if (error instanceof ApiError) {
      setErrors(error.body.errors ?? {});
      setFormError(error.body.message ?? error.body.error ?? fallback);
    } else setFormError(fallback);
  };

  const submitLogin = async (event: Event) => {
    event.preventDefault();
    const missing: Fields = {};
    if (!login.username.trim()) missing.username = "Ce champ est requis";
    if (!login.password) missing.password = "Ce champ est requis";
    setErrors(missing);
    if (Object.keys(missing).length) return setFormError("Veuillez renseigner tous les champs obligatoires");
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
    setBusy(true);
    setFormError("");
    try {
      const payload = professional ? { ...form, ...consents, professional } : {
        ...form,
        ...consents,
        name: "",
        siren: "",
        professional,
      };
      done(await api("POST", "/api/security/registration", payload));
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
  };

  const field = (
    name: keyof typeof EMPTY_REGISTRATION,
    label: string,
    type = "text",
    autoComplete?: string,
  ) => (
    <TextField
      name={name}
      label={label}
      type={type}
      autoComplete={autoComplete}
      value={form[name]}
      error={taken[name] ?? errors[name]}
      onInput={(v) => {
        setForm({ ...form, [name]: v });
        // A server message about this field no longer applies once it is edited.
        if (errors[name]) setErrors({ ...errors, [name]: "" });
      }}
    />
  );

  const consent = (name: keyof typeof CONSENTS, label: preact.ComponentChildren) => (
    <div>
      <label class="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={name}
          checked={consents[name]}
          onChange={(e) => setConsents({ ...consents, [name]: (e.target as HTMLInputElement).checked })}
          class="mt-0.5 h-4 w-4 accent-brand-500"
        />
        <span>{label}</span>
      </label>
      <FieldError id={`${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <div
      class={`mx-auto w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${
        mode === "login" ? "max-w-[500px]" : "max-w-[800px]"
      }`}
      data-testid="auth-card"
      data-mode={mode}
    >
      {message && <p class="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700">{message}</p>}
      {formError && (
        <p
          role="alert"
          class="mb-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700"
          data-testid="form-error"
        >
          {formError}
        </p>
      )}
      {mode === "login"
        ? (
          <form onSubmit={submitLogin} noValidate class="space-y-4">
            <h1 class="text-2xl font-bold">Connexion</h1>
            <TextField
              name="username"
              label="Email"
              type="email"
              autoComplete="username"
              value={login.username}
              error={errors.username}
              onInput={(v) => setLogin({ ...login, username: v })}
            />
            <TextField
              name="password"
              label="Mot de passe"
              type="password"
              autoComplete="current-password"
              value={login.password}
              error={errors.password}
              onInput={(v) => setLogin({ ...login, password: v })}
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
