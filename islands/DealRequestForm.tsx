// The public quote request form (/demande-de-devis): the event, the place, the bar and the cocktails,
// the contact, then the instant estimate. Checked in the browser with the server's own messages
// (components/deals/request/rules.ts) before POST /api/deal/request; the server checks everything
// again and its field messages (422) or its limit (429) are shown as they come. Without JavaScript
// the same form posts to /demande-de-devis and the page answers.
import { useState } from "react";
import { api, ApiError } from "../components/ui/api.ts";
import {
  BUTTON_PRIMARY,
  errorId,
  FieldError,
  fieldId,
  FormNotice,
  inputClass,
  Label,
} from "../components/form/Field.tsx";
import { durationLabel, DURATIONS_MINUTES, EVENT_TYPES, FIELDS, START_TIMES } from "../lib/deals/rules.ts";
import {
  EMPTY_REQUEST,
  REQUEST_LIMITS,
  REQUEST_MESSAGES,
  requestErrors,
  type RequestField,
  type RequestOutcome,
  requestPayload,
  type RequestValues,
} from "../components/deals/request/rules.ts";
import { Estimate } from "../components/deals/request/Estimate.tsx";
import { estimateFromJson, type RequestEstimateJson } from "../lib/deals/estimate.ts";

export interface DealRequestFormProps {
  /** The server's date (YYYY-MM-DD): the earliest service date. */
  today: string;
  /** Suggestions for the city field. */
  cities: string[];
  initial?: Partial<RequestValues>;
  /** The server's answer to a post without JavaScript. */
  errors?: Partial<Record<string, string>>;
  formError?: string;
  outcome?: RequestOutcome | null;
}

type Errors = Partial<Record<string, string>>;

const FORM = "devis";

const RECIPES: { value: RequestValues["type_de_recette"]; label: string; hint: string }[] = [
  {
    value: "signature",
    label: "Cocktails signature",
    hint: "Les créations maison de votre bartender, pour surprendre vos invités.",
  },
  {
    value: "classic",
    label: "Cocktails classiques",
    hint: "Mojito, Spritz, Moscow Mule… les incontournables que tout le monde aime.",
  },
  {
    value: "mocktail",
    label: "Mocktails",
    hint: "Uniquement pour un menu entièrement sans alcool.",
  },
];

const CREATION = [
  { value: "false", label: "Non, la carte du bartender me convient" },
  { value: "true", label: "Oui, des recettes créées pour mon événement" },
];

const describedBy = (name: string, error?: string, hint = false) =>
  [hint ? `${fieldId(FORM, name)}-hint` : "", error ? errorId(FORM, name) : ""].filter(Boolean).join(" ") ||
  undefined;

function Hint({ name, children }: { name: string; children: preact.ComponentChildren }) {
  return <p id={`${fieldId(FORM, name)}-hint`} class="mt-1 text-xs text-slate-500">{children}</p>;
}

function Section(
  { step, title, children }: { step: number; title: string; children: preact.ComponentChildren },
) {
  return (
    <fieldset class="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm md:p-6">
      <legend class="float-left mb-1 flex w-full items-center gap-3 text-lg font-bold">
        <span class="flex h-7 w-7 items-center justify-center rounded-full bg-brand-500 text-sm text-white">
          {step}
        </span>
        {title}
      </legend>
      <div class="clear-both space-y-4">{children}</div>
    </fieldset>
  );
}

