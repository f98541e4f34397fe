// The quote request form's fields, drawn from the form's state (values, errors, and `set`, which also
// clears a field's message once it is edited): text and select fields with their label, hint and
// message, radio choices drawn as cards, and the numbered sections.
import type { ComponentChildren } from "preact";
import { errorId, FieldError, fieldId, inputClass, Label } from "../../form/Field.tsx";
import type { RequestField, RequestValues } from "./rules.ts";

export const FORM = "devis";

export interface RequestFormState {
  values: RequestValues;
  errors: Partial<Record<string, string>>;
  set: <K extends RequestField>(name: K, value: RequestValues[K]) => void;
}

export const describedBy = (name: string, error?: string, hint = false) =>
  [hint ? `${fieldId(FORM, name)}-hint` : "", error ? errorId(FORM, name) : ""].filter(Boolean).join(" ") ||
  undefined;

export function Hint({ name, children }: { name: string; children: ComponentChildren }) {
  return <p id={`${fieldId(FORM, name)}-hint`} class="mt-1 text-xs text-slate-500">{children}</p>;
}

export function Section(
  { step, title, children }: { step: number; title: string; children: ComponentChildren },
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

/** The field drawers of the form's state. */
export function fieldsOf({ values, errors, set }: RequestFormState) {
  const text = (
    name: RequestField,
    label: string,
    options: {
      type?: string;
      autoComplete?: string;
      hint?: ComponentChildren;
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
    hint?: ComponentChildren,
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

  return { text, select, cards };
}
