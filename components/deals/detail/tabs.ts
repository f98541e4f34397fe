// The deal page's tabs (spec 001 §2.1), kept in the URL hash so that a link or a reload opens the same
// tab. 'Chat' shows for an admin, or a partner when the deal's showChatForPartner is on (001 §2.1).
export type DealTab = "preview" | "description" | "settings" | "chat" | "admin-settings";

export interface TabDefinition {
  id: DealTab;
  label: string;
  adminOnly: boolean;
  /** Shown to a partner only when the deal's chat flag is on. */
  chat?: boolean;
}

export const TABS: TabDefinition[] = [
  { id: "preview", label: "Aperçu", adminOnly: false },
  { id: "description", label: "Présentation", adminOnly: false },
  { id: "settings", label: "Paramètres", adminOnly: false },
  { id: "chat", label: "Chat", adminOnly: false, chat: true },
  { id: "admin-settings", label: "Paramètres admin", adminOnly: true },
];

/** Where the 'Présentation' tab's island sits (server-rendered beside the page's main island). */
export const PRESENTATION_SLOT_ID = "deal-presentation-tab";
/** Where the 'Chat' tab's island sits, likewise. */
export const CHAT_SLOT_ID = "deal-chat-tab";

/** `chat`: the viewer may see the chat here (an admin, or the partner with showChatForPartner). */
export const tabsFor = (isAdmin: boolean, chat = isAdmin) =>
  TABS.filter((t) => (isAdmin || !t.adminOnly) && (chat || !t.chat));

/** "#settings" → "settings"; unknown or forbidden hashes open 'Aperçu'. */
export function tabFromHash(hash: string, isAdmin: boolean, chat = isAdmin): DealTab {
  const id = hash.replace(/^#\/?/, "");
  return tabsFor(isAdmin, chat).find((t) => t.id === id)?.id ?? "preview";
}

export const tabPanelId = (
  tab: DealTab,
) => (tab === "description" ? PRESENTATION_SLOT_ID : tab === "chat" ? CHAT_SLOT_ID : `deal-tab-${tab}`);
