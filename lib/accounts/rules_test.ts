import { assert, assertEquals } from "../../tests/support/assert.ts";
import {
  ageOn,
  birthYearChoices,
  frenchVatKey,
  frenchVatNumber,
  hasVatNumberField,
  isStrongPassword,
  normalizePhone,
  profileSchema,
  registrationSchema,
  SIREN_MAX_MESSAGE,
  toIsoDate,
  VAT_KEY_MESSAGE,
  VAT_MESSAGE,
  VAT_SIREN_MESSAGE,
  vatNumberError,
} from "./rules.ts";
import { fieldErrors } from "../validation.ts";

const TODAY = "2026-11-21";

const registration = (overrides: Record<string, unknown> = {}) => ({
  firstname: "Léa",
  lastname: "Dupont",
  birthdate: "1990-05-12",
  address: "1 rue A",
  zipcode: "75001",
  city: "Paris",
  phone: "06 12 34 56 78",
  email: " Lea@Example.FR ",
  password: "Cocktail#2026",
  terms: true,
  privacy: true,
  age: true,
  optin: true,
  ...overrides,
});

const errorsOf = (
  schema: ReturnType<typeof registrationSchema> | ReturnType<typeof profileSchema>,
  input: unknown,
) => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

Deno.test("the registration password needs 8 characters, upper, lower, digit and a listed special character", () => {
  assertEquals(isStrongPassword("Cocktail#2026"), true);
  assertEquals(isStrongPassword("Cock#20"), false);
  assertEquals(isStrongPassword("cocktail#2026"), false);
  assertEquals(isStrongPassword("COCKTAIL#2026"), false);
  assertEquals(isStrongPassword("Cocktail#abc"), false);
  assertEquals(isStrongPassword("Cocktail2026"), false);
  assertEquals(isStrongPassword("Cocktail_2026"), false, "_ is not in the special characters list");
  for (const special of "#?!@$%^&*-") assertEquals(isStrongPassword(`Cocktail${special}1`), true, special);
});

Deno.test("a valid registration is normalised", () => {
  const result = registrationSchema(TODAY).parse(registration());
  assertEquals(result.email, "lea@example.fr");
  assertEquals(result.birthdate, "1990-05-12");
  assertEquals(result.professional, false);
});

Deno.test("registration messages follow the spec", () => {
  const errors = errorsOf(registrationSchema(TODAY), {});
  assertEquals(errors.firstname, "Ce champ est requis");
  assertEquals(errors.email, "Votre email est requis.");
  assertEquals(errors.phone, "Votre téléphone est requis.");
  assertEquals(errors.password, "Votre mot de passe est requis.");
  assertEquals(errors.terms, "Vous devez accepter les conditions générales");
  assertEquals(errors.privacy, "Vous devez accepter la politique de confidentialité");
  assertEquals(errors.age, "Vous devez avoir plus de 18 ans");
  assertEquals(
    errors.optin,
    "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
  );
  assertEquals(errors.name, undefined, "company fields only for professionals");
  const confirmation = errorsOf(registrationSchema(TODAY), registration({ passwordConfirmation: "" }));
  assertEquals(confirmation.passwordConfirmation, "Votre confirmation de mot de passe est requise.");
});

Deno.test("registration requires being 18 on the day", () => {
  assertEquals(
    errorsOf(registrationSchema(TODAY), registration({ birthdate: "2008-11-21" })).birthdate,
    undefined,
  );
  assertEquals(
    errorsOf(registrationSchema(TODAY), registration({ birthdate: "2008-11-22" })).birthdate,
    "Vous devez avoir plus de 18 ans",
  );
  assertEquals(
    errorsOf(registrationSchema(TODAY), registration({ birthdate: "1990-02-30" })).birthdate,
    "La date de naissance est invalide.",
  );
});

