// The pricing grid form (spec 001 §2.7, §3 'Pricing config', §5), shared by the admin's default grid
// ('Grille tarifaire' tab, PATCH /api/settings/deviseur_pricing) and a partner's own grid ('Ma grille
// tarifaire', PATCH /api/company/settings/deviseur_pricing/{id}): parameters, flat fees, cocktail tiers,
// staff-by-guests tiers and staff cost-by-duration tiers. On save the grid is checked with the server's
// own validatePricing (cocktail tiers, then staff, then duration): the first error stops the save,
// shows its message in red and highlights its row until that list is edited.
import { useEffect, useRef, useState } from "react";
import { api } from "../components/ui/api.ts";
import { Notice } from "../components/ui/Notice.tsx";
import { useSave } from "../components/ui/useSave.ts";
import {
  moved,
  NumberField,
  numberOf as num,
  Panel,
  tierAfter,
  type TierColumn,
  type TierRow,
  TierRows,
} from "../components/deals/settings/TierRows.tsx";
import {
  FLAT_FEE_LABELS,
  type FlatFee,
  GRID_SAVED,
  type GridError,
  type GridSection,
  type GridSetting,
  type PricingConfig,
  SETTING_LABELS,
  staffTierBounds,
  validatePricing,
} from "../lib/deals/pricing.ts";

export interface PricingGridFormProps {
  /** The grid to start from; without flatFees, the form loads it from `loadUrl` first. */
  initial: PricingConfig | null;
  /** GET answering `{ results: { value } }` (or `results: null` when there is no grid yet). */
  loadUrl: string;
  /** GET used when `loadUrl` has no grid (a partner starts from the default grid). */
  fallbackUrl?: string;
  /** PATCH `{ value, type }`. */
  saveUrl: string;
}

const NOTICE_MS = 5000;
const LOAD_ERROR = "Erreur lors du chargement de la grille tarifaire.";
const SAVE_ERROR = "Erreur lors de la sauvegarde de la grille tarifaire.";

type TierSection = "cocktailTiers" | "staffTiers" | "durationTiers";

interface StaffRow extends TierRow {
  /** Tiers keep the spelling they came with (from/to/count); new ones use fromGuests/toGuests/staffCount. */
  spelling: "short" | "guests";
}

interface FormState {
  settings: Record<GridSetting["id"], string>;
  flatFees: Record<FlatFee["id"], string>;
  cocktailTiers: TierRow[];
  staffTiers: StaffRow[];
  durationTiers: TierRow[];
}

const SETTING_IDS = Object.keys(SETTING_LABELS) as GridSetting["id"][];
const FEE_IDS = Object.keys(FLAT_FEE_LABELS) as FlatFee["id"][];
/** Rows' keys (and their inputs' ids) are their position when loaded, so that the server's HTML and the
 * browser's agree; rows added later count on from here. */
const FRESH_KEYS = 100_000;

const str = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");

/** 150 → "2h30". */
function hoursLabel(value: string | number): string {
  const minutes = num(value);
  if (!Number.isFinite(minutes) || minutes < 0) return "";
  return `${Math.floor(minutes / 60)}h${String(Math.round(minutes % 60)).padStart(2, "0")}`;
}

const COLUMNS: Record<TierSection, TierColumn[]> = {
  cocktailTiers: [
    { field: "from", label: "Entre", unit: "cocktails", step: "1", min: "0" },
    { field: "to", label: "Et", unit: "cocktails", step: "1", min: "0" },
    { field: "signature", label: "Signature", unit: "€ HT", step: "0.01", min: "0" },
    { field: "classic", label: "Classique", unit: "€ HT", step: "0.01", min: "0" },
    { field: "mocktail", label: "Mocktail", unit: "€ HT", step: "0.01", min: "0" },
  ],
  staffTiers: [
    { field: "from", label: "Entre", unit: "invités", step: "1", min: "0" },
    { field: "to", label: "Et", unit: "invités", step: "1", min: "0" },
    { field: "count", label: "Barmans", step: "1", min: "0" },
  ],
  // A tier starts one minute after the previous one ends (1, 121, 241…) and ends on a round number
  // (120, 240…): the step of 10 counts from 1 for "Entre" and from 0 for "Et".
  durationTiers: [
    { field: "from", label: "Entre", unit: "minutes", step: "10", min: "1", after: hoursLabel },
    { field: "to", label: "Et", unit: "minutes", step: "10", min: "0", after: hoursLabel },
    { field: "cost", label: "Coût d'un barman", unit: "€ HT", step: "0.01", min: "0" },
  ],
};

const DEFAULT_SPAN: Record<TierSection, number> = { cocktailTiers: 99, staffTiers: 49, durationTiers: 119 };

