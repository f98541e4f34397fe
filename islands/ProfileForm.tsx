// 'Mon profil' (spec 001 §2.10 and §5): personal info, company info by type, up to 5 additional
// emails, credentials, a fixed Save bar, and the account deletion request with its 14-day grace.
// Every field is checked with the rules of lib/accounts/rules.ts before sending (the server checks them
// again); a field's error clears as soon as it is edited; the result shows by the Save bar, where the
// user is.
import { useEffect, useState } from "react";
import type { JSX } from "preact";
import type { UserPayload } from "../lib/accounts/store.ts";
import { api, ApiError } from "../components/ui/api.ts";
import { errorId, FieldError, fieldId, inputClass, TextField } from "../components/form/Field.tsx";
import {
  additionalEmailError,
  BIRTH_PART_REQUIRED,
  DELETION_GRACE_DAYS,
  displayPhone,
  FRENCH_MONTHS,
  hasVatNumberField,
  normalizeEmail,
  PROFILE_INVALID,
  PROFILE_SAVED,
  profileErrors,
  SIREN_MAX_LENGTH,
} from "../lib/accounts/rules.ts";

export interface ProfileFormProps {
  user: UserPayload;
  birthYears: number[];
}

type Errors = Record<string, string>;
type Notice = { type: "success" | "error"; text: string };

const FORM = "profile";
const NOTICE_MS = 5000;

function dateParts(unix: number | null) {
  if (unix === null) return { day: "", month: "", year: "" };
  const d = new Date(unix * 1000);
  return {
    day: String(d.getUTCDate()),
    month: String(d.getUTCMonth() + 1),
    year: String(d.getUTCFullYear()),
  };
}

