// 'Mes cocktails' (spec 001 §2.8): a partner's catalogue in three tabs (Signature, Classique,
// Mocktail); add and edit in a dialog (name and description required), delete after a confirmation,
// reorder with up and down. Every change saves the whole record 'cocktails' {signature, classic,
// mocktail} (PATCH /api/company/settings/cocktails/{id}); the server's answer becomes the list shown.
import { useState } from "react";
import type { Catalogue, CatalogueCocktail } from "../lib/deals/settings.ts";
import { api } from "../components/ui/api.ts";
import { COCKTAIL_MESSAGES } from "../lib/deals/rules.ts";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice } from "../components/ui/Notice.tsx";
import { useSave } from "../components/ui/useSave.ts";
import { Icon } from "../components/ui/Icon.tsx";
import { ICON_BUTTON, moved } from "../components/deals/settings/TierRows.tsx";

export interface CocktailCatalogueProps {
  /** The partner's own id (the record's owner). */
  userId: string;
  catalogue: Catalogue;
}

type ListName = keyof Catalogue;

const TABS: { list: ListName; label: string; empty: string }[] = [
  { list: "signature", label: "Signature", empty: "Aucun cocktail signature pour le moment." },
  { list: "classic", label: "Classique", empty: "Aucun cocktail classique pour le moment." },
  { list: "mocktail", label: "Mocktail", empty: "Aucun mocktail pour le moment." },
];

export { COCKTAIL_MESSAGES } from "../lib/deals/rules.ts";

const NOTICE_MS = 3000;
const INPUT =
  "mt-1 w-full rounded-lg border px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-brand-500";

interface Draft {
  list: ListName;
  /** The cocktail edited, or null for a new one. */
  index: number | null;
  name: string;
  description: string;
  error: string | null;
}

