// The rich-text editor (Tiptap through preact/compat), loaded only in the browser: RichTextField
// imports this file with import(), so it is a separate chunk that pages and tabs without an editor
// never fetch, and it is never rendered on the server (DESIGN.md: Tiptap's use-sync-external-store
// loads a second Preact under Deno). Settings of spec 001 §9: fonts Montserrat, Permanent Marker,
// Blastimo and Arial, sizes 8 to 180 px (16 by default), 300 px high. The server sanitises whatever
// this produces (lib/richtext/sanitize.ts); links are limited here to what it keeps.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ComponentChildren } from "preact";
import { type Editor, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Color, FontFamily, FontSize, TextStyle } from "@tiptap/extension-text-style";
import TextAlign from "@tiptap/extension-text-align";
import {
  DEFAULT_FONT_SIZE,
  EDITOR_FONTS,
  EDITOR_HEIGHT,
  MAX_FONT_SIZE,
  MIN_FONT_SIZE,
} from "../../lib/richtext/rules.ts";
import type { RichTextEditorProps } from "./RichTextField.tsx";
import { LINK_REFUSED, normalizeLink, SAFE_LINK } from "./links.ts";
import { RICH_TEXT_CLASS } from "./RichTextView.tsx";

const FALLBACK: Record<string, string> = {
  "Permanent Marker": "cursive",
  "Blastimo": "cursive",
};
const clampSize = (n: number) => Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, Math.round(n)));

interface ToolbarState {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  h1: boolean;
  h2: boolean;
  h3: boolean;
  bulletList: boolean;
  orderedList: boolean;
  blockquote: boolean;
  link: boolean;
  href: string;
  align: string;
  fontFamily: string;
  fontSize: number;
  color: string;
  canUndo: boolean;
  canRedo: boolean;
}