const SETTING_HINTS: Record<GridSetting["id"], { hint: string; suffix: string; step: string }> = {
  min_cocktail: {
    hint: "Le minimum de cocktails d'une prestation : généralement pas en dessous de 50.",
    suffix: "cocktails",
    step: "1",
  },
  nb_cocktail_per_h_per_person: {
    hint: "Généralement entre 0,75 et 1,5. Cocktails = taux × nombre d'invités × heures de service.",
    suffix: "par h et par pers.",
    step: "0.05",
  },
  staff_capacity: {
    hint: "Ce qu'un barman sert en une heure : au-delà, un barman de plus est ajouté au devis.",
    suffix: "cocktails / h",
    step: "1",
  },
};

const FEE_UNITS: Record<FlatFee["id"], string> = { fdd: "€ HT / km", bm: "€ HT", fcr: "€ HT" };

function formOf(config: PricingConfig): FormState {
  const setting = (id: GridSetting["id"]) => str(config.settings?.find((s) => s.id === id)?.value);
  const fee = (id: FlatFee["id"]) => str(config.flatFees.find((f) => f.id === id)?.value);
  return {
    settings: Object.fromEntries(SETTING_IDS.map((id) => [id, setting(id)])) as FormState["settings"],
    flatFees: Object.fromEntries(FEE_IDS.map((id) => [id, fee(id)])) as FormState["flatFees"],
    cocktailTiers: (config.cocktailTiers ?? []).map((t, key) => ({
      key,
      from: str(t.from),
      to: str(t.to),
      signature: str(t.signature),
      classic: str(t.classic),
      mocktail: str(t.mocktail),
    })),
    staffTiers: (config.staffTiers ?? []).map((t, key) => {
      const b = staffTierBounds(t);
      return {
        key,
        spelling: t.from !== undefined || t.count !== undefined ? "short" : "guests",
        from: str(b.from),
        to: str(b.to),
        count: str(b.count),
      };
    }),
    durationTiers: (config.durationTiers ?? []).map((t, key) => ({
      key,
      from: str(t.from),
      to: str(t.to),
      cost: str(t.cost),
    })),
  };
}

function configOf(form: FormState): PricingConfig {
  return {
    settings: SETTING_IDS.map((id) => ({ id, value: num(form.settings[id]) })),
    flatFees: FEE_IDS.map((id) => ({ id, value: num(form.flatFees[id]) })),
    cocktailTiers: form.cocktailTiers.map((t) => ({
      from: num(t.from),
      to: num(t.to),
      signature: num(t.signature),
      classic: num(t.classic),
      mocktail: num(t.mocktail),
    })),
    staffTiers: form.staffTiers.map((t) =>
      t.spelling === "short"
        ? { from: num(t.from), to: num(t.to), count: num(t.count) }
        : { fromGuests: num(t.from), toGuests: num(t.to), staffCount: num(t.count) }
    ),
    durationTiers: form.durationTiers.map((t) => ({ from: num(t.from), to: num(t.to), cost: num(t.cost) })),
  };
}

const hasGrid = (c: PricingConfig | null | undefined): c is PricingConfig => !!c && Array.isArray(c.flatFees);

