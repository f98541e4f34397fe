// 'Statut en cours' (spec 001 §2.2, §4): the current status with the status list (edit, save,
// cancel) — any status for an admin, only its own moves for a partner (rules.ts
// partnerStatusChoices) — a refusal needing a reason and a confirmation, and the history of status
// changes (who, when, from, to).
import { useState } from "react";
import {
  DEAL_MESSAGES,
  type DealStatus,
  findReason,
  partnerStatusChoices,
  reasonsFor,
  refuseConfirmation,
  STATUS_LABELS,
  statusOptions,
} from "../../../lib/deals/rules.ts";
import { dateTimeFr } from "../../../lib/deals/format.ts";
import { StatusChip } from "../StatusChip.tsx";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { IconButton, INPUT, Section } from "./ui.tsx";
import type { HistoryEntry } from "./types.ts";

/** Statuses that need a refusal reason (the server asks for one). */
const NEEDS_REASON: DealStatus[] = ["refused_partner", "refused_client"];

export function StatusSection({ history }: { history: HistoryEntry[] }) {
  const { deal, role, isAdmin, locked, run } = useDeal();
  const [editing, setEditing] = useState(false);
  const [target, setTarget] = useState<DealStatus>(deal.status);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const choices: DealStatus[] = isAdmin
    ? statusOptions().map((o) => o.value)
    : [deal.status, ...partnerStatusChoices(deal.status, locked)];
  const canEdit = choices.length > 1;
  const reasons = reasonsFor(role);
  const needsReason = NEEDS_REASON.includes(target);

  const start = () => {
    setTarget(deal.status);
    setReason("");
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setConfirming(false);
    setError(null);
  };
  const send = async () => {
    setBusy(true);
    const refusing = needsReason;
    const result = await run(
      () => dealApi.patch(deal.id, refusing ? { status: target, refusalReason: reason } : { status: target }),
      { error: refusing ? DEAL_MESSAGES.refuseError : DEAL_MESSAGES.saveError },
    );
    setBusy(false);
    setConfirming(false);
    if (result.ok) cancel();
    else setError(result.message);
  };
  const save = () => {
    if (target === deal.status) return cancel();
    if (needsReason) {
      if (!reason) return setError(DEAL_MESSAGES.reasonRequired);
      return setConfirming(true);
    }
    send();
  };

  const actions = !canEdit ? null : editing
    ? (
      <>
        <IconButton
          icon="check"
          label="Enregistrer le statut"
          tone="ok"
          onClick={save}
          disabled={busy}
          testId="status-save"
        />
        <IconButton icon="close" label="Annuler" onClick={cancel} disabled={busy} testId="status-cancel" />
      </>
    )
    : <IconButton icon="pencil" label="Modifier le statut" onClick={start} testId="status-edit" />;

  const reasonLabel = findReason(reason)?.label ?? reason;
  return (
    <Section id="deal-status" title="Statut en cours" actions={actions} testId="deal-status">
      {editing
        ? (
          <div class="space-y-3">
            <label class="block text-sm">
              <span class="font-medium text-slate-700">Nouveau statut</span>
              <select
                id="deal-status-select"
                class={`${INPUT} mt-1`}
                value={target}
                onChange={(e) => {
                  setTarget((e.target as HTMLSelectElement).value as DealStatus);
                  setError(null);
                }}
              >
                {choices.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
              </select>
            </label>
            {needsReason && (
              <label class="block text-sm">
                <span class="font-medium text-slate-700">Raison du refus</span>
                <select
                  id="deal-status-reason"
                  class={`${INPUT} mt-1`}
                  value={reason}
                  onChange={(e) => {
                    setReason((e.target as HTMLSelectElement).value);
                    setError(null);
                  }}
                >
                  <option value="">Choisir une raison…</option>
                  {reasons.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
                </select>
              </label>
            )}
          </div>
        )
        : (
          <div class="flex flex-wrap items-center gap-2">
            <StatusChip status={deal.status} />
            {deal.refusalReason && (
              <span class="text-sm text-slate-600">
                Raison : {findReason(deal.refusalReason)?.label ?? deal.refusalReason}
              </span>
            )}
          </div>
        )}
      {error && <p role="alert" class="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
      <History entries={history} />
      {confirming && (
        <ConfirmDialog
          open
          title="Refuser le devis"
          confirmLabel="Refuser le devis"
          onConfirm={send}
          onClose={() => setConfirming(false)}
          busy={busy}
          testId="status-refuse-confirm"
        >
          {refuseConfirmation(reasonLabel)}
        </ConfirmDialog>
      )}
    </Section>
  );
}

const ROLE_LABELS: Record<string, string> = {
  Admin: "Administrateur",
  Company: "Partenaire",
  Customer: "Client",
};

function who(entry: HistoryEntry): string {
  const role = ROLE_LABELS[entry.actorRole] ?? "Système";
  const name = entry.actorName ? `${entry.actorName} (${role})` : role;
  return entry.impersonated ? `${name}, par un administrateur` : name;
}

function History({ entries }: { entries: HistoryEntry[] }) {
  if (!entries.length) return null;
  return (
    <div class="mt-4 border-t border-slate-100 pt-3">
      <h4 class="mb-2 text-sm font-semibold text-slate-700">Historique des statuts</h4>
      <ol class="space-y-2" data-testid="status-history">
        {[...entries].reverse().map((entry, i) => (
          <li key={i} class="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-700">
            <div class="flex flex-wrap justify-between gap-x-2">
              <span class="font-medium">{who(entry)}</span>
              <time class="text-slate-500">{dateTimeFr(entry.at)}</time>
            </div>
            <div class="mt-0.5">
              {entry.fromStatus ? `${STATUS_LABELS[entry.fromStatus]} → ` : ""}
              <span class="font-semibold">{STATUS_LABELS[entry.toStatus]}</span>
              {entry.reason && ` (${findReason(entry.reason)?.label ?? entry.reason})`}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
