// The admin list's row menu ('Plus d'actions'): copy the edit or public link, change the partner, send an
// email, the
// invoice downloads that are due, delete. Fixed on the screen below its button, or above it when the
// screen has no room left below; it closes on a click elsewhere, Escape, scrolling or resizing.
import { useEffect, useRef } from "react";
import { Icon } from "../../ui/Icon.tsx";
import { DOCUMENT_GROUP_LABELS, type DocumentLink } from "../../../lib/billing/links.ts";
import { type DealListRow, editDealHashPath, publicDealPath, rowDocuments } from "./rows.ts";
import { LIST_MESSAGES } from "./messages.ts";

export interface MenuPlace {
  row: DealListRow;
  top?: number;
  bottom?: number;
  right: number;
}

/** The menu's height (five actions, then the invoices and their group headings). */
const menuHeight = (documents: DocumentLink[]) =>
  220 + documents.length * 40 + new Set(documents.map((d) => d.group)).size * 28;

/** Where the menu of `row` opens, from its button's rectangle and the screen's size. */
export function menuPlace(
  row: DealListRow,
  button: { bottom: number; top: number; right: number },
  screen: { width: number; height: number },
): MenuPlace {
  const right = Math.max(8, screen.width - button.right);
  return button.bottom + menuHeight(rowDocuments(row)) + 8 > screen.height
    ? { row, bottom: screen.height - button.top + 4, right }
    : { row, top: button.bottom + 4, right };
}

export function RowMenu({ place, onClose, copy, changePartner, sendEmail, remove }: {
  place: MenuPlace;
  onClose: () => void;
  /** Copies the origin + `path` and says `success`. */
  copy: (path: string, success: string) => void;
  changePartner: (row: DealListRow) => void;
  sendEmail: (row: DealListRow) => void;
  remove: (row: DealListRow) => void;
}) {
  const menuRef = useRef<HTMLDivElement>(null);
  const { row } = place;

  useEffect(() => {
    const close = (event: Event) => {
      if (event.type === "keydown" && (event as KeyboardEvent).key !== "Escape") return;
      if (event.type === "mousedown" && menuRef.current?.contains(event.target as Node)) return;
      onClose();
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
  }, [place]);

  return (
    <div
      ref={menuRef}
      role="menu"
      aria-label={`Actions du devis #${row.id}`}
      class="fixed z-40 max-h-[calc(100vh-1rem)] w-64 overflow-y-auto rounded-xl border border-slate-200 bg-white py-1 text-sm shadow-lg"
      // Set by the browser's style API after the first render (allowed by the page's CSP).
      style={{
        top: place.top === undefined ? "auto" : `${place.top}px`,
        bottom: place.bottom === undefined ? "auto" : `${place.bottom}px`,
        right: `${place.right}px`,
      }}
      data-testid="row-menu-items"
    >
      <MenuItem
        icon="link"
        label="Copier le lien d'édition"
        onClick={() => copy(editDealHashPath(row.id), LIST_MESSAGES.editLinkCopied)}
      />
      <MenuItem
        icon="copy"
        label="Copier le lien public"
        onClick={() => copy(publicDealPath(row.token), LIST_MESSAGES.publicLinkCopied)}
      />
      <MenuItem icon="swap" label="Changer de partenaire" onClick={() => changePartner(row)} />
      <MenuItem icon="mail" label="Envoyer un email" onClick={() => sendEmail(row)} />
      <MenuDocuments documents={rowDocuments(row)} onOpen={onClose} />
      <MenuItem icon="trash" label="Supprimer" danger onClick={() => remove(row)} />
    </div>
  );
}

function MenuItem({ icon, label, onClick, danger = false }: {
  icon: "link" | "copy" | "swap" | "trash" | "mail";
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

/** Writes `text` to the clipboard (the API, or a hidden text area where it is unavailable). */
export async function copyText(text: string): Promise<void> {
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
