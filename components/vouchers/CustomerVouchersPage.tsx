// 'Vos bons cadeaux' (spec 000 §2): 'Offrir un bon cadeau' opens the purchase dialog (800 px, persistent,
// price fixed at 50 €, no company); the table lists promo code, PDF, for (target email), sent on (target
// date, fr-FR), amount, invoice — plus what is left and until when it is valid (issue 12). Vouchers the
// customer received are listed apart, with the same columns (no invoice: it is the buyer's).
import { STACKED } from "../ui/stacked_table.ts";
import { EmptyState, PageTitle } from "../dashboard/parts.tsx";
import { Island } from "../Island.tsx";
import VoucherPurchase from "../../islands/VoucherPurchase.tsx";
import { formatEuros } from "../../lib/money.ts";
import { formatDay, formatIsoDay, voucherState } from "../../lib/vouchers/rules.ts";
import type { VoucherView } from "../../lib/vouchers/use_cases/list_vouchers.ts";

const CHIP = {
  warning: "bg-amber-100 text-amber-900",
  success: "bg-emerald-100 text-emerald-900",
  error: "bg-red-100 text-red-900",
  neutral: "bg-slate-200 text-slate-800",
} as const;

export function CustomerVouchersPage(
  { vouchers, senderName, today, now }: {
    vouchers: VoucherView[];
    senderName: string;
    today: string;
    now: number;
  },
) {
  const bought = vouchers.filter((v) => v.bought);
  const received = vouchers.filter((v) => !v.bought);
  return (
    <>
      <PageTitle>Vos bons cadeaux</PageTitle>
      <div class="mb-6">
        <Island component={VoucherPurchase} props={{ mode: "dialog", senderName, today }} />
      </div>
      {vouchers.length === 0 ? <EmptyState>Aucun bon cadeau pour l'instant</EmptyState> : (
        <>
          {bought.length > 0 && (
            <VoucherTable title="Bons cadeaux offerts" vouchers={bought} now={now} testId="vouchers-bought" />
          )}
          {received.length > 0 && (
            <VoucherTable
              title="Bons cadeaux reçus"
              vouchers={received}
              now={now}
              testId="vouchers-received"
            />
          )}
        </>
      )}
    </>
  );
}

function VoucherTable({ title, vouchers, now, testId }: {
  title: string;
  vouchers: VoucherView[];
  now: number;
  testId: string;
}) {
  return (
    <section class="mb-8">
      <h2 class="mb-3 text-lg font-semibold">{title}</h2>
      <div class={STACKED.wrap}>
        <table class={`${STACKED.table} sm:min-w-[44rem]`} data-testid={testId}>
          <thead class={STACKED.thead}>
            <tr class="border-b text-left">
              <th class="p-2">Code promo</th>
              <th class="p-2">PDF</th>
              <th class="p-2">Pour</th>
              <th class="p-2">Envoyé le</th>
              <th class="p-2">Montant</th>
              <th class="p-2">Restant</th>
              <th class="p-2">Validité</th>
              <th class="p-2">Facture</th>
            </tr>
          </thead>
          <tbody class={STACKED.tbody}>
            {vouchers.map((v) => {
              const state = voucherState(v, now);
              return (
                <tr key={v.id} class={`${STACKED.row} align-top`} data-voucher={v.id}>
                  <td class={STACKED.head}>
                    {v.code
                      ? (
                        <span class="whitespace-nowrap font-mono font-semibold" data-testid="voucher-code">
                          {v.code}
                        </span>
                      )
                      : "—"}
                    <br />
                    <span
                      class={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
                        CHIP[state.color]
                      }`}
                    >
                      {state.label}
                    </span>
                  </td>
                  <td class={STACKED.cell} data-label="PDF">
                    {v.pdfUrl
                      ? (
                        <a class="text-brand-700 underline" href={v.pdfUrl} target="_blank" rel="noopener">
                          PDF
                        </a>
                      )
                      : "—"}
                  </td>
                  <td class={STACKED.cell} data-label="Pour">
                    <div class="min-w-0 break-words">
                      {v.recipientName}
                      <br />
                      <span class="text-slate-600">{v.recipientEmail}</span>
                    </div>
                  </td>
                  <td class={`${STACKED.cell} whitespace-nowrap`} data-label="Envoyé le">
                    {formatIsoDay(v.sendOn)}
                  </td>
                  <td class={`${STACKED.cell} whitespace-nowrap`} data-label="Montant">
                    {formatEuros(v.amount)}
                  </td>
                  <td
                    class={`${STACKED.cell} whitespace-nowrap`}
                    data-label="Restant"
                    data-testid="voucher-remaining"
                  >
                    {formatEuros(v.remaining)}
                  </td>
                  <td class={`${STACKED.cell} whitespace-nowrap`} data-label="Validité">
                    {v.validUntil ? `Jusqu'au ${formatDay(v.validUntil)}` : "Après paiement"}
                  </td>
                  <td class={STACKED.cell} data-label="Facture">
                    {v.invoiceUrl
                      ? (
                        <a
                          class="text-brand-700 underline"
                          href={v.invoiceUrl}
                          target="_blank"
                          rel="noopener"
                        >
                          Facture
                        </a>
                      )
                      : "—"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
