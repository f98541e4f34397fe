// Every message zod gives is French (issue "Invoices…" §3): the product's wording for the common
// issues, zod's French locale for the rest, a schema's own message first.
import { assertEquals } from "../tests/support/assert.ts";
import { z } from "zod";
import { fieldErrors } from "./validation.ts";

const firstMessage = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a failure");
  return fieldErrors(result.error);
};

Deno.test("zod answers in French: numbers, texts, lists, types, formats, enums, keys", () => {
  const schema = z.strictObject({
    page: z.coerce.number().int().min(1).max(1000).optional(),
    name: z.string().min(2).max(5).optional(),
    tags: z.array(z.string()).max(1).optional(),
    email: z.email().optional(),
    day: z.iso.date().optional(),
    kind: z.enum(["deposit", "total"]).optional(),
    count: z.number().optional(),
    required: z.string().optional(),
  });
  assertEquals(firstMessage(schema, { page: "-1" }).page, "La valeur doit être supérieure ou égale à 1.");
  assertEquals(
    firstMessage(schema, { page: "5000" }).page,
    "La valeur doit être inférieure ou égale à 1000.",
  );
  assertEquals(firstMessage(schema, { page: "1.5" }).page, "Valeur invalide : un nombre entier est attendu.");
  assertEquals(firstMessage(schema, { name: "a" }).name, "Ce champ doit contenir au moins 2 caractères.");
  assertEquals(firstMessage(schema, { name: "abcdef" }).name, "Ce champ doit contenir au plus 5 caractères.");
  assertEquals(firstMessage(schema, { tags: ["a", "b"] }).tags, "La liste doit contenir au plus 1 élément.");
  assertEquals(firstMessage(schema, { email: "x" }).email, "Le mail doit être valide.");
  assertEquals(firstMessage(schema, { day: "31/01/2027" }).day, "La date doit être au format AAAA-MM-JJ.");
  assertEquals(
    firstMessage(schema, { kind: "other" }).kind,
    'Valeur invalide : choisissez parmi "deposit", "total".',
  );
  assertEquals(firstMessage(schema, { count: "3" }).count, "Valeur invalide : un nombre est attendu.");
  assertEquals(firstMessage(schema, { extra: 1 })._, "Champ non reconnu : extra.");
  assertEquals(firstMessage(z.object({ a: z.string() }), {}).a, "Ce champ est requis.");
  // Zod's French locale answers what the product does not reword.
  assertEquals(
    firstMessage(z.object({ n: z.number().multipleOf(5) }), { n: 3 }).n,
    "La valeur doit être un multiple de 5.",
  );
  assertEquals(
    firstMessage(z.object({ s: z.string().startsWith("FR") }), { s: "BE" }).s,
    'Chaîne de caractères invalide : doit commencer par "FR"',
  );
  // A schema's own message wins.
  assertEquals(firstMessage(z.object({ k: z.string({ error: "À vous." }) }), { k: 1 }).k, "À vous.");
});
