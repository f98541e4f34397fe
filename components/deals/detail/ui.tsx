// Building blocks of the deal page's sections: a titled card, icon buttons, button styles.
import type { ComponentChildren } from "preact";
import { DealIcon, type DealIconName } from "./icons.tsx";

const BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-full px-4 py-2 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-50";
export const BUTTON_MAIN = `${BUTTON} bg-brand-500 text-white hover:bg-brand-600`;
export const BUTTON_DARK = `${BUTTON} bg-slate-800 text-white hover:bg-slate-700`;
export const BUTTON_LINE = `${BUTTON} border border-slate-300 bg-white text-slate-800 hover:border-brand-500`;
export const BUTTON_DANGER = `${BUTTON} border border-red-300 bg-white text-red-700 hover:bg-red-50`;
export const INPUT =
  "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-brand-500 disabled:border-slate-200 disabled:bg-slate-50 disabled:text-slate-700";

export function Section({ id, title, actions, children, testId }: {
  id?: string;
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-title` : undefined}
      class="scroll-mt-20 rounded-xl border border-slate-200 bg-white p-4 sm:p-5"
      data-testid={testId}
    >
      <div class="mb-3 flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <h3 id={id ? `${id}-title` : undefined} class="text-base font-semibold text-slate-900">{title}</h3>
        {actions && <div class="flex shrink-0 items-center gap-1">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

export function IconButton({ icon, label, onClick, disabled, tone = "plain", pressed, testId }: {
  icon: DealIconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  tone?: "plain" | "ok" | "danger";
  pressed?: boolean;
  testId?: string;
}) {
  const colors = {
    plain: "text-slate-600 hover:bg-slate-100",
    ok: "text-emerald-700 hover:bg-emerald-50",
    danger: "text-red-600 hover:bg-red-50",
  };
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
      class={`inline-flex h-9 w-9 items-center justify-center rounded-full disabled:cursor-not-allowed disabled:opacity-40 ${
        colors[tone]
      }`}
    >
      <DealIcon name={icon} />
    </button>
  );
}

/** A label and its value, one under the other. */
export function Item({ label, children, testId }: {
  label: string;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <div data-testid={testId}>
      <dt class="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd class="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export function Banner({ tone, children, testId }: {
  tone: "warning" | "error" | "info" | "success";
  children: ComponentChildren;
  testId?: string;
}) {
  const colors = {
    warning: "border-amber-300 bg-amber-50 text-amber-900",
    error: "border-red-300 bg-red-50 text-red-800",
    info: "border-sky-200 bg-sky-50 text-sky-900",
    success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  };
  return (
    <p
      role={tone === "error" || tone === "warning" ? "alert" : "status"}
      class={`rounded-lg border px-4 py-3 text-sm ${colors[tone]}`}
      data-testid={testId}
    >
      {children}
    </p>
  );
}
