// A customer's dashboard pages (spec 000 §2): 'Mes devis', 'Vos règlements de devis' and the landing
// page 'Mes demandes de devis en cours'. Server-rendered, no JavaScript: the invoices menu is a
// <details> element. Each list is a table on wide screens and one card per row on a phone.
import type { ComponentChildren } from "preact";
import type { DealStatus } from "../../lib/deals/rules.ts";
import { dateTimeFr, euros, isoDateFr } from "../../lib/deals/format.ts";
import { EmptyState, PageTitle } from "../dashboard/parts.tsx";
import { StatusChip } from "../deals/StatusChip.tsx";
import { DownloadIcon } from "../deals/show/ui.tsx";
import { PageLinks } from "../ui/PageLinks.tsx";

/** A row of customerDeals() (lib/deals/use_cases/customer_deals.ts). */
export interface CustomerDealRow {
  id: number;
  token: string;
  name: string;
  status: DealStatus;
  visible: boolean;
  createdAt: number;
  serviceDate: string | null;
  companyName: string | null;
  amountHT: number;
  /** The kinds of payment the deal received (deposit, balance, total). */
  paidKinds: string[];
}

/** A row of customerPayments(). */
export interface CustomerPaymentRow {
  id: string;
  quote: { slug: string; title: string };
  amount: number;
  type: string;
  createdAt: number;
  invoiceId: string | null;
  /** Euros refunded of this payment, and the credit notes issued for it. */
  refunded: number;
  creditNotes: { id: string; amount: number }[];
}

const PAYMENT_TYPE_LABELS: Record<string, string> = {
  deposit: "Acompte",
  balance: "Solde",
  total: "Paiement intégral",
};

/** The invoice of each kind of payment (spec 000 §4 'Deal payment stage'). */
const INVOICES: Record<string, { stage: string; label: string }> = {
  deposit: { stage: "deposit", label: "Facture d'acompte" },
  balance: { stage: "final", label: "Facture de solde" },
  total: { stage: "full", label: "Facture" },
};

const dealPath = (token: string) => `/deal/show/${token}`;
export const quoteDownloadPath = (token: string) => `/api/customer/deal/download/quote/${token}`;

/** The issued invoices of a deal: one per payment kind it received. */
export function invoicesOf(token: string, paidKinds: string[]): { label: string; href: string }[] {
  const kinds = new Set(paidKinds);
  return ["deposit", "balance", "total"].filter((k) => kinds.has(k)).map((k) => ({
    label: INVOICES[k].label,
    href: `/api/customer/deal/download/invoice/${token}/${INVOICES[k].stage}`,
  }));
}

const LINK =
  "inline-flex items-center gap-1.5 whitespace-nowrap rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-xs font-semibold text-slate-700 hover:border-brand-500 hover:text-brand-700";
const PRIMARY_LINK =
  "inline-flex items-center gap-1.5 whitespace-nowrap rounded-lg bg-brand-500 px-2.5 py-1.5 text-xs font-semibold text-white hover:bg-brand-600";
const TH = "px-3 py-3 font-semibold whitespace-nowrap";
const TD = "px-3 py-3 align-top";

