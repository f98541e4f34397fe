// Reading and changing accounts as the requesting user: every query here runs inside the request's
// transaction, so RLS decides what is visible (own account; every account for admins).
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { normalizePhone, type ProfileUpdate, type UserType } from "./rules.ts";

/** The user as the API returns it (spec 000 §3 and 001 §3). Dates are unix seconds. */
export interface UserPayload {
  id: string;
  type: UserType;
  isPreviousAdmin: boolean;
  firstname: string;
  lastname: string;
  name: string | null;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  phone: string | null;
  email: string;
  vatExemption: boolean;
  vatNumber: string | null;
  siren: string | null;
  birthdate: number | null;
  deletedAt: number | null;
  emails: string[];
  optin: boolean;
}

const USER_COLUMNS = `id, type, firstname, lastname, name, address1, address2, zipcode, city, phone, email,
  vat_exemption as "vatExemption", vat_number as "vatNumber", siren,
  extract(epoch from birthdate::timestamp at time zone 'UTC')::float8 as birthdate,
  floor(extract(epoch from deleted_at))::float8 as "deletedAt", emails, optin`;

type UserRow = Omit<UserPayload, "isPreviousAdmin">;

function toPayload(row: UserRow, isPreviousAdmin: boolean): UserPayload {
  return {
    ...row,
    birthdate: row.birthdate === null ? null : Number(row.birthdate),
    deletedAt: row.deletedAt === null ? null : Number(row.deletedAt),
    isPreviousAdmin,
  };
}

export async function getUser(tx: Tx, id: string, isPreviousAdmin = false): Promise<UserPayload> {
  const [row] = await tx.query<UserRow>(
    `select ${USER_COLUMNS} from public.users where id = $1 and anonymized_at is null`,
    [id],
  );
  if (!row) throw new AppError("not_found", "Utilisateur introuvable.");
  return toPayload(row, isPreviousAdmin);
}

export interface UserListItem {
  id: string;
  type: UserType;
  firstname: string;
  lastname: string;
  name: string | null;
  email: string;
  createdAt: Date;
  deletedAt: Date | null;
}

/** Admin list of accounts (RLS shows other users only to admins). */
export function listUsers(tx: Tx, search = ""): Promise<UserListItem[]> {
  const pattern = `%${search.trim().toLowerCase()}%`;
  return tx<UserListItem>`
    select id, type, firstname, lastname, name, email, created_at as "createdAt", deleted_at as "deletedAt"
    from public.users
    where anonymized_at is null
      and (${pattern} = '%%' or lower(email || ' ' || firstname || ' ' || lastname || ' ' || coalesce(name, '')) like ${pattern})
    order by type, lastname, firstname
    limit 200`;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string; constraint?: string; message?: string };
  return e?.code === "23505" &&
    (e.constraint_name === constraint || e.constraint === constraint || !!e.message?.includes(constraint));
}

export async function updateProfile(tx: Tx, id: string, update: ProfileUpdate): Promise<void> {
  const phone = normalizePhone(update.phone);
  try {
    const rows = await tx`
      update public.users set
        firstname = ${update.firstname}, lastname = ${update.lastname},
        address1 = ${update.address1}, address2 = ${update.address2 || null},
        zipcode = ${update.zipcode}, city = ${update.city}, phone = ${phone},
        birthdate = ${update.birthdate}::date,
        name = ${update.name || null}, siren = ${update.siren || null},
        vat_number = ${update.vatNumber || null}, vat_exemption = ${update.vatExemption},
        emails = ${update.emails}::text[]
      where id = ${id} and anonymized_at is null
      returning id`;
    if (rows.length === 0) throw new AppError("not_found", "Utilisateur introuvable.");
  } catch (error) {
    if (isUniqueViolation(error, "users_phone_key")) {
      throw new AppError("validation", "Veuillez renseigner toutes les informations obligatoires", {
        phone: "Ce téléphone existe déjà chez nous.",
      });
    }
    throw error;
  }
}

/** Deletion request: the account stays usable for 14 days and logging in cancels it. */
export async function requestDeletion(tx: Tx, id: string): Promise<void> {
  await tx`update public.users set deleted_at = coalesce(deleted_at, now()) where id = ${id}`;
}

export async function cancelDeletion(tx: Tx, id: string): Promise<void> {
  await tx`update public.users set deleted_at = null where id = ${id}`;
}

export { isUniqueViolation };

/** Runs as the user: the database function only ever changes the caller's own password. */
export async function changeOwnPassword(
  tx: Tx,
  passwordHash: string,
  keepSessionHash: string,
): Promise<void> {
  await tx`select identity.change_own_password(${passwordHash}, ${keepSessionHash})`;
}
