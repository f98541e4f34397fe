// 'Devenir partenaire': a bartending company applies. Server-rendered form, no JavaScript.
import {
  BUTTON_PRIMARY,
  errorId,
  FieldError,
  fieldId,
  FormNotice,
  inputClass,
  Label,
  TextField,
} from "../form/Field.tsx";
import { APPLICATION_INVALID, APPLICATION_SENT, MAX_MESSAGE_LENGTH } from "../../lib/partners/rules.ts";

const FORM = "apply";

export function ApplicationPage({ values = {}, errors = {}, sent = false }: {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  sent?: boolean;
}) {
  const text = (name: string, label: string, type = "text", autoComplete?: string) => (
    <TextField
      form={FORM}
      name={name}
      label={label}
      type={type}
      autoComplete={autoComplete}
      defaultValue={values[name] ?? ""}
      error={errors[name]}
      required
    />
  );
  return (
    <section class="mx-auto max-w-3xl px-4 py-12">
      <h1 class="text-3xl font-extrabold">Devenir partenaire</h1>
      <p class="mt-4 text-slate-700">
        Vous êtes une entreprise de bartending ou un bar événementiel ? Rejoignez nos partenaires : nous vous
        transmettons des demandes de devis près de chez vous, vous fixez vos tarifs et votre carte, et nos
        clients règlent en ligne.
      </p>
      {sent
        ? (
          <div class="mt-8">
            <FormNotice type="success" testId="application-sent">{APPLICATION_SENT}</FormNotice>
          </div>
        )
        : (
          <form
            method="post"
            action="/devenir-partenaire"
            class="mt-8 space-y-4 rounded-2xl border border-slate-200 bg-white p-6"
          >
            {Object.keys(errors).length > 0 && <FormNotice type="error">{APPLICATION_INVALID}</FormNotice>}
            <div class="grid gap-4 md:grid-cols-2">
              {text("companyName", "Nom de la société", "text", "organization")}
              {text("siren", "SIREN")}
              {text("firstname", "Prénom", "text", "given-name")}
              {text("lastname", "Nom", "text", "family-name")}
              {text("email", "Email", "email", "email")}
              {text("phone", "Téléphone", "tel", "tel")}
              {text("city", "Ville", "text", "address-level2")}
            </div>
            <div class="text-sm">
              <Label form={FORM} name="message">Votre message (facultatif)</Label>
              <textarea
                id={fieldId(FORM, "message")}
                name="message"
                rows={5}
                maxLength={MAX_MESSAGE_LENGTH}
                aria-describedby={errors.message ? errorId(FORM, "message") : undefined}
                class={inputClass(errors.message)}
                placeholder="Votre activité, votre zone d'intervention, vos prestations…"
              >
                {values.message ?? ""}
              </textarea>
              <FieldError form={FORM} name="message" message={errors.message} />
            </div>
            <button type="submit" class={BUTTON_PRIMARY}>Envoyer ma candidature</button>
          </form>
        )}
    </section>
  );
}
