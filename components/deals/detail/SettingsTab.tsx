// The 'Paramètres' tab (spec 001 §2.4, §9): the deposit toggle and percentage (30 by default in this
// form), the cocktail list type and the number of cocktails the client may choose (3 by default), the
// proposed cocktails (the partner's catalogue of that type, or the deal's custom cocktails for
// 'creation') with the client's choices marked, the custom cocktail dialog, and 'Demander un nouveau
// choix'. Saved with PATCH settings; custom cocktails are saved as soon as the dialog confirms. The
// admin's edit lock covers all of it for a partner (the server refuses it too): shown, not editable.
import { useEffect, useState } from "react";
import {
  COCKTAIL_LIST_LABELS,
  COCKTAIL_LIST_TYPES,
  type CocktailListType,
  type CustomCocktail,
  DEAL_MESSAGES,
  DEFAULT_COCKTAILS_AUTHORIZED,
  DEPOSIT_PERCENTAGE_FORM_DEFAULT,
} from "../../../lib/deals/rules.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { SAVE_NOTICE_MS, useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { BUTTON_DARK, BUTTON_LINE, BUTTON_MAIN, IconButton, INPUT, Section } from "./ui.tsx";
import { DealIcon } from "./icons.tsx";
import { PARTNER_COCKTAILS_PAGE } from "./CocktailValidationDialog.tsx";
import type { Catalogue, DealPayload } from "./types.ts";

export const SETTINGS_SAVED = "Paramètres du devis sauvegardés.";
const PERCENTAGE_INVALID = "Le pourcentage d'acompte doit être un nombre entier entre 1 et 100.";
const COCKTAILS_NUMBER_INVALID = "Le nombre de cocktails doit être un nombre entier entre 1 et 50.";
export const COCKTAIL_REQUIRED = "Le nom et la description du cocktail sont obligatoires.";
const COCKTAIL_SAVED = "Cocktail sauvegardé avec succès !";
const COCKTAIL_DELETED = "Cocktail supprimé avec succès !";
const COCKTAIL_SAVE_ERROR = "Erreur lors de la sauvegarde du cocktail.";
const COCKTAIL_DELETE_ERROR = "Erreur lors de la suppression du cocktail.";
const NEW_CHOICE = "Demander un nouveau choix";
const NEW_CHOICE_DONE = "Le client peut choisir à nouveau ses cocktails.";

interface SettingsForm {
  hasDeposit: boolean;
  depositPercentage: string;
  cocktailListType: CocktailListType | "";
  nbCocktailsAuthorized: string;
}

/** The form's values for the deal's settings, with the form's defaults (30 %, 3 cocktails). */
function settingsForm(settings: DealPayload["settings"]): SettingsForm {
  return {
    hasDeposit: settings.hasDeposit,
    depositPercentage: String(settings.depositPercentage ?? DEPOSIT_PERCENTAGE_FORM_DEFAULT),
    cocktailListType: settings.cocktailListType ?? "",
    nbCocktailsAuthorized: String(settings.nbCocktailsAuthorized || DEFAULT_COCKTAILS_AUTHORIZED),
  };
}

const wholeIn = (text: string, min: number, max: number) => {
  const t = text.trim();
  return /^\d{1,3}$/.test(t) && Number(t) >= min && Number(t) <= max ? Number(t) : null;
};

