// 'Imprimer' on a page meant for paper (the sign-in sheet): opens the browser's print dialog. Hidden
// when printing, like the page's other screen-only parts.
export default function PrintButton({ label = "Imprimer" }: { label?: string }) {
  return (
    <button
      type="button"
      class="rounded-full bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 print:hidden"
      onClick={() => globalThis.print()}
      data-testid="print-button"
    >
      {label}
    </button>
  );
}
