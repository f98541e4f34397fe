// The admin list's 'Précédent' / 'Page n sur m' / 'Suivant': links that work without JavaScript,
// answered in place by the island.
import { type AdminListQuery, pageCount } from "./rows.ts";

export function Pagination({ query, total, href, load }: {
  query: AdminListQuery;
  total: number;
  href: (query: AdminListQuery) => string;
  load: (query: AdminListQuery) => void;
}) {
  const pages = pageCount(total, query.perPage);
  if (pages <= 1) return null;
  const pageLink = (page: number, label: string, disabled: boolean) =>
    disabled
      ? (
        <span class="rounded-lg border border-slate-200 px-3 py-1.5 text-slate-400" aria-disabled="true">
          {label}
        </span>
      )
      : (
        <a
          href={href({ ...query, page })}
          class="rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:border-brand-500"
          onClick={(e) => {
            e.preventDefault();
            load({ ...query, page });
          }}
        >
          {label}
        </a>
      );
  return (
    <nav
      class="mt-4 flex flex-wrap items-center justify-center gap-2 text-sm"
      aria-label="Pages des devis"
      data-testid="deals-pagination"
    >
      {pageLink(query.page - 1, "Précédent", query.page <= 1)}
      <span class="px-2 text-slate-600">Page {Math.min(query.page, pages)} sur {pages}</span>
      {pageLink(query.page + 1, "Suivant", query.page >= pages)}
    </nav>
  );
}
