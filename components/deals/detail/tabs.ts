// The deal page's tabs (spec 001 §2.1), kept in the URL hash so that a link or a reload opens the same
// tab. The chat tab is left out until the chat capability exists.
export type DealTab = "preview" | "description" | "settings" | "admin-settings";

export interface TabDefinition {
  id: DealTab;
  label: string;
  adminOnly: boolean;
}

export const TABS: TabDefinition[] = [
  { id: "preview", label: "Aperçu", adminOnly: false },
  { id: "description", label: "Présentation", adminOnly: false },
  { id: "settings", label: "Paramètres", adminOnly: false },
  { id: "admin-settings", label: "Paramètres admin", adminOnly: true },
];

/** Where the 'Présentation' tab's island sits (server-rendered beside the page's main island). */
export const PRESENTATION_SLOT_ID = "deal-presentation-tab";

export const tabsFor = (isAdmin: boolean) => TABS.filter((t) => isAdmin || !t.adminOnly);

/** "#settings" → "settings"; unknown or forbidden hashes open 'Aperçu'. */
export function tabFromHash(hash: string, isAdmin: boolean): DealTab {
  const id = hash.replace(/^#\/?/, "");
  return tabsFor(isAdmin).find((t) => t.id === id)?.id ?? "preview";
}

export const tabPanelId = (
  tab: DealTab,
) => (tab === "description" ? PRESENTATION_SLOT_ID : `deal-tab-${tab}`);
