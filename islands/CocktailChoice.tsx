// The customer's cocktail choice on the deal page (spec 000 §4 'Cocktail choice'): toggling a cocktail
// saves the whole choice at once (PATCH /api/customer/deal/save/choices/{token}); the choice is capped
// at the authorised number (the other boxes are disabled once it is reached). The server checks the
// cap, the proposed list (mocktails only for an alcohol-free menu) and the deal's status again.
import { useRef, useState } from "react";
import { api, ApiError } from "../components/ui/api.ts";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { CUSTOMER_MESSAGES } from "../lib/deals/rules.ts";

export interface ChoiceCocktail {
  id: string;
  name: string;
  description: string;
}

export interface CocktailChoiceProps {
  token: string;
  /** settings.nbCocktailsAuthorized */
  max: number;
  cocktails: ChoiceCocktail[];
  chosen: string[];
}

/** Deal snackbars last 5000 ms (spec 000 §9). */
const NOTICE_MS = 5000;
const { choicesSaved: SAVED, choicesNotSaved: SAVE_FAILED } = CUSTOMER_MESSAGES;

export default function CocktailChoice({ token, max, cocktails, chosen: initial }: CocktailChoiceProps) {
  const [chosen, setChosen] = useState<string[]>(initial);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [saving, setSaving] = useState(0);
  /** The choice the server holds (what a failed save goes back to). */
  const saved = useRef<string[]>(initial);
  /** Saves run one after the other, each with the whole choice of its click. */
  const queue = useRef<Promise<void>>(Promise.resolve());
  const full = chosen.length >= max;

  const toggle = (id: string) => {
    const next = chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id];
    if (next.length > max) return;
    setChosen(next);
    setSaving((n) => n + 1);
    queue.current = queue.current.then(async () => {
      try {
        const answer = await api<{ message?: string; results?: { cocktails: string[] } }>(
          "PATCH",
          `/api/customer/deal/save/choices/${token}`,
          { choices: { cocktails: next } },
        );
        saved.current = answer.results?.cocktails ?? next;
        setNotice({ type: "success", text: answer.message ?? SAVED, key: Date.now() });
      } catch (error) {
        setChosen(saved.current);
        setNotice({
          type: "error",
          text: error instanceof ApiError && error.message && !error.message.startsWith("HTTP ")
            ? error.message
            : SAVE_FAILED,
          key: Date.now(),
        });
      } finally {
        setSaving((n) => n - 1);
      }
    });
  };

  return (
    <div data-testid="cocktail-choice">
      <div class="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p class="text-sm text-slate-600">
          Choisissez jusqu'à <strong>{max}</strong> cocktail{max > 1 ? "s" : ""}{" "}
          : votre choix est enregistré à chaque clic.
        </p>
        <span
          class={`rounded-full px-3 py-1 text-xs font-bold ${
            full ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-700"
          }`}
          data-testid="cocktail-count"
          aria-live="polite"
        >
          {chosen.length} / {max} choisi{chosen.length > 1 ? "s" : ""}
          {saving > 0 ? " · enregistrement…" : ""}
        </span>
      </div>
      <ul class="grid gap-2 sm:grid-cols-2">
        {cocktails.map((cocktail) => {
          const checked = chosen.includes(cocktail.id);
          const disabled = !checked && full;
          return (
            <li key={cocktail.id}>
              <label
                class={`flex h-full cursor-pointer items-start gap-3 rounded-xl border-2 p-3 transition-colors ${
                  checked
                    ? "border-brand-500 bg-brand-50"
                    : disabled
                    ? "cursor-not-allowed border-slate-200 bg-slate-50 opacity-60"
                    : "border-slate-200 bg-white hover:border-brand-500/40"
                }`}
                data-cocktail-id={cocktail.id}
              >
                <input
                  type="checkbox"
                  class="mt-1 h-5 w-5 shrink-0 accent-brand-500"
                  checked={checked}
                  disabled={disabled}
                  onChange={() => toggle(cocktail.id)}
                />
                <span class="min-w-0">
                  <span class="block font-semibold text-slate-900">{cocktail.name}</span>
                  {cocktail.description && (
                    <span class="mt-0.5 block text-sm text-slate-600">{cocktail.description}</span>
                  )}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {full && max > 0 && (
        <p class="mt-3 text-sm text-slate-600" data-testid="cocktail-cap">
          Vous avez choisi {max} cocktail{max > 1 ? "s" : ""} : retirez-en un pour en choisir un autre.
        </p>
      )}
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={NOTICE_MS} />
    </div>
  );
}
