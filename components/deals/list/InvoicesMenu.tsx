// The invoices menu of a deal in the partner's 'Mes devis' (spec 001 §2.9): a <details> element (no
// JavaScript), listing the customer invoices issued in the partner's name and the partner's commission
// invoices that are due (lib/billing/links.ts). Nothing is shown while the deal has none.
import { DOCUMENT_GROUP_LABELS, type DocumentLink, INVOICES_MENU_LABEL } from "../../../lib/billing/links.ts";
import { Icon } from "../../ui/Icon.tsx";
import { ACTION_LINK } from "./DealListView.tsx";

export function InvoicesMenu({ documents, dealId }: { documents: DocumentLink[]; dealId: number }) {
  if (documents.length === 0) return null;
  const groups = (["customer", "commission"] as const)
    .map((group) => ({ group, links: documents.filter((d) => d.group === group) }))
    .filter((g) => g.links.length > 0);
  return (
    <details class="group text-left" data-testid="invoices-menu">
      <summary
        class={`${ACTION_LINK} w-full cursor-pointer list-none justify-center [&::-webkit-details-marker]:hidden`}
        aria-label={`Factures du devis #${dealId}`}
      >
        <Icon name="receipt" class="h-4 w-4" />
        {INVOICES_MENU_LABEL} ({documents.length})
        <span aria-hidden="true" class="transition-transform group-open:rotate-180">▾</span>
      </summary>
      {
        /* In the flow (the table frame scrolls sideways and would clip a floating panel); its width
          is taken from the other columns at 1280 px, not added to the table. */
      }
      <div class="mt-1 w-full min-w-[13rem] rounded-xl border border-slate-200 bg-white p-1 shadow-sm">
        {groups.map(({ group, links }) => (
          <div key={group}>
            <p class="px-2 pb-1 pt-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500">
              {DOCUMENT_GROUP_LABELS[group]}
            </p>
            <ul>
              {links.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    target="_blank"
                    rel="noopener"
                    class="flex items-start gap-1.5 rounded-lg px-2 py-1.5 text-xs leading-snug text-slate-700 hover:bg-slate-50 hover:text-brand-700"
                    data-document={link.group}
                  >
                    <Icon name="download" class="h-4 w-4 shrink-0 text-brand-500" />
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </details>
  );
}
