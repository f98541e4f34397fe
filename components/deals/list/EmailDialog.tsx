// 'send email' (spec 001 §2.12, 700 px): the manual templates as they apply to this deal
// (GET /api/deal/email-templates?dealId=), one click sends one (POST /api/deal/send-mail/{id}); the list
// then closes the dialog and says 'Email "{label}" envoyé avec succès !'. A template that does not apply
// now (its party has nothing to do, no invoice yet…) is shown disabled with the reason.
import { useEffect, useState } from "react";
import { Dialog } from "../../ui/Dialog.tsx";
import { api } from "../../ui/api.ts";
import {
  type DealEmailTemplate,
  type EmailTemplateInfo,
  MAIL_MESSAGES,
  RECIPIENT_LABELS,
} from "../../../lib/mail/rules.ts";
import type { DealListRow } from "./rows.ts";

export function EmailDialog({ row, sending, onClose, onSend }: {
  row: DealListRow;
  /** The template being sent (its button waits). */
  sending: string | null;
  onClose: () => void;
  onSend: (row: DealListRow, template: EmailTemplateInfo) => void;
}) {
  const [templates, setTemplates] = useState<DealEmailTemplate[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // Per deal and per opening: whether a template applies depends on the deal's state now.
    api<{ results: DealEmailTemplate[] }>("GET", `/api/deal/email-templates?dealId=${row.id}`)
      .then((answer) => setTemplates(answer.results), () => setFailed(true));
  }, [row.id]);

  return (
    <Dialog open onClose={onClose} title="Envoyer un email" width={700} testId="email-dialog">
      <p class="mb-3 text-sm text-slate-600">
        Devis #{row.id} — {row.customerName || "client"}
        {row.companyName ? ` · partenaire : ${row.companyName}` : ""}
      </p>
      {failed
        ? <p class="text-sm text-red-600" role="alert">{MAIL_MESSAGES.templatesError}</p>
        : templates === null
        ? <p class="text-sm text-slate-500">Chargement…</p>
        : templates.length === 0
        ? <p class="text-sm text-slate-500">{MAIL_MESSAGES.noTemplate}</p>
        : (
          <ul class="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {templates.map((t) => (
              <li key={t.template} class="flex flex-wrap items-center gap-3 p-3 sm:flex-nowrap">
                <div class="min-w-0 flex-1">
                  <p class="font-medium">
                    {t.label}
                    <span class="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                      {RECIPIENT_LABELS[t.recipient]}
                    </span>
                  </p>
                  <p class="text-sm text-slate-600">{t.description}</p>
                  {t.unavailableReason && (
                    <p class="mt-1 text-sm text-amber-700" data-unavailable={t.template}>
                      Indisponible : {t.unavailableReason}
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  class="shrink-0 rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-50"
                  disabled={sending !== null || !t.available}
                  data-template={t.template}
                  onClick={() =>
                    onSend(row, t)}
                >
                  {sending === t.template ? "Envoi…" : "Envoyer"}
                </button>
              </li>
            ))}
          </ul>
        )}
    </Dialog>
  );
}

/** POST /api/deal/send-mail/{id}. */
export async function sendTemplate(dealId: number, template: string): Promise<void> {
  await api("POST", `/api/deal/send-mail/${dealId}`, { templateName: template });
}
