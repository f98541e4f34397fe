// The map of a deal's 'Présentation' tab: the Google Maps embed code is pasted, the server keeps only
// its checked URL (lib/deals/map.ts) and renders the iframe itself; this shows the payload's `map`.
import { useState } from "react";
import type { DealPayload } from "../../../lib/deals/payload.ts";
import { MAP_SAVED } from "../../../lib/deals/map.ts";
import { api, ApiError } from "../../ui/api.ts";
import type { NoticeState } from "../../ui/Notice.tsx";

interface DealAnswer {
  results: DealPayload;
}

export function MapField({ deal, editable, onSaved, notify }: {
  deal: DealPayload;
  editable: boolean;
  onSaved: (deal: DealPayload) => void;
  notify: (notice: NoticeState) => void;
}) {
  const [code, setCode] = useState(deal.map);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState("");
  const id = `map-${deal.id}`;

  const save = async () => {
    setSaving(true);
    setError("");
    try {
      const answer = await api<DealAnswer>("PATCH", `/api/deal/${deal.id}`, { map: code });
      setCode(answer.results.map);
      onSaved(answer.results);
      notify({ type: "success", text: MAP_SAVED });
    } catch (e) {
      // Spec: no error toast for the map; the server's reason is shown under the field.
      setError(e instanceof ApiError && e.status < 500 ? e.message : "");
    } finally {
      setSaving(false);
    }
  };

  return (
    <div class="space-y-3">
      {editable && (
        <div class="space-y-2">
          <label for={id} class="block text-sm font-medium text-slate-700">
            Code d'intégration Google Maps
          </label>
          <textarea
            id={id}
            rows={3}
            value={code}
            placeholder='<iframe src="https://www.google.com/maps/embed?pb=…"></iframe>'
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            onInput={(e) => {
              setCode((e.target as HTMLTextAreaElement).value);
              setError("");
            }}
            class="block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
          />
          <p
            id={`${id}-hint`}
            class={`text-sm ${error ? "text-red-700" : "text-slate-500"}`}
            role={error ? "alert" : undefined}
          >
            {error || "Dans Google Maps : Partager → Intégrer une carte → Copier le code HTML."}
          </p>
          <button
            type="button"
            onClick={save}
            disabled={saving || code.trim() === deal.map.trim()}
            class="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {saving ? "Enregistrement…" : "Enregistrer la carte"}
          </button>
        </div>
      )}
      {deal.map
        ? (
          <div
            class="overflow-hidden rounded-lg border border-slate-200 [&_iframe]:block [&_iframe]:h-[350px] [&_iframe]:w-full [&_iframe]:border-0"
            data-testid="deal-map"
            // The server wrote this iframe from a checked Google Maps embed URL (lib/deals/map.ts).
            dangerouslySetInnerHTML={{ __html: deal.map }}
          />
        )
        : <p class="text-sm italic text-slate-500">Aucune carte pour le moment.</p>}
    </div>
  );
}
