// The action row (spec 001 §2.2, §4): for an admin 'Envoyer le devis au partenaire' (disabled once
// sent, then reading 'Devis déjà envoyé au partenaire') and 'Marquer devis accepté' (after a
// confirmation; disabled once accepted); for a partner 'Valider ma disponibilité et les cocktails' or
// '(Re)valider ma dispo' (the cocktail list validation dialog); and the refuse button (hidden when
// edits are locked or the deal is already refused) with its reasons and confirmation. The buttons
// follow rules.ts; the server checks every move again.
import { useState } from "react";
import {
  DEAL_MESSAGES,
  findReason,
  reasonsFor,
  refuseConfirmation,
  REFUSED_STATUSES,
  transition,
  wrongStatus,
} from "../../../lib/deals/rules.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { CocktailValidationDialog } from "./CocktailValidationDialog.tsx";
import { BUTTON_DANGER, BUTTON_DARK, BUTTON_LINE, BUTTON_MAIN, INPUT, Section } from "./ui.tsx";

export const SEND_TO_PARTNER = "Envoyer le devis au partenaire";
const MARK_ACCEPTED = "Marquer devis accepté";
export const VALIDATE_FIRST = "Valider ma disponibilité et les cocktails";
export const REVALIDATE = "(Re)valider ma dispo";
const REFUSE = "Refuser le devis";

