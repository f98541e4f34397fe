// Stored rich text shown as formatted output (server-rendered and in islands). The HTML was sanitised
// by the server when it was saved and again when it was read (lib/richtext/sanitize.ts); template
// values filled in afterwards are escaped (lib/deals/template.ts). The editor's content uses the same
// classes, so what is typed reads the same once shown.

/** Typography of rich text, element by element (Tailwind's reset removes the browser's defaults). */
export const RICH_TEXT_CLASS = [
  "break-words text-base leading-relaxed text-slate-800",
  "[&_p]:my-2 [&_h1]:my-3 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:my-3 [&_h2]:text-2xl [&_h2]:font-semibold",
  "[&_h3]:my-2 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:font-semibold",
  "[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_li_p]:my-0",
  "[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4",
  "[&_blockquote]:italic [&_a]:text-brand-700 [&_a]:underline [&_hr]:my-4 [&_hr]:border-slate-300",
  "[&_pre]:my-2 [&_pre]:whitespace-pre-wrap [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-3",
  "[&_code]:font-mono [&_code]:text-sm [&_mark]:bg-yellow-200 [&_img]:max-w-full",
  "[&_table]:border-collapse [&_td]:border [&_td]:border-slate-300 [&_td]:p-1 [&_th]:border",
  "[&_th]:border-slate-300 [&_th]:p-1 [&_strong]:font-bold [&_b]:font-bold",
].join(" ");

/** The box rich text is painted in: nothing it holds is drawn outside it (paint containment clips
 * any overflow and makes it its own stacking context), wide content scrolls inside it. A second wall
 * behind the sanitiser, which already lets no positioning, offset or negative margin through. */
const RICH_TEXT_BOX = "[contain:paint] overflow-x-auto [&>:first-child]:mt-0 [&>:last-child]:mb-0";

export function RichTextView({ html, empty, testId }: { html: string; empty?: string; testId?: string }) {
  if (!html.trim()) {
    return <p class="text-sm italic text-slate-500" data-testid={testId}>{empty ?? ""}</p>;
  }
  return (
    <div
      class={`${RICH_TEXT_BOX} ${RICH_TEXT_CLASS}`}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
