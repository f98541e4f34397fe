// Form pieces shared by the server-rendered forms and the islands (login/registration, profile,
// password reset, partner application): one id scheme (`<form>-<name>` for the input,
// `<form>-<name>-error` for its message, `data-error-for="<name>"` for tests), one label, one error.
import type { ComponentChildren } from "preact";

export const fieldId = (form: string, name: string) => `${form}-${name}`;
export const errorId = (form: string, name: string) => `${form}-${name}-error`;

export function inputClass(error?: string | null): string {
  return `mt-1 w-full rounded-lg border px-3 py-2 outline-none focus:ring-2 focus:ring-brand-500 ${
    error ? "border-red-500" : "border-slate-300"
  }`;
}

export function FieldError({ form, name, message }: { form: string; name: string; message?: string | null }) {
  return message
    ? <p id={errorId(form, name)} class="mt-1 text-xs text-red-600" data-error-for={name}>{message}</p>
    : null;
}

export function Label({ form, name, children }: { form: string; name: string; children: ComponentChildren }) {
  return <label for={fieldId(form, name)} class="block font-medium text-slate-700">{children}</label>;
}

export interface TextFieldProps {
  form: string;
  name: string;
  label: string;
  type?: string;
  /** Controlled value (islands) … */
  value?: string;
  /** … or initial value (server-rendered forms). */
  defaultValue?: string;
  error?: string | null;
  onInput?: (value: string) => void;
  autoComplete?: string;
  required?: boolean;
  extra?: Record<string, unknown>;
  class?: string;
}

/** A labelled input with its error below, tied by aria-describedby so that screen readers read the
 * field's name and then its error. */
export function TextField(props: TextFieldProps) {
  const { form, name, label, type = "text", error } = props;
  return (
    <div class={`text-sm ${props.class ?? ""}`}>
      <Label form={form} name={name}>{label}</Label>
      <input
        id={fieldId(form, name)}
        name={name}
        type={type}
        {...(props.value !== undefined ? { value: props.value } : { defaultValue: props.defaultValue })}
        autoComplete={props.autoComplete}
        required={props.required}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? errorId(form, name) : undefined}
        class={inputClass(error)}
        onInput={props.onInput ? (e) => props.onInput!((e.target as HTMLInputElement).value) : undefined}
        {...props.extra}
      />
      <FieldError form={form} name={name} message={error} />
    </div>
  );
}

/** The form-level message: an alert for errors, a status for successes. */
export function FormNotice({ type, children, testId }: {
  type: "error" | "success" | "info";
  children: ComponentChildren;
  testId?: string;
}) {
  const colors = {
    error: "bg-red-50 text-red-700",
    success: "bg-emerald-50 text-emerald-800",
    info: "bg-brand-50 text-brand-700",
  };
  return (
    <p
      role={type === "error" ? "alert" : "status"}
      class={`rounded-lg px-4 py-3 text-sm ${colors[type]}`}
      data-testid={testId}
    >
      {children}
    </p>
  );
}

export const BUTTON_PRIMARY =
  "rounded-full bg-brand-500 px-6 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60";
