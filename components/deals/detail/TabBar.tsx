// The tab list: links to the tabs' hashes (they work before the page's script has loaded, and the
// browser's back button walks through them).
import { type DealTab, tabPanelId, tabsFor } from "./tabs.ts";

export function TabBar({ current, isAdmin }: { current: DealTab; isAdmin: boolean }) {
  return (
    <nav class="-mx-4 mb-4 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0">
      <div role="tablist" aria-label="Sections du devis" class="flex min-w-max gap-1">
        {tabsFor(isAdmin).map((tab) => {
          const selected = tab.id === current;
          return (
            <a
              key={tab.id}
              href={`#${tab.id}`}
              role="tab"
              id={`deal-tab-link-${tab.id}`}
              aria-selected={selected ? "true" : "false"}
              aria-controls={tabPanelId(tab.id)}
              class={`-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-semibold ${
                selected
                  ? "border-brand-500 text-brand-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
              }`}
              data-tab={tab.id}
            >
              {tab.label}
            </a>
          );
        })}
      </div>
    </nav>
  );
}
