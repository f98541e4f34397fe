// The cocktail list validation dialog (spec 001 §2.2, §4; 800 px): asks the server whether the
// deal's cocktail list is ready. Ready: the success message and 'Valider la disponibilité', which
// sends the quote to the client. Otherwise: a warning, the hint to come back once the list is set
// up, and 'Gérer ma liste de cocktails'.
import { useEffect, useState } from "react";
import { COCKTAIL_VALIDATION_HINT, type CocktailValidation } from "../../../lib/deals/rules.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi, failureMessage } from "./requests.ts";
import { Banner, BUTTON_LINE, BUTTON_MAIN } from "./ui.tsx";

export const PARTNER_COCKTAILS_PAGE = "/dashboard/partenaire/cocktails";
const VALIDATION_LOAD_ERROR = "Erreur lors de la vérification de la liste de cocktails";
const VALIDATE_ERROR = "Erreur lors de la validation de la disponibilité";
const MANAGE_COCKTAILS = "Gérer ma liste de cocktails";

/** The deal's 'Paramètres' tab, scrolled to 'Cocktails proposés au client' once it is in the page. */
function openProposedCocktails(showTab: (tab: string) => void) {
  showTab("settings");
  setTimeout(() => {
    const section = document.getElementById("deal-proposed-cocktails");
    section?.scrollIntoView({ block: "start" });
    section?.querySelector<HTMLElement>("[data-testid=add-custom-cocktail]")?.focus({ preventScroll: true });
  }, 100);
}

export function CocktailValidationDialog({ title, onClose }: { title: string; onClose: () => void }) {
  const { deal, isAdmin, run, showTab } = useDeal();
  const [validation, setValidation] = useState<CocktailValidation | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    dealApi.cocktailValidation(deal.id)
      .then((answer) => alive && setValidation(answer.results))
      .catch((e) => alive && setLoadError(failureMessage(e, VALIDATION_LOAD_ERROR)));
    return () => {
      alive = false;
    };
  }, [deal.id]);

  const validate = async () => {
    setBusy(true);
    const result = await run(() => dealApi.act(deal.id, "validate-availability"), {
      error: VALIDATE_ERROR,
    });
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.message);
  };

  return (
    <Dialog open onClose={onClose} title={title} width={800} testId="cocktail-validation-dialog">
      {!validation && !loadError && (
        <p class="text-sm text-slate-500" aria-busy="true">Vérification de la liste de cocktails…</p>
      )}
      {loadError && <Banner tone="error">{loadError}</Banner>}
      {validation?.type === "validation_success" && (
        <div class="space-y-4" data-validation={validation.type}>
          <Banner tone="success">{validation.message}</Banner>
          <p class="text-sm text-slate-600">
            En validant, vous confirmez votre disponibilité le jour de la prestation : le devis est alors
            envoyé au client.
          </p>
          {error && <Banner tone="error">{error}</Banner>}
          <div class="flex flex-wrap justify-end gap-2">
            <button type="button" class={BUTTON_LINE} onClick={onClose} disabled={busy}>Annuler</button>
            <button
              type="button"
              class={BUTTON_MAIN}
              onClick={validate}
              disabled={busy}
              data-testid="validate-availability"
            >
              Valider la disponibilité
            </button>
          </div>
        </div>
      )}
      {validation && validation.type !== "validation_success" && (
        <div class="space-y-4" data-validation={validation.type}>
          <Banner tone="warning">{validation.message}</Banner>
          <p class="text-sm text-slate-700">{COCKTAIL_VALIDATION_HINT}</p>
          <div class="flex flex-wrap justify-end gap-2">
            <button type="button" class={BUTTON_LINE} onClick={onClose}>Fermer</button>
            {validation.type === "incomplete_creation"
              ? (
                // The missing list is this deal's own 'Création sur mesure': it is written in the deal's
                // 'Paramètres' tab, not in the partner's catalogue.
                <button
                  type="button"
                  class={BUTTON_MAIN}
                  onClick={() => {
                    onClose();
                    openProposedCocktails(showTab);
                  }}
                  data-testid="manage-cocktails"
                >
                  {MANAGE_COCKTAILS}
                </button>
              )
              : isAdmin
              ? (
                <button
                  type="button"
                  class={BUTTON_MAIN}
                  onClick={() => {
                    onClose();
                    showTab("settings");
                  }}
                >
                  Ouvrir les paramètres du devis
                </button>
              )
              : (
                <a href={PARTNER_COCKTAILS_PAGE} class={BUTTON_MAIN} data-testid="manage-cocktails">
                  {MANAGE_COCKTAILS}
                </a>
              )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