function Section({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <section class="rounded-xl border border-slate-200 bg-white p-5">
      <h2 class="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

const formOf = (user: UserPayload) => ({
  firstname: user.firstname,
  lastname: user.lastname,
  address1: user.address1 ?? "",
  address2: user.address2 ?? "",
  zipcode: user.zipcode ?? "",
  city: user.city ?? "",
  phone: displayPhone(user.phone),
  name: user.name ?? "",
  siren: user.siren ?? "",
  vatNumber: user.vatNumber ?? "",
  password: "",
  passwordConfirmation: "",
});

// The birth date's <option>s are built once, not at each render (125 elements, a third of the profile
// page's server rendering): Preact clones a reused element where it needs to.
const optionsOf = (pairs: [string, string][]) =>
  pairs.map(([value, text]) => <option key={value} value={value}>{text}</option>);
const DAY_OPTIONS = optionsOf(Array.from({ length: 31 }, (_, i) => [String(i + 1), String(i + 1)]));
const MONTH_OPTIONS = optionsOf(FRENCH_MONTHS.map((m, i) => [String(i + 1), m]));
let years: { first: number | undefined; options: JSX.Element[] } = { first: undefined, options: [] };
function yearOptions(list: number[]): JSX.Element[] {
  if (years.first !== list[0] || years.options.length !== list.length) {
    years = { first: list[0], options: optionsOf(list.map((y) => [String(y), String(y)])) };
  }
  return years.options;
}

export default function ProfileForm({ user: initialUser, birthYears }: ProfileFormProps) {
  const [user, setUser] = useState(initialUser);
  const [form, setForm] = useState(formOf(initialUser));
  const [vatExemption, setVatExemption] = useState(user.vatExemption);
  const [birth, setBirth] = useState(dateParts(user.birthdate));
  const [emails, setEmails] = useState<string[]>(user.emails);
  const [newEmail, setNewEmail] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  /** Forgets the messages about these fields: they no longer apply once edited. */
  const clear = (...names: string[]) => {
    if (!names.some((n) => errors[n])) return;
    const next = { ...errors };
    names.forEach((n) => delete next[n]);
    setErrors(next);
  };

  const text = (
    name: keyof typeof form,
    label: string,
    type = "text",
    extra: Record<string, unknown> = {},
  ) => (
    <TextField
      form={FORM}
      name={name}
      label={label}
      type={type}
      value={form[name]}
      error={errors[name]}
      onInput={(v) => {
        setForm({ ...form, [name]: v });
        clear(name, ...(name === "password" ? ["passwordConfirmation"] : []));
      }}
      extra={extra}
    />
  );

  const addEmail = () => {
    const value = normalizeEmail(newEmail);
    const problem = additionalEmailError(emails, value);
    if (problem) return setErrors({ ...errors, emails: problem });
    setEmails([...emails, value]);
    setNewEmail("");
    clear("emails");
  };

  const birthdate = () =>
    birth.day && birth.month && birth.year
      ? `${birth.year}-${birth.month.padStart(2, "0")}-${birth.day.padStart(2, "0")}`
      : "";

  const save = async (event: Event) => {
    event.preventDefault();
    const found: Errors = {};
    if (!birth.day) found.birthDay = BIRTH_PART_REQUIRED.day;
    if (!birth.month) found.birthMonth = BIRTH_PART_REQUIRED.month;
    if (!birth.year) found.birthYear = BIRTH_PART_REQUIRED.year;
    const input = {
      ...Object.fromEntries(
        Object.entries(form).map(([k, v]) => [k, k.startsWith("password") ? v : v.trim()]),
      ) as typeof form,
      siren: form.siren.replace(/\s/g, ""),
      vatNumber: form.vatNumber.replace(/\s/g, "").toUpperCase(),
      birthdate: birthdate(),
      vatExemption,
      emails,
    };
    const ruleErrors = profileErrors(input, user.type, new Date().toISOString().slice(0, 10));
    // The birth date's parts have their own messages; its rule (age, real date) shows under the group.
    if (Object.keys(found).length) delete ruleErrors.birthdate;
    Object.assign(found, ruleErrors);
    setErrors(found);
    if (Object.keys(found).length) return setNotice({ type: "error", text: PROFILE_INVALID });
    setBusy(true);
    try {
      const saved = await api<UserPayload>("PATCH", "/api/user/update", { ...input, vatExemption, emails });
      setUser(saved);
      setForm(formOf(saved));
      setErrors({});
      setNotice({ type: "success", text: PROFILE_SAVED });
    } catch (error) {
      const body = error instanceof ApiError ? error.body : {};
      setErrors(body.errors ?? {});
      setNotice({ type: "error", text: body.message ?? PROFILE_INVALID });
    } finally {
      setBusy(false);
    }
  };

  const deletion = async (method: "DELETE" | "PATCH") => {
    if (
      method === "DELETE" &&
      !confirm(
        `Voulez-vous vraiment supprimer votre compte ? Vous aurez ${DELETION_GRACE_DAYS} jours pour changer d'avis.`,
      )
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

  const birthSelect = (
    part: "day" | "month" | "year",
    name: string,
    label: string,
    options: JSX.Element[],
  ) => (
    <label class="text-sm">
      <span class="sr-only">{label}</span>
      <select
        id={fieldId(FORM, name)}
        name={name}
        aria-label={label}
        // Its own message, else the date's (age, real date) shown under the group.
        aria-invalid={errors[name] || errors.birthdate ? "true" : undefined}
        aria-describedby={errors[name]
          ? errorId(FORM, name)
          : errors.birthdate
          ? errorId(FORM, "birthdate")
          : undefined}
        class={`${inputClass(errors[name] ?? errors.birthdate)} bg-white`}
        value={birth[part]}
        onChange={(e) => {
          setBirth({ ...birth, [part]: (e.target as HTMLSelectElement).value });
          clear(name, "birthdate");
        }}
      >
        <option value="">{label}</option>
        {options}
      </select>
      <FieldError form={FORM} name={name} message={errors[name]} />
    </label>
  );
  const deletionDate = user.deletedAt
    ? new Date((user.deletedAt + DELETION_GRACE_DAYS * 86400) * 1000).toLocaleDateString("fr-FR")
    : null;

  return (
    <form onSubmit={save} noValidate class="max-w-4xl space-y-6 pb-28" data-testid="profile-form">
      <Section title="Informations personnelles">
        <div class="grid gap-4 md:grid-cols-2">
          {text("firstname", "Prénom", "text", { autoComplete: "given-name" })}
          {text("lastname", "Nom", "text", { autoComplete: "family-name" })}
          <fieldset class="md:col-span-2">
            <legend class="text-sm font-medium text-slate-700">Date de naissance</legend>
            <div class="grid grid-cols-3 gap-2">
              {birthSelect("day", "birthDay", "Jour", DAY_OPTIONS)}
              {birthSelect("month", "birthMonth", "Mois", MONTH_OPTIONS)}
              {birthSelect("year", "birthYear", "Année", yearOptions(birthYears))}
            </div>
            <FieldError form={FORM} name="birthdate" message={errors.birthdate} />
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
            {text("siren", "SIREN", "text", { maxLength: SIREN_MAX_LENGTH, inputMode: "numeric" })}
            {
              // A private customer has no VAT number; it appears once a company name or SIREN is typed.
              hasVatNumberField(user.type, form) &&
              text("vatNumber", "Numéro de TVA intracommunautaire", "text", { placeholder: "FR32123456789" })
            }
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
            id={fieldId(FORM, "newEmail")}
            name="newEmail"
            aria-label="Email supplémentaire"
            aria-invalid={errors.emails ? "true" : undefined}
            aria-describedby={errors.emails ? errorId(FORM, "emails") : undefined}
            value={newEmail}
            placeholder="autre.adresse@exemple.fr"
            class={`${inputClass(errors.emails)} mt-0`}
            onInput={(e) => {
              setNewEmail((e.target as HTMLInputElement).value);
              clear("emails");
            }}
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
        <FieldError form={FORM} name="emails" message={errors.emails} />
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
                      clear("emails");
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

      <Section title="Mes données personnelles">
        <div class="flex flex-wrap items-center gap-3 text-sm">
          <span>
            Téléchargez tout ce que nous conservons sur vous (profil, demandes, messages, réservations, bons
            cadeaux, paiements, documents, emails, consentements) dans un fichier JSON.{" "}
            <a href="/politique-de-confidentialite" class="underline">Vos droits</a>
          </span>
          <a
            href="/api/user/export"
            download
            data-testid="export-data"
            class="rounded-lg border border-slate-300 px-3 py-1.5"
          >
            Télécharger mes données
          </a>
        </div>
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
              <span>La suppression devient définitive {DELETION_GRACE_DAYS} jours après votre demande.</span>
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

      <div class="save-bar fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3">
        <div class="mx-auto flex max-w-4xl flex-wrap items-center justify-end gap-3">
          {notice && (
            <p
              role={notice.type === "error" ? "alert" : "status"}
              data-testid="profile-notice"
              class={`flex-1 rounded-lg px-4 py-2 text-sm font-medium ${
                notice.type === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-800"
              }`}
            >
              {notice.text}
            </p>
          )}
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