Deno.test("ages and dates", () => {
  assertEquals(ageOn("2000-02-29", "2018-02-28"), 17);
  assertEquals(ageOn("2000-02-29", "2018-03-01"), 18);
  assertEquals(toIsoDate(Date.UTC(1990, 4, 12) / 1000), "1990-05-12");
  assertEquals(toIsoDate("1990-13-01"), null);
  assertEquals(normalizePhone(" +33 6.12-34 56 78 "), "+33612345678");
});

const profile = (overrides: Record<string, unknown> = {}) => ({
  firstname: "Paul",
  lastname: "Durand",
  address1: "3 place B",
  zipcode: "69002",
  city: "Lyon",
  phone: "0612345678",
  birthdate: "1985-01-31",
  siren: "123456789",
  vatNumber: "FR32123456789",
  emails: [],
  ...overrides,
});

Deno.test("profile messages follow the spec", () => {
  const errors = errorsOf(profileSchema("Customer", TODAY), {});
  assertEquals(errors.firstname, "Votre prénom est requis.");
  assertEquals(errors.lastname, "Votre nom est requis.");
  assertEquals(errors.address1, "Votre adresse est requise.");
  assertEquals(errors.zipcode, "Votre code postal est requis.");
  assertEquals(errors.city, "Votre ville est requise.");
  assertEquals(errors.phone, "Votre numéro de téléphone est requis.");
});

Deno.test("profile password: optional, 12 characters, confirmed", () => {
  const schema = profileSchema("Customer", TODAY);
  assertEquals(errorsOf(schema, profile()), {});
  assertEquals(
    errorsOf(schema, profile({ password: "court", passwordConfirmation: "court" })).password,
    "Le mot de passe doit contenir au moins 12 caractères.",
  );
  assertEquals(
    errorsOf(schema, profile({ password: "assez-long-pour-passer" })).passwordConfirmation,
    "Votre confirmation de mot de passe est requise.",
  );
  assertEquals(
    errorsOf(
      schema,
      profile({ password: "assez-long-pour-passer", passwordConfirmation: "different-mais-long" }),
    )
      .passwordConfirmation,
    "Les mots de passe doivent être identiques.",
  );
});

Deno.test("company SIREN and VAT number rules", () => {
  const company = profileSchema("Company", TODAY);
  assertEquals(
    errorsOf(company, profile({ siren: "12345678" })).siren,
    "Le SIREN doit contenir exactement 9 chiffres.",
  );
  assertEquals(
    errorsOf(company, profile({ siren: "" })).siren,
    "Le SIREN doit contenir exactement 9 chiffres.",
  );
  assertEquals(
    errorsOf(company, profile({ vatNumber: "F12" })).vatNumber,
    "Le numéro de TVA doit être au format européen (ex: FR12345678901).",
  );
  assertEquals(errorsOf(company, profile({ vatNumber: "" })).vatNumber, undefined, "VAT number is optional");
  assertEquals(company.parse(profile({ vatNumber: "fr 32 123 456 789" })).vatNumber, "FR32123456789");
  // A French number: FR, its key, the SIREN; the key is the SIREN's, the SIREN the profile's.
  assertEquals(errorsOf(company, profile({ vatNumber: "FR12123456789" })).vatNumber, VAT_KEY_MESSAGE);
  assertEquals(errorsOf(company, profile({ vatNumber: "FR05987654321" })).vatNumber, VAT_SIREN_MESSAGE);
  assertEquals(errorsOf(company, profile({ vatNumber: "FR3212345678" })).vatNumber, VAT_MESSAGE);
  assertEquals(
    errorsOf(company, profile({ vatNumber: "BE0123456789" })).vatNumber,
    undefined,
    "other countries",
  );
  // Customers: the SIREN is optional; a business customer's VAT number is kept (printed on its invoices),
  // checked by the same rule; the VAT exemption is the partners' only.
  const customerSchema = profileSchema("Customer", TODAY);
  const customer = customerSchema.parse(
    profile({ name: "Léa Événements", siren: "", vatNumber: "fr05987654321", vatExemption: true }),
  );
  assertEquals([customer.siren, customer.vatNumber, customer.vatExemption], ["", "FR05987654321", false]);
  assertEquals(
    errorsOf(customerSchema, profile({ name: "Léa Événements", siren: "", vatNumber: "FR1" })).vatNumber,
    VAT_MESSAGE,
  );
  assertEquals(
    errorsOf(customerSchema, profile({ vatNumber: "FR05987654321" })).vatNumber,
    VAT_SIREN_MESSAGE,
  );
  assertEquals(profileSchema("Admin", TODAY).parse(profile({ siren: "" })).vatNumber, "");
  // Spec 001 §5: no 9-digit rule for customers, a 9-character maximum; no VAT number for a private one.
  assertEquals(errorsOf(customerSchema, profile({ siren: "12" })).siren, undefined);
  assertEquals(errorsOf(customerSchema, profile({ siren: "1234567890" })).siren, SIREN_MAX_MESSAGE);
  assertEquals(
    customerSchema.parse(profile({ name: "", siren: "", vatNumber: "FR05987654321" })).vatNumber,
    "",
  );
  assertEquals(hasVatNumberField("Customer", { name: "", siren: "" }), false);
  assertEquals(hasVatNumberField("Customer", { name: "Léa Événements", siren: "" }), true);
  assertEquals(hasVatNumberField("Company", { name: "", siren: "" }), true);
  assertEquals(hasVatNumberField("Admin", { name: "x", siren: "123456789" }), false);
});

