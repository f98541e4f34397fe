// Which of a deal's documents each viewer may download, pure (lib/billing/use_cases/download.ts applies
// it; RLS has already decided which deals the viewer reads). Admins: every document. The deal's customer:
// only where their page shows the quote (a sent quote: not in start, new or pending). The customer and
// the partner: the proformas the page and the back office list (proformaStages: showProformaInvoice,
// nothing paid yet, the deposit's stages only when the quote offers a deposit). What the documents show
// of the customer is decided elsewhere: the contact as the viewer may see it (lib/deals/store.ts
// contactFor), as on the page and in the API.
import { AppError } from "../errors.ts";
import { DEAL_MESSAGES, type DealStatus, depositOffered, VISIBLE_STATUSES } from "../deals/rules.ts";
import { type DocumentStage, proformaStages } from "./links.ts";

export const PROFORMA_NOT_AVAILABLE = "Cette facture proforma n'est pas disponible pour ce devis.";

export type DocumentViewer = "Admin" | "Company" | "Customer";

export interface DocumentDeal {
  status: string;
  settings: { hasDeposit?: boolean };
  adminSettings: { showProformaInvoice?: boolean };
  depositPaidAt: Date | null;
  paidAt: Date | null;
}

export type DocumentRequest =
  | { what: "quote" }
  | { what: "invoice" | "proforma" | "commission_invoice" | "commission_proforma"; stage: DocumentStage };

/** Throws the French refusal when `viewer` may not download `request` of `deal`. */
export function checkDocumentAccess(
  viewer: DocumentViewer,
  deal: DocumentDeal,
  request: DocumentRequest,
): void {
  if (viewer === "Admin") return;
  const status = deal.status as DealStatus;
  if (viewer === "Customer" && !VISIBLE_STATUSES.includes(status)) {
    throw new AppError("not_found", DEAL_MESSAGES.unavailable);
  }
  if (request.what === "proforma") {
    const stages = proformaStages({
      status,
      showProforma: deal.adminSettings.showProformaInvoice === true,
      depositOffered: depositOffered(deal.settings),
      anythingPaid: deal.depositPaidAt !== null || deal.paidAt !== null,
    });
    if (!stages.includes(request.stage)) throw new AppError("not_found", PROFORMA_NOT_AVAILABLE);
  }
}