export default function DealRequestForm(props: DealRequestFormProps) {
  const [values, setValues] = useState<RequestValues>({ ...EMPTY_REQUEST, ...props.initial });
  const [errors, setErrors] = useState<Errors>(props.errors ?? {});
  const [formError, setFormError] = useState(props.formError ?? "");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<RequestOutcome | null>(props.outcome ?? null);
  const [sent, setSent] = useState<RequestValues>(values);

  const set = <K extends RequestField>(name: K, value: RequestValues[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A message about this field no longer applies once it is edited.
    if (errors[name]) {
      setErrors((e) => {
        const { [name]: _gone, ...rest } = e;
        return rest;
      });
    }
  };

  const focusFirst = (found: Errors) => {
    const first = Object.keys(found)[0];
    if (!first) return;
    setTimeout(() => {
      const el = document.getElementById(fieldId(FORM, first)) ??
        document.querySelector<HTMLElement>(`[name="${first}"]`);
      el?.focus();
      el?.scrollIntoView({ block: "center", behavior: "smooth" });
    }, 0);
  };

  /** Brings the top of the form (its message, or the estimate) into view. */
  const toTop = () =>
    setTimeout(() => document.getElementById(`${FORM}-top`)?.scrollIntoView({ behavior: "smooth" }), 0);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = requestErrors(values, props.today);
    setErrors(found);
    if (Object.keys(found).length) {
      setFormError(REQUEST_MESSAGES.form);
      return focusFirst(found);
    }
    setBusy(true);
    setFormError("");
    try {
      const answer = await api<{ results: { token: string; estimate: RequestEstimateJson } }>(
        "POST",
        "/api/deal/request",
        requestPayload(values),
      );
      setSent(values);
      setOutcome({ token: answer.results.token, estimate: estimateFromJson(answer.results.estimate) });
      toTop();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        const fields = error.body.errors ?? {};
        setErrors(fields);
        setFormError(
          error.status === 429
            ? error.body.message ?? REQUEST_MESSAGES.tooMany
            : error.body.message ?? REQUEST_MESSAGES.form,
        );
        if (Object.keys(fields).length) focusFirst(fields);
        else toTop();
      } else {
        setFormError(REQUEST_MESSAGES.unexpected);
        toTop();
      }
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    const { firstname, lastname, email, phone, consent } = sent;
    setValues({ ...EMPTY_REQUEST, firstname, lastname, email, phone, consent });
    setErrors({});
    setFormError("");
    setOutcome(null);
    toTop();
  };

  if (outcome) {
    return (
      <div id={`${FORM}-top`} class="scroll-mt-4">
        <Estimate outcome={outcome} values={sent} onRestart={restart} />
      </div>
    );
  }

  const text = (
    name: RequestField,
    label: string,
    options: {
      type?: string;
      autoComplete?: string;
      hint?: preact.ComponentChildren;
      extra?: Record<string, unknown>;
      class?: string;
    } = {},
  ) => (
    <div class={`text-sm ${options.class ?? ""}`}>
      <Label form={FORM} name={name}>{label}</Label>
      <input
        id={fieldId(FORM, name)}
        name={name}
        type={options.type ?? "text"}
        value={values[name] as string}
        autoComplete={options.autoComplete}
        aria-invalid={errors[name] ? "true" : undefined}
        aria-describedby={describedBy(name, errors[name], !!options.hint)}
        class={inputClass(errors[name])}
        onInput={(e) => set(name, (e.target as HTMLInputElement).value as never)}
        {...options.extra}
      />
      {options.hint && <Hint name={name}>{options.hint}</Hint>}
      <FieldError form={FORM} name={name} message={errors[name]} />
    </div>
  );

  const select = (
    name: RequestField,
    label: string,
    choices: { value: string; label: string }[],
    placeholder: string,
    hint?: preact.ComponentChildren,
  ) => (
    <div class="text-sm">
      <Label form={FORM} name={name}>{label}</Label>
      <select
        id={fieldId(FORM, name)}
        name={name}
        value={values[name] as string}
        aria-invalid={errors[name] ? "true" : undefined}
        aria-describedby={describedBy(name, errors[name], !!hint)}
        class={`${inputClass(errors[name])} bg-white`}
        onChange={(e) => set(name, (e.target as HTMLSelectElement).value as never)}
      >
        <option value="">{placeholder}</option>
        {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </select>
      {hint && <Hint name={name}>{hint}</Hint>}
      <FieldError form={FORM} name={name} message={errors[name]} />
    </div>
  );

  /** Radio choices drawn as cards: the whole card is the label. */
  const cards = (
    name: "bar_mobile" | "type_de_recette" | "creation_de_recette",
    legend: string,
    choices: { value: string; label: string; hint?: string }[],
    columns: string,
  ) => (
    <div class="text-sm" role="radiogroup" aria-labelledby={`${fieldId(FORM, name)}-legend`}>
      <p id={`${fieldId(FORM, name)}-legend`} class="font-medium text-slate-700">{legend}</p>
      <div class={`mt-2 grid gap-2 ${columns}`}>
        {choices.map((c) => {
          const checked = values[name] === c.value;
          return (
            <label
              key={c.value}
              class={`flex cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors ${
                checked
                  ? "border-brand-500 bg-brand-50 ring-1 ring-brand-500"
                  : "border-slate-300 hover:border-brand-500"
              }`}
            >
              <input
                type="radio"
                name={name}
                value={c.value}
                checked={checked}
                onChange={() => set(name, c.value as never)}
                class="mt-0.5 h-4 w-4 shrink-0 accent-brand-500"
                id={c === choices[0] ? fieldId(FORM, name) : undefined}
              />
              <span>
                <span class="block font-semibold">{c.label}</span>
                {c.hint && <span class="mt-0.5 block text-xs text-slate-600">{c.hint}</span>}
              </span>
            </label>
          );
        })}
      </div>
      <FieldError form={FORM} name={name} message={errors[name]} />
    </div>
  );

  const city = values.ville.trim();

  return (
    <form
      id={`${FORM}-top`}
      method="post"
      action="/demande-de-devis"
      noValidate
      onSubmit={submit}
      class="scroll-mt-4 space-y-5"
      data-testid="deal-request-form"
    >
      {formError && <FormNotice type="error" testId="form-error">{formError}</FormNotice>}

      <Section step={1} title="Votre événement">
        {select(
          "type_d_evenement",
          "Type d'événement",
          EVENT_TYPES.map((t) => ({ value: t, label: t })),
          "Choisissez le type d'événement",
        )}
        <div class="grid gap-4 sm:grid-cols-2">
          {text("deal_prestation_date", "Date de l'événement (facultatif)", {
            type: "date",
            extra: { min: props.today },
            hint: "Pas encore de date ? Laissez vide : votre devis indiquera « Date à confirmer ».",
          })}
          {select(
            "horaire_souhaite",
            "Horaire souhaité (facultatif)",
            START_TIMES.map((t) => ({ value: t, label: t.replace(":", "h") })),
            "À définir",
            "L'heure à laquelle le bar commence à servir.",
          )}
          {text("nombre_de_participants", "Nombre d'invités", {
            type: "number",
            extra: {
              min: REQUEST_LIMITS.guests[0],
              max: REQUEST_LIMITS.guests[1],
              step: 1,
              inputMode: "numeric",
              placeholder: "Par exemple 80",
            },
          })}
          {select(
            "duree_2_service",
            "Durée du service",
            DURATIONS_MINUTES.map((m) => ({ value: String(m), label: durationLabel(m) })),
            "Choisissez une durée",
            "Le temps pendant lequel vos invités sont servis.",
          )}
        </div>
      </Section>

      <Section step={2} title="Le lieu">
        <div class="grid gap-4 sm:grid-cols-2">
          {text("ville", "Ville", {
            autoComplete: "address-level2",
            extra: {
              list: `${FORM}-cities`,
              maxLength: REQUEST_LIMITS.ville,
              placeholder: "Par exemple Lyon",
            },
          })}
          {text("distance_en_km", "Distance en km (facultatif)", {
            type: "number",
            extra: {
              min: REQUEST_LIMITS.distance[0],
              max: REQUEST_LIMITS.distance[1],
              step: 1,
              inputMode: "numeric",
              placeholder: "0",
            },
            hint: `Distance approximative entre ${
              city || "la ville"
            } et le lieu de réception, pour les frais de déplacement. Laissez vide si le lieu est en ville.`,
          })}
        </div>
        <datalist id={`${FORM}-cities`}>
          {props.cities.map((name) => <option key={name} value={name} />)}
        </datalist>
        {text("adresse_precise", "Adresse précise du lieu (facultatif)", {
          autoComplete: "street-address",
          extra: { maxLength: REQUEST_LIMITS.adresse_precise, placeholder: "Nom du lieu, rue, code postal" },
          hint: "Elle reste confidentielle : notre équipe la transmet au bartender seulement si c'est utile.",
        })}
      </Section>

      <Section step={3} title="Le bar et les cocktails">
        {cards("bar_mobile", "Faut-il apporter un bar ?", FIELDS.bar_mobile.options, "sm:grid-cols-2")}
        {cards("type_de_recette", "Type de recettes", RECIPES, "sm:grid-cols-3")}
        <p class="-mt-2 text-xs text-slate-500">
          Les cartes signature et classiques proposent toujours au moins une variante sans alcool.
        </p>
        {cards("creation_de_recette", "Création de recettes sur mesure", CREATION, "sm:grid-cols-2")}
      </Section>

      <Section step={4} title="Vos coordonnées">
        <div class="grid gap-4 sm:grid-cols-2">
          {text("firstname", "Prénom", {
            autoComplete: "given-name",
            extra: { maxLength: REQUEST_LIMITS.name },
          })}
          {text("lastname", "Nom", {
            autoComplete: "family-name",
            extra: { maxLength: REQUEST_LIMITS.name },
          })}
          {text("email", "Email", {
            type: "email",
            autoComplete: "email",
            extra: { maxLength: REQUEST_LIMITS.email, inputMode: "email" },
          })}
          {text("phone", "Téléphone", {
            type: "tel",
            autoComplete: "tel",
            extra: { maxLength: REQUEST_LIMITS.phone, placeholder: "06 12 34 56 78" },
          })}
        </div>
        <div class="text-sm">
          <Label form={FORM} name="description">Votre message (facultatif)</Label>
          <textarea
            id={fieldId(FORM, "description")}
            name="description"
            rows={4}
            maxLength={REQUEST_LIMITS.description}
            value={values.description}
            aria-invalid={errors.description ? "true" : undefined}
            aria-describedby={describedBy("description", errors.description, true)}
            class={inputClass(errors.description)}
            placeholder="Thème de la soirée, contraintes du lieu, cocktails que vous aimez…"
            onInput={(e) => set("description", (e.target as HTMLTextAreaElement).value)}
          />
          <Hint name="description">
            {values.description.length} / {REQUEST_LIMITS.description} caractères
          </Hint>
          <FieldError form={FORM} name="description" message={errors.description} />
        </div>
        <div class="text-sm">
          <label class="flex items-start gap-2">
            <input
              id={fieldId(FORM, "consent")}
              type="checkbox"
              name="consent"
              value="true"
              checked={values.consent}
              aria-invalid={errors.consent ? "true" : undefined}
              aria-describedby={describedBy("consent", errors.consent)}
              onChange={(e) => set("consent", (e.target as HTMLInputElement).checked)}
              class="mt-0.5 h-4 w-4 shrink-0 accent-brand-500"
            />
            <span>
              J'accepte d'être contacté dans le cadre de l'organisation de mon événement (voir notre{" "}
              <a href="/politique-de-confidentialite" target="_blank" class="text-brand-600 underline">
                politique de confidentialité
              </a>).
            </span>
          </label>
          <FieldError form={FORM} name="consent" message={errors.consent} />
        </div>
      </Section>

      <div class="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:gap-4">
        <button
          type="submit"
          disabled={busy}
          class={`${BUTTON_PRIMARY} py-3 text-base`}
          data-testid="request-submit"
        >
          {busy ? "Envoi en cours…" : "Envoyer ma demande"}
        </button>
        <p class="text-center text-xs text-slate-500 sm:text-left">
          Estimation immédiate, gratuite et sans engagement.
        </p>
      </div>
    </form>
  );
}
