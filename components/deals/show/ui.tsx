// Small pieces of the customer-facing quote pages (deal page, quote payment page, partner page).
import { Icon } from "../../ui/Icon.tsx";
import type { ComponentChildren } from "preact";

export function Card(
  { title, children, testId, class: cls = "" }: {
    title?: ComponentChildren;
    children: ComponentChildren;
    testId?: string;
    class?: string;
  },
) {
  return (
    <section
      class={`rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ${cls}`}
      data-testid={testId}
    >
      {title && <h2 class="mb-4 text-lg font-bold text-slate-900 sm:text-xl">{title}</h2>}
      {children}
    </section>
  );
}

const TONES = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
} as const;

export function Banner(
  { tone, children, testId }: { tone: keyof typeof TONES; children: ComponentChildren; testId?: string },
) {
  return (
    <div
      class={`rounded-xl border px-4 py-3 text-sm font-medium ${TONES[tone]}`}
      role={tone === "error" || tone === "warning" ? "alert" : "status"}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

export function DownloadIcon({ class: cls = "h-5 w-5" }: { class?: string }) {
  return <Icon name="download" class={cls} />;
}

export function CheckIcon({ class: cls = "h-4 w-4" }: { class?: string }) {
  return <Icon name="check" class={cls} />;
}

export function PencilIcon({ class: cls = "h-4 w-4" }: { class?: string }) {
  return <Icon name="pencil" class={cls} />;
}

/** A link to a PDF: opens in a new tab (the download routes answer with the file). */
export function DocumentLinkItem({ label, href }: { label: string; href: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      class="flex items-center gap-3 rounded-xl border border-slate-200 px-4 py-3 text-sm font-semibold text-slate-800 hover:border-brand-500 hover:text-brand-700"
      data-testid="document-link"
    >
      <DownloadIcon class="h-5 w-5 shrink-0 text-brand-500" />
      {label}
    </a>
  );
}
