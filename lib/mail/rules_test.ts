// The emails capability's pure rules and templates: display status order, remaining time, which manual
// template a deal's status allows, and every template's three parts with escaped HTML.
import { assert, assertEquals } from "../../tests/support/assert.ts";
import {
  dealEmailTemplates,
  MAIL_MESSAGES,
  MANUAL_TEMPLATES,
  manualSendRefusal,
  manualTemplate,
  remainingLabel,
  SCHEDULED_LABELS,
  scheduledDisplay,
} from "./rules.ts";
import * as templates from "./templates.ts";

Deno.test("scheduled display: sent, then ready, then scheduled (spec 001 §4)", () => {
  assertEquals(scheduledDisplay({ isSent: true, isReady: true }), "sent");
  assertEquals(scheduledDisplay({ isSent: false, isReady: true }), "ready");
  assertEquals(scheduledDisplay({ isSent: false, isReady: false }), "scheduled");
  assertEquals(SCHEDULED_LABELS, { sent: "Envoyé", ready: "À envoyer", scheduled: "Programmé" });
});

Deno.test("remaining time in French", () => {
  assertEquals(remainingLabel(0), "Maintenant");
  assertEquals(remainingLabel(30), "1 min");
  assertEquals(remainingLabel(3600), "1 h");
  assertEquals(remainingLabel(3 * 3600 + 120), "3 h 2 min");
  assertEquals(remainingLabel(48 * 3600), "2 j");
  assertEquals(remainingLabel(50 * 3600), "2 j 2 h");
});

Deno.test("manual templates: each reminder only while its party has something to do, the invoice once one exists", () => {
  const partner = manualTemplate("deal-reminder-manual-partner")!;
  const customer = manualTemplate("deal-reminder-manual-customer")!;
  const invoice = manualTemplate("deal-invoice-customer")!;
  const deal = (status: string, anythingPaid = false) => ({
    status,
    anythingPaid,
    hasCustomer: true,
    hasPartner: true,
  });
  for (const t of [partner, customer, invoice]) assert(manualSendRefusal(t, deal("start")) !== null);
  assertEquals(manualSendRefusal(partner, deal("start")), MAIL_MESSAGES.notSentToPartner);
  for (const status of ["new", "pending"]) {
    assertEquals(manualSendRefusal(partner, deal(status)), null, status);
  }
  for (const status of ["send", "edited", "accepted", "pay_partial", "pay_total"]) {
    assertEquals(manualSendRefusal(partner, deal(status)), MAIL_MESSAGES.partnerNothingToDo, status);
  }
  // A paid deal's partner has nothing to validate (POST .../send-mail/3 asked it to).
  assertEquals(manualSendRefusal(partner, deal("pay_total", true)), MAIL_MESSAGES.partnerNothingToDo);
  for (const status of ["new", "pending"]) {
    assertEquals(manualSendRefusal(customer, deal(status)), MAIL_MESSAGES.notSentToCustomer, status);
  }
  for (const status of ["send", "edited", "accepted"]) {
    assertEquals(manualSendRefusal(customer, deal(status)), null);
  }
  // Deal 3: everything paid; deal 26: refused.
  assertEquals(manualSendRefusal(customer, deal("pay_total", true)), MAIL_MESSAGES.customerAlreadyPaid);
  assertEquals(manualSendRefusal(customer, deal("accepted", true)), MAIL_MESSAGES.customerAlreadyPaid);
  for (const status of ["refused", "refused_client", "refused_partner"]) {
    assertEquals(manualSendRefusal(customer, deal(status)), MAIL_MESSAGES.refusedNothingToDo, status);
    assertEquals(manualSendRefusal(partner, deal(status)), MAIL_MESSAGES.refusedNothingToDo, status);
  }
  // 'Facture client' only once a payment (and so its invoice) exists, whatever the status.
  assertEquals(manualSendRefusal(invoice, deal("send")), MAIL_MESSAGES.noInvoice);
  assertEquals(manualSendRefusal(invoice, deal("pay_partial", true)), null);
  assertEquals(manualSendRefusal(invoice, deal("refused_client", true)), null);
  assertEquals(
    manualSendRefusal(partner, { ...deal("new"), hasPartner: false }),
    MAIL_MESSAGES.noRecipient,
  );
  assertEquals(
    dealEmailTemplates(deal("send")).map((t) => [t.template, t.available]),
    [["deal-reminder-manual-partner", false], ["deal-reminder-manual-customer", true], [
      "deal-invoice-customer",
      false,
    ]],
  );
  assertEquals(manualTemplate("nope"), undefined);
  assertEquals(MANUAL_TEMPLATES.map((t) => t.label), [
    "Rappel partenaire",
    "Rappel client",
    "Facture client",
  ]);
});

Deno.test("every template has a subject, a text and an HTML part, values escaped in the HTML", () => {
  const evil = "<script>alert('x')</script> & Cie";
  const link = "https://example.fr/deal/show/abc?x=1&y=2";
  const all = [
    templates.passwordResetEmail("a@b.fr", evil, link),
    templates.partnerInvitationEmail("a@b.fr", evil, evil, link),
    templates.requestReceivedEmail("a@b.fr", 123456, link),
    templates.partnerNewDealEmail("a@b.fr", evil, link),
    templates.quoteReadyEmail("a@b.fr", evil, evil, link),
    templates.quoteUpdatedEmail("a@b.fr", evil, evil, link),
    templates.availabilityValidatedEmail("a@b.fr", {
      id: 7,
      name: evil,
      partnerName: evil,
      revalidated: true,
    }, link),
    templates.paymentReceivedEmail(
      "a@b.fr",
      evil,
      { dealName: evil, kind: "deposit", amountCents: 12345 },
      link,
    ),
    templates.paymentReceivedPartnerEmail("a@b.fr", {
      dealId: 7,
      dealName: evil,
      kind: "total",
      amountCents: 1,
    }, link),
    templates.dealRefusedCustomerEmail("a@b.fr", evil, evil, evil, link),
    templates.dealRefusedPartnerEmail("a@b.fr", { id: 7, name: evil }, evil, link),
    templates.registrationEmail("a@b.fr", evil, link),
    templates.partnerReminderEmail("a@b.fr", { id: 7, name: evil }, link),
    templates.customerReminderEmail("a@b.fr", evil, evil, link),
    templates.customerInvoiceEmail("a@b.fr", evil, {
      name: evil,
      dueCents: 5000,
      invoices: [{ label: "Facture d'acompte", url: link }],
    }, link),
  ];
  assertEquals(new Set(all.map((m) => m.template)).size, all.length, "one template name each");
  for (const mail of all) {
    assert(mail.subject.length > 0 && mail.text.length > 0 && mail.html, mail.template);
    assert(!mail.html!.includes("<script>"), `${mail.template} escapes its values`);
    assert(mail.html!.includes("&lt;script&gt;") || !mail.text.includes("<script>"), mail.template);
    assert(!/href="[^"]*&y=/.test(mail.html!), `${mail.template} escapes its links`);
  }
  assert(all[7].text.includes("123,45 €") || all[7].text.includes("123,45"), all[7].text);
});