export default function PricingGridForm(props: PricingGridFormProps) {
  const [form, setForm] = useState<FormState | null>(hasGrid(props.initial) ? formOf(props.initial) : null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [error, setError] = useState<GridError | null>(null);
  const { notice, clearNotice, say, saving, save: saveWith } = useSave();
  const errorRef = useRef<HTMLParagraphElement>(null);
  const nextKey = useRef(FRESH_KEYS);

  // Without a grid in its props, the form loads one (the spinner shows meanwhile).
  useEffect(() => {
    if (form) return;
    let alive = true;
    (async () => {
      try {
        type Answer = { results: { value: PricingConfig } | null };
        let answer = await api<Answer>("GET", props.loadUrl);
        if (!hasGrid(answer.results?.value) && props.fallbackUrl) {
          answer = await api<Answer>("GET", props.fallbackUrl);
        }
        if (!alive) return;
        if (hasGrid(answer.results?.value)) setForm(formOf(answer.results!.value));
        else setLoadFailed(true);
      } catch {
        if (alive) setLoadFailed(true);
      }
    })();
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [error]);

  if (!form) {
    return (
      <div
        class="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-600"
        data-testid="pricing-grid-loading"
      >
        {loadFailed ? <p role="alert" class="text-red-600">{LOAD_ERROR}</p> : (
          <>
            <span
              class="h-5 w-5 animate-spin rounded-full border-2 border-slate-300 border-t-brand-500"
              aria-hidden="true"
            />
            <span role="status">Chargement de la grille tarifaire…</span>
          </>
        )}
      </div>
    );
  }

  /** Editing a list forgets its error: the highlighted row no longer says what is wrong. */
  const edit = (section: GridSection, next: FormState) => {
    setForm(next);
    if (error?.section === section) setError(null);
  };

  const errorOf = (section: GridSection) =>
    error && error.section === section ? { index: error.index, message: error.message } : null;

  const save = async (event: Event) => {
    event.preventDefault();
    const config = configOf(form);
    const problem = validatePricing(config);
    if (problem) {
      setError(problem);
      say("error", problem.message);
      return;
    }
    await saveWith(() => api<{ message?: string }>("PATCH", props.saveUrl, { value: config, type: "json" }), {
      success: (answer) => answer.message ?? GRID_SAVED,
      error: SAVE_ERROR,
      onSaved: () => setError(null),
      onFailed: ({ fields, message }) => {
        const section = Object.keys(fields).find((k) => k !== "_row") as GridSection | undefined;
        if (section) setError({ section, index: Number(fields._row ?? 0), message });
      },
    });
  };

  const tiers = (section: TierSection, addLabel: string) => {
    const rows = form[section] as TierRow[];
    const update = (list: TierRow[]) => edit(section, { ...form, [section]: list });
    return (
      <TierRows
        name={section}
        columns={COLUMNS[section]}
        rows={rows}
        error={errorOf(section)}
        errorRef={errorRef}
        onChange={(index, field, value) =>
          update(rows.map((row, i) => (i === index ? { ...row, [field]: value } : row)))}
        onMove={(index, by) => update(moved(rows, index, by))}
        onRemove={(index) => update(rows.filter((_, i) => i !== index))}
        onAdd={() => {
          const row = tierAfter(rows, COLUMNS[section], nextKey.current++, DEFAULT_SPAN[section]);
          update([...rows, section === "staffTiers" ? { ...row, spelling: "guests" } : row]);
        }}
        addLabel={addLabel}
      />
    );
  };

  return (
    <form onSubmit={save} noValidate class="space-y-6 pb-8" data-testid="pricing-grid-form">
      <Notice notice={notice} onDone={clearNotice} durationMs={NOTICE_MS} />

      <Panel title="Paramètres" testId="grid-settings">
        <div class="grid gap-4 md:grid-cols-3">
          {SETTING_IDS.map((id, index) => (
            <NumberField
              key={id}
              id={`grid-setting-${id}`}
              label={SETTING_LABELS[id]}
              value={form.settings[id]}
              suffix={SETTING_HINTS[id].suffix}
              hint={SETTING_HINTS[id].hint}
              step={SETTING_HINTS[id].step}
              error={errorOf("settings")?.index === index ? error!.message : null}
              errorRef={errorRef}
              onInput={(value) => edit("settings", { ...form, settings: { ...form.settings, [id]: value } })}
            />
          ))}
        </div>
      </Panel>

      <Panel title="Frais forfaitaires" testId="grid-flatFees">
        <div class="grid gap-4 md:grid-cols-3">
          {FEE_IDS.map((id, index) => (
            <NumberField
              key={id}
              id={`grid-fee-${id}`}
              label={FLAT_FEE_LABELS[id]}
              value={form.flatFees[id]}
              suffix={FEE_UNITS[id]}
              step="0.01"
              error={errorOf("flatFees")?.index === index ? error!.message : null}
              errorRef={errorRef}
              onInput={(value) => edit("flatFees", { ...form, flatFees: { ...form.flatFees, [id]: value } })}
            />
          ))}
        </div>
      </Panel>

      <Panel
        title="Prix des cocktails selon la quantité"
        testId="grid-cocktailTiers"
        hint={
          <>
            Prix d'un cocktail en € HT, verrerie comprise, selon le nombre de cocktails du devis. La carte
            mocktail n'est proposée que pour les menus entièrement sans alcool ; chaque devis propose au moins
            une variante sans alcool parmi les recettes signature et classiques.
          </>
        }
      >
        {tiers("cocktailTiers", "Ajouter une tranche de cocktails")}
      </Panel>

      <Panel
        title="Nombre de barmans selon le nombre d'invités"
        testId="grid-staffTiers"
        hint="Un barman de plus est ajouté quand les cocktails à servir par heure dépassent la capacité d'un barman."
      >
        {tiers("staffTiers", "Ajouter une tranche de staff")}
      </Panel>

      <Panel
        title="Coût d'un barman selon la durée du service"
        testId="grid-durationTiers"
        hint="Durées en minutes (par pas de 10) ; coût d'un barman pour toute la prestation, en € HT."
      >
        {tiers("durationTiers", "Ajouter une tranche de durée")}
      </Panel>

      <div class="flex justify-end">
        <button
          type="submit"
          disabled={saving}
          class="rounded-full bg-brand-500 px-6 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
          data-testid="save-pricing"
        >
          {saving ? "Sauvegarde…" : "Sauvegarder les tarifs"}
        </button>
      </div>
    </form>
  );
}
