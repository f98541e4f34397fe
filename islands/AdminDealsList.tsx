// 'Liste des devis' (spec 001 §2.12): search, creation-date filters, reset, sort and pages, all
// answered by the server (GET /api/deal/index); row actions (download the quote, view, edit) and a row
// menu (copy the edit or public link, change the partner, send an email, the invoice downloads that are
// due, delete).
// The first page comes rendered by the server with the same use case, and the filter form, sort
// headers and page links are plain GET links and forms: the list reads and pages without JavaScript;
// the island only makes it answer in place. Its parts are in components/deals/list/.
import { useRef, useState } from "react";
import type { JSX } from "preact";
import { ApiError } from "../components/ui/api.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { DealListView } from "../components/deals/list/DealListView.tsx";
import { ListFilters } from "../components/deals/list/ListFilters.tsx";
import { Pagination } from "../components/deals/list/Pagination.tsx";
import { RowActions } from "../components/deals/list/RowActions.tsx";
import { copyText, type MenuPlace, menuPlace, RowMenu } from "../components/deals/list/RowMenu.tsx";
import { PartnerDialog } from "../components/deals/list/PartnerDialog.tsx";
import { DeleteDialog } from "../components/deals/list/DeleteDialog.tsx";
import { EmailDialog, sendTemplate } from "../components/deals/list/EmailDialog.tsx";
import { type EmailTemplateInfo, MAIL_MESSAGES } from "../lib/mail/rules.ts";
import { changePartner, type Company, deleteDeal, fetchDealPage } from "../components/deals/list/list_api.ts";
import { LIST_MESSAGES } from "../components/deals/list/messages.ts";
import {
  type AdminListQuery,
  type DealListRow,
  pageCount,
  queryString,
  rangeLabel,
  type SortKey,
} from "../components/deals/list/rows.ts";

export interface AdminDealsListProps {
  rows: DealListRow[];
  total: number;
  query: AdminListQuery;
  /** The page's own path, for the links that work without JavaScript. */
  basePath: string;
}

const NOTICE_MS = 3000;
const SEARCH_DELAY_MS = 350;