function InvoicesMenu({ invoices }: { invoices: { label: string; href: string }[] }) {
  if (invoices.length === 0) return null;
  return (
    <details class="group" data-testid="invoices-menu">
      <summary class={`${LINK} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        Factures ({invoices.length})
        <span aria-hidden="true" class="transition-transform group-open:rotate-180">▾</span>
      </summary>
      <ul class="mt-1 min-w-[12rem] rounded-xl border border-slate-200 bg-white p-1 text-left shadow-sm">
        {invoices.map((invoice) => (
          <li key={invoice.href}>
            <a
              href={invoice.href}
              target="_blank"
              rel="noopener"
              class="flex items-center gap-2 rounded-lg px-3 py-2 text-sm hover:bg-slate-50 hover:text-brand-700"
            >
              <DownloadIcon class="h-4 w-4 text-brand-500" />
              {invoice.label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

function DealActions(
  { row, invoices, align = "end" }: {
    row: CustomerDealRow;
    invoices: { label: string; href: string }[];
    align?: "start" | "end";
  },
) {
  if (!row.visible) {
    return <span class="text-xs text-slate-500">Devis en préparation</span>;
  }
  return (
    <div class={`flex flex-wrap items-start gap-1.5 ${align === "end" ? "justify-end" : "justify-start"}`}>
      <a href={dealPath(row.token)} class={PRIMARY_LINK}>Voir le devis</a>
      <a
        href={quoteDownloadPath(row.token)}
        target="_blank"
        rel="noopener"
        class={LINK}
        aria-label="Télécharger le devis"
      >
        <DownloadIcon class="h-4 w-4" />
        Devis
      </a>
      <InvoicesMenu invoices={invoices} />
    </div>
  );
}

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div>
      <dt class="text-xs text-slate-500">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One page of 'Mes devis' (lib/deals/use_cases/customer_deals.ts customerDeals). */
export interface CustomerDealsPageData {
  items: CustomerDealRow[];
  total: number;
  page: number;
  perPage: number;
}

export const CUSTOMER_DEALS_PATH = "/dashboard/client/devis";

export function CustomerDealsPage({ list }: { list: CustomerDealsPageData }) {
  const deals = list.items;
  return (
    <>
      <PageTitle>Mes devis</PageTitle>
      {list.total === 0
        ? (
          <EmptyState>
            Aucun devis pour l'instant.{" "}
            <a href="/demande-de-devis" class="font-semibold text-brand-700 underline">Demander un devis</a>
          </EmptyState>
        )
        : (
          <>
            <div class="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white xl:block">
              <table class="w-full text-left text-sm" data-testid="customer-deals-table">
                <thead class="bg-slate-50 text-slate-600">
                  <tr>
                    <th scope="col" class={TH}>Date de demande</th>
                    <th scope="col" class={TH}>Statut</th>
                    <th scope="col" class={TH}>Bar partenaire</th>
                    <th scope="col" class={TH}>Date de prestation</th>
                    <th scope="col" class={`${TH} text-right`}>Montant HT</th>
                    <th scope="col" class={`${TH} text-right`}>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {deals.map((row) => (
                    <tr key={row.id} class="border-t border-slate-100" data-deal-id={row.id}>
                      <td class={TD}>
                        <span class="block whitespace-nowrap">{dateTimeFr(row.createdAt)}</span>
                        <span class="block max-w-[16rem] text-xs text-slate-500">{row.name}</span>
                      </td>
                      <td class={`${TD} min-w-[8rem] [&>span]:whitespace-normal`}>
                        <StatusChip status={row.status} />
                      </td>
                      <td class={TD}>{row.companyName ?? "—"}</td>
                      <td class={`${TD} whitespace-nowrap`}>{isoDateFr(row.serviceDate)}</td>
                      <td class={`${TD} whitespace-nowrap text-right font-semibold`}>
                        {euros(row.amountHT)}
                      </td>
                      <td class={`${TD} text-right`}>
                        <DealActions row={row} invoices={invoicesOf(row.token, row.paidKinds)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul class="grid gap-3 md:grid-cols-2 xl:hidden" data-testid="customer-deals-cards">
              {deals.map((row) => (
                <li
                  key={row.id}
                  class="rounded-xl border border-slate-200 bg-white p-4 text-sm"
                  data-deal-id={row.id}
                >
                  <StatusChip status={row.status} />
                  <p class="mt-2 font-semibold text-slate-900">{row.name}</p>
                  <dl class="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
                    <Field label="Date de demande">{dateTimeFr(row.createdAt)}</Field>
                    <Field label="Date de prestation">{isoDateFr(row.serviceDate)}</Field>
                    <Field label="Bar partenaire">{row.companyName ?? "—"}</Field>
                    <Field label="Montant HT">
                      <span class="font-semibold">{euros(row.amountHT)}</span>
                    </Field>
                  </dl>
                  <div class="mt-3 border-t border-slate-100 pt-3">
                    <DealActions row={row} invoices={invoicesOf(row.token, row.paidKinds)} align="start" />
                  </div>
                </li>
              ))}
            </ul>
            {deals.length === 0 && <EmptyState>Aucun devis sur cette page.</EmptyState>}
            <PageLinks
              page={list.page}
              total={list.total}
              perPage={list.perPage}
              href={(page) => `${CUSTOMER_DEALS_PATH}?page=${page}`}
              label="Pages des devis"
            />
          </>
        )}
    </>
  );
}

function InvoiceLink({ id }: { id: string }) {
  return (
    <a href={`/quote/invoice/${id}`} target="_blank" rel="noopener" class={LINK}>
      <DownloadIcon class="h-4 w-4" />
      Facture
    </a>
  );
}

/** The payment's documents: its invoice, then the credit note of each refund. */
function PaymentDocuments({ payment }: { payment: CustomerPaymentRow }) {
  return (
    <span class="inline-flex flex-col items-end gap-1">
      <InvoiceLink id={payment.id} />
      {payment.creditNotes.map((note) => (
        <a
          key={note.id}
          href={`/quote/invoice/${note.id}`}
          target="_blank"
          rel="noopener"
          class={LINK}
          data-testid="credit-note-link"
        >
          <DownloadIcon class="h-4 w-4" />
          Avoir ({euros(note.amount)} remboursés)
        </a>
      ))}
    </span>
  );
}

/** 'Remboursé : 100,00 €' under a payment's amount once something came back. */
function Refunded({ amount }: { amount: number }) {
  return amount > 0
    ? <span class="block text-xs font-normal text-slate-600">Remboursé : {euros(amount)}</span>
    : null;
}

export function CustomerPaymentsPage({ payments }: { payments: CustomerPaymentRow[] }) {
  return (
    <>
      <PageTitle>Vos règlements de devis</PageTitle>
      {payments.length === 0 ? <EmptyState>Aucun règlement de devis pour l'instant</EmptyState> : (
        <>
          <div class="hidden rounded-xl border border-slate-200 bg-white md:block">
            <table class="w-full text-left text-sm" data-testid="customer-payments-table">
              <thead class="bg-slate-50 text-slate-600">
                <tr>
                  <th scope="col" class={TH}>Devis</th>
                  <th scope="col" class={`${TH} text-right`}>Montant</th>
                  <th scope="col" class={TH}>Type</th>
                  <th scope="col" class={TH}>Date</th>
                  <th scope="col" class={`${TH} text-right`}>Facture</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id} class="border-t border-slate-100" data-payment-id={p.id}>
                    <td class={TD}>
                      <a href={`/devis/${p.quote.slug}`} class="font-semibold text-brand-700 hover:underline">
                        {p.quote.title || "Votre devis"}
                      </a>
                    </td>
                    <td class={`${TD} whitespace-nowrap text-right font-semibold`}>
                      {euros(p.amount)}
                      <Refunded amount={p.refunded} />
                    </td>
                    <td class={TD}>{PAYMENT_TYPE_LABELS[p.type] ?? p.type}</td>
                    <td class={`${TD} whitespace-nowrap`}>{dateTimeFr(p.createdAt)}</td>
                    <td class={`${TD} text-right`}>
                      <PaymentDocuments payment={p} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul class="space-y-3 md:hidden" data-testid="customer-payments-cards">
            {payments.map((p) => (
              <li
                key={p.id}
                class="rounded-xl border border-slate-200 bg-white p-4 text-sm"
                data-payment-id={p.id}
              >
                <a href={`/devis/${p.quote.slug}`} class="font-semibold text-brand-700 hover:underline">
                  {p.quote.title || "Votre devis"}
                </a>
                <dl class="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
                  <Field label="Montant">
                    <span class="font-semibold">{euros(p.amount)}</span>
                    <Refunded amount={p.refunded} />
                  </Field>
                  <Field label="Type">{PAYMENT_TYPE_LABELS[p.type] ?? p.type}</Field>
                  <Field label="Date">{dateTimeFr(p.createdAt)}</Field>
                </dl>
                <div class="mt-3 flex justify-end border-t border-slate-100 pt-3">
                  <PaymentDocuments payment={p} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** A request is 'en cours' until its quote is paid in full, won or refused. */
export const OPEN_STATUSES: DealStatus[] = [
  "start",
  "new",
  "pending",
  "send",
  "edited",
  "accepted",
  "pay_partial",
];

/** The landing page: one page (25) of the requests in progress (the list reads only those). */
export function OpenRequestsPage({ list }: { list: CustomerDealsPageData }) {
  const open = list.items;
  return (
    <>
      <PageTitle>Mes demandes de devis en cours</PageTitle>
      {open.length === 0
        ? <EmptyState>Aucune demande de devis en cours pour l'instant.</EmptyState>
        : (
          <ul class="grid gap-3 md:grid-cols-2" data-testid="open-requests">
            {open.map((row) => (
              <li
                key={row.id}
                class="flex flex-col rounded-xl border border-slate-200 bg-white p-4 text-sm"
                data-deal-id={row.id}
              >
                <div>
                  <StatusChip status={row.status} />
                </div>
                <p class="mt-2 font-semibold text-slate-900">{row.name}</p>
                <dl class="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
                  <Field label="Demandé le">{dateTimeFr(row.createdAt)}</Field>
                  <Field label="Date de prestation">{isoDateFr(row.serviceDate)}</Field>
                  <Field label="Bar partenaire">{row.companyName ?? "—"}</Field>
                  <Field label="Montant HT">{row.visible ? euros(row.amountHT) : "—"}</Field>
                </dl>
                <div class="mt-auto pt-3">
                  {row.visible
                    ? <a href={dealPath(row.token)} class={`${PRIMARY_LINK} text-sm`}>Voir le devis</a>
                    : (
                      <p class="text-xs text-slate-500">
                        Votre devis est en préparation : vous recevrez un email dès qu'il sera prêt.
                      </p>
                    )}
                </div>
              </li>
            ))}
          </ul>
        )}
      <PageLinks
        page={list.page}
        total={list.total}
        perPage={list.perPage}
        href={(page) => `/dashboard/demandes-en-cours?page=${page}`}
        label="Pages des demandes en cours"
      />
      <p class="mt-6 flex flex-wrap gap-3 text-sm">
        <a href="/dashboard/client/devis" class="font-semibold text-brand-700 hover:underline">
          Tous mes devis
        </a>
        <a href="/demande-de-devis" class="font-semibold text-brand-700 hover:underline">
          Demander un nouveau devis
        </a>
      </p>
    </>
  );
}
