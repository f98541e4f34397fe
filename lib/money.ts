// Money, pure and shared by every capability and by islands: integer cents everywhere it is stored or
// computed. The API speaks euros (numbers with at most two decimals) as the spec's payloads do; they are
// converted exactly, from their decimal text, never by multiplying a float.

/** 12345 → 123.45 (a JSON number that reads back exactly with `eurosToCents`). */
export function centsToEuros(cents: number): number {
  return cents / 100;
}

/** 123.45, "123.45", "123,45", "1 234,5" → 12345; null when it is not an amount with ≤ 2 decimals. */
export function eurosToCents(value: unknown): number | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    text = String(value);
    if (/e/i.test(text)) return null;
  } else if (typeof value === "string") {
    text = value.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  } else return null;
  const match = /^(-?)(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

/** Rounds half away from zero: the rounding of French invoices. */
export function roundHalfUp(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** cents × rate% with the rate in hundredths of a percent (basis points), rounded to the cent. */
export function percentOf(cents: number, basisPoints: number): number {
  return roundHalfUp((cents * basisPoints) / 10000);
}

/** A percentage (e.g. 12.5) as basis points (1250), exactly. */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/** An amount with VAT (spec: amounts with VAT multiply by (1 + vat)), rounded to the cent. */
export function withVat(cents: number, vatPercent: number): number {
  return cents + percentOf(cents, percentToBasisPoints(vatPercent));
}

const EURO = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** "1 234,50 €" (French formatting, with its narrow no-break spaces). */
export function formatEuros(cents: number): string {
  return EURO.format(cents / 100);
}