function readState(editor: Editor): ToolbarState {
  const style = editor.getAttributes("textStyle") as {
    fontFamily?: string;
    fontSize?: string;
    color?: string;
  };
  const family = (style.fontFamily ?? "").split(",")[0].replace(/['"]/g, "").trim();
  const size = Number.parseInt(style.fontSize ?? "", 10);
  const align = ["left", "center", "right", "justify"].find((a) => editor.isActive({ textAlign: a })) ??
    "left";
  return {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    underline: editor.isActive("underline"),
    strike: editor.isActive("strike"),
    h1: editor.isActive("heading", { level: 1 }),
    h2: editor.isActive("heading", { level: 2 }),
    h3: editor.isActive("heading", { level: 3 }),
    bulletList: editor.isActive("bulletList"),
    orderedList: editor.isActive("orderedList"),
    blockquote: editor.isActive("blockquote"),
    link: editor.isActive("link"),
    href: (editor.getAttributes("link") as { href?: string }).href ?? "",
    align,
    fontFamily: EDITOR_FONTS.find((f) => f.toLowerCase() === family.toLowerCase()) ?? "",
    fontSize: Number.isFinite(size) ? size : DEFAULT_FONT_SIZE,
    color: toHex(style.color ?? "") ?? "#000000",
    canUndo: editor.can().undo(),
    canRedo: editor.can().redo(),
  };
}

/** "#abc", "#aabbcc" or "rgb(1, 2, 3)" → "#aabbcc" (what <input type=color> takes). */
function toHex(color: string): string | null {
  const c = color.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(c)) return c;
  if (/^#[0-9a-f]{3}$/.test(c)) return `#${[...c.slice(1)].map((x) => x + x).join("")}`;
  const rgb = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/.exec(c);
  if (rgb) return `#${rgb.slice(1, 4).map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`;
  return null;
}

function ToolButton({ label, active, disabled, onClick, children }: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      // Keep the editor's selection: the button acts on it.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      class={`inline-flex h-8 min-w-8 items-center justify-center rounded px-1.5 text-sm ${
        active ? "bg-slate-800 text-white" : "text-slate-700 hover:bg-slate-200"
      } disabled:opacity-40`}
    >
      {children}
    </button>
  );
}

const Sep = () => <span class="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />;

/** Small line icons (alignment, lists). */
function Lines({ kind }: { kind: "left" | "center" | "right" | "justify" | "bullets" | "numbers" }) {
  const rows: [number, number][] = kind === "center"
    ? [[3, 13], [5, 11], [3, 13], [5, 11]]
    : kind === "right"
    ? [[3, 13], [7, 13], [3, 13], [7, 13]]
    : kind === "justify"
    ? [[3, 13], [3, 13], [3, 13], [3, 13]]
    : kind === "left"
    ? [[3, 13], [3, 9], [3, 13], [3, 9]]
    : [[6, 14], [6, 14], [6, 14], [6, 14]];
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor">
      {rows.slice(0, kind === "bullets" || kind === "numbers" ? 3 : 4).map(([x1, x2], i) => (
        <line
          key={i}
          x1={x1}
          x2={x2}
          y1={3 + i * 3.5 + (kind === "bullets" || kind === "numbers" ? i : 0)}
          y2={3 + i * 3.5 + (kind === "bullets" || kind === "numbers" ? i : 0)}
          stroke-width="1.6"
        />
      ))}
      {kind === "bullets" &&
        [3, 7.5, 12].map((y) => <circle key={y} cx="2.5" cy={y} r="1.2" fill="currentColor" />)}
      {kind === "numbers" && <text x="0" y="6" font-size="5" fill="currentColor" stroke="none">1.</text>}
    </svg>
  );
}

export default function TiptapEditor(
  { value, onChange, label, height = EDITOR_HEIGHT, disabled }: RichTextEditorProps,
) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const lastHtml = useRef(value);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkDraft, setLinkDraft] = useState("");
  const [linkError, setLinkError] = useState("");
  const [sizeDraft, setSizeDraft] = useState<string | null>(null);

  // Options must keep their identity from one render to the next: useEditor compares them on every
  // render and, when they differ, resets the view's state, which drops keystrokes ProseMirror has not
  // read from the DOM yet.
  const extensions = useMemo(() => [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        protocols: ["mailto"],
        isAllowedUri: (url) => SAFE_LINK.test(url),
        HTMLAttributes: { rel: "noopener noreferrer nofollow", target: "_blank" },
      },
    }),
    TextStyle,
    FontFamily,
    FontSize,
    Color,
    TextAlign.configure({ types: ["heading", "paragraph"] }),
  ], []);
  const editorProps = useMemo(() => ({
    attributes: {
      class: `${RICH_TEXT_CLASS} min-h-full whitespace-pre-wrap px-3 py-2 outline-none`,
      "aria-label": label,
      "aria-multiline": "true",
      role: "textbox",
    },
  }), [label]);
  const initialContent = useRef(value || "").current;

  const editor = useEditor({
    extensions,
    content: initialContent,
    editable: !disabled,
    // The CSP allows no inline <style>: the few rules ProseMirror needs are classes (editorProps).
    injectCSS: false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps,
    onUpdate: ({ editor }) => {
      const html = editor.isEmpty ? "" : editor.getHTML();
      lastHtml.current = html;
      onChangeRef.current(html);
    },
  });

  // A value changed from outside (saved, reset): shown without echoing it back. A layout effect, so
  // that it runs in the same task as the render: a plain effect runs after paint, when the editor may
  // already hold the next keystroke, and would put the older value back.
  useLayoutEffect(() => {
    if (!editor || value === lastHtml.current) return;
    lastHtml.current = value;
    editor.commands.setContent(value || "", { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  const state = useEditorState({ editor, selector: ({ editor }) => (editor ? readState(editor) : null) });
  if (!editor || !state) return null;

  const chain = () => editor.chain().focus();
  const applySize = (text: string) => {
    setSizeDraft(null);
    const n = Number.parseInt(text, 10);
    if (!Number.isFinite(n)) return;
    const size = clampSize(n);
    if (size === DEFAULT_FONT_SIZE) chain().unsetFontSize().run();
    else chain().setFontSize(`${size}px`).run();
  };
  const openLink = () => {
    setLinkDraft(state.href);
    setLinkError("");
    setLinkOpen(true);
  };
  const applyLink = () => {
    const href = normalizeLink(linkDraft);
    if (href === null) {
      setLinkError(LINK_REFUSED);
      return;
    }
    if (href === "") chain().extendMarkRange("link").unsetLink().run();
    else chain().extendMarkRange("link").setLink({ href }).run();
    setLinkOpen(false);
  };
  const off = disabled;

  return (
    <div class="rounded-lg border border-slate-300 bg-white" data-testid="rich-text-editor">
      <div
        class="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 p-1.5"
        role="toolbar"
        aria-label={`Mise en forme : ${label}`}
      >
        <select
          aria-label="Police"
          title="Police"
          disabled={off}
          value={state.fontFamily}
          onChange={(e) => {
            const family = (e.target as HTMLSelectElement).value;
            if (!family) chain().unsetFontFamily().run();
            else chain().setFontFamily(FALLBACK[family] ? `${family}, ${FALLBACK[family]}` : family).run();
          }}
          class="h-8 rounded border border-slate-300 bg-white px-1 text-sm"
        >
          <option value="">Police par défaut</option>
          {EDITOR_FONTS.map((font) => <option key={font} value={font}>{font}</option>)}
        </select>
        <label class="inline-flex items-center gap-1 text-sm text-slate-600">
          <span class="sr-only">Taille du texte (px)</span>
          <input
            type="number"
            min={MIN_FONT_SIZE}
            max={MAX_FONT_SIZE}
            step={1}
            disabled={off}
            title="Taille du texte (px)"
            value={sizeDraft ?? String(state.fontSize)}
            onInput={(e) => setSizeDraft((e.target as HTMLInputElement).value)}
            onBlur={(e) => sizeDraft !== null && applySize((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                applySize((e.target as HTMLInputElement).value);
              }
            }}
            class="h-8 w-16 rounded border border-slate-300 bg-white px-1 text-sm"
          />
          <span aria-hidden="true">px</span>
        </label>
        <label
          class="inline-flex h-8 items-center gap-1 rounded px-1 text-sm text-slate-600"
          title="Couleur du texte"
        >
          <span class="sr-only">Couleur du texte</span>
          <span aria-hidden="true" class="font-semibold underline decoration-2">A</span>
          <input
            type="color"
            disabled={off}
            value={state.color}
            onInput={(e) => chain().setColor((e.target as HTMLInputElement).value).run()}
            class="h-6 w-7 cursor-pointer rounded border border-slate-300 bg-white p-0"
          />
        </label>
        <ToolButton label="Couleur par défaut" disabled={off} onClick={() => chain().unsetColor().run()}>
          <span class="text-xs">A×</span>
        </ToolButton>
        <Sep />
        <ToolButton
          label="Gras"
          active={state.bold}
          disabled={off}
          onClick={() => chain().toggleBold().run()}
        >
          <strong>B</strong>
        </ToolButton>
        <ToolButton
          label="Italique"
          active={state.italic}
          disabled={off}
          onClick={() => chain().toggleItalic().run()}
        >
          <em class="font-serif">I</em>
        </ToolButton>
        <ToolButton
          label="Souligné"
          active={state.underline}
          disabled={off}
          onClick={() => chain().toggleUnderline().run()}
        >
          <span class="underline">U</span>
        </ToolButton>
        <ToolButton
          label="Barré"
          active={state.strike}
          disabled={off}
          onClick={() => chain().toggleStrike().run()}
        >
          <span class="line-through">S</span>
        </ToolButton>
        <Sep />
        {([1, 2, 3] as const).map((level) => (
          <ToolButton
            key={level}
            label={`Titre ${level}`}
            active={state[`h${level}`]}
            disabled={off}
            onClick={() => chain().toggleHeading({ level }).run()}
          >
            <span class="text-xs font-bold">T{level}</span>
          </ToolButton>
        ))}
        <ToolButton
          label="Liste à puces"
          active={state.bulletList}
          disabled={off}
          onClick={() => chain().toggleBulletList().run()}
        >
          <Lines kind="bullets" />
        </ToolButton>
        <ToolButton
          label="Liste numérotée"
          active={state.orderedList}
          disabled={off}
          onClick={() => chain().toggleOrderedList().run()}
        >
          <Lines kind="numbers" />
        </ToolButton>
        <ToolButton
          label="Citation"
          active={state.blockquote}
          disabled={off}
          onClick={() => chain().toggleBlockquote().run()}
        >
          <span class="font-serif text-lg leading-none">“</span>
        </ToolButton>
        <Sep />
        {([
          ["left", "Aligner à gauche"],
          ["center", "Centrer"],
          ["right", "Aligner à droite"],
          ["justify", "Justifier"],
        ] as const).map(([align, text]) => (
          <ToolButton
            key={align}
            label={text}
            active={state.align === align}
            disabled={off}
            onClick={() => chain().setTextAlign(align).run()}
          >
            <Lines kind={align} />
          </ToolButton>
        ))}
        <Sep />
        <ToolButton label="Lien" active={state.link} disabled={off} onClick={openLink}>
          <span class="text-xs font-semibold underline">Lien</span>
        </ToolButton>
        <ToolButton
          label="Effacer la mise en forme"
          disabled={off}
          onClick={() => chain().unsetAllMarks().clearNodes().unsetTextAlign().run()}
        >
          <span class="text-xs">Tx</span>
        </ToolButton>
        <Sep />
        <ToolButton label="Annuler" disabled={off || !state.canUndo} onClick={() => chain().undo().run()}>
          <span aria-hidden="true">↶</span>
        </ToolButton>
        <ToolButton label="Rétablir" disabled={off || !state.canRedo} onClick={() => chain().redo().run()}>
          <span aria-hidden="true">↷</span>
        </ToolButton>
      </div>
      {linkOpen && (
        <div class="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-2 py-2">
          <label class="flex min-w-0 flex-1 items-center gap-2 text-sm">
            <span class="shrink-0 text-slate-600">Adresse du lien</span>
            <input
              type="text"
              inputMode="url"
              autoFocus
              value={linkDraft}
              placeholder="https://…"
              onInput={(e) => {
                setLinkDraft((e.target as HTMLInputElement).value);
                setLinkError("");
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  applyLink();
                }
                if (e.key === "Escape") setLinkOpen(false);
              }}
              class="h-8 min-w-0 flex-1 rounded border border-slate-300 px-2"
            />
          </label>
          <button type="button" onClick={applyLink} class="h-8 rounded bg-slate-800 px-3 text-sm text-white">
            Appliquer
          </button>
          {state.link && (
            <button
              type="button"
              onClick={() => {
                chain().extendMarkRange("link").unsetLink().run();
                setLinkOpen(false);
              }}
              class="h-8 rounded px-3 text-sm text-slate-700 hover:bg-slate-200"
            >
              Retirer le lien
            </button>
          )}
          <button
            type="button"
            onClick={() => setLinkOpen(false)}
            class="h-8 rounded px-3 text-sm text-slate-700 hover:bg-slate-200"
          >
            Fermer
          </button>
          {linkError && <p class="w-full text-sm text-red-700" role="alert">{linkError}</p>}
        </div>
      )}
      <div
        class="overflow-y-auto"
        style={{ height: `${height}px` }}
        onClick={(e) => e.target === e.currentTarget && editor.commands.focus("end")}
      >
        <EditorContent editor={editor} className="h-full [&>div]:min-h-full" />
      </div>
    </div>
  );
}