function newCocktailId(): string {
  const random = globalThis.crypto?.randomUUID?.() ??
    `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `custom-${random}`.slice(0, 64);
}

export function SettingsTab({ catalogue }: { catalogue: Catalogue | null }) {
  const { deal, run, isAdmin, locked } = useDeal();
  const frozen = locked && !isAdmin;
  const [form, setForm] = useState(() => settingsForm(deal.settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const saved = JSON.stringify(settingsForm(deal.settings));
  useEffect(() => setForm(settingsForm(deal.settings)), [saved]);
  const dirty = JSON.stringify(form) !== saved;

  const set = (change: Partial<SettingsForm>) => {
    setForm({ ...form, ...change });
    setErrors({});
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const percentage = wholeIn(form.depositPercentage, 1, 100);
    const count = wholeIn(form.nbCocktailsAuthorized, 1, 50);
    const found: Record<string, string> = {};
    if (percentage === null) found.depositPercentage = PERCENTAGE_INVALID;
    if (count === null) found.nbCocktailsAuthorized = COCKTAILS_NUMBER_INVALID;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const settings = {
      hasDeposit: form.hasDeposit,
      depositPercentage: percentage,
      cocktailListType: form.cocktailListType || null,
      nbCocktailsAuthorized: count,
    };
    const result = await run(() => dealApi.patch(deal.id, { settings }), {
      error: DEAL_MESSAGES.saveError,
      success: SETTINGS_SAVED,
      durationMs: SAVE_NOTICE_MS,
      statusLink: false,
    });
    setBusy(false);
    if (!result.ok) setErrors({ form: result.message });
  };

  return (
    <div class="space-y-4" data-testid="settings-tab">
      <form onSubmit={save} noValidate class="grid gap-4 lg:grid-cols-2">
        <fieldset disabled={frozen} class="contents" data-testid="settings-fieldset">
          <Section id="deal-quote-settings" title="Paramètres du devis">
            <label class="flex items-center gap-3 text-sm">
              <input
                id="settings-hasDeposit"
                type="checkbox"
                role="switch"
                class="h-5 w-5 accent-brand-500"
                checked={form.hasDeposit}
                onChange={(e) => set({ hasDeposit: (e.target as HTMLInputElement).checked })}
              />
              <span class="font-medium text-slate-800">Demander un acompte</span>
            </label>
            <label class="mt-4 block text-sm">
              <span class="block font-medium text-slate-700">Pourcentage de l'acompte</span>
              <span class="mt-1 flex items-center gap-2">
                <input
                  id="settings-depositPercentage"
                  type="number"
                  min={1}
                  max={100}
                  step={1}
                  inputMode="numeric"
                  class={`${INPUT} max-w-32 ${errors.depositPercentage ? "border-red-500" : ""}`}
                  value={form.depositPercentage}
                  disabled={!form.hasDeposit}
                  aria-invalid={errors.depositPercentage ? "true" : undefined}
                  onInput={(e) => set({ depositPercentage: (e.target as HTMLInputElement).value })}
                />
                <span class="text-slate-600">%</span>
              </span>
              {errors.depositPercentage && (
                <span class="mt-1 block text-xs text-red-600" data-error-for="depositPercentage">
                  {errors.depositPercentage}
                </span>
              )}
            </label>
          </Section>
          <Section id="deal-cocktail-settings" title="Paramètres des cocktails">
            <label class="block text-sm">
              <span class="block font-medium text-slate-700">Type de liste de cocktails</span>
              <select
                id="settings-cocktailListType"
                class={`${INPUT} mt-1`}
                value={form.cocktailListType}
                onChange={(e) =>
                  set({ cocktailListType: (e.target as HTMLSelectElement).value as CocktailListType | "" })}
              >
                {form.cocktailListType === "" && <option value="">Aucune liste choisie</option>}
                {COCKTAIL_LIST_TYPES.map((t) => <option key={t} value={t}>{COCKTAIL_LIST_LABELS[t]}</option>)}
              </select>
            </label>
            <label class="mt-4 block text-sm">
              <span class="block font-medium text-slate-700">Nombre de cocktails au choix du client</span>
              <input
                id="settings-nbCocktailsAuthorized"
                type="number"
                min={1}
                max={50}
                step={1}
                inputMode="numeric"
                class={`${INPUT} mt-1 max-w-32 ${errors.nbCocktailsAuthorized ? "border-red-500" : ""}`}
                value={form.nbCocktailsAuthorized}
                aria-invalid={errors.nbCocktailsAuthorized ? "true" : undefined}
                onInput={(e) => set({ nbCocktailsAuthorized: (e.target as HTMLInputElement).value })}
              />
              {errors.nbCocktailsAuthorized && (
                <span class="mt-1 block text-xs text-red-600" data-error-for="nbCocktailsAuthorized">
                  {errors.nbCocktailsAuthorized}
                </span>
              )}
            </label>
          </Section>
          <div class="flex flex-wrap items-center justify-end gap-3 lg:col-span-2">
            {errors.form && <p role="alert" class="text-sm text-red-700">{errors.form}</p>}
            {dirty && !errors.form && <p class="text-sm text-slate-500">Modifications non enregistrées</p>}
            <button type="submit" class={BUTTON_MAIN} disabled={busy || !dirty} data-testid="save-settings">
              Enregistrer les paramètres
            </button>
          </div>
        </fieldset>
      </form>
      <ProposedCocktails listType={form.cocktailListType} catalogue={catalogue} />
    </div>
  );
}

function ProposedCocktails(
  { listType, catalogue }: { listType: CocktailListType | ""; catalogue: Catalogue | null },
) {
  const { deal, isAdmin, locked, run } = useDeal();
  const frozen = locked && !isAdmin;
  const [editing, setEditing] = useState<CustomCocktail | null>(null);
  const [resetting, setResetting] = useState(false);
  const [busy, setBusy] = useState(false);
  const chosen = deal.choices.cocktails;
  const custom = deal.settings.customCocktails;
  const list = listType === "creation" ? custom : listType && catalogue ? catalogue[listType] : [];

  const saveCustom = async (next: CustomCocktail[], success: string, error: string) => {
    setBusy(true);
    const result = await run(() => dealApi.patch(deal.id, { settings: { customCocktails: next } }), {
      error,
      success,
      durationMs: SAVE_NOTICE_MS,
      statusLink: false,
    });
    setBusy(false);
    return result;
  };
  const resetChoices = async () => {
    setBusy(true);
    const result = await run(() => dealApi.act(deal.id, "reset-choices"), {
      error: DEAL_MESSAGES.saveError,
      success: NEW_CHOICE_DONE,
      durationMs: SAVE_NOTICE_MS,
      statusLink: false,
    });
    setBusy(false);
    if (result.ok) setResetting(false);
  };

  const actions = listType === "creation" && !frozen
    ? (
      <button
        type="button"
        class={BUTTON_LINE}
        onClick={() => setEditing({ id: "", name: "", description: "" })}
        data-testid="add-custom-cocktail"
      >
        <DealIcon name="plus" class="h-4 w-4" />
        Ajouter un cocktail
      </button>
    )
    : null;

  return (
    <Section id="deal-proposed-cocktails" title="Cocktails proposés au client" actions={actions}>
      <p class="mb-3 text-sm text-slate-600" data-testid="choices-count">
        {listType ? COCKTAIL_LIST_LABELS[listType] : "Aucune liste choisie"} · {chosen.length} cocktail
        {chosen.length > 1 ? "s" : ""} choisi{chosen.length > 1 ? "s" : ""} par le client sur{" "}
        {deal.settings.nbCocktailsAuthorized} autorisé{deal.settings.nbCocktailsAuthorized > 1 ? "s" : ""}
      </p>
      {!listType && (
        <p class="text-sm text-slate-500">Choisissez un type de liste pour proposer des cocktails.</p>
      )}
      {listType && listType !== "creation" && !catalogue && (
        <p class="text-sm text-slate-500">Aucun partenaire n'est encore choisi pour ce devis.</p>
      )}
      {listType && list.length === 0 && (listType === "creation" || catalogue) && (
        <p class="text-sm text-slate-500">
          {listType === "creation"
            ? "Aucun cocktail sur mesure n'est encore décrit pour ce devis."
            : `La liste « ${COCKTAIL_LIST_LABELS[listType]} » du partenaire est vide.`}
          {listType !== "creation" && !isAdmin && (
            <>
              {" "}
              <a href={PARTNER_COCKTAILS_PAGE} class="font-semibold text-brand-600 underline">
                Gérer ma liste de cocktails
              </a>
            </>
          )}
        </p>
      )}
      {list.length > 0 && (
        <ul class="divide-y divide-slate-100" data-testid="proposed-cocktails">
          {list.map((cocktail) => {
            const picked = chosen.includes(cocktail.id);
            return (
              <li
                key={cocktail.id}
                class="flex items-start gap-3 py-3"
                data-chosen={picked ? "true" : "false"}
              >
                <div class="min-w-0 flex-1">
                  <p class="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {cocktail.name}
                    {picked && (
                      <span class="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                        Choisi par le client
                      </span>
                    )}
                  </p>
                  <p class="mt-0.5 whitespace-pre-line text-sm text-slate-600">{cocktail.description}</p>
                </div>
                {listType === "creation" && !frozen && (
                  <div class="flex shrink-0">
                    <IconButton
                      icon="pencil"
                      label={`Modifier ${cocktail.name}`}
                      onClick={() => setEditing(cocktail)}
                      disabled={busy}
                    />
                    <IconButton
                      icon="trash"
                      label={`Supprimer ${cocktail.name}`}
                      tone="danger"
                      disabled={busy}
                      onClick={() =>
                        saveCustom(
                          custom.filter((c) => c.id !== cocktail.id),
                          COCKTAIL_DELETED,
                          COCKTAIL_DELETE_ERROR,
                        )}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div class="mt-4 flex justify-end border-t border-slate-100 pt-3">
        <button
          type="button"
          class={BUTTON_DARK}
          disabled={busy || frozen || chosen.length === 0}
          title={frozen ? DEAL_MESSAGES.locked : undefined}
          onClick={() => setResetting(true)}
          data-testid="reset-choices"
        >
          {NEW_CHOICE}
        </button>
      </div>
      {editing && (
        <CustomCocktailDialog
          cocktail={editing}
          onClose={() => setEditing(null)}
          onSave={async (cocktail) => {
            const next = cocktail.id && custom.some((c) => c.id === cocktail.id)
              ? custom.map((c) => (c.id === cocktail.id ? cocktail : c))
              : [...custom, { ...cocktail, id: newCocktailId() }];
            return await saveCustom(next, COCKTAIL_SAVED, COCKTAIL_SAVE_ERROR);
          }}
        />
      )}
      {resetting && (
        <ConfirmDialog
          open
          title={NEW_CHOICE}
          confirmLabel={NEW_CHOICE}
          onConfirm={resetChoices}
          onClose={() => setResetting(false)}
          busy={busy}
          testId="reset-choices-dialog"
        >
          Les cocktails choisis par le client seront effacés : il pourra choisir à nouveau.
        </ConfirmDialog>
      )}
    </Section>
  );
}

function CustomCocktailDialog({ cocktail, onClose, onSave }: {
  cocktail: CustomCocktail;
  onClose: () => void;
  onSave: (cocktail: CustomCocktail) => Promise<{ ok: boolean; message?: string }>;
}) {
  const [name, setName] = useState(cocktail.name);
  const [description, setDescription] = useState(cocktail.description);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim() || !description.trim()) return setError(COCKTAIL_REQUIRED);
    setBusy(true);
    const result = await onSave({ id: cocktail.id, name: name.trim(), description: description.trim() });
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.message ?? COCKTAIL_SAVE_ERROR);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={cocktail.id ? "Modifier le cocktail" : "Ajouter un cocktail"}
      width={600}
      testId="custom-cocktail-dialog"
    >
      <form onSubmit={submit} noValidate class="space-y-4">
        <label class="block text-sm">
          <span class="font-medium text-slate-700">Nom</span>
          <input
            id="custom-cocktail-name"
            class={`${INPUT} mt-1`}
            maxLength={120}
            value={name}
            onInput={(e) => {
              setName((e.target as HTMLInputElement).value);
              setError(null);
            }}
          />
        </label>
        <label class="block text-sm">
          <span class="font-medium text-slate-700">Description</span>
          <textarea
            id="custom-cocktail-description"
            class={`${INPUT} mt-1`}
            rows={3}
            maxLength={1000}
            value={description}
            onInput={(e) => {
              setDescription((e.target as HTMLTextAreaElement).value);
              setError(null);
            }}
          />
        </label>
        {error && <p role="alert" class="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
        <div class="flex flex-wrap justify-end gap-2">
          <button type="button" class={BUTTON_LINE} onClick={onClose} disabled={busy}>Annuler</button>
          <button type="submit" class={BUTTON_MAIN} disabled={busy} data-testid="custom-cocktail-save">
            Enregistrer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
