// The admin settings tab of a deal (spec 001 §2.5, §3, §8): the adminSettings toggles, each saved as
// it is switched (PATCH adminSettings), and the two custom rich-text fields with their toasts
// ('Champ personnalisé 1 sauvegardé avec succès !', 2500 ms). The editor is loaded only here.
import { useEffect, useState } from "react";
import {
  ADMIN_SETTING_KEYS,
  ADMIN_SETTING_LABELS,
  type AdminSettingKey,
  DEAL_MESSAGES,
} from "../../../lib/deals/rules.ts";
import { RichTextField } from "../../richtext/RichTextField.tsx";
import { TOAST_MS, useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { BUTTON_DARK, Section } from "./ui.tsx";

const ADMIN_SETTINGS_SAVED = "Paramètres administrateur sauvegardés avec succès !";
const customFieldSaved = (n: 1 | 2) => `Champ personnalisé ${n} sauvegardé avec succès !`;

export function AdminSettingsTab() {
  return (
    <div class="grid gap-4 lg:grid-cols-2" data-testid="admin-settings-tab">
      <Toggles />
      <div class="space-y-4">
        <CustomField n={1} />
        <CustomField n={2} />
      </div>
    </div>
  );
}

function Toggles() {
  const { deal, run } = useDeal();
  const [busy, setBusy] = useState<AdminSettingKey | null>(null);
  const toggle = async (key: AdminSettingKey, on: boolean) => {
    setBusy(key);
    await run(() => dealApi.patch(deal.id, { adminSettings: { [key]: on } }), {
      error: DEAL_MESSAGES.saveError,
      success: ADMIN_SETTINGS_SAVED,
      durationMs: TOAST_MS,
      statusLink: false,
    });
    setBusy(null);
  };
  return (
    <Section id="deal-admin-toggles" title="Réglages administrateur">
      <ul class="space-y-1">
        {ADMIN_SETTING_KEYS.map((key) => (
          <li key={key}>
            <label class="flex cursor-pointer items-start gap-3 rounded-lg px-2 py-2 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                role="switch"
                name={key}
                class="mt-0.5 h-5 w-5 shrink-0 accent-brand-500"
                checked={deal.adminSettings[key]}
                disabled={busy !== null}
                onChange={(e) => toggle(key, (e.target as HTMLInputElement).checked)}
                data-testid={`admin-setting-${key}`}
              />
              <span class="text-slate-800">{ADMIN_SETTING_LABELS[key]}</span>
            </label>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function CustomField({ n }: { n: 1 | 2 }) {
  const { deal, run } = useDeal();
  const key = n === 1 ? "customField1" : "customField2";
  const [html, setHtml] = useState(deal[key]);
  const [busy, setBusy] = useState(false);
  useEffect(() => setHtml(deal[key]), [deal[key]]);
  const save = async () => {
    setBusy(true);
    await run(() => dealApi.patch(deal.id, { [key]: html }), {
      error: DEAL_MESSAGES.saveError,
      success: customFieldSaved(n),
      durationMs: TOAST_MS,
      statusLink: false,
    });
    setBusy(false);
  };
  return (
    <Section id={`deal-custom-field-${n}`} title={`Champ personnalisé ${n}`}>
      <RichTextField value={html} onChange={setHtml} label={`Champ personnalisé ${n}`} />
      <div class="mt-3 flex justify-end">
        <button
          type="button"
          class={BUTTON_DARK}
          onClick={save}
          disabled={busy || html === deal[key]}
          data-testid={`save-custom-field-${n}`}
        >
          Enregistrer
        </button>
      </div>
    </Section>
  );
}
