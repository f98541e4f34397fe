// The list rows built from the server's items (cents) and from the API's JSON (euros): the unit comes
// from the function called, never guessed from a value's type.
import { assertEquals } from "../../../tests/support/assert.ts";
import { type ListItem, rowFromItem, rowFromJson } from "./rows.ts";
import { menuPlace } from "./RowMenu.tsx";

const item: ListItem = {
  id: 12,
  token: "tok",
  name: "Mariage – Martin – 01/07/2027",
  hubspotId: "987",
  status: "pay_partial",
  serviceDate: "2027-07-01",
  guests: 80,
  eventType: "Mariage",
  totalHt: 113950,
  createdAt: new Date("2026-11-21T10:00:30.900Z"),
  customerName: null,
  companyId: "c1",
  companyName: "Shaker & Co",
  depositAmount: 47858,
  totalAmountPaid: null,
  paidKinds: ["deposit"],
};

Deno.test("rowFromItem keeps cents and gives unix seconds, an empty customer name and the billing flags", () => {
  const row = rowFromItem(item);
  assertEquals(row.totalHt, 113950);
  assertEquals(row.depositAmount, 47858);
  assertEquals(row.totalAmountPaid, null);
  assertEquals(row.createdAt, 1795255230, "seconds, rounded down");
  assertEquals(row.customerName, "");
  assertEquals(row.paidKinds, ["deposit"]);
  assertEquals(row.showProforma, false);
  assertEquals(row.depositOffered, true);
  // Without billing columns the row carries none (the partner list's older readers).
  const { paidKinds: _, ...plain } = item;
  assertEquals("paidKinds" in rowFromItem(plain), false);
});

Deno.test("rowFromJson turns the API's euros into exact cents, even those a float would miss", () => {
  const json = {
    ...item,
    createdAt: 1795255230,
    totalHt: 1139.5,
    depositAmount: 478.58,
    totalAmountPaid: 0.29,
  };
  const row = rowFromJson(json);
  assertEquals(row, { ...rowFromItem(item), totalAmountPaid: 29 });
  // 4.35 × 100 is 434.99999… as a float: read from its decimal text, it is 435.
  assertEquals(rowFromJson({ ...json, totalHt: 4.35 }).totalHt, 435);
  assertEquals(rowFromJson({ ...json, totalHt: 1234567.89 }).totalHt, 123456789);
  // A serialised round trip of the server's row is the row (island props are JSON).
  assertEquals(JSON.parse(JSON.stringify(rowFromItem(item))), rowFromItem(item));
});

Deno.test("menuPlace opens the row menu below its button, or above it near the screen's bottom", () => {
  const row = rowFromItem(item);
  const screen = { width: 1280, height: 900 };
  assertEquals(menuPlace(row, { top: 100, bottom: 130, right: 1200 }, screen), { row, top: 134, right: 80 });
  assertEquals(menuPlace(row, { top: 800, bottom: 830, right: 1200 }, screen), {
    row,
    bottom: 104,
    right: 80,
  });
  assertEquals(menuPlace(row, { top: 100, bottom: 130, right: 1279 }, screen).right, 8, "never off the edge");
});
