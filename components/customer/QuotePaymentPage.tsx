// The quote payment page /devis/{slug} (spec 000 §2 'Quote payment page', §4 'Quote payment type'):
// the quote's lines and totals, its download link, and the payment buttons of its type — deposit
// ('deposit' and 'total'), balance ('balance' and the deposit invoice), total, or paid (the invoices) —
// on the same PaymentSection island as the deal page; a visitor's buttons open the login/register
// dialog with the payment's message.
import type { PublicDeal } from "../../lib/deals/use_cases/public_deal.ts";
import { CUSTOMER_MESSAGES } from "../../lib/deals/rules.ts";
import { euros } from "../../lib/deals/format.ts";
import { formatEuros } from "../../lib/money.ts";
import { PAYMENT_MESSAGES } from "../../lib/payments/rules.ts";
import { PROJECT_MANAGEMENT_DESCRIPTION } from "../../lib/payments/rules.ts";
import { Island } from "../Island.tsx";
import PaymentSection from "../../islands/PaymentSection.tsx";
import { StatusChip } from "../deals/StatusChip.tsx";
import { type DealShowView, LOGIN_PROMPT, quoteTypeOf } from "../deals/show/view.ts";
import { detailOf, PROJECT_MANAGEMENT, QuoteDetail } from "../deals/show/QuoteDetail.tsx";
import { Banner, Card, DocumentLinkItem } from "../deals/show/ui.tsx";

export const QUOTE_PAYMENT_TITLE = "Règlement de votre devis";

const TYPE_LABELS = {
  deposit: "Acompte ou totalité",
  balance: "Solde",
  total: "Totalité",
  paid: "Devis réglé",
} as const;

export function QuotePaymentPage({ page, view }: { page: PublicDeal; view: DealShowView }) {
  const { deal, company } = page;
  const type = quoteTypeOf(page);
  const detail = detailOf(deal, company?.vatExemption ?? false);
  const rows = detail.rows.map((row) =>
    row.label === PROJECT_MANAGEMENT ? { ...row, description: PROJECT_MANAGEMENT_DESCRIPTION } : row
  );
  const invoices = view.documents.filter((d) => d.href.includes("/invoice/"));
  return (
    <div class="bg-slate-50 pb-12" data-relation={view.relation} data-quote-type={type}>
      <div class="mx-auto max-w-4xl px-4 pt-6 sm:pt-10">
        <div class="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span>Devis n°{deal.id}</span>
          <StatusChip status={deal.status} />
        </div>
        <h1 class="mt-2 text-3xl font-extrabold tracking-tight text-slate-900">{QUOTE_PAYMENT_TITLE}</h1>
        {deal.name && <p class="mt-1 text-slate-700">{deal.name}</p>}
        <p class="mt-2 text-sm">
          <a href={`/deal/show/${deal.token}`} class="font-semibold text-brand-700 hover:underline">
            Voir le devis complet
          </a>
        </p>
      </div>
      <div class="mx-auto mt-5 grid max-w-4xl gap-4 px-4">
        {deal.refusalBanner && (
          <Banner tone={deal.status === "refused_client" ? "warning" : "error"} testId="refused-banner">
            {deal.refusalBanner}
          </Banner>
        )}
        <Card title="Votre règlement" testId="quote-payment">
          <div class="mb-4 flex flex-wrap items-end justify-between gap-3">
            <div>
              <p class="text-sm text-slate-600">Total TTC</p>
              <p class="text-3xl font-extrabold tracking-tight" data-testid="amount-ttc">
                {euros(deal.totals.totalTTC)}
              </p>
            </div>
            {!view.refused && (
              <span
                class="rounded-full bg-slate-100 px-3 py-1 text-xs font-bold text-slate-700"
                data-testid="quote-type"
              >
                {TYPE_LABELS[type]}
              </span>
            )}
          </div>
          {view.refused ? null : view.isCustomer
            ? (
              <div class="space-y-3">
                {view.options.length > 0 && (
                  <Island
                    component={PaymentSection}
                    props={{ token: deal.token, mode: "pay", options: view.options }}
                  />
                )}
                {type === "paid" && (
                  <Banner tone="success" testId="fully-paid">
                    Votre devis est entièrement réglé. Merci !
                  </Banner>
                )}
                {view.options.length === 0 && type !== "paid" && (
                  <p class="text-sm text-slate-600">Aucun paiement n'est attendu pour le moment.</p>
                )}
                {invoices.length > 0 && (
                  <div class="grid gap-2" data-testid="quote-invoices">
                    {invoices.map((doc) => (
                      <DocumentLinkItem key={doc.href} label={doc.label} href={doc.href} />
                    ))}
                  </div>
                )}
              </div>
            )
            : view.relation === "anonymous"
            ? (
              <Island
                component={PaymentSection}
                props={{
                  token: deal.token,
                  mode: "login",
                  loginButtons: view.options.length
                    ? view.options.map((o) => ({
                      label: `${o.label} · ${formatEuros(o.amount)}`,
                      message: o.loginMessage,
                    }))
                    : [{ label: LOGIN_PROMPT }],
                }}
              />
            )
            : view.relation === "other_customer"
            ? <Banner tone="warning" testId="linked-elsewhere">{CUSTOMER_MESSAGES.linkedElsewhere}</Banner>
            : <Banner tone="info" testId="customers-only">{PAYMENT_MESSAGES.customersOnly}</Banner>}
        </Card>
        <Card title="Détail du devis" testId="quote-detail">
          <QuoteDetail rows={rows} totals={detail.totals} />
          {view.canDownload && (
            <div class="mt-4">
              <DocumentLinkItem label="Télécharger le devis (PDF)" href={`/quote/download/${deal.token}`} />
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}