export default function CocktailCatalogue({ userId, catalogue: initial }: CocktailCatalogueProps) {
  const [catalogue, setCatalogue] = useState<Catalogue>(initial);
  const [tab, setTab] = useState<ListName>("signature");
  const [draft, setDraft] = useState<Draft | null>(null);
  const [toDelete, setToDelete] = useState<{ list: ListName; index: number } | null>(null);
  const { notice, clearNotice, saving: busy, save } = useSave();

  /** Saves the whole catalogue; true when the server kept it. */
  const persist = async (next: Catalogue, success: string, failure: string): Promise<boolean> => {
    const request = () =>
      api<{ results: { value: Catalogue } }>("PATCH", `/api/company/settings/cocktails/${userId}`, {
        value: next,
        type: "json",
      });
    return await save(request, {
      success,
      error: failure,
      // The server's own message when it gives one about the cocktail (e.g. a missing field).
      showServerMessage: (error) => error.status === 422,
      onSaved: (answer) => setCatalogue(answer.results.value),
    });
  };

  const saveDraft = async (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    const name = draft.name.trim();
    const description = draft.description.trim();
    if (!name || !description) return setDraft({ ...draft, error: COCKTAIL_MESSAGES.required });
    const list = [...catalogue[draft.list]];
    if (draft.index === null) {
      // The server gives the new cocktail its id.
      list.push({ name, description, photo: "" } as CatalogueCocktail);
    } else {
      list[draft.index] = { ...list[draft.index], name, description };
    }
    const ok = await persist(
      { ...catalogue, [draft.list]: list },
      COCKTAIL_MESSAGES.saved,
      COCKTAIL_MESSAGES.saveError,
    );
    if (ok) setDraft(null);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const list = catalogue[toDelete.list].filter((_, i) => i !== toDelete.index);
    const ok = await persist(
      { ...catalogue, [toDelete.list]: list },
      COCKTAIL_MESSAGES.deleted,
      COCKTAIL_MESSAGES.deleteError,
    );
    if (ok) setToDelete(null);
  };

  const reorder = (list: ListName, index: number, by: -1 | 1) =>
    persist(
      { ...catalogue, [list]: moved(catalogue[list], index, by) },
      COCKTAIL_MESSAGES.reordered,
      COCKTAIL_MESSAGES.saveError,
    );

  const current = TABS.find((t) => t.list === tab)!;
  const items = catalogue[tab];
  const deleting = toDelete ? catalogue[toDelete.list][toDelete.index] : null;

  return (
    <div data-testid="cocktail-catalogue">
      <Notice notice={notice} onDone={clearNotice} durationMs={NOTICE_MS} />

      <div class="mb-4 flex flex-wrap items-end justify-between gap-3 border-b border-slate-200">
        <div role="tablist" aria-label="Listes de cocktails" class="flex gap-1 overflow-x-auto text-sm">
          {TABS.map((t) => (
            <button
              key={t.list}
              type="button"
              role="tab"
              id={`cocktail-tab-${t.list}`}
              aria-selected={tab === t.list}
              aria-controls="cocktail-panel"
              class={`-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 font-semibold ${
                tab === t.list
                  ? "border-brand-500 text-brand-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
              }`}
              onClick={() => setTab(t.list)}
            >
              {t.label} <span class="font-normal text-slate-500">({catalogue[t.list].length})</span>
            </button>
          ))}
        </div>
        <button
          type="button"
          class="mb-2 inline-flex items-center gap-2 rounded-full bg-brand-500 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600"
          onClick={() => setDraft({ list: tab, index: null, name: "", description: "", error: null })}
          data-testid="add-cocktail"
        >
          <Icon name="plus" class="h-4 w-4" />
          Ajouter un cocktail
        </button>
      </div>

      <div id="cocktail-panel" role="tabpanel" aria-labelledby={`cocktail-tab-${tab}`} aria-busy={busy}>
        {items.length === 0
          ? (
            <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
              {current.empty}
            </p>
          )
          : (
            <ol class="space-y-2" data-testid="cocktail-list">
              {items.map((cocktail, index) => (
                <li
                  key={cocktail.id}
                  class="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-start"
                  data-cocktail={cocktail.name}
                >
                  <div class="min-w-0 flex-1">
                    <p class="font-semibold text-slate-900">{cocktail.name}</p>
                    <p class="mt-1 whitespace-pre-line text-sm text-slate-600">{cocktail.description}</p>
                  </div>
                  <div class="flex shrink-0 items-center justify-end gap-1">
                    <button
                      type="button"
                      class={ICON_BUTTON}
                      aria-label={`Monter ${cocktail.name}`}
                      title="Monter"
                      disabled={busy || index === 0}
                      onClick={() => reorder(tab, index, -1)}
                    >
                      <Icon name="up" class="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      class={ICON_BUTTON}
                      aria-label={`Descendre ${cocktail.name}`}
                      title="Descendre"
                      disabled={busy || index === items.length - 1}
                      onClick={() => reorder(tab, index, 1)}
                    >
                      <Icon name="down" class="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      class={ICON_BUTTON}
                      aria-label={`Modifier ${cocktail.name}`}
                      title="Modifier"
                      disabled={busy}
                      onClick={() =>
                        setDraft({
                          list: tab,
                          index,
                          name: cocktail.name,
                          description: cocktail.description,
                          error: null,
                        })}
                    >
                      <Icon name="pencil" class="h-4 w-4" />
                    </button>
                    <button
                      type="button"
                      class={`${ICON_BUTTON} hover:border-red-500 hover:text-red-600`}
                      aria-label={`Supprimer ${cocktail.name}`}
                      title="Supprimer"
                      disabled={busy}
                      onClick={() => setToDelete({ list: tab, index })}
                    >
                      <Icon name="trash" class="h-4 w-4" />
                    </button>
                  </div>
                </li>
              ))}
            </ol>
          )}
      </div>

      {draft !== null && (
        <Dialog
          open={draft !== null}
          onClose={() => setDraft(null)}
          title={draft?.index === null ? "Ajouter un cocktail" : "Modifier le cocktail"}
          width={600}
          testId="cocktail-dialog"
        >
          {draft && (
            <form onSubmit={saveDraft} noValidate class="space-y-4 text-sm">
              <p class="text-slate-600">Liste : {TABS.find((t) => t.list === draft.list)!.label}</p>
              <label class="block">
                <span class="font-medium text-slate-700">Nom du cocktail</span>
                <input
                  name="name"
                  value={draft.name}
                  maxLength={120}
                  class={`${INPUT} ${
                    draft.error && !draft.name.trim() ? "border-red-500" : "border-slate-300"
                  }`}
                  onInput={(e) =>
                    setDraft({ ...draft, name: (e.target as HTMLInputElement).value, error: null })}
                />
              </label>
              <label class="block">
                <span class="font-medium text-slate-700">Description</span>
                <textarea
                  name="description"
                  rows={3}
                  maxLength={1000}
                  value={draft.description}
                  class={`${INPUT} ${
                    draft.error && !draft.description.trim() ? "border-red-500" : "border-slate-300"
                  }`}
                  onInput={(e) =>
                    setDraft({ ...draft, description: (e.target as HTMLTextAreaElement).value, error: null })}
                />
              </label>
              {draft.error && <p class="text-sm font-medium text-red-600" role="alert">{draft.error}</p>}
              <div class="flex justify-end gap-2">
                <button
                  type="button"
                  class="rounded-lg border border-slate-300 px-4 py-2 font-medium"
                  onClick={() => setDraft(null)}
                >
                  Annuler
                </button>
                <button
                  type="submit"
                  disabled={busy}
                  class="rounded-lg bg-brand-500 px-4 py-2 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
                  data-testid="save-cocktail"
                >
                  Enregistrer
                </button>
              </div>
            </form>
          )}
        </Dialog>
      )}

      {toDelete !== null && (
        <Dialog
          open={toDelete !== null}
          onClose={() => setToDelete(null)}
          title="Supprimer le cocktail"
          width={480}
          testId="cocktail-delete-dialog"
        >
          {deleting && (
            <div class="text-sm">
              <p class="text-slate-700">
                Êtes-vous sûr de vouloir supprimer le cocktail « {deleting.name} » ?
              </p>
              <div class="mt-6 flex justify-end gap-2">
                <button
                  type="button"
                  class="rounded-lg border border-slate-300 px-4 py-2 font-medium"
                  onClick={() => setToDelete(null)}
                >
                  Annuler
                </button>
                <button
                  type="button"
                  disabled={busy}
                  class="rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
                  onClick={confirmDelete}
                  data-testid="confirm-delete-cocktail"
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
