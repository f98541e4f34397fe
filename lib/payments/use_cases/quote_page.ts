// The older quote payment page /devis/{slug} (spec 000 §2 'Quote payment page', §4 'Quote payment
// type'): its slug is the deal's token. It runs on the same payment engine as the deal page.
import type { Actor } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { parseInput } from "../../validation.ts";
import { z } from "zod";
import { publicDeal } from "../../deals/use_cases/public_deal.ts";
import { DEAL_TOKEN } from "../../deals/rules.ts";
import type { DealPayload } from "../../deals/payload.ts";
import { centsToEuros, eurosToCents, withVat } from "../../money.ts";
import { PAYMENT_MESSAGES, type PaymentType, PROJECT_MANAGEMENT_DESCRIPTION } from "../rules.ts";
import { createPaymentIntent, type IntentResult } from "./create_intent.ts";

const TYPES: Record<string, PaymentType> = {
  deposit: "deposit",
  total: "full",
  full: "full",
  balance: "remaining",
  remaining: "remaining",
};

const schema = z.object({
  id: z.string().regex(DEAL_TOKEN, PAYMENT_MESSAGES.intentError),
  type: z.enum(["deposit", "total", "full", "balance", "remaining"], { error: PAYMENT_MESSAGES.intentError }),
});

/** POST /quote/stripe/create {id, type}: the same intent as the deal page's. */
export function quotePaymentIntent(deps: Deps, actor: Actor, body: unknown): Promise<IntentResult> {
  const { id, type } = parseInput(schema, body, PAYMENT_MESSAGES.intentError);
  return createPaymentIntent(deps, actor, { dealToken: id, paymentType: TYPES[type] });
}

export interface QuoteLine {
  title: string;
  description: string;
  quantity: number;
  /** Unit price excluding tax, euros. */
  price: number;
  /** VAT rate, percent. */
  vat: number;
  total: number;
  totalVat: number;
}

/** GET /quote/lines/{id}: the quote's lines, with 'Gestion de projet', for the deal's customer (and
 * its partner and admins). */
export async function quotePaymentLines(deps: Deps, actor: Actor, token: string): Promise<QuoteLine[]> {
  const page = await publicDeal(deps, actor, token);
  if (page.relation !== "customer" && page.relation !== "admin" && page.relation !== "partner") {
    throw new AppError("forbidden", PAYMENT_MESSAGES.customersOnly);
  }
  return quoteLinesOf(page.deal);
}

/** A quote's lines in euros, its cost lines then 'Gestion de projet' (pure). */
function quoteLinesOf(deal: DealPayload): QuoteLine[] {
  const vat = deal.parameters.vat;
  const lines: QuoteLine[] = deal.lines.map((l) => ({
    title: l.label,
    description: "",
    quantity: l.qty,
    price: l.unitCost,
    vat,
    total: l.totalCost,
    totalVat: l.totalCostVat,
  }));
  const management = deal.totals.projectManagement;
  if (management > 0) {
    lines.push({
      title: "Gestion de projet",
      description: PROJECT_MANAGEMENT_DESCRIPTION,
      quantity: 1,
      price: management,
      vat,
      total: management,
      totalVat: centsToEuros(withVat(eurosToCents(management) ?? 0, vat)),
    });
  }
  return lines;
}
