// The admin's 'Paramètres' tab (spec 001 §2.11): the named numeric settings with their suffixes, the
// 'Commission fixe' tiers (checked with the server's validateCommissionTiers before sending: the first
// error shows in red on its row until the table is edited), the rich-text blocks, the checkboxes that
// show each free field on the quote and on the invoice, and one 'Sauvegarder les paramètres' button
// that saves what changed, key by key (PATCH /api/settings/{key}).
import { useEffect, useRef, useState } from "react";
import type { NamedSetting } from "../lib/deals/settings.ts";
import { type CommissionTier, type GridError, validateCommissionTiers } from "../lib/deals/pricing.ts";
import { api } from "../components/ui/api.ts";
import { Notice } from "../components/ui/Notice.tsx";
import { useSave } from "../components/ui/useSave.ts";
import { RichTextField } from "../components/richtext/RichTextField.tsx";
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
  COMMISSION_KEY,
  FIELD_FLAGS,
  FLAG_KEYS,
  type FlagKey,
  SETTINGS_KEY,
  TEXT_KEYS,
  TEXT_LABELS,
  type TextKey,
} from "../components/deals/settings/keys.ts";

export interface DeviseurSettingsFormProps {
  settings: NamedSetting[];
  commissionTiers: CommissionTier[];
  texts: Record<TextKey, string>;
  flags: Record<FlagKey, boolean>;
}

const NOTICE_MS = 3000;
export const SETTINGS_SAVED = "Les paramètres ont été sauvegardés.";
const NOTHING_TO_SAVE = "Aucune modification à sauvegarder.";
const SAVE_ERROR = "Erreur lors de la sauvegarde des paramètres.";
const FRESH_KEYS = 100_000;

const COLUMNS: TierColumn[] = [
  { field: "from", label: "Entre", unit: "€ HT", step: "1", min: "0" },
  { field: "to", label: "Et", unit: "€ HT", step: "1", min: "0" },
  { field: "cost", label: "Commission fixe", unit: "€", step: "0.01", min: "0" },
];

const str = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : "");
const tierRows = (tiers: CommissionTier[]): TierRow[] =>
  tiers.map((t, key) => ({ key, from: str(t.from), to: str(t.to), cost: str(t.cost) }));
const tiersOf = (rows: TierRow[]): CommissionTier[] =>
  rows.map((r) => ({ from: num(r.from), to: num(r.to), cost: num(r.cost) }));

/** What each key would save, as the request's value. */
interface Values {
  [key: string]: unknown;
}

function valuesOf(
  settings: NamedSetting[],
  values: Record<string, string>,
  tiers: CommissionTier[],
  texts: Record<TextKey, string>,
  flags: Record<FlagKey, boolean>,
): Values {
  const out: Values = {
    [SETTINGS_KEY]: settings.map((s) => ({ id: s.id, value: num(values[s.id] ?? "") })),
    [COMMISSION_KEY]: tiers,
  };
  for (const key of TEXT_KEYS) out[key] = texts[key];
  for (const key of FLAG_KEYS) out[key] = flags[key] ? "1" : "0";
  return out;
}

