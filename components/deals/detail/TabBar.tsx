// The tab list: links to the tabs' hashes (they work before the page's script has loaded, and the
// browser's back button walks through them). On a phone the tabs are a segmented control whose cells
// all fit the screen (an admin's five on two rows: a scrolling row hid the last ones at 390 px); from
// the `sm` breakpoint, the underlined row.
import { type DealTab, tabPanelId, tabsFor } from "./tabs.ts";

export function TabBar({ current, isAdmin, chat }: { current: DealTab; isAdmin: boolean; chat: boolean }) {
  const tabs = tabsFor(isAdmin, chat);
  return (
    <nav class="mb-4 sm:border-b sm:border-slate-200">
      <div
        role="tablist"
        aria-label="Sections du devis"
        class={`grid ${
          tabs.length === 5 ? "grid-cols-6" : tabs.length === 3 ? "grid-cols-3" : "grid-cols-2"
        } gap-1 rounded-xl bg-slate-100 p-1 sm:flex sm:rounded-none sm:bg-transparent sm:p-0`}
      >
        {tabs.map((tab, index) => {
          const selected = tab.id === current;
          // Five tabs (an admin's, with 'Chat'): three cells on the first row, two wider on the second.
          const span = tabs.length === 5 ? (index < 3 ? "col-span-2 " : "col-span-3 ") : "";
          return (
            <a
              key={tab.id}
              href={`#${tab.id}`}
              role="tab"
              id={`deal-tab-link-${tab.id}`}
              aria-selected={selected ? "true" : "false"}
              aria-controls={tabPanelId(tab.id)}
              class={`${span}whitespace-nowrap rounded-lg px-2 py-2 text-center text-sm font-semibold sm:-mb-px sm:rounded-none sm:border-b-2 sm:px-4 sm:py-2.5 ${
                selected
                  ? "bg-white text-brand-700 shadow-sm sm:border-brand-500 sm:bg-transparent sm:shadow-none"
                  : "text-slate-700 hover:text-slate-900 sm:border-transparent sm:text-slate-600 sm:hover:border-slate-300"
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
