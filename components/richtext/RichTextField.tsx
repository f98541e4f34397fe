// The rich-text field islands use. The editor itself (Tiptap, ~130 kB gzip) is a separate chunk,
// imported only once the field is on screen: pages, hidden tabs and read-only views never load it
// (an IntersectionObserver waits for the field to be displayed). Until it has loaded, the current text
// is shown as it will read.
import { useEffect, useRef, useState } from "react";
import type { ComponentType } from "preact";
import { RichTextView } from "./RichTextView.tsx";

export interface RichTextEditorProps {
  value: string;
  onChange: (html: string) => void;
  label: string;
  height?: number;
  disabled?: boolean;
}

let loading: Promise<ComponentType<RichTextEditorProps>> | null = null;
function loadEditor() {
  loading ??= import("./TiptapEditor.tsx").then((m) => m.default as ComponentType<RichTextEditorProps>);
  loading.catch(() => (loading = null));
  return loading;
}

/** True once `ref`'s element has been displayed (at once where IntersectionObserver is missing). */
function useShown(ref: { current: HTMLElement | null }): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (shown) return;
    if (!element || typeof IntersectionObserver === "undefined") {
      setShown(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setShown(true);
        observer.disconnect();
      }
    }, { rootMargin: "300px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);
  return shown;
}

export function RichTextField(props: RichTextEditorProps) {
  const [Editor, setEditor] = useState<ComponentType<RichTextEditorProps> | null>(null);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const shown = useShown(box);
  useEffect(() => {
    if (!shown) return;
    let alive = true;
    loadEditor().then((component) => alive && setEditor(() => component)).catch(() =>
      alive && setFailed(true)
    );
    return () => {
      alive = false;
    };
  }, [shown]);
  if (Editor) return <Editor {...props} />;
  return (
    <div
      ref={box}
      class="min-h-[300px] rounded-lg border border-slate-300 bg-white"
      aria-busy={!failed}
      aria-label={props.label}
    >
      <p
        class="border-b border-slate-200 bg-slate-50 px-3 py-2.5 text-sm text-slate-500"
        role={failed ? "alert" : undefined}
      >
        {failed ? "L'éditeur n'a pas pu être chargé. Rechargez la page." : "Chargement de l'éditeur…"}
      </p>
      <div class="px-3 py-2">
        <RichTextView html={props.value} />
      </div>
    </div>
  );
}
