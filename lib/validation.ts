// Parses input with a zod schema and turns failures into one AppError carrying a French message per
// field (the first failure of each field).
import type { z } from "zod";
import { AppError } from "./errors.ts";

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  formMessage?: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError("validation", formMessage, fieldErrors(result.error));
  return result.data;
}
