// The attendees' CSV (French Excel, formula injection defused) and the sign-in sheet's lines.
import { assertEquals } from "../../tests/support/assert.ts";
import { type Attendee, attendeesCsv, csvCell, signInLines } from "./attendees.ts";
import { fillOf } from "./rules.ts";

const attendee = (overrides: Partial<Attendee> = {}): Attendee => ({
  registrationId: "r1",
  firstname: "Léa",
  lastname: "Martin",
  email: "lea@example.fr",
  phone: "0612345678",
  quantity: 1,
  status: "invoiced",
  paid: 4550,
  ...overrides,
});

Deno.test("csvCell: formulas defused, separators and quotes quoted", () => {
  assertEquals(csvCell("=1+1"), "'=1+1");
  assertEquals(csvCell("+33 6"), "'+33 6");
  assertEquals(csvCell("-2"), "'-2");
  assertEquals(csvCell("@SUM(A1)"), "'@SUM(A1)");
  assertEquals(csvCell("\tx"), "'\tx");
  assertEquals(csvCell('a;b "c"'), '"a;b ""c"""');
  assertEquals(csvCell("ligne\nsuivante"), '"ligne\nsuivante"');
  assertEquals(csvCell(-2), "-2", "numbers are written as numbers");
  assertEquals(csvCell("Élodie"), "Élodie");
});

Deno.test("attendeesCsv: BOM, header, ';', CRLF, decimal comma", () => {
  const csv = attendeesCsv([attendee(), attendee({ status: "canceled", paid: 0, quantity: 2 })]);
  assertEquals(
    csv,
    "\uFEFFNom;Prénom;Email;Téléphone;Places;Statut;Montant payé (€)\r\n" +
      "Martin;Léa;lea@example.fr;0612345678;1;Facturé;45,50\r\n" +
      "Martin;Léa;lea@example.fr;0612345678;2;Annulé;0,00\r\n",
  );
});

Deno.test("signInLines: one line per seat, canceled registrations left out, by name", () => {
  const lines = signInLines([
    attendee({ lastname: "Zola", quantity: 2 }),
    attendee({ lastname: "Arnaud", firstname: "Max", phone: "" }),
    attendee({ lastname: "Boyer", status: "canceled" }),
  ]);
  assertEquals(lines, [
    { name: "ARNAUD Max", detail: "lea@example.fr" },
    { name: "ZOLA Léa", detail: "0612345678" },
    { name: "Invité 2 de ZOLA Léa", detail: "" },
  ]);
});

Deno.test("fillOf: sold, held (carts and offers), left and the rate", () => {
  assertEquals(fillOf(10, 4, 3), { sold: 4, held: 3, left: 3, rate: 70 });
  assertEquals(fillOf(0, 0, 0), { sold: 0, held: 0, left: 0, rate: 0 });
});
