// Small pieces every dashboard page uses.
import type { ComponentChildren } from "preact";

export function PageTitle({ children }: { children: ComponentChildren }) {
  return <h1 class="mb-6 text-2xl font-bold">{children}</h1>;
}

export function EmptyState({ children }: { children: ComponentChildren }) {
  return (
    <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
      {children}
    </p>
  );
}

export const dateTime = new Intl.DateTimeFormat("fr-FR", {
  dateStyle: "short",
  timeStyle: "short",
  timeZone: "Europe/Paris",
});
