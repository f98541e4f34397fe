// A date's attendees for its organiser, as data, CSV (French Excel: UTF-8 with BOM, ';' separator, CRLF)
// and the lines of the sign-in sheet. Pure.
import { centsToEuros } from "../money.ts";
import { REGISTRATION_STATUSES, type RegistrationStatus } from "./rules.ts";

export interface Attendee {
  registrationId: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  quantity: number;
  status: RegistrationStatus;
  /** Cents actually paid (0 unless invoiced). */
  paid: number;
}

export const ATTENDEE_COLUMNS = [
  "Nom",
  "Prénom",
  "Email",
  "Téléphone",
  "Places",
  "Statut",
  "Montant payé (€)",
];

/** A cell as Excel and LibreOffice read it without running it: text starting with = + - @ (or a tab or
 * carriage return) gets a leading apostrophe (OWASP 'CSV injection'); quotes doubled; quoted when it
 * holds the separator, a quote or a line break. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Euros with a decimal comma (French Excel reads "45,50" as a number). */
const frenchAmount = (cents: number) => centsToEuros(cents).toFixed(2).replace(".", ",");

export function attendeesCsv(attendees: Attendee[]): string {
  const lines = [ATTENDEE_COLUMNS.map(csvCell).join(";")];
  for (const a of attendees) {
    lines.push(
      [
        a.lastname,
        a.firstname,
        a.email,
        a.phone,
        a.quantity,
        REGISTRATION_STATUSES[a.status].label,
        frenchAmount(a.paid),
      ].map((v) => typeof v === "number" ? String(v) : csvCell(v)).join(";"),
    );
  }
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}

/** The sign-in sheet: one line per seat of each registration that is not canceled ("Invité 2 de …"
 * for the second seat onwards), by name. */
export function signInLines(attendees: Attendee[]): { name: string; detail: string }[] {
  const lines: { name: string; detail: string }[] = [];
  const kept = attendees.filter((a) => a.status !== "canceled")
    .sort((x, y) => `${x.lastname} ${x.firstname}`.localeCompare(`${y.lastname} ${y.firstname}`, "fr"));
  for (const a of kept) {
    const name = `${a.lastname.toUpperCase()} ${a.firstname}`.trim() || a.email;
    for (let seat = 1; seat <= a.quantity; seat++) {
      lines.push(
        seat === 1 ? { name, detail: a.phone || a.email } : { name: `Invité ${seat} de ${name}`, detail: "" },
      );
    }
  }
  return lines;
}

export function attendeeJson(a: Attendee) {
  return {
    id: a.registrationId,
    name: `${a.firstname} ${a.lastname}`.trim(),
    firstname: a.firstname,
    lastname: a.lastname,
    email: a.email,
    phone: a.phone,
    quantity: a.quantity,
    status: a.status,
    statusLabel: REGISTRATION_STATUSES[a.status].label,
    paid: centsToEuros(a.paid),
  };
}