Deno.test("French VAT numbers: the key of a SIREN is (12 + 3 × (SIREN mod 97)) mod 97", () => {
  assertEquals(frenchVatKey("123456789"), "32");
  assertEquals(frenchVatKey("987654321"), "05");
  assertEquals(frenchVatNumber("404833048"), "FR83404833048");
  assertEquals(vatNumberError("FR83404833048", "404833048"), null);
  assertEquals(vatNumberError("FR84404833048"), VAT_KEY_MESSAGE);
  assertEquals(vatNumberError("FRAB404833048"), null, "an alphanumeric key is not computed");
  assertEquals(vatNumberError("DE123456789"), null);
  assertEquals(vatNumberError("F12"), VAT_MESSAGE);
});

Deno.test("additional emails: shape, no duplicates, at most 5", () => {
  const schema = profileSchema("Customer", TODAY);
  const five = ["a@x.fr", "b@x.fr", "c@x.fr", "d@x.fr", "e@x.fr"];
  assertEquals(errorsOf(schema, profile({ emails: five })), {});
  assertEquals(
    errorsOf(schema, profile({ emails: [...five, "f@x.fr"] })).emails,
    "Vous avez atteint le maximum de 5 emails supplémentaires.",
  );
  assertEquals(
    errorsOf(schema, profile({ emails: ["a@x.fr", "A@x.fr"] })).emails,
    "Cet email est déjà dans la liste.",
  );
  assertEquals(errorsOf(schema, profile({ emails: ["pas-un-mail"] })).emails, "Le mail doit être valide.");
});

Deno.test("birth years: 82 years ending 18 years before the current year", () => {
  const years = birthYearChoices(2026);
  assertEquals(years.length, 82);
  assertEquals(years[0], 2008);
  assertEquals(years.at(-1), 1927);
  assert(years.every((y, i) => i === 0 || y === years[i - 1] - 1));
});

Deno.test("text fields are bounded", () => {
  assertEquals(
    errorsOf(registrationSchema(TODAY), registration({ city: "x".repeat(256) })).city,
    "Ce champ est trop long (255 caractères au maximum).",
  );
  assertEquals(
    errorsOf(profileSchema("Customer", TODAY), profile({ address2: "x".repeat(300) })).address2,
    "Ce champ est trop long (255 caractères au maximum).",
  );
});
