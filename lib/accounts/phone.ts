// Phone numbers in one international form (E.164, France by default), so that "06 00 00 00 05",
// "+33 6 00 00 00 05" and "0033600000005" are one number everywhere: storage, uniqueness and the
// existence check. libphonenumber's small metadata also refuses numbers no country has.
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

const DEFAULT_COUNTRY = "FR";

/** "+33600000005", or null when the input is not a valid phone number. */
export function normalizePhone(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > 40) return null;
  const parsed = parsePhoneNumberFromString(trimmed, DEFAULT_COUNTRY);
  return parsed?.isValid() ? parsed.number : null;
}

export function isPhoneShape(value: string): boolean {
  return normalizePhone(value) !== null;
}
