// The partner list of the admin's forms (assigning a partner to a deal).
import { type Actor, requireRole, transactionAs } from "../../actor.ts";
import type { Deps } from "../../deps.ts";
import { type CompanyListItem, listCompanies } from "../settings_store.ts";

export async function listPartners(deps: Deps, actor: Actor): Promise<CompanyListItem[]> {
  const admin = requireRole(actor, "Admin");
  return await transactionAs(deps.db, admin, (tx) => listCompanies(tx));
}
