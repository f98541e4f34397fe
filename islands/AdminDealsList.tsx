// 'Liste des devis' (spec 001 §2.12): search, creation-date filters, reset, sort and pages, all
// answered by the server (GET /api/deal/index); row actions (download the quote, view, edit) and a row
// menu (copy the edit or public link, change the partner, the invoice downloads that are due, delete). The first page comes rendered by the server with the same use
// case, and the filter form, sort headers and page links are plain GET links and forms: the list
// reads and pages without JavaScript; the island only makes it answer in place.
import { useEffect, useRef, useState } from "react";
import type { JSX } from "preact";
import { api, ApiError } from "../components/ui/api.ts";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { Icon } from "../components/ui/Icon.tsx";
import { ACTION_ICON, ACTION_LINK, DealListView } from "../components/deals/list/DealListView.tsx";
import {
  type AdminListQuery,
  type DealListRow,
  DEFAULT_LIST_QUERY,
  editDealHashPath,
  editDealPath,
  type ListItemInput,
  listRow,
  pageCount,
  PER_PAGE_CHOICES,
  publicDealPath,
  queryParams,
  queryString,
  rangeLabel,
  rowDocuments,
  SORT_KEYS,
  SORT_LABELS,
  type SortKey,
} from "../components/deals/list/rows.ts";
import { DEAL_MESSAGES } from "../lib/deals/rules.ts";
import { eurosToCents } from "../lib/money.ts";
import {
  DOCUMENT_GROUP_LABELS,
  type DocumentLink,
  QUOTE_DOWNLOAD_LABEL,
  quoteDownloadPath,
} from "../lib/billing/links.ts";

export interface AdminDealsListProps {
  rows: DealListRow[];
  total: number;
  query: AdminListQuery;
  /** The page's own path, for the links that work without JavaScript. */
  basePath: string;
}

interface Company {
  id: string;
  name: string;
  email: string;
  city: string | null;
}

const NOTICE_MS = 3000;
/** The row menu's height (four actions, then the invoices and their group headings), to open it
 * upwards near the bottom of the screen. */
const menuHeight = (documents: DocumentLink[]) =>
  180 + documents.length * 40 + new Set(documents.map((d) => d.group)).size * 28;

interface MenuPlace {
  row: DealListRow;
  top?: number;
  bottom?: number;
  right: number;
}
const SEARCH_DELAY_MS = 350;
const FILTER_FORM = "deals-filter";

const LIST_MESSAGES = {
  searchPlaceholder: "Recherche par client, partenaire ou ID...",
  editLinkCopied: "Lien d'édition copié dans le presse-papiers !",
  publicLinkCopied: "Lien d'accès public copié dans le presse-papiers !",
  copyError: "Erreur lors de la copie du lien",
  noPartner: "Aucun partenaire trouvé",
  partnersError: "Erreur lors du chargement des partenaires.",
  partnerChanged: (name: string) => `Le partenaire du devis est maintenant ${name}.`,
  partnerError: "Erreur lors du changement de partenaire.",
  deleted: "Le devis a été supprimé.",
  deleteError: "Erreur lors de la suppression du devis.",
  loadError: "Erreur lors du chargement des devis.",
  empty: "Aucun devis pour le moment.",
  emptySearch: "Aucun devis ne correspond à votre recherche.",
} as const;

/** Writes `text` to the clipboard (the API, or a hidden text area where it is unavailable). */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    if (!ok) throw new Error("copy refused");
  }
}

/** Lower-case, accents removed: "Élodie" matches "elodie". */
const fold = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

const INPUT = "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm outline-none " +
  "focus:ring-2 focus:ring-brand-500";

