// One rich-text description of a deal being edited: the editor (loaded on demand by RichTextField),
// an optional preview of the text as it will read, and a save button (PATCH /api/deal/{id}).
import { useState } from "react";
import type { ComponentChildren } from "preact";
import type { DealPayload } from "../../../lib/deals/payload.ts";
import { RichTextField } from "../../richtext/RichTextField.tsx";
import { RichTextView } from "../../richtext/RichTextView.tsx";
import { api } from "../../ui/api.ts";
import type { NoticeState } from "../../ui/Notice.tsx";

interface DealAnswer {
  results: DealPayload;
}

export function DescriptionEditor(
  { deal, field, label, savedMessage, draft, onDraft, onSaved, notify, preview, help }: {
    deal: DealPayload;
    field: "adminDescription" | "description";
    /** The editor's accessible name. */
    label: string;
    savedMessage: string;
    draft: string;
    onDraft: (html: string) => void;
    onSaved: (deal: DealPayload) => void;
    notify: (notice: NoticeState) => void;
    /** The draft as it will read (placeholders filled): offers the preview toggle. */
    preview?: (html: string) => string;
    help?: ComponentChildren;
  },
) {
  const [showPreview, setShowPreview] = useState(false);
  const [saving, setSaving] = useState(false);
  const unchanged = draft === deal[field];

  const save = async () => {
    setSaving(true);
    try {
      const answer = await api<DealAnswer>("PATCH", `/api/deal/${deal.id}`, { [field]: draft });
      onSaved(answer.results);
      notify({ type: "success", text: savedMessage });
    } catch {
      // Spec 001 §8: description saves have no error message beyond resetting the loading state.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div class="space-y-3">
      {preview && (
        <div class="flex justify-end">
          <button
            type="button"
            aria-pressed={showPreview}
            onClick={() => setShowPreview(!showPreview)}
            class="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            {showPreview ? "Revenir à l'édition" : "Aperçu"}
          </button>
        </div>
      )}
      {showPreview && preview
        ? (
          <div class="rounded-lg border border-dashed border-slate-300 p-4" data-testid={`${field}-preview`}>
            <RichTextView html={preview(draft)} empty="Aucune description pour le moment." />
          </div>
        )
        : <RichTextField value={draft} onChange={onDraft} label={label} />}
      {help}
      <div class="flex items-center gap-3">
        <button
          type="button"
          onClick={save}
          disabled={saving || unchanged}
          class="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
        >
          {saving ? "Enregistrement…" : "Enregistrer"}
        </button>
        {!unchanged && !saving && <span class="text-sm text-slate-500">Modifications non enregistrées</span>}
      </div>
    </div>
  );
}
