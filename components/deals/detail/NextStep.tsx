// 'À faire' (issue "Quotes and payments, second pass" §5): what the deal waits for from this viewer,
// at the top of the page, above the tabs — on a phone the action row sits 3 800 px down. A partner
// whose quote is new or modified validates its availability from here (the same dialog as the action
// row); an admin sends a quote that has a partner but was not sent yet, or learns that it needs one.
// Nothing is shown when the deal waits for nobody on this page. The server checks every move again.
import { useState } from "react";
import { DEAL_MESSAGES, transition } from "../../../lib/deals/rules.ts";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { CocktailValidationDialog } from "./CocktailValidationDialog.tsx";
import { BUTTON_MAIN } from "./ui.tsx";
import { REVALIDATE, SEND_TO_PARTNER, VALIDATE_FIRST } from "./Actions.tsx";

interface Step {
  /** "todo": this viewer acts; "waiting": someone else does (said, in grey, so nobody hunts for a button). */
  tone: "todo" | "waiting";
  text: string;
  action?: { label: string; kind: "validate" | "send" };
}

export const NEXT_STEP_TEXT = {
  partnerNew:
    "Ce devis attend votre réponse : vérifiez la demande et les lignes, puis validez votre disponibilité et les cocktails pour l'envoyer au client.",
  partnerPending:
    "Le devis a été modifié : validez à nouveau votre disponibilité pour envoyer la nouvelle version au client.",
  adminNotSent: "Ce devis n'a pas encore été envoyé au partenaire.",
  adminWaitingPartner: "En attente de la validation du partenaire.",
} as const;

function stepFor(
  deal: ReturnType<typeof useDeal>["deal"],
  role: ReturnType<typeof useDeal>["role"],
  locked: boolean,
): Step | null {
  if (role === "Admin") {
    if (deal.status === "start" && deal.properties.envoi_devis_partenaire !== "oui") {
      return deal.company
        ? {
          tone: "todo",
          text: NEXT_STEP_TEXT.adminNotSent,
          action: { label: SEND_TO_PARTNER, kind: "send" },
        }
        : { tone: "todo", text: DEAL_MESSAGES.noPartner };
    }
    if (deal.status === "new" || deal.status === "pending") {
      return { tone: "waiting", text: NEXT_STEP_TEXT.adminWaitingPartner };
    }
    return null;
  }
  if (!transition("validate", { from: deal.status, role, locked }).ok) return null;
  return deal.status === "pending"
    ? { tone: "todo", text: NEXT_STEP_TEXT.partnerPending, action: { label: REVALIDATE, kind: "validate" } }
    : { tone: "todo", text: NEXT_STEP_TEXT.partnerNew, action: { label: VALIDATE_FIRST, kind: "validate" } };
}

export function NextStep() {
  const { deal, role, locked, run } = useDeal();
  const [validating, setValidating] = useState(false);
  const [busy, setBusy] = useState(false);
  const step = stepFor(deal, role, locked);
  if (!step) return null;
  const todo = step.tone === "todo";

  const act = async () => {
    if (step.action?.kind === "validate") return setValidating(true);
    setBusy(true);
    await run(() => dealApi.act(deal.id, "send-to-partner"), {
      error: DEAL_MESSAGES.sendToPartnerError,
      success: DEAL_MESSAGES.sentToPartner,
    });
    setBusy(false);
  };

  return (
    <section
      aria-labelledby="deal-next-step-title"
      class={`mb-4 flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center sm:justify-between ${
        todo ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-slate-50"
      }`}
      data-testid="next-step"
      data-tone={step.tone}
    >
      <div class="min-w-0">
        <h2
          id="deal-next-step-title"
          class={`text-sm font-bold uppercase tracking-wide ${todo ? "text-amber-900" : "text-slate-700"}`}
        >
          {todo ? "À faire" : "En attente"}
        </h2>
        <p class="mt-1 text-sm text-slate-800">{step.text}</p>
      </div>
      {step.action && (
        <button
          type="button"
          class={`${BUTTON_MAIN} shrink-0`}
          disabled={busy}
          onClick={act}
          data-testid="next-step-action"
        >
          {step.action.label}
        </button>
      )}
      {validating && (
        <CocktailValidationDialog
          title={step.action?.label ?? VALIDATE_FIRST}
          onClose={() => setValidating(false)}
        />
      )}
    </section>
  );
}