export default function AdminDealsList(props: AdminDealsListProps) {
  const [rows, setRows] = useState(props.rows);
  const [total, setTotal] = useState(props.total);
  const [query, setQuery] = useState(props.query);
  const [loading, setLoading] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [menu, setMenu] = useState<MenuPlace | null>(null);
  const [partnerFor, setPartnerFor] = useState<DealListRow | null>(null);
  const [deleteFor, setDeleteFor] = useState<DealListRow | null>(null);
  const [companies, setCompanies] = useState<Company[] | null>(null);
  const [companiesError, setCompaniesError] = useState(false);
  const [partnerSearch, setPartnerSearch] = useState("");
  const [busyIds, setBusyIds] = useState<number[]>([]);
  const [deleting, setDeleting] = useState(false);
  const requestSeq = useRef(0);
  const searchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const menuRef = useRef<HTMLDivElement>(null);
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
      const params = queryParams(next).toString();
      const answer = await api<{ results: ListItemInput[]; total: number; page: number }>(
        "GET",
        `/api/deal/index${params ? `?${params}` : ""}`,
      );
      if (seq !== requestSeq.current) return;
      setRows(answer.results.map(listRow));
      setTotal(answer.total);
    } catch (error) {
      if (seq === requestSeq.current) {
        say("error", error instanceof ApiError ? error.message : LIST_MESSAGES.loadError);
      }
    } finally {
      if (seq === requestSeq.current) setLoading(false);
    }
  };

  const change = (patch: Partial<AdminListQuery>) => load({ ...query, page: 1, ...patch });

  // The row menu closes on a click elsewhere, Escape, scrolling or resizing.
  useEffect(() => {
    if (!menu) return;
    const close = (event: Event) => {
      if (event.type === "keydown" && (event as KeyboardEvent).key !== "Escape") return;
      if (event.type === "mousedown" && menuRef.current?.contains(event.target as Node)) return;
      setMenu(null);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    globalThis.addEventListener("scroll", close, true);
    globalThis.addEventListener("resize", close);
    menuRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
      globalThis.removeEventListener("scroll", close, true);
      globalThis.removeEventListener("resize", close);
    };
  }, [menu]);

  const openMenu = (row: DealListRow, event: JSX.TargetedMouseEvent<HTMLButtonElement>) => {
    if (menu?.row.id === row.id) return setMenu(null);
    const rect = event.currentTarget.getBoundingClientRect();
    const right = Math.max(8, globalThis.innerWidth - rect.right);
    // Below the button, or above it when the screen has no room left below.
    setMenu(
      rect.bottom + menuHeight(rowDocuments(row)) + 8 > globalThis.innerHeight
        ? { row, bottom: globalThis.innerHeight - rect.top + 4, right }
        : { row, top: rect.bottom + 4, right },
    );
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

  const openPartnerDialog = async (row: DealListRow) => {
    setMenu(null);
    setPartnerSearch("");
    setPartnerFor(row);
    if (companies) return;
    setCompaniesError(false);
    try {
      const answer = await api<{ results: Company[] }>("GET", "/api/company/index");
      setCompanies(answer.results);
    } catch {
      setCompaniesError(true);
    }
  };

  const choosePartner = async (company: Company) => {
    const row = partnerFor;
    if (!row) return;
    setPartnerFor(null);
    setBusyIds((ids) => [...ids, row.id]);
    try {
      const answer = await api<{
        results: {
          company: { id: string; name: string } | null;
          status: DealListRow["status"];
          totals: { totalInvoiceByPartner?: number };
        };
      }>("PATCH", `/api/deal/${row.id}`, { company: company.id });
      const { company: chosen, status, totals } = answer.results;
      // The server re-prices the quote with the new partner's grid: the row shows its new amount.
      const totalHt = eurosToCents(totals?.totalInvoiceByPartner);
      setRows((list) =>
        list.map((r) =>
          r.id === row.id
            ? {
              ...r,
              companyId: chosen?.id ?? company.id,
              companyName: chosen?.name ?? company.name,
              status: status ?? r.status,
              totalHt: totalHt ?? r.totalHt,
            }
            : r
        )
      );
      say("success", LIST_MESSAGES.partnerChanged(chosen?.name ?? company.name));
    } catch (error) {
      say("error", error instanceof ApiError ? error.message : LIST_MESSAGES.partnerError);
    } finally {
      setBusyIds((ids) => ids.filter((id) => id !== row.id));
    }
  };

  const confirmDelete = async () => {
    const row = deleteFor;
    if (!row) return;
    setDeleting(true);
    try {
      await api("DELETE", `/api/deal/${row.id}`);
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

  const submitFilters = (event: JSX.TargetedEvent<HTMLFormElement>) => {
    event.preventDefault();
    load({ ...query, page: 1 });
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

  const pages = pageCount(total, query.perPage);
  const filtered = Boolean(query.search.trim() || query.from || query.to);
  const shownCompanies = (companies ?? []).filter((c) => {
    const q = fold(partnerSearch.trim());
    return !q || fold(c.name).includes(q) || fold(c.email).includes(q);
  });

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
    <div data-testid="admin-deals-list">
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={NOTICE_MS} />

      <form
        id={FILTER_FORM}
        method="get"
        action={props.basePath}
        onSubmit={submitFilters}
        class="mb-4 grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm xl:grid-cols-[minmax(14rem,2fr)_repeat(2,minmax(9rem,1fr))_auto]"
        role="search"
      >
        <label class="col-span-2 block xl:col-span-1">
          <span class="mb-1 block font-medium text-slate-700">Recherche</span>
          <span class="relative block">
            <span class="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-400">
              <Icon name="search" class="h-4 w-4" />
            </span>
            <input
              type="search"
              name="search"
              value={query.search}
              placeholder={LIST_MESSAGES.searchPlaceholder}
              aria-label={LIST_MESSAGES.searchPlaceholder}
              class={`${INPUT} pl-9`}
              maxLength={100}
              onInput={(e) => {
                const search = (e.target as HTMLInputElement).value;
                setQuery((q) => ({ ...q, search }));
                if (searchTimer.current) clearTimeout(searchTimer.current);
                searchTimer.current = setTimeout(
                  () => load({ ...queryRef.current, search, page: 1 }),
                  SEARCH_DELAY_MS,
                );
              }}
            />
          </span>
        </label>
        <label class="block">
          <span class="mb-1 block font-medium text-slate-700">Date de début</span>
          <input
            type="date"
            name="from"
            value={query.from}
            max={query.to || undefined}
            class={INPUT}
            title="Devis créés à partir de cette date"
            onChange={(e) => change({ from: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label class="block">
          <span class="mb-1 block font-medium text-slate-700">Date de fin</span>
          <input
            type="date"
            name="to"
            value={query.to}
            min={query.from || undefined}
            class={INPUT}
            title="Devis créés jusqu'à cette date incluse"
            onChange={(e) => change({ to: (e.target as HTMLInputElement).value })}
          />
        </label>
        <div class="col-span-2 flex items-end gap-2 xl:col-span-1">
          <button type="submit" class="rounded-lg bg-slate-800 px-4 py-2 font-semibold text-white">
            Rechercher
          </button>
          <a
            href={props.basePath}
            class="rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:border-brand-500"
            data-testid="reset-filters"
            onClick={(e) => {
              e.preventDefault();
              load({ ...DEFAULT_LIST_QUERY, perPage: query.perPage });
            }}
          >
            Réinitialiser
          </a>
        </div>
        <div class="col-span-2 flex flex-wrap items-end gap-3 xl:col-span-4">
          <label class="flex items-center gap-2">
            <span class="text-slate-600">Trier par</span>
            <select
              name="sort"
              value={query.sort}
              class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
              onChange={(e) => change({ sort: (e.target as HTMLSelectElement).value as SortKey })}
            >
              {SORT_KEYS.map((key) => <option key={key} value={key}>{SORT_LABELS[key]}</option>)}
            </select>
          </label>
          <label class="flex items-center gap-2">
            <span class="sr-only">Ordre</span>
            <select
              name="direction"
              value={query.direction}
              class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
              onChange={(e) =>
                change({ direction: (e.target as HTMLSelectElement).value === "asc" ? "asc" : "desc" })}
            >
              <option value="desc">Décroissant</option>
              <option value="asc">Croissant</option>
            </select>
          </label>
          <label class="flex items-center gap-2">
            <span class="text-slate-600">Par page</span>
            <select
              name="perPage"
              value={String(query.perPage)}
              class="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
              onChange={(e) => change({ perPage: Number((e.target as HTMLSelectElement).value) })}
            >
              {PER_PAGE_CHOICES.map((n) => <option key={n} value={String(n)}>{n}</option>)}
            </select>
          </label>
        </div>
      </form>

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
              actions={(row, layout) => {
                const table = layout === "table";
                // Two by two in the table, so that the actions column stays narrow.
                return (
                  <div class={table ? "grid grid-cols-2 gap-1" : "contents"}>
                    <a
                      href={quoteDownloadPath(row.id)}
                      target="_blank"
                      rel="noopener"
                      class={table ? ACTION_ICON : ACTION_LINK}
                      title={QUOTE_DOWNLOAD_LABEL}
                      aria-label={`${QUOTE_DOWNLOAD_LABEL} #${row.id}`}
                      data-testid="download-quote"
                    >
                      <Icon name="download" class="h-4 w-4" />
                      {!table && "Devis"}
                    </a>
                    <a
                      href={publicDealPath(row.token)}
                      target="_blank"
                      rel="noopener"
                      class={table ? ACTION_ICON : ACTION_LINK}
                      title="Voir sur le site"
                      aria-label={`Voir le devis #${row.id} sur le site`}
                    >
                      <Icon name="eye" class="h-4 w-4" />
                      {!table && "Voir sur le site"}
                    </a>
                    <a
                      href={editDealPath(row.id)}
                      class={table ? ACTION_ICON : ACTION_LINK}
                      title="Editer/Détails"
                      aria-label={`Éditer le devis #${row.id}`}
                    >
                      <Icon name="pencil" class="h-4 w-4" />
                      {!table && "Editer/Détails"}
                    </a>
                    <button
                      type="button"
                      class={ACTION_ICON}
                      title="Plus d'actions"
                      aria-label={`Plus d'actions pour le devis #${row.id}`}
                      aria-haspopup="menu"
                      aria-expanded={menu?.row.id === row.id}
                      data-testid="row-menu"
                      onClick={(e) => openMenu(row, e)}
                    >
                      <Icon name="dots" class="h-4 w-4" />
                    </button>
                  </div>
                );
              }}
            />
          )}
      </div>

      {pages > 1 && (
        <nav
          class="mt-4 flex flex-wrap items-center justify-center gap-2 text-sm"
          aria-label="Pages des devis"
          data-testid="deals-pagination"
        >
          {pageLink(query.page - 1, "Précédent", query.page <= 1)}
          <span class="px-2 text-slate-600">Page {Math.min(query.page, pages)} sur {pages}</span>
          {pageLink(query.page + 1, "Suivant", query.page >= pages)}
        </nav>
      )}

      {menu && (
        <div
          ref={menuRef}
          role="menu"
          aria-label={`Actions du devis #${menu.row.id}`}
          class="fixed z-40 max-h-[calc(100vh-1rem)] w-64 overflow-y-auto rounded-xl border border-slate-200 bg-white py-1 text-sm shadow-lg"
          // Set by the browser's style API after the first render (allowed by the page's CSP).
          style={{
            top: menu.top === undefined ? "auto" : `${menu.top}px`,
            bottom: menu.bottom === undefined ? "auto" : `${menu.bottom}px`,
            right: `${menu.right}px`,
          }}
          data-testid="row-menu-items"
        >
          <MenuItem
            icon="link"
            label="Copier le lien d'édition"
            onClick={() => copy(editDealHashPath(menu.row.id), LIST_MESSAGES.editLinkCopied)}
          />
          <MenuItem
            icon="copy"
            label="Copier le lien public"
            onClick={() => copy(publicDealPath(menu.row.token), LIST_MESSAGES.publicLinkCopied)}
          />
          <MenuItem icon="swap" label="Changer de partenaire" onClick={() => openPartnerDialog(menu.row)} />
          <MenuDocuments documents={rowDocuments(menu.row)} onOpen={() => setMenu(null)} />
          <MenuItem
            icon="trash"
            label="Supprimer"
            danger
            onClick={() => {
              setDeleteFor(menu.row);
              setMenu(null);
            }}
          />
        </div>
      )}

      {partnerFor !== null && (
        <Dialog
          open={partnerFor !== null}
          onClose={() => setPartnerFor(null)}
          title="Changer de partenaire"
          width={600}
          testId="partner-dialog"
        >
          {partnerFor && (
            <div class="text-sm">
              <p class="mb-3 text-slate-600">
                Devis #{partnerFor.id} — partenaire actuel :{" "}
                <strong>{partnerFor.companyName ?? "aucun"}</strong>
              </p>
              <input
                type="search"
                value={partnerSearch}
                placeholder="Rechercher par nom ou email"
                aria-label="Rechercher un partenaire par nom ou email"
                class={INPUT}
                onInput={(e) => setPartnerSearch((e.target as HTMLInputElement).value)}
              />
              <div class="mt-3 max-h-[300px] overflow-y-auto rounded-lg border border-slate-200">
                {companiesError
                  ? <p class="p-4 text-red-600" role="alert">{LIST_MESSAGES.partnersError}</p>
                  : companies === null
                  ? <p class="p-4 text-slate-500" aria-busy="true">Chargement des partenaires…</p>
                  : shownCompanies.length === 0
                  ? <p class="p-4 text-center text-slate-500">{LIST_MESSAGES.noPartner}</p>
                  : (
                    <ul data-testid="partner-options">
                      {shownCompanies.map((company) => {
                        const current = company.id === partnerFor.companyId;
                        return (
                          <li key={company.id} class="border-b border-slate-100 last:border-b-0">
                            <button
                              type="button"
                              disabled={current}
                              class="flex w-full items-start justify-between gap-3 px-4 py-3 text-left hover:bg-brand-50 disabled:cursor-default disabled:bg-slate-50"
                              onClick={() => choosePartner(company)}
                            >
                              <span class="min-w-0">
                                <span class="block font-semibold text-slate-900">{company.name}</span>
                                <span class="block truncate text-slate-600">{company.email}</span>
                              </span>
                              <span class="shrink-0 text-right text-slate-500">
                                {company.city ?? ""}
                                {current && (
                                  <span class="block text-xs font-semibold text-brand-700">
                                    Partenaire actuel
                                  </span>
                                )}
                              </span>
                            </button>
                          </li>
                        );
                      })}
                    </ul>
                  )}
              </div>
            </div>
          )}
        </Dialog>
      )}

      {deleteFor !== null && (
        <Dialog
          open={deleteFor !== null}
          onClose={() => !deleting && setDeleteFor(null)}
          title="Supprimer le devis"
          width={480}
          testId="delete-dialog"
        >
          {deleteFor && (
            <div class="text-sm">
              <p class="text-slate-700">{DEAL_MESSAGES.deleteConfirm}</p>
              <p class="mt-1 text-slate-500">#{deleteFor.id} {deleteFor.name}</p>
              <div class="mt-6 flex justify-end gap-2">
                <button
                  type="button"
                  class="rounded-lg border border-slate-300 px-4 py-2 font-medium"
                  onClick={() => setDeleteFor(null)}
                  disabled={deleting}
                >
                  Annuler
                </button>
                <button
                  type="button"
                  class="rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
                  onClick={confirmDelete}
                  disabled={deleting}
                  data-testid="confirm-delete"
                >
                  Supprimer
                </button>
              </div>
            </div>
          )}
        </Dialog>
      )}
    </div>
  );
}

function MenuItem({ icon, label, onClick, danger = false }: {
  icon: "link" | "copy" | "swap" | "trash";
  label: string;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      class={`flex w-full items-center gap-3 px-4 py-2.5 text-left hover:bg-slate-100 focus:bg-slate-100 focus:outline-none ${
        danger ? "text-red-600" : "text-slate-700"
      }`}
      onClick={onClick}
    >
      <Icon name={icon} class="h-4 w-4" />
      {label}
    </button>
  );
}

/** The row menu's invoice downloads, grouped (customer invoices, commission invoices), as links. */
function MenuDocuments({ documents, onOpen }: { documents: DocumentLink[]; onOpen: () => void }) {
  if (documents.length === 0) return null;
  return (
    <div class="border-y border-slate-100 py-1" data-testid="row-menu-documents">
      {(["customer", "commission"] as const).map((group) => {
        const links = documents.filter((d) => d.group === group);
        if (links.length === 0) return null;
        return (
          <div key={group} role="group" aria-label={DOCUMENT_GROUP_LABELS[group]}>
            <p class="px-4 pb-1 pt-2 text-[11px] font-semibold uppercase tracking-wide text-slate-500">
              {DOCUMENT_GROUP_LABELS[group]}
            </p>
            {links.map((link) => (
              <a
                key={link.href}
                href={link.href}
                target="_blank"
                rel="noopener"
                role="menuitem"
                class="flex w-full items-center gap-3 px-4 py-2.5 text-left text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none"
                data-document={link.group}
                onClick={onOpen}
              >
                <Icon name="download" class="h-4 w-4 shrink-0" />
                {link.label}
              </a>
            ))}
          </div>
        );
      })}
    </div>
  );
}
