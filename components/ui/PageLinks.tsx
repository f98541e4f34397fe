// Page links under a server-rendered list ('Mes devis' of a customer or a partner): 'Précédent', the
// page numbers around the current one (first and last always), 'Suivant'. Plain links: no JavaScript.

/** The page numbers to show: 1, the last, and the current ±2; null where numbers are skipped. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const shown = new Set([1, pages]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const [i, p] of sorted.entries()) {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(null);
    out.push(p);
  }
  return out;
}

export function pageCountOf(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

const LINK = "rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:border-brand-500";
const OFF = "rounded-lg border border-slate-200 px-3 py-1.5 text-slate-400";

export function PageLinks({ page, total, perPage, href, label }: {
  page: number;
  total: number;
  perPage: number;
  href: (page: number) => string;
  /** The navigation's accessible name ('Pages des devis'). */
  label: string;
}) {
  const pages = pageCountOf(total, perPage);
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav
      class="mt-4 flex flex-wrap items-center justify-center gap-2 text-sm"
      aria-label={label}
      data-testid="page-links"
    >
      {page > 1
        ? <a href={href(Math.min(page - 1, pages))} class={LINK} rel="prev">Précédent</a>
        : <span class={OFF} aria-disabled="true">Précédent</span>}
      {pageWindow(Math.min(page, pages), pages).map((p, i) =>
        p === null ? <span key={`gap-${i}`} class="px-1 text-slate-400">…</span> : p === page
          ? (
            <span
              key={p}
              class="rounded-lg bg-brand-600 px-3 py-1.5 font-semibold text-white"
              aria-current="page"
            >
              {p}
            </span>
          )
          : <a key={p} href={href(p)} class={LINK}>{p}</a>
      )}
      {page < pages
        ? <a href={href(page + 1)} class={LINK} rel="next">Suivant</a>
        : <span class={OFF} aria-disabled="true">Suivant</span>}
    </nav>
  );
}
