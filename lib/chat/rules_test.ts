import { assertEquals } from "../../tests/support/assert.ts";
import {
  authorLabel,
  type ChatMessage,
  colourOf,
  mergeMessages,
  MESSAGE_MAX_LENGTH,
  messageTextError,
  sideOf,
} from "./rules.ts";

const entry = (id: number, authorId: string | null, authorType: ChatMessage["authorType"]): ChatMessage => ({
  id,
  entityId: 1,
  entityType: "DealCompany",
  type: authorId ? "message" : "notification",
  text: "x",
  authorId,
  authorType,
  authorName: authorId ? `Nom ${authorId}` : "",
  createdAt: 1_800_000_000,
});

const admin = { id: "a", type: "Admin" } as const;
const customer = { id: "c", type: "Customer" } as const;
const partner = { id: "p", type: "Company" } as const;

Deno.test("chat display: sides by viewer (spec 000 §6)", () => {
  const fromCustomer = entry(1, "c", "Customer");
  const fromPartner = entry(2, "p", "Company");
  const fromAdmin = entry(3, "a", "Admin");
  const fromOtherAdmin = entry(4, "a2", "Admin");
  const notification = entry(5, null, null);
  // An admin: customer messages on the start side, the rest on the end side.
  assertEquals(
    [fromCustomer, fromPartner, fromAdmin, fromOtherAdmin, notification].map((m) => sideOf(m, admin)),
    [
      "start",
      "end",
      "end",
      "end",
      "end",
    ],
  );
  // Others: their own on the end side.
  assertEquals([fromCustomer, fromPartner, fromAdmin, notification].map((m) => sideOf(m, customer)), [
    "end",
    "start",
    "start",
    "start",
  ]);
  assertEquals([fromCustomer, fromPartner].map((m) => sideOf(m, partner)), ["start", "end"]);
});

Deno.test("chat display: colours and 'Vous'", () => {
  const messages = [
    entry(1, "c", "Customer"),
    entry(2, "p", "Company"),
    entry(3, "a", "Admin"),
    entry(4, null, null),
  ];
  assertEquals(messages.map((m) => colourOf(m, customer)), ["grey", "green", "red", "slate"]);
  assertEquals(messages.map((m) => colourOf(m, admin)), ["blue", "green", "grey", "slate"]);
  assertEquals(messages.map((m) => authorLabel(m, partner)), ["Nom c", "Vous", "Nom a", "Notification"]);
});

Deno.test("chat rules: empty, blank and too long texts; merging keeps order without duplicates", () => {
  assertEquals(messageTextError(""), "Le message ne peut pas être vide.");
  assertEquals(messageTextError(" \n\t\u00a0"), "Le message ne peut pas être vide.");
  assertEquals(messageTextError("x".repeat(MESSAGE_MAX_LENGTH)), null);
  assertEquals(
    messageTextError("x".repeat(MESSAGE_MAX_LENGTH + 1)),
    "Le message ne peut pas dépasser 2\u202f000 caractères.",
  );
  const merged = mergeMessages([entry(1, "c", "Customer"), entry(3, "c", "Customer")], [
    entry(2, "a", "Admin"),
    entry(3, "c", "Customer"),
  ]);
  assertEquals(merged.map((m) => m.id), [1, 2, 3]);
});
