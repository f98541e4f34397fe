// SQL of the accounts capability. Every function takes the use case's transaction, so RLS decides
// what is visible (own account; every account for admins) unless the use case acts as the system.
import type { Tx } from "../db/database.ts";
import { AppError } from "../errors.ts";
import { normalizeEmail, type UserType } from "./rules.ts";
import { normalizePhone } from "./phone.ts";

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
  extract(epoch from birthdate::timestamp at time zone 'UTC')::int8 as birthdate,
  floor(extract(epoch from deleted_at))::int8 as "deletedAt", emails, optin`;

export const FIND_USER_SQL =
  `select ${USER_COLUMNS} from public.users where id = $1 and anonymized_at is null`;

export async function findUser(tx: Tx, id: string, isPreviousAdmin = false): Promise<UserPayload> {
  return userPayloadOf(
    await tx.query<Omit<UserPayload, "isPreviousAdmin">>(FIND_USER_SQL, [id]),
    isPreviousAdmin,
  );
}

/** The rows of FIND_USER_SQL as the payload (not found: 404). */
export function userPayloadOf(
  rows: Omit<UserPayload, "isPreviousAdmin">[],
  isPreviousAdmin: boolean,
): UserPayload {
  const [row] = rows;
  if (!row) throw new AppError("not_found", "Utilisateur introuvable.");
  return { ...row, isPreviousAdmin };
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
  const pattern = `%${search.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return tx<UserListItem>`
    select id, type, firstname, lastname, name, email, created_at as "createdAt", deleted_at as "deletedAt"
    from public.users
    where anonymized_at is null
      and (${pattern} = '%%' or lower(email || ' ' || firstname || ' ' || lastname || ' ' || coalesce(name, '')) like ${pattern})
    order by type, lastname, firstname
    limit 200`;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string; constraint?: string; message?: string };
  return e?.code === "23505" &&
    (e.constraint_name === constraint || e.constraint === constraint || !!e.message?.includes(constraint));
}

export async function emailTaken(tx: Tx, email: string): Promise<boolean> {
  return (await tx`select 1 from public.users where email = ${normalizeEmail(email)}`).length > 0;
}

export async function phoneTaken(tx: Tx, e164: string): Promise<boolean> {
  return (await tx`select 1 from public.users where phone = ${e164} and anonymized_at is null`).length > 0;
}

export interface NewUser {
  type: UserType;
  email: string;
  firstname: string;
  lastname: string;
  name?: string | null;
  siren?: string | null;
  vatNumber?: string | null;
  address1?: string | null;
  zipcode?: string | null;
  city?: string | null;
  phone?: string | null;
  birthdate?: string | null;
  optin?: boolean;
}

export async function insertUser(tx: Tx, user: NewUser): Promise<string> {
  const phone = user.phone ? normalizePhone(user.phone) : null;
  if (user.phone && !phone) {
    throw new AppError("validation", undefined, { phone: "Le téléphone doit être valide." });
  }
  const [row] = await tx<{ id: string }>`
    insert into public.users (type, email, firstname, lastname, name, siren, vat_number, address1, zipcode, city,
                              phone, birthdate, optin, terms_accepted_at)
    values (${user.type}, ${normalizeEmail(user.email)}, ${user.firstname}, ${user.lastname}, ${
    user.name ?? null
  },
            ${user.siren ?? null}, ${user.vatNumber ?? null}, ${user.address1 ?? null}, ${
    user.zipcode ?? null
  },
            ${user.city ?? null}, ${phone}, ${user.birthdate ?? null}::date, ${user.optin ?? false}, now())
    returning id`;
  return row.id;
}

/** Columns a user may change on their own account, by the API field that carries them. */
export const PROFILE_COLUMNS = {
  firstname: "firstname",
  lastname: "lastname",
  address1: "address1",
  address2: "address2",
  zipcode: "zipcode",
  city: "city",
  phone: "phone",
  birthdate: "birthdate",
  name: "name",
  siren: "siren",
  vatNumber: "vat_number",
  vatExemption: "vat_exemption",
  emails: "emails",
} as const;

export type ProfileField = keyof typeof PROFILE_COLUMNS;

/** Updates only the given fields (a PATCH leaves the others as they are). */
export async function updateUserFields(
  tx: Tx,
  id: string,
  changes: Partial<Record<ProfileField, unknown>>,
): Promise<void> {
  const fields = Object.keys(changes) as ProfileField[];
  if (fields.length === 0) return;
  const casts: Partial<Record<ProfileField, string>> = { birthdate: "::date", emails: "::text[]" };
  const sets = fields.map((f, i) => `${PROFILE_COLUMNS[f]} = $${i + 2}${casts[f] ?? ""}`);
  try {
    const rows = await tx.query(
      `update public.users set ${sets.join(", ")} where id = $1 and anonymized_at is null returning id`,
      [id, ...fields.map((f) => changes[f])],
      { prepare: false }, // the text depends on which fields change
    );
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

export async function isActiveAdmin(tx: Tx, id: string): Promise<boolean> {
  return (await tx`select 1 from public.users where id = ${id} and type = 'Admin' and anonymized_at is null`)
    .length > 0;
}

export async function userExists(tx: Tx, id: string): Promise<boolean> {
  return (await tx`select 1 from public.users where id = ${id} and anonymized_at is null`).length > 0;
}
