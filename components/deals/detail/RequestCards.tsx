// 'Demande client' (spec 001 §2.2): the cards 'Informations principales' and 'Informations
// secondaires'. Each has a pencil to edit, a check to save and a close control to cancel; only the
// fields that changed are sent (PATCH properties), so that an unchanged card never sends the quote
// back for revalidation. Partners edit unless the deal is locked or no longer open (the server
// decides again).
import { useState } from "react";
import { DEAL_MESSAGES, transition } from "../../../lib/deals/rules.ts";
import { useDeal } from "./controller.tsx";
import { dealApi, type RepricingProposal } from "./requests.ts";
import { PRICED_FIELDS, RepricingDialog } from "./RepricingDialog.tsx";
import { IconButton, INPUT, Section } from "./ui.tsx";
import {
  displayValue,
  inputValue,
  MAIN_FIELDS,
  type PropertyField,
  SECONDARY_FIELDS,
  SERVICE_ADDRESS_FIELD,
  splitList,
  SPOUSE_FIELD,
} from "./properties.ts";
import { PartnerVisibility } from "./PartnerVisibility.tsx";

export function RequestCards() {
  return (
    <div>
      <h2 class="mb-3 text-lg font-bold">Demande client</h2>
      <div class="grid gap-4 2xl:grid-cols-2">
        <PropertiesCard id="deal-main-info" title="Informations principales" fields={MAIN_FIELDS} />
        <PropertiesCard id="deal-secondary-info" title="Informations secondaires" fields={SECONDARY_FIELDS} />
      </div>
    </div>
  );
}

function PropertyInput({ field, value, onChange }: {
  field: PropertyField;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = `deal-prop-${field.name}`;
  const common = { id, name: field.name, class: INPUT };
  switch (field.kind) {
    case "textarea":
      return (
        <textarea
          {...common}
          rows={3}
          value={value}
          onInput={(e) => onChange((e.target as HTMLTextAreaElement).value)}
        />
      );
    case "select":
    case "yesno": {
      const options = field.options ?? [];
      const known = value === "" || options.some((o) => o.value === value);
      return (
        <select
          {...common}
          value={value}
          onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
        >
          <option value="">—</option>
          {!known && <option value={value}>{value}</option>}
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      );
    }
    case "multi": {
      const chosen = splitList(value);
      const toggle = (option: string, on: boolean) =>
        onChange((on ? [...chosen, option] : chosen.filter((c) => c !== option)).join(";"));
      return (
        <div id={id} role="group" aria-label={field.label} class="flex flex-col gap-1 pt-1">
          {(field.options ?? []).map((o) => (
            <label key={o.value} class="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                class="h-4 w-4 accent-brand-500"
                checked={chosen.includes(o.value)}
                onChange={(e) => toggle(o.value, (e.target as HTMLInputElement).checked)}
              />
              {o.label}
            </label>
          ))}
        </div>
      );
    }
    default:
      return (
        <input
          {...common}
          type={field.kind === "number" ? "number" : field.kind === "date" ? "date" : "text"}
          {...(field.kind === "number" ? { min: 0, step: 1, inputMode: "numeric" as const } : {})}
          value={value}
          onInput={(e) => onChange((e.target as HTMLInputElement).value)}
        />
      );
  }
}

function PropertiesCard({ id, title, fields }: { id: string; title: string; fields: PropertyField[] }) {
  const { deal, role, isAdmin, locked, run } = useDeal();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [proposal, setProposal] = useState<RepricingProposal | null>(null);
  const canEdit = transition("edit", { from: deal.status, role, locked }).ok;
  const properties = deal.properties;

  const shown = fields.filter((field) => {
    if (field.name === SPOUSE_FIELD) return editing || inputValue(properties[field.name]).trim() !== "";
    // A partner gets the precise address only when an admin shows it (the server leaves it out).
    if (field.name === SERVICE_ADDRESS_FIELD) return isAdmin || deal.adminSettings.showServiceAddress;
    return true;
  });

  const start = () => {
    setDraft(Object.fromEntries(fields.map((f) => [f.name, inputValue(properties[f.name])])));
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setError(null);
  };
  const save = async () => {
    const changed = Object.fromEntries(
      shown
        .filter((f) => (draft[f.name] ?? "").trim() !== inputValue(properties[f.name]).trim())
        .map((f) => [f.name, (draft[f.name] ?? "").trim()]),
    );
    if (Object.keys(changed).length === 0) return cancel();
    setBusy(true);
    const result = await run(() => dealApi.patch(deal.id, { properties: changed }), {
      error: DEAL_MESSAGES.saveError,
    });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    cancel();
    // The engine's figures changed: its lines are offered, never applied silently.
    if (Object.keys(changed).some((name) => PRICED_FIELDS.includes(name))) {
      try {
        const offer = (await dealApi.repricing(deal.id)).results;
        if (offer.changed) setProposal(offer);
      } catch {
        // The offer is a convenience: the saved request stands, the lines can be edited by hand.
      }
    }
  };

  const actions = !canEdit ? null : editing
    ? (
      <>
        <IconButton
          icon="check"
          label="Enregistrer"
          tone="ok"
          onClick={save}
          disabled={busy}
          testId={`${id}-save`}
        />
        <IconButton icon="close" label="Annuler" onClick={cancel} disabled={busy} testId={`${id}-cancel`} />
      </>
    )
    : <IconButton icon="pencil" label={`Modifier : ${title}`} onClick={start} testId={`${id}-edit`} />;

  return (
    <Section id={id} title={title} actions={actions} testId={id}>
      {error && <p role="alert" class="mb-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
      <dl class="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        {shown.map((field) => {
          const wide = field.kind === "textarea" || field.kind === "multi";
          const eye = field.name === SERVICE_ADDRESS_FIELD
            ? <PartnerVisibility setting="showServiceAddress" />
            : null;
          return (
            <div key={field.name} class={wide ? "sm:col-span-2" : ""} data-property={field.name}>
              <dt class="flex items-center gap-1 text-xs font-medium uppercase tracking-wide text-slate-500">
                {editing ? <label for={`deal-prop-${field.name}`}>{field.label}</label> : field.label}
                {eye}
              </dt>
              <dd class="mt-0.5 whitespace-pre-line break-words text-sm text-slate-900">
                {editing
                  ? (
                    <PropertyInput
                      field={field}
                      value={draft[field.name] ?? ""}
                      onChange={(v) => setDraft({ ...draft, [field.name]: v })}
                    />
                  )
                  : displayValue(field, properties[field.name])}
              </dd>
            </div>
          );
        })}
      </dl>
      {proposal && <RepricingDialog proposal={proposal} onClose={() => setProposal(null)} />}
    </Section>
  );
}