export function Actions() {
  const { deal, role, isAdmin, locked, run } = useDeal();
  const [busy, setBusy] = useState(false);
  const [accepting, setAccepting] = useState(false);
  const [validating, setValidating] = useState(false);
  const [refusing, setRefusing] = useState(false);

  const sent = deal.properties.envoi_devis_partenaire === "oui";
  const canSend = !sent && deal.status === "start" && deal.company !== null;
  const accept = transition("accept", { from: deal.status, role: "Admin", locked });
  const validate = transition("validate", { from: deal.status, role, locked });
  const canRefuse = !locked && !REFUSED_STATUSES.includes(deal.status) &&
    transition("refuse", { from: deal.status, role, locked }).ok;

  const sendToPartner = async () => {
    setBusy(true);
    await run(() => dealApi.act(deal.id, "send-to-partner"), {
      error: DEAL_MESSAGES.sendToPartnerError,
      success: DEAL_MESSAGES.sentToPartner,
    });
    setBusy(false);
  };
  const markAccepted = async () => {
    setBusy(true);
    const result = await run(() => dealApi.act(deal.id, "accept"), {
      error: DEAL_MESSAGES.acceptError,
      success: DEAL_MESSAGES.accepted,
    });
    setBusy(false);
    if (result.ok) setAccepting(false);
  };

  // Why a button is greyed out, written under the row (a `title` tooltip never shows on a touch screen).
  const acceptWhy = isAdmin && deal.status !== "accepted" && !accept.ok ? wrongStatus(deal.status) : null;

  const buttons = [];
  if (isAdmin) {
    buttons.push(
      <button
        key="send"
        type="button"
        class={BUTTON_DARK}
        disabled={busy || !canSend}
        aria-describedby={!deal.company && !sent ? "deal-actions-no-partner" : undefined}
        onClick={sendToPartner}
        data-testid="send-to-partner"
      >
        {sent ? DEAL_MESSAGES.alreadySentToPartner : SEND_TO_PARTNER}
      </button>,
      <button
        key="accept"
        type="button"
        class={BUTTON_MAIN}
        disabled={busy || deal.status === "accepted" || !accept.ok}
        aria-describedby={acceptWhy ? "deal-actions-accept-why" : undefined}
        onClick={() => setAccepting(true)}
        data-testid="mark-accepted"
      >
        {MARK_ACCEPTED}
      </button>,
    );
  }
  if (validate.ok) {
    buttons.push(
      <button
        key="validate"
        type="button"
        class={isAdmin ? BUTTON_LINE : BUTTON_MAIN}
        disabled={busy}
        onClick={() => setValidating(true)}
        data-testid="open-validation"
      >
        {deal.status === "pending" ? REVALIDATE : VALIDATE_FIRST}
      </button>,
    );
  }
  if (canRefuse) {
    buttons.push(
      <button
        key="refuse"
        type="button"
        class={BUTTON_DANGER}
        disabled={busy}
        onClick={() => setRefusing(true)}
        data-testid="open-refuse"
      >
        {REFUSE}
      </button>,
    );
  }

  return (
    <Section id="deal-actions" title="Actions" testId="deal-actions">
      {isAdmin && !deal.company && !sent && (
        <p id="deal-actions-no-partner" class="mb-3 text-xs text-slate-600">{DEAL_MESSAGES.noPartner}</p>
      )}
      {buttons.length
        ? <div class="flex flex-wrap gap-2">{buttons}</div>
        : <p class="text-sm text-slate-500">Aucune action n'est possible sur ce devis pour le moment.</p>}
      {acceptWhy && (
        <p id="deal-actions-accept-why" class="mt-2 text-xs text-slate-600" data-testid="accept-why">
          {MARK_ACCEPTED} : {acceptWhy}
        </p>
      )}
      {isAdmin && accepting && (
        <ConfirmDialog
          open
          title={MARK_ACCEPTED}
          confirmLabel={MARK_ACCEPTED}
          onConfirm={markAccepted}
          onClose={() => setAccepting(false)}
          busy={busy}
          testId="accept-dialog"
        >
          {DEAL_MESSAGES.acceptConfirm}
        </ConfirmDialog>
      )}
      {validating && (
        <CocktailValidationDialog
          title={deal.status === "pending" ? REVALIDATE : VALIDATE_FIRST}
          onClose={() => setValidating(false)}
        />
      )}
      {refusing && <RefuseDialog onClose={() => setRefusing(false)} />}
    </Section>
  );
}

function RefuseDialog({ onClose }: { onClose: () => void }) {
  const { deal, role, run } = useDeal();
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = findReason(reason)?.label ?? "";

  const refuse = async () => {
    setBusy(true);
    const result = await run(() => dealApi.act(deal.id, "refuse", { reason }), {
      error: DEAL_MESSAGES.refuseError,
      success: DEAL_MESSAGES.refused,
    });
    setBusy(false);
    if (result.ok) onClose();
    else {
      setConfirming(false);
      setError(result.message);
    }
  };

  return (
    <Dialog open onClose={onClose} title={REFUSE} width={500} testId="refuse-dialog">
      {confirming
        ? <p class="text-sm text-slate-700" data-testid="refuse-confirmation">{refuseConfirmation(label)}</p>
        : (
          <label class="block text-sm">
            <span class="font-medium text-slate-700">Raison du refus</span>
            <select
              id="refuse-reason"
              class={`${INPUT} mt-1`}
              value={reason}
              onChange={(e) => {
                setReason((e.target as HTMLSelectElement).value);
                setError(null);
              }}
            >
              <option value="">Choisir une raison…</option>
              {reasonsFor(role).map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
            </select>
          </label>
        )}
      {error && <p role="alert" class="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
      <div class="mt-6 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          class={BUTTON_LINE}
          onClick={confirming ? () => setConfirming(false) : onClose}
          disabled={busy}
        >
          {confirming ? "Retour" : "Annuler"}
        </button>
        {confirming
          ? (
            <button
              type="button"
              class={BUTTON_MAIN}
              onClick={refuse}
              disabled={busy}
              data-testid="refuse-confirm"
            >
              Confirmer le refus
            </button>
          )
          : (
            <button
              type="button"
              class={BUTTON_MAIN}
              onClick={() => (reason ? setConfirming(true) : setError(DEAL_MESSAGES.reasonRequired))}
              data-testid="refuse-next"
            >
              Continuer
            </button>
          )}
      </div>
    </Dialog>
  );
}
