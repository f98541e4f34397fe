// The share action of a pending registration on 'Vos sessions' (spec 000 §2): a dialog (500 px) with the
// link {origin}/session/{slug}?date={dtstart}, 'Annuler' and 'Copier'; 'Lien copié dans le presse-papiers !'
// for 3 seconds, or 'Erreur lors de la copie du lien'.
import { useState } from "react";
import { Dialog } from "../components/ui/Dialog.tsx";
import { Notice, type NoticeState } from "../components/ui/Notice.tsx";
import { SESSION_MESSAGES as M, SHARE_DIALOG_WIDTH, SNACKBAR_MS } from "../lib/sessions/rules.ts";

export interface SessionShareButtonProps {
  url: string;
}

export default function SessionShareButton({ url }: SessionShareButtonProps) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const copy = async () => {
    try {
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        // The older copy method when the clipboard call fails (§8).
        const area = document.createElement("textarea");
        area.value = url;
        document.body.appendChild(area);
        area.select();
        const ok = document.execCommand("copy");
        area.remove();
        if (!ok) throw new Error("copy");
      }
      setNotice({ type: "success", text: M.linkCopied, key: Date.now() });
      setOpen(false);
    } catch {
      setNotice({ type: "error", text: M.copyFailed, key: Date.now() });
    }
  };
  return (
    <>
      <button type="button" class="rounded border px-3 py-1 text-sm" onClick={() => setOpen(true)}>
        Partager
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={M.shareTitle} width={SHARE_DIALOG_WIDTH}>
        <input readOnly value={url} aria-label="Lien" class="w-full rounded border px-2 py-1" />
        <div class="mt-4 flex justify-end gap-2">
          <button type="button" class="rounded border px-3 py-2" onClick={() => setOpen(false)}>
            Annuler
          </button>
          <button type="button" class="rounded bg-brand-600 px-3 py-2 text-white" onClick={copy}>
            Copier
          </button>
        </div>
      </Dialog>
      <Notice notice={notice} onDone={() => setNotice(null)} durationMs={SNACKBAR_MS} />
    </>
  );
}
