// The saving state every settings form shares (the pricing grid, the deviseur settings, the cocktail
// catalogue): a flag while the request runs, then a notice with the server's message or the form's
// own, and the failure's field errors handed back to the form.
import { useState } from "react";
import { ApiError } from "./api.ts";
import type { NoticeState } from "./Notice.tsx";

export interface SaveFailure {
  /** What the notice said. */
  message: string;
  /** The server's field errors (`errors` of its answer), empty when it gave none. */
  fields: Record<string, string>;
}

export interface SaveOptions<T> {
  /** The success notice, or how to read it from the answer. */
  success: string | ((answer: T) => string);
  /** The error notice when the server's own message may not be shown. */
  error: string;
  /** Which failures' messages the notice shows (default: any answer of the server with a message). */
  showServerMessage?: (failure: ApiError) => boolean;
  onSaved?: (answer: T) => void;
  onFailed?: (failure: SaveFailure) => void;
}

export function useSave() {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [saving, setSaving] = useState(false);

  const say = (type: NoticeState["type"], text: string) => setNotice({ type, text, key: Date.now() });

  /** Runs `request` while `saving` is set; true when the server kept the change. */
  const save = async <T>(request: () => Promise<T>, options: SaveOptions<T>): Promise<boolean> => {
    setSaving(true);
    try {
      const answer = await request();
      options.onSaved?.(answer);
      say("success", typeof options.success === "string" ? options.success : options.success(answer));
      return true;
    } catch (failure) {
      const server = failure instanceof ApiError && (options.showServerMessage?.(failure) ?? true)
        ? failure.message
        : "";
      const message = server || options.error;
      options.onFailed?.({ message, fields: failure instanceof ApiError ? failure.body.errors ?? {} : {} });
      say("error", message);
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { notice, clearNotice: () => setNotice(null), say, saving, save };
}
