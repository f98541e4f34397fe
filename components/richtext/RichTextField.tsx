// The rich-text field islands use. The editor itself (Tiptap, ~140 kB gzip) is a separate chunk,
// imported only when the field is shown: pages and tabs without one never load it. Until it has
// loaded, the current text is shown as it will read.
import { useEffect, useState } from "react";
import type { ComponentType } from "preact";

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
  return loading;
}

export function RichTextField(props: RichTextEditorProps) {
  const [Editor, setEditor] = useState<ComponentType<RichTextEditorProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let alive = true;
    loadEditor().then((component) => alive && setEditor(() => component)).catch(() =>
      alive && setFailed(true)
    );
    return () => {
      alive = false;
    };
  }, []);
  if (Editor) return <Editor {...props} />;
  return (
    <div
      class="min-h-[300px] rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm text-slate-500"
      aria-busy={!failed}
    >
      {failed ? "L'éditeur n'a pas pu être chargé. Rechargez la page." : "Chargement de l'éditeur…"}
    </div>
  );
}