export default function DeviseurSettingsForm(props: DeviseurSettingsFormProps) {
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(props.settings.map((s) => [s.id, str(s.value)])),
  );
  const [rows, setRows] = useState<TierRow[]>(tierRows(props.commissionTiers));
  const [texts, setTexts] = useState(props.texts);
  const [flags, setFlags] = useState(props.flags);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [tierError, setTierError] = useState<GridError | null>(null);
  const { notice, clearNotice, say, saving, save: saveWith } = useSave();
  const errorRef = useRef<HTMLParagraphElement>(null);
  const nextKey = useRef(FRESH_KEYS);
  // What the server holds, as JSON per key: only what differs is sent.
  const saved = useRef<Record<string, string> | null>(null);
  if (saved.current === null) {
    const initial = valuesOf(props.settings, values, props.commissionTiers, props.texts, props.flags);
    saved.current = Object.fromEntries(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  }

  useEffect(() => {
    if (tierError || Object.keys(fieldErrors).length) {
      errorRef.current?.scrollIntoView({ block: "center", behavior: "smooth" });
    }
  }, [tierError, fieldErrors]);

  const editTiers = (next: TierRow[]) => {
    setRows(next);
    setTierError(null);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    // Named settings: a number each (an empty field would silently fall back to its default).
    const missing = props.settings.find((s) => !Number.isFinite(num(values[s.id] ?? "")));
    if (missing) {
      const message = `Veuillez renseigner une valeur pour « ${missing.label} ».`;
      setFieldErrors({ [missing.id]: message });
      return say("error", message);
    }
    const tiers = tiersOf(rows);
    const problem = validateCommissionTiers(tiers);
    if (problem) {
      setTierError(problem);
      return say("error", problem.message);
    }
    const current = valuesOf(props.settings, values, tiers, texts, flags);
    const changed = Object.keys(current).filter((key) =>
      JSON.stringify(current[key]) !== saved.current![key]
    );
    if (changed.length === 0) return say("info", NOTHING_TO_SAVE);
    // One PATCH a changed setting; those saved before a failure stay saved.
    const saveChanged = async () => {
      let message: string | undefined;
      for (const key of changed) {
        const type = key === SETTINGS_KEY || key === COMMISSION_KEY
          ? "json"
          : (FLAG_KEYS as readonly string[]).includes(key)
          ? "boolean"
          : "text";
        const answer = await api<{ message?: string; results: { value: unknown } }>(
          "PATCH",
          `/api/settings/${key}`,
          { value: current[key], type },
        );
        saved.current![key] = JSON.stringify(current[key]);
        message = answer.message ?? message;
      }
      return { message };
    };
    await saveWith(saveChanged, {
      success: (answer) => answer.message ?? SETTINGS_SAVED,
      error: SAVE_ERROR,
      onSaved: () => setFieldErrors({}),
      onFailed: ({ fields }) => {
        if (fields.tiers) {
          setTierError({ section: "tiers", index: Number(fields._row ?? 0), message: fields.tiers });
        } else if (Object.keys(fields).length) setFieldErrors(fields);
      },
    });
  };

  return (
    <form onSubmit={save} noValidate class="space-y-6 pb-8" data-testid="deviseur-settings-form">
      <Notice notice={notice} onDone={clearNotice} durationMs={NOTICE_MS} />

      <Panel title="Paramètres du devis" testId="deviseur-named-settings">
        <div class="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {props.settings.map((s) => (
            <NumberField
              key={s.id}
              id={`deviseur-${s.id}`}
              label={s.label}
              value={values[s.id] ?? ""}
              suffix={s.suffix}
              error={fieldErrors[s.id]}
              errorRef={errorRef}
              onInput={(value) => {
                setValues({ ...values, [s.id]: value });
                if (fieldErrors[s.id]) setFieldErrors({});
              }}
            />
          ))}
        </div>
      </Panel>

      <Panel
        title="Commission fixe"
        testId="deviseur-commission"
        hint="La commission fixe due par le partenaire, selon le montant total HT du devis (en euros)."
      >
        <TierRows
          name="commission"
          columns={COLUMNS}
          rows={rows}
          error={tierError ? { index: tierError.index, message: tierError.message } : null}
          errorRef={errorRef}
          onChange={(index, field, value) =>
            editTiers(rows.map((row, i) => (i === index ? { ...row, [field]: value } : row)))}
          onMove={(index, by) => editTiers(moved(rows, index, by))}
          onRemove={(index) => editTiers(rows.filter((_, i) => i !== index))}
          onAdd={() => editTiers([...rows, tierAfter(rows, COLUMNS, nextKey.current++, 999)])}
          addLabel="Ajouter une tranche"
          empty={
            <p class="mb-2 text-sm text-slate-500">Aucune tranche : aucune commission fixe n'est due.</p>
          }
        />
      </Panel>

      <Panel title="Textes des devis et des factures" testId="deviseur-texts">
        <div class="space-y-8">
          {TEXT_KEYS.map((key) => (
            <div key={key} data-text-key={key}>
              <h3 class="mb-2 font-semibold text-slate-800">{TEXT_LABELS[key]}</h3>
              <RichTextField
                label={TEXT_LABELS[key]}
                value={texts[key]}
                onChange={(html) => setTexts((t) => ({ ...t, [key]: html }))}
              />
              {FIELD_FLAGS[key] && (
                <div class="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
                  {FIELD_FLAGS[key]!.map((flag) => (
                    <label key={flag.key} class="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name={flag.key}
                        checked={flags[flag.key]}
                        class="h-4 w-4 accent-brand-500"
                        onChange={(e) =>
                          setFlags({ ...flags, [flag.key]: (e.target as HTMLInputElement).checked })}
                      />
                      {flag.label}
                    </label>
                  ))}
                </div>
              )}
            </div>
          ))}
        </div>
      </Panel>

      <div class="flex justify-end">
        <button
          type="submit"
          disabled={saving}
          class="rounded-full bg-brand-500 px-6 py-2.5 font-semibold text-white hover:bg-brand-600 disabled:opacity-60"
          data-testid="save-deviseur-settings"
        >
          {saving ? "Sauvegarde…" : "Sauvegarder les paramètres"}
        </button>
      </div>
    </form>
  );
}