export default function AdminDealsList(props: AdminDealsListProps) {
  const [rows, setRows] = useState(props.rows);
  const [total, setTotal] = useState(props.total);
  const [query, setQuery] = useState(props.query);
  const [loading, setLoading] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [menu, setMenu] = useState<MenuPlace | null>(null);
  const [partnerFor, setPartnerFor] = useState<DealListRow | null>(null);
  const [deleteFor, setDeleteFor] = useState<DealListRow | null>(null);
  const [emailFor, setEmailFor] = useState<DealListRow | null>(null);
  const [sendingTemplate, setSendingTemplate] = useState<string | null>(null);
  const [busyIds, setBusyIds] = useState<number[]>([]);
  const [deleting, setDeleting] = useState(false);
  const requestSeq = useRef(0);
  const searchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queryRef = useRef(query);
  queryRef.current = query;

  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });
  const href = (q: AdminListQuery) => `${props.basePath}${queryString(q)}`;

  /** Shows `next` (page, filters, sort): the URL follows, so that a reload shows the same list. */
  const load = async (next: AdminListQuery) => {
    if (searchTimer.current) clearTimeout(searchTimer.current);
    setQuery(next);
    history.replaceState(null, "", href(next));
    const seq = ++requestSeq.current;
    setLoading(true);
    try {
      const page = await fetchDealPage(next);
      if (seq !== requestSeq.current) return;
      setRows(page.rows);
      setTotal(page.total);
    } catch (error) {
      if (seq === requestSeq.current) {
        say("error", error instanceof ApiError ? error.message : LIST_MESSAGES.loadError);
      }
    } finally {
      if (seq === requestSeq.current) setLoading(false);
    }
  };

  const change = (patch: Partial<AdminListQuery>) => load({ ...query, page: 1, ...patch });

  const typeSearch = (search: string) => {
    setQuery((q) => ({ ...q, search }));
    if (searchTimer.current) clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => load({ ...queryRef.current, search, page: 1 }), SEARCH_DELAY_MS);
  };

  const openMenu = (row: DealListRow, event: JSX.TargetedMouseEvent<HTMLButtonElement>) => {
    if (menu?.row.id === row.id) return setMenu(null);
    const screen = { width: globalThis.innerWidth, height: globalThis.innerHeight };
    setMenu(menuPlace(row, event.currentTarget.getBoundingClientRect(), screen));
  };

  const copy = async (path: string, success: string) => {
    setMenu(null);
    try {
      await copyText(`${location.origin}${path}`);
      say("success", success);
    } catch {
      say("error", LIST_MESSAGES.copyError);
    }
  };

  const applyPartner = async (row: DealListRow, company: Company) => {
    setPartnerFor(null);
    setBusyIds((ids) => [...ids, row.id]);
    try {
      const changed = await changePartner(row.id, company.id);
      // The server re-prices the quote with the new partner's grid: the row shows its new amount.
      setRows((list) =>
        list.map((r) =>
          r.id === row.id
            ? {
              ...r,
              companyId: changed.company?.id ?? company.id,
              companyName: changed.company?.name ?? company.name,
              status: changed.status ?? r.status,
              totalHt: changed.totalHt ?? r.totalHt,
            }
            : r
        )
      );
      say("success", changed.message ?? LIST_MESSAGES.partnerChanged(changed.company?.name ?? company.name));
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : LIST_MESSAGES.partnerError);
    } finally {
      setBusyIds((ids) => ids.filter((id) => id !== row.id));
    }
  };

  const sendEmail = async (row: DealListRow, template: EmailTemplateInfo) => {
    setSendingTemplate(template.template);
    try {
      await sendTemplate(row.id, template.template);
      setEmailFor(null);
      say("success", MAIL_MESSAGES.sent(template.label));
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : MAIL_MESSAGES.sendError);
    } finally {
      setSendingTemplate(null);
    }
  };

  const confirmDelete = async () => {
    const row = deleteFor;
    if (!row) return;
    setDeleting(true);
    try {
      await deleteDeal(row.id);
      setDeleteFor(null);
      say("success", LIST_MESSAGES.deleted);
      // The page may now be empty: show the one before.
      const lastPage = pageCount(total - 1, query.perPage);
      await load({ ...query, page: Math.min(query.page, lastPage) });
    } catch (error) {
      setDeleteFor(null);
      // A paid deal answers 409 with the reason, in French.
      say("error", error instanceof ApiError ? error.message : LIST_MESSAGES.deleteError);
    } finally {
      setDeleting(false);
    }
  };

  const onSort = (key: SortKey, event: JSX.TargetedMouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const direction = query.sort === key && query.direction === "desc" ? "asc" : "desc";
    change({ sort: key, direction });
  };

  const sortedBy = (key: SortKey): AdminListQuery => ({
    ...query,
    page: 1,
    sort: key,
    direction: query.sort === key && query.direction === "desc" ? "asc" : "desc",
  });

  const filtered = Boolean(query.search.trim() || query.from || query.to || query.status);

  return (
    <div data-testid="admin-deals-list">
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={NOTICE_MS} />
      <ListFilters
        query={query}
        basePath={props.basePath}
        load={load}
        change={change}
        typeSearch={typeSearch}
      />

      <div class="mb-3 flex items-center justify-between text-sm text-slate-600">
        <p aria-live="polite" data-testid="deals-range">
          {rangeLabel(total, query.page, query.perPage)}
          {loading && <span class="ml-2 text-slate-400">Chargement…</span>}
        </p>
      </div>

      <div aria-busy={loading} class={loading ? "opacity-70 transition-opacity" : ""}>
        {rows.length === 0
          ? (
            <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
              {filtered ? LIST_MESSAGES.emptySearch : LIST_MESSAGES.empty}
            </p>
          )
          : (
            <DealListView
              rows={rows}
              showPartner
              busyIds={busyIds}
              sort={{
                key: query.sort,
                direction: query.direction,
                href: (key) => href(sortedBy(key)),
                onSort,
              }}
              actions={(row, layout) => (
                <RowActions
                  row={row}
                  layout={layout}
                  menuOpen={menu?.row.id === row.id}
                  openMenu={openMenu}
                />
              )}
            />
          )}
      </div>

      <Pagination query={query} total={total} href={href} load={load} />

      {menu && (
        <RowMenu
          place={menu}
          onClose={() => setMenu(null)}
          copy={copy}
          changePartner={(row) => {
            setMenu(null);
            setPartnerFor(row);
          }}
          sendEmail={(row) => {
            setMenu(null);
            setEmailFor(row);
          }}
          remove={(row) => {
            setMenu(null);
            setDeleteFor(row);
          }}
        />
      )}
      {partnerFor && (
        <PartnerDialog
          row={partnerFor}
          onClose={() => setPartnerFor(null)}
          onConfirm={applyPartner}
        />
      )}
      {emailFor && (
        <EmailDialog
          row={emailFor}
          sending={sendingTemplate}
          onClose={() => setEmailFor(null)}
          onSend={sendEmail}
        />
      )}
      {deleteFor && (
        <DeleteDialog
          row={deleteFor}
          deleting={deleting}
          onClose={() => setDeleteFor(null)}
          onConfirm={confirmDelete}
        />
      )}
    </div>
  );
}
