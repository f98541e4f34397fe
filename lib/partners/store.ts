// SQL of partners: applications (anyone may insert one, RLS checks it is a fresh, undecided one; only
// admins read and decide them) and a partner's tax identity (read by the partner itself or an admin).
import type { Tx } from "../db/database.ts";
import type { Application, ApplicationStatus, SellerTaxIdentity } from "./rules.ts";

export interface ApplicationRow extends Application {
  id: string;
  status: ApplicationStatus;
  createdAt: Date;
  decidedAt: Date | null;
  userId: string | null;
}

export async function insertApplication(tx: Tx, application: Application): Promise<void> {
  await tx`insert into public.partner_applications (company_name, siren, firstname, lastname, email, phone, city, message)
           values (${application.companyName}, ${application.siren}, ${application.firstname}, ${application.lastname},
                   ${application.email}, ${application.phone}, ${application.city}, ${application.message})`;
}

const COLUMNS =
  `id, company_name as "companyName", siren, firstname, lastname, email, phone, city, message, status,
  created_at as "createdAt", decided_at as "decidedAt", user_id as "userId"`;

export function listApplications(tx: Tx): Promise<ApplicationRow[]> {
  return tx.query<ApplicationRow>(
    `select ${COLUMNS} from public.partner_applications
     order by (status = 'pending') desc, created_at desc limit 200`,
  );
}

/** The application, locked until the end of the transaction (two admins deciding at once). */
export async function lockApplication(tx: Tx, id: string): Promise<ApplicationRow | null> {
  const [row] = await tx.query<ApplicationRow>(
    `select ${COLUMNS} from public.partner_applications where id = $1 for update`,
    [id],
  );
  return row ?? null;
}

export async function decideApplication(
  tx: Tx,
  id: string,
  status: Exclude<ApplicationStatus, "pending">,
  adminId: string,
  userId: string | null,
): Promise<void> {
  await tx`update public.partner_applications
           set status = ${status}, decided_at = now(), decided_by = ${adminId}, user_id = ${userId}
           where id = ${id}`;
}

/** The partner's VAT exemption, VAT number and SIREN, as the caller may read them (RLS: the partner
 * itself or an admin); null when the caller may not or it is no partner. */
export async function sellerTaxIdentity(tx: Tx, companyId: string): Promise<SellerTaxIdentity | null> {
  const [row] = await tx<SellerTaxIdentity>`
    select vat_exemption as "vatExemption", vat_number as "vatNumber", siren
    from public.users where id = ${companyId} and type = 'Company'`;
  return row ?? null;
}
