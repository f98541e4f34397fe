// The admin date page's 'Paiements et factures': each order of the date that was paid (or had money
// for it): its customer, status, card payments (refunded, overpayments refunded automatically) and its
// documents — invoice, receipt, credit notes — to download (/quote/invoice/{id}).
import { formatEuros } from "../../lib/money.ts";
import { orderStatusLabel } from "../../lib/orders/rules.ts";
import type { DateOrderLedger } from "../../lib/orders/store.ts";

const DOCUMENT_LABELS: Record<string, string> = { FA: "Facture", RE: "Reçu", AV: "Avoir" };
const PARIS = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  dateStyle: "short",
  timeStyle: "short",
});

export function AdminDatePayments({ orders }: { orders: DateOrderLedger[] }) {
  return (
    <>
      <h2 class="mt-8 mb-2 text-lg font-semibold">Paiements et factures</h2>
      {orders.length === 0 ? <p>Aucun paiement pour cette date.</p> : (
        <div class="overflow-x-auto">
          <table
            class="w-full min-w-[40rem] border-collapse bg-white text-sm"
            data-testid="admin-date-payments"
          >
            <thead>
              <tr class="border-b text-left">
                <th class="p-2">Commande</th>
                <th class="p-2">Client</th>
                <th class="p-2">Statut</th>
                <th class="p-2">Paiements</th>
                <th class="p-2">Documents</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.orderId} class="border-b align-top">
                  <td class="p-2">n° {o.orderId}</td>
                  <td class="p-2">{o.customer ?? "—"}</td>
                  <td class="p-2" data-testid="admin-order-status">
                    {orderStatusLabel(o.status, o.payments)}
                  </td>
                  <td class="p-2">
                    <ul>
                      {o.payments.map((p) => (
                        <li key={p.id}>
                          {formatEuros(p.amount)} par carte le {PARIS.format(p.paidAt)}
                          {p.overpayment && <span class="ml-1 font-semibold text-red-800">Trop-perçu</span>}
                          {p.refunded > 0 && <span class="ml-1">(remboursé {formatEuros(p.refunded)})</span>}
                        </li>
                      ))}
                      {o.discount > 0 && <li>Bon cadeau : {formatEuros(o.discount)}</li>}
                    </ul>
                  </td>
                  <td class="p-2">
                    <ul>
                      {o.documents.map((d) => (
                        <li key={d.id}>
                          <a href={`/quote/invoice/${d.id}`} class="underline">
                            {DOCUMENT_LABELS[d.series] ?? d.series} {d.number}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
