// 'Commentaires Admin' (spec 001 §2.2): a 4-row text box the admin writes and the partner reads.
import { useEffect, useState } from "react";
import { DEAL_MESSAGES } from "../../../lib/deals/rules.ts";
import { useDeal } from "./controller.tsx";
import { dealApi } from "./requests.ts";
import { BUTTON_DARK, INPUT, Section } from "./ui.tsx";

const COMMENTS_SAVED = "Commentaires sauvegardés.";

export function AdminComments() {
  const { deal, isAdmin, run } = useDeal();
  const [text, setText] = useState(deal.adminComments);
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(deal.adminComments), [deal.adminComments]);

  if (!isAdmin) {
    return (
      <Section id="deal-admin-comments" title="Commentaires Admin" testId="deal-admin-comments">
        {deal.adminComments.trim()
          ? <p class="whitespace-pre-line text-sm text-slate-800">{deal.adminComments}</p>
          : <p class="text-sm italic text-slate-500">{DEAL_MESSAGES.noComment}</p>}
      </Section>
    );
  }
  const save = async () => {
    setBusy(true);
    await run(() => dealApi.patch(deal.id, { adminComments: text }), {
      error: DEAL_MESSAGES.commentsError,
      success: COMMENTS_SAVED,
    });
    setBusy(false);
  };
  return (
    <Section id="deal-admin-comments" title="Commentaires Admin" testId="deal-admin-comments">
      <label for="deal-admin-comments-text" class="sr-only">Commentaires Admin</label>
      <textarea
        id="deal-admin-comments-text"
        rows={4}
        class={INPUT}
        value={text}
        placeholder="Visible par le partenaire"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <div class="mt-2 flex justify-end">
        <button
          type="button"
          class={BUTTON_DARK}
          disabled={busy || text === deal.adminComments}
          onClick={save}
          data-testid="save-admin-comments"
        >
          Enregistrer les commentaires
        </button>
      </div>
    </Section>
  );
}
