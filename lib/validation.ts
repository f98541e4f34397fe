// Parses input with a zod schema and turns failures into one AppError carrying a French message per
// field (the first failure of each field). Every parsed string is also checked for characters no form
// sends (issue "Production, part 2" §5): lone UTF-16 surrogates, NUL and the other C0 controls, DEL and
// the C1 controls; single-line fields (every top-level string unless named in `multiLine`) refuse
// CR, LF and TAB too. Multi-line fields keep LF, CR (of CRLF) and TAB.
import type { z } from "zod";
import { AppError } from "./errors.ts";
// Zod's messages in French for the whole process (the locale and the product's wording).
import "./zod_locale.ts";

export const UNSAFE_TEXT_MESSAGE = "Ce champ contient des caractères non autorisés.";
export const EMAIL_INVALID_MESSAGE = "L'email doit être valide.";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Every C0 control (NUL, TAB, LF, CR…), DEL and the C1 controls. */
// deno-lint-ignore no-control-regex
const SINGLE_LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less TAB, LF and CR. */
// deno-lint-ignore no-control-regex
const MULTI_LINE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A one-line value (a name, a city, an email…): no control character at all, no lone surrogate. */
export function isSafeSingleLine(value: string): boolean {
  return !SINGLE_LINE_CONTROLS.test(value) && !LONE_SURROGATE.test(value);
}

/** A text area's value: line breaks and tabs, no other control character, no lone surrogate. */
export function isSafeMultiLine(value: string): boolean {
  return !MULTI_LINE_CONTROLS.test(value) && !LONE_SURROGATE.test(value);
}

/**
 * An address as the platform accepts it: a dot-atom local part and a domain of letters, digits and
 * hyphens (labels of 1-63, at least one dot), 254 characters at most — `a@b.fr>,<c` or quoted local
 * parts are refused, whatever a mail library would make of them.
 */
const STRICT_EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isStrictEmail(value: string): boolean {
  return value.length <= 254 && STRICT_EMAIL.test(value);
}

/** Field → French message for every string of `data` that carries a forbidden character. */
export function unsafeTextErrors(data: unknown, multiLine: readonly string[] = []): Record<string, string> {
  const errors: Record<string, string> = {};
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    if (!deepSafe(data)) errors._ = UNSAFE_TEXT_MESSAGE;
    return errors;
  }
  for (const [key, value] of Object.entries(data)) {
    const ok = typeof value === "string"
      ? (multiLine.includes(key) ? isSafeMultiLine(value) : isSafeSingleLine(value))
      : deepSafe(value);
    if (!ok) errors[key] = UNSAFE_TEXT_MESSAGE;
  }
  return errors;
}

/** Nested values (arrays, objects: lines, properties…) are held to the multi-line rule. */
function deepSafe(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isSafeMultiLine(value);
  if (value === null || typeof value !== "object" || depth > 8) return true;
  if (Array.isArray(value)) return value.every((v) => deepSafe(v, depth + 1));
  return Object.entries(value).every(([k, v]) => isSafeMultiLine(k) && deepSafe(v, depth + 1));
}

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export interface ParseOptions {
  /** Top-level fields that may hold several lines (descriptions, messages, rich text). */
  multiLine?: readonly string[];
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  formMessage?: string,
  options: ParseOptions = {},
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError("validation", formMessage, fieldErrors(result.error));
  const unsafe = unsafeTextErrors(result.data, options.multiLine);
  if (Object.keys(unsafe).length) throw new AppError("validation", formMessage, unsafe);
  return result.data;
}
