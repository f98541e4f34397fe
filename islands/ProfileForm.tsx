// 'Mon profil' (spec 001 §2.10 and §5): personal info, company info by type, up to 5 additional
// emails, credentials, a fixed Save button, and the account deletion request with its 14-day grace.
import { useState } from "react";
import type { UserPayload } from "../lib/accounts/users.ts";
import { api, ApiError } from "../components/ui/api.ts";

export interface ProfileFormProps {
  user: UserPayload;
  birthYears: number[];
}

const MONTHS = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const GRACE_DAYS = 14;

type Errors = Record<string, string>;

function dateParts(unix: number | null) {
  if (unix === null) return { day: "", month: "", year: "" };
  const d = new Date(unix * 1000);
  return {
    day: String(d.getUTCDate()),
    month: String(d.getUTCMonth() + 1),
    year: String(d.getUTCFullYear()),
  };
}

const inputClass = (error?: string) =>
  `mt-1 w-full rounded-lg border px-3 py-2 outline-none focus:ring-2 focus:ring-brand-500 ${
    error ? "border-red-500" : "border-slate-300"
  }`;

function Section({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <section class="rounded-xl border border-slate-200 bg-white p-5">
      <h2 class="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Err({ name, errors }: { name: string; errors: Errors }) {
  return errors[name]
    ? (
      <p id={`profile-${name}-error`} class="mt-1 text-xs text-red-600" data-error-for={name}>
        {errors[name]}
      </p>
    )
    : null;
}

export default function ProfileForm({ user: initialUser, birthYears }: ProfileFormProps) {
  const [user, setUser] = useState(initialUser);
  const [form, setForm] = useState({
    firstname: user.firstname,
    lastname: user.lastname,
    address1: user.address1 ?? "",
    address2: user.address2 ?? "",
    zipcode: user.zipcode ?? "",
    city: user.city ?? "",
    phone: user.phone ?? "",
    name: user.name ?? "",
    siren: user.siren ?? "",
    vatNumber: user.vatNumber ?? "",
    password: "",
    passwordConfirmation: "",
  });
  const [vatExemption, setVatExemption] = useState(user.vatExemption);
  const [birth, setBirth] = useState(dateParts(user.birthdate));
  const [emails, setEmails] = useState<string[]>(user.emails);
  const [newEmail, setNewEmail] = useState("");
  const [emailError, setEmailError] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const text = (
    name: keyof typeof form,
    label: string,
    type = "text",
    extra: Record<string, unknown> = {},
  ) => (
    <div class="text-sm">
      <label for={`profile-${name}`} class="block font-medium text-slate-700">{label}</label>
      <input
        id={`profile-${name}`}
        name={name}
        type={type}
        value={form[name]}
        aria-invalid={errors[name] ? "true" : undefined}
        aria-describedby={errors[name] ? `profile-${name}-error` : undefined}
        class={inputClass(errors[name])}
        onInput={(e) => setForm({ ...form, [name]: (e.target as HTMLInputElement).value })}
        {...extra}
      />
      <Err name={name} errors={errors} />
    </div>
  );

  const addEmail = () => {
    const value = newEmail.trim().toLowerCase();
    if (emails.length >= 5) return setEmailError("Vous avez atteint le maximum de 5 emails supplémentaires.");
    if (!EMAIL_SHAPE.test(value)) return setEmailError("Le mail doit être valide.");
    if (emails.includes(value)) return setEmailError("Cet email est déjà dans la liste.");
    setEmails([...emails, value]);
    setNewEmail("");
    setEmailError("");
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const missing: Errors = {};
    if (!birth.day) missing.birthDay = "Le jour est requis.";
    if (!birth.month) missing.birthMonth = "Le mois est requis.";
    if (!birth.year) missing.birthYear = "L'année est requise.";
    if (Object.keys(missing).length) {
      setErrors(missing);
      return setNotice({ type: "error", text: "Veuillez renseigner toutes les informations obligatoires" });
    }
    const birthdate = `${birth.year}-${birth.month.padStart(2, "0")}-${birth.day.padStart(2, "0")}`;
    setBusy(true);
    try {
      const saved = await api<UserPayload>("PATCH", "/api/user/update", {
        ...form,
        vatExemption,
        birthdate,
        emails,
      });
      setUser(saved);
      setForm({ ...form, password: "", passwordConfirmation: "" });
      setErrors({});
      setNotice({ type: "success", text: "Les données ont été sauvegardées." });
    } catch (error) {
      const body = error instanceof ApiError ? error.body : {};
      setErrors(body.errors ?? {});
      setNotice({
        type: "error",
        text: body.message ?? "Veuillez renseigner toutes les informations obligatoires",
      });
    } finally {
      setBusy(false);
    }
  };

  const deletion = async (method: "DELETE" | "PATCH") => {
    if (
      method === "DELETE" &&
      !confirm("Voulez-vous vraiment supprimer votre compte ? Vous aurez 14 jours pour changer d'avis.")
    ) return;
    try {
      setUser(
        await api<UserPayload>(method, method === "DELETE" ? "/api/user/delete" : "/api/user/delete/cancel"),
      );
    } catch (error) {
      setNotice({
        type: "error",
        text: error instanceof ApiError ? error.message : "Une erreur est survenue.",
      });
    }
  };

  const days = Array.from({ length: 31 }, (_, i) => String(i + 1));
  const selectClass = (name: string) => `${inputClass(errors[name] ?? errors.birthdate)} bg-white`;
  const deletionDate = user.deletedAt
    ? new Date((user.deletedAt + GRACE_DAYS * 86400) * 1000).toLocaleDateString("fr-FR")
    : null;

  return (
    <form onSubmit={save} noValidate class="max-w-4xl space-y-6 pb-24" data-testid="profile-form">
      {notice && (
        <p
          role={notice.type === "error" ? "alert" : "status"}
          class={`rounded-lg px-4 py-3 text-sm ${
            notice.type === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-800"
          }`}
        >
          {notice.text}
        </p>
      )}

      <Section title="Informations personnelles">
        <div class="grid gap-4 md:grid-cols-2">
          {text("firstname", "Prénom", "text", { autoComplete: "given-name" })}
          {text("lastname", "Nom", "text", { autoComplete: "family-name" })}
          <fieldset class="md:col-span-2">
            <legend class="text-sm font-medium text-slate-700">Date de naissance</legend>
            <div class="grid grid-cols-3 gap-2">
              <label class="text-sm">
                <span class="sr-only">Jour</span>
                <select
                  name="birthDay"
                  class={selectClass("birthDay")}
                  value={birth.day}
                  onChange={(e) => setBirth({ ...birth, day: (e.target as HTMLSelectElement).value })}
                >
                  <option value="">Jour</option>
                  {days.map((d) => <option key={d} value={d}>{d}</option>)}
                </select>
                <Err name="birthDay" errors={errors} />
              </label>
              <label class="text-sm">
                <span class="sr-only">Mois</span>
                <select
                  name="birthMonth"
                  class={selectClass("birthMonth")}
                  value={birth.month}
                  onChange={(e) => setBirth({ ...birth, month: (e.target as HTMLSelectElement).value })}
                >
                  <option value="">Mois</option>
                  {MONTHS.map((m, i) => <option key={m} value={String(i + 1)}>{m}</option>)}
                </select>
                <Err name="birthMonth" errors={errors} />
              </label>
              <label class="text-sm">
                <span class="sr-only">Année</span>
                <select
                  name="birthYear"
                  class={selectClass("birthYear")}
                  value={birth.year}
                  onChange={(e) => setBirth({ ...birth, year: (e.target as HTMLSelectElement).value })}
                >
                  <option value="">Année</option>
                  {birthYears.map((y) => <option key={y} value={String(y)}>{y}</option>)}
                </select>
                <Err name="birthYear" errors={errors} />
              </label>
            </div>
            <Err name="birthdate" errors={errors} />
          </fieldset>
          {text("address1", "Adresse", "text", { autoComplete: "address-line1" })}
          {text("address2", "Complément d'adresse", "text", { autoComplete: "address-line2" })}
          {text("zipcode", "Code postal", "text", { autoComplete: "postal-code" })}
          {text("city", "Ville", "text", { autoComplete: "address-level2" })}
          {text("phone", "Téléphone", "tel", { autoComplete: "tel" })}
        </div>
      </Section>

      {user.type !== "Admin" && (
        <Section title="Informations de la société">
          <div class="grid gap-4 md:grid-cols-2">
            {user.type === "Customer" &&
              text("name", "Nom de la société", "text", { autoComplete: "organization" })}
            {text("siren", "SIREN", "text", { maxLength: 9, inputMode: "numeric" })}
            {user.type === "Company" &&
              text("vatNumber", "Numéro de TVA intracommunautaire", "text", { placeholder: "FR12345678901" })}
            {user.type === "Company" && (
              <label class="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="vatExemption"
                  checked={vatExemption}
                  onChange={(e) => setVatExemption((e.target as HTMLInputElement).checked)}
                  class="h-4 w-4 accent-brand-500"
                />
                Exonération de TVA
              </label>
            )}
          </div>
        </Section>
      )}

      <Section title="Emails de communication supplémentaires">
        <div class="flex gap-2">
          <input
            type="email"
            name="newEmail"
            value={newEmail}
            placeholder="autre.adresse@exemple.fr"
            class={`${inputClass(emailError)} mt-0`}
            onInput={(e) => setNewEmail((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                addEmail();
              }
            }}
          />
          <button
            type="button"
            onClick={addEmail}
            class="rounded-lg bg-slate-800 px-4 text-sm font-semibold text-white"
          >
            Ajouter
          </button>
        </div>
        {(emailError || errors.emails) && (
          <p class="mt-1 text-xs text-red-600" data-error-for="emails">{emailError || errors.emails}</p>
        )}
        {emails.length === 0
          ? <p class="mt-3 text-sm text-slate-500">Aucun email supplémentaire ajouté</p>
          : (
            <ul class="mt-3 space-y-2" data-testid="additional-emails">
              {emails.map((email) => (
                <li
                  key={email}
                  class="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 text-sm"
                >
                  {email}
                  <button
                    type="button"
                    aria-label={`Supprimer ${email}`}
                    class="text-red-600 hover:underline"
                    onClick={() => {
                      setEmails(emails.filter((e) => e !== email));
                      setEmailError("");
                    }}
                  >
                    Supprimer
                  </button>
                </li>
              ))}
            </ul>
          )}
      </Section>

      <Section title="Identifiants">
        <div class="grid gap-4 md:grid-cols-2">
          <label class="block text-sm md:col-span-2">
            <span class="font-medium text-slate-700">Email</span>
            <input
              name="email"
              type="email"
              value={user.email}
              readOnly
              class={`${inputClass()} bg-slate-100`}
            />
          </label>
          {text("password", "Nouveau mot de passe", "password", { autoComplete: "new-password" })}
          {text("passwordConfirmation", "Confirmation du mot de passe", "password", {
            autoComplete: "new-password",
          })}
        </div>
        <p class="mt-2 text-xs text-slate-500">
          Laissez vide pour garder votre mot de passe actuel (12 caractères minimum).
        </p>
      </Section>

      <Section title="Suppression du compte">
        {deletionDate
          ? (
            <div class="flex flex-wrap items-center gap-3 text-sm" data-testid="deletion-pending">
              <span>
                Votre compte sera supprimé le{" "}
                {deletionDate}. Vous pouvez annuler d'ici là, ou simplement vous reconnecter.
              </span>
              <button
                type="button"
                onClick={() => deletion("PATCH")}
                class="rounded-lg border border-slate-300 px-3 py-1.5"
              >
                Annuler la suppression
              </button>
            </div>
          )
          : (
            <div class="flex flex-wrap items-center gap-3 text-sm">
              <span>La suppression devient définitive 14 jours après votre demande.</span>
              <button
                type="button"
                onClick={() => deletion("DELETE")}
                class="rounded-lg border border-red-300 px-3 py-1.5 text-red-700"
              >
                Supprimer mon compte
              </button>
            </div>
          )}
      </Section>

      <div class="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3 lg:left-[255px]">
        <div class="mx-auto flex max-w-4xl justify-end">
          <button
            type="submit"
            disabled={busy}
            class="rounded-full bg-brand-500 px-8 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
          >
            Enregistrer
          </button>
        </div>
      </div>
    </form>
  );
}
