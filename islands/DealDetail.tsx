// The deal detail page's interactive part, shared by admins and partners (spec 001 §2.1-2.5): the
// header, the tabs kept in the URL hash, 'Aperçu' (the quote detail), 'Paramètres' and, for an admin,
// the deal's admin settings. The 'Présentation' tab is another island, rendered by the page beside
// this one; this island shows or hides its slot. Every action goes through the deals API: the
// server's answer (the deal as the viewer may see it) replaces the state, and its message shows at the
// top of the screen. Role checks here only shape the buttons: the server decides.
import { useEffect, useRef, useState } from "react";
import { Notice } from "../components/ui/Notice.tsx";
import {
  DealContext,
  type DealController,
  DEFAULT_SAVED,
  type PageNotice,
  SAVE_NOTICE_MS,
} from "../components/deals/detail/controller.tsx";
import { dealApi, failureFields, failureMessage } from "../components/deals/detail/requests.ts";
import { type DealDetailProps, historyEntries } from "../components/deals/detail/types.ts";
import {
  CHAT_SLOT_ID,
  type DealTab,
  PRESENTATION_SLOT_ID,
  tabFromHash,
} from "../components/deals/detail/tabs.ts";
import { DealHeader } from "../components/deals/detail/Header.tsx";
import { TabBar } from "../components/deals/detail/TabBar.tsx";
import { NextStep } from "../components/deals/detail/NextStep.tsx";
import { PreviewTab } from "../components/deals/detail/PreviewTab.tsx";
import { SettingsTab } from "../components/deals/detail/SettingsTab.tsx";
import { AdminSettingsTab } from "../components/deals/detail/AdminSettingsTab.tsx";
import { announceDeal, onDealAnnounced } from "../components/deals/presentation/events.ts";

/** This island's name in the "deal:updated" events the deal page's islands exchange. */
const SOURCE = "DealDetail";

export type { DealDetailProps };

export default function DealDetail(props: DealDetailProps) {
  const { role, catalogue, backHref } = props;
  const isAdmin = role === "Admin";
  const [deal, setDeal] = useState(props.deal);
  const [history, setHistory] = useState(props.history);
  const [ledger, setLedger] = useState(props.ledger);
  const [notice, setNotice] = useState<PageNotice | null>(null);
  // The server renders 'Aperçu'; the hash is read once the page runs in the browser.
  const [tab, setTab] = useState<DealTab>("preview");
  const current = useRef(deal);
  current.current = deal;
  const chat = isAdmin || deal.adminSettings.showChatForPartner;

  useEffect(() => {
    const follow = () => setTab(tabFromHash(globalThis.location.hash, isAdmin, chat));
    follow();
    globalThis.addEventListener("hashchange", follow);
    return () => globalThis.removeEventListener("hashchange", follow);
  }, []);

  // The 'Présentation' island announces the deal it saved; this one takes it (and tells it of its own).
  useEffect(() => onDealAnnounced(props.deal.id, SOURCE, setDeal), []);

  useEffect(() => {
    const slot = document.getElementById(PRESENTATION_SLOT_ID);
    if (slot) slot.hidden = tab !== "description";
    const chatSlot = document.getElementById(CHAT_SLOT_ID);
    if (chatSlot) chatSlot.hidden = tab !== "chat";
  }, [tab]);

  const showTab = (next: DealTab) => {
    if (next === tab) return;
    globalThis.location.hash = next;
  };

  const seeStatus = () => {
    showTab("preview");
    // After the tab's content is back in the page.
    setTimeout(() => document.getElementById("deal-status")?.scrollIntoView({ behavior: "smooth" }), 50);
  };

  const refreshHistory = async (id: number) => {
    try {
      setHistory(historyEntries((await dealApi.history(id)).results));
    } catch {
      // The history is a convenience: the status itself was answered with the deal.
    }
  };

  const reloadLedger = async () => {
    if (!isAdmin) return false;
    try {
      setLedger((await dealApi.ledger(current.current.id)).results);
      return true;
    } catch {
      return false;
    }
  };

  const controller: DealController = {
    deal,
    role,
    isAdmin,
    ledger,
    reloadLedger,
    locked: deal.adminSettings.disableQuoteEdits,
    showTab: (t) => showTab(t as DealTab),
    notify: (n) => setNotice({ ...n, key: Date.now() }),
    async run(request, options) {
      const before = current.current.status;
      try {
        const answer = await request();
        setDeal(answer.results);
        announceDeal(answer.results, SOURCE);
        setNotice({
          type: "success",
          text: answer.message || options.success || DEFAULT_SAVED,
          durationMs: options.durationMs ?? SAVE_NOTICE_MS,
          statusLink: options.statusLink ?? true,
          key: Date.now(),
        });
        if (answer.results.status !== before) refreshHistory(answer.results.id);
        return { ok: true, deal: answer.results };
      } catch (error) {
        const message = failureMessage(error, options.error);
        setNotice({
          type: "error",
          text: message,
          durationMs: SAVE_NOTICE_MS,
          statusLink: false,
          key: Date.now(),
        });
        return { ok: false, message, fields: failureFields(error) };
      }
    },
  };

  return (
    <DealContext.Provider value={controller}>
      <Notice
        notice={notice}
        onDone={() => setNotice(null)}
        durationMs={notice?.durationMs ?? SAVE_NOTICE_MS}
        action={notice?.statusLink
          ? (
            <button
              type="button"
              class="shrink-0 rounded-full bg-white/20 px-3 py-1 text-xs font-semibold hover:bg-white/30"
              onClick={seeStatus}
              data-testid="see-status"
            >
              Voir le statut
            </button>
          )
          : undefined}
      />
      <div data-testid="deal-detail" data-deal-id={deal.id} data-role={role}>
        <DealHeader backHref={backHref} />
        <NextStep />
        <TabBar current={tab} isAdmin={isAdmin} chat={chat} />
        {tab === "preview" && (
          <div role="tabpanel" id="deal-tab-preview" aria-labelledby="deal-tab-link-preview">
            <PreviewTab history={history} />
          </div>
        )}
        {tab === "settings" && (
          <div role="tabpanel" id="deal-tab-settings" aria-labelledby="deal-tab-link-settings">
            <SettingsTab catalogue={catalogue} />
          </div>
        )}
        {tab === "admin-settings" && isAdmin && (
          <div role="tabpanel" id="deal-tab-admin-settings" aria-labelledby="deal-tab-link-admin-settings">
            <AdminSettingsTab />
          </div>
        )}
      </div>
    </DealContext.Provider>
  );
}
