// The quote request form's four sections: the event, the place, the bar and the cocktails, the contact.
import {
  durationLabel,
  DURATIONS_MINUTES,
  EVENT_TYPES,
  FIELDS,
  START_TIMES,
} from "../../../lib/deals/rules.ts";
import { FieldError, fieldId, inputClass, Label } from "../../form/Field.tsx";
import { REQUEST_LIMITS, type RequestValues } from "./rules.ts";
import { describedBy, fieldsOf, FORM, Hint, type RequestFormState, Section } from "./fields.tsx";

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

/** 1. The event: type, date (not before `today`), start time, guests, duration. */
export function EventSection({ form, today }: { form: RequestFormState; today: string }) {
  const { text, select } = fieldsOf(form);
  return (
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
          extra: { min: today },
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
  );
}

/** 2. The place: city (with suggestions), distance, precise address. */
export function PlaceSection({ form, cities }: { form: RequestFormState; cities: string[] }) {
  const { text } = fieldsOf(form);
  const city = form.values.ville.trim();
  return (
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
        {cities.map((name) => <option key={name} value={name} />)}
      </datalist>
      {text("adresse_precise", "Adresse précise du lieu (facultatif)", {
        autoComplete: "street-address",
        extra: { maxLength: REQUEST_LIMITS.adresse_precise, placeholder: "Nom du lieu, rue, code postal" },
        hint: "Elle reste confidentielle : notre équipe la transmet au bartender seulement si c'est utile.",
      })}
    </Section>
  );
}

/** 3. The bar and the cocktails. */
export function BarSection({ form }: { form: RequestFormState }) {
  const { cards } = fieldsOf(form);
  return (
    <Section step={3} title="Le bar et les cocktails">
      {cards("bar_mobile", "Faut-il apporter un bar ?", FIELDS.bar_mobile.options, "sm:grid-cols-2")}
      {cards("type_de_recette", "Type de recettes", RECIPES, "sm:grid-cols-3")}
      <p class="-mt-2 text-xs text-slate-500">
        Les cartes signature et classiques proposent toujours au moins une variante sans alcool.
      </p>
      {cards("creation_de_recette", "Création de recettes sur mesure", CREATION, "sm:grid-cols-2")}
    </Section>
  );
}

/** 4. The contact, the message and the consent. */
export function ContactSection({ form }: { form: RequestFormState }) {
  const { text } = fieldsOf(form);
  const { values, errors, set } = form;
  return (
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
  );
}
