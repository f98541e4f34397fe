// Emails (issue 13 'Emails', spec 001 §2.12, §2.14, §7-§9): the admin's manual templates and sending one,
// the emails that follow a deal's status and payments (once each, to the right side, a partner never
// reading the customer's contact details), the reminder policy's scheduled emails through the app's
// ticker (mark ready, then the worker sends them through the email outbox), the cron page's API, and
// an outbox email opened as sandboxed HTML. Each endpoint from the denied side too.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import {
  ADMIN,
  anonymous,
  assertError,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  drainNotifications,
  emailsFor,
  forceStatus,
  freshIp,
  loggedIn,
  PARTNER,
  requestDeal,
  sentDealForCustomer,
  userIdOf,
} from "./deals_fixtures_test.ts";
import { JOBS } from "../../lib/jobs/registry.ts";
import { runJob } from "../../lib/jobs/scheduler.ts";
import { scheduledEmailsQueue } from "../../lib/mail/scheduled_queue.ts";
import { MAIL_MESSAGES, MANUAL_TEMPLATES } from "../../lib/mail/rules.ts";
import { DEAL_MESSAGES } from "../../lib/deals/rules.ts";

const SENT = (label: string) => `Email "${label}" envoyé avec succès !`;

interface Scheduled {
  template: string;
  is_ready: boolean;
  is_sent: boolean;
  wait: number;
  hubspot: string | null;
}

async function scheduledFor(dealId: number): Promise<Scheduled[]> {
  const { db } = await testEnv();
  return await systemQuery<Scheduled>(
    db,
    `select template, is_ready, is_sent, data ->> 'hubspotId' as hubspot,
            extract(epoch from schedule_at - now())::float8 as wait
     from public.scheduled_emails where entity_id = $1 order by id`,
    [dealId],
  );
}

/** The app's ticker path (no pg_cron): the registry's job marks due rows ready, the worker sends. */
async function tick(): Promise<void> {
  const { deps } = await testEnv();
  const job = JOBS.find((j) => j.name === "scheduled-emails-ready")!;
  assert(await runJob(deps, job), "the ticker ran the job");
  while ((await scheduledEmailsQueue.drain(deps)) > 0) { /* until empty */ }
}

async function makeDue(dealId: number, template: string) {
  const { db } = await testEnv();
  await systemQuery(
    db,
    "update public.scheduled_emails set schedule_at = now() - interval '1 minute' where entity_id = $1 and template = $2",
    [dealId, template],
  );
}

httpTest("emails: GET /api/deal/email-templates lists the three manual templates, admins only", async () => {
  const path = "/api/deal/email-templates";
  assertEquals((await anonymous().get(path)).status, 401);
  assertEquals((await (await loggedIn(CUSTOMER)).get(path)).status, 403);
  assertEquals((await (await loggedIn(PARTNER)).get(path)).status, 403);
  const res = await (await loggedIn(ADMIN)).get(path);
  assertEquals(res.status, 200, res.text);
  const json = body(res);
  assertEquals(json.status, "success");
  assertEquals(json.results, MANUAL_TEMPLATES);
  assertEquals(
    json.results.map((
      t: { template: string; label: string; recipient: string },
    ) => [t.template, t.label, t.recipient]),
    [
      ["deal-reminder-manual-partner", "Rappel partenaire", "partner"],
      ["deal-reminder-manual-customer", "Rappel client", "client"],
      ["deal-invoice-customer", "Facture client", "client"],
    ],
  );
});

httpTest(
  "emails: POST /api/deal/send-mail/{id}: roles, 404, 422, then the email once to the right side",
  async () => {
    const admin = await loggedIn(ADMIN);
    const deal = await dealForPartner(admin);
    const path = `/api/deal/send-mail/${deal.id}`;
    const payload = { templateName: "deal-reminder-manual-customer" };
    assertEquals((await anonymous().post(path, payload)).status, 401);
    assertEquals((await (await loggedIn(CUSTOMER)).post(path, payload)).status, 403);
    assertError(await (await loggedIn(PARTNER)).post(path, payload), 403);
    assertError(await admin.post("/api/deal/send-mail/999999999", payload), 404, DEAL_MESSAGES.notFound);
    assertError(
      await admin.post(path, { templateName: "deal-hack" }),
      422,
      "Ce modèle d'email n'existe pas.",
    );
    assertError(await admin.post(path, {}), 422, "Veuillez choisir un modèle d'email.");
    // The customer has no quote to look at before it is sent to them.
    assertError(await admin.post(path, payload), 409, "Ce devis n'a pas encore été envoyé au client.");

    // 'Rappel partenaire' while the partner has to validate: it goes to the partner and names the deal,
    // never the customer's details.
    await drainNotifications();
    const partnerSent = await admin.post(path, { templateName: "deal-reminder-manual-partner" });
    assertEquals(body(partnerSent).message, SENT("Rappel partenaire"));
    await drainNotifications();
    const [reminder] = (await emailsFor(PARTNER)).filter((m) =>
      m.template === "deal-reminder-manual-partner" && m.text_body.includes(`#${deal.id}`)
    );
    assert(reminder, "the partner's reminder");
    const contact = String(deal.request.email);
    for (const secret of [contact, String(deal.request.phone), String(deal.request.adresse_precise)]) {
      assert(!reminder.text_body.includes(secret), `the partner's email does not reveal ${secret}`);
    }

    dealOf(await (await loggedIn(PARTNER)).post(`/api/deal/${deal.id}/validate-availability`));
    await drainNotifications();
    const before = (await emailsFor(contact)).length;
    const sent = await admin.post(path, payload);
    assertEquals(sent.status, 200, sent.text);
    assertEquals(body(sent).message, SENT("Rappel client"));
    await drainNotifications();
    const mails = (await emailsFor(contact)).slice(before);
    assertEquals(mails.map((m) => m.template), ["deal-reminder-manual-customer"]);
    assertEquals(mails[0].subject, "Rappel : votre devis vous attend");
    assert(mails[0].text_body.includes(`/deal/show/${deal.token}`), "links the quote page");
    // Once validated, the partner has nothing left to do.
    assertError(
      await admin.post(path, { templateName: "deal-reminder-manual-partner" }),
      409,
      MAIL_MESSAGES.partnerNothingToDo,
    );
    // A deal without a partner has no one to remind.
    const unsent = await dealForPartner(admin, PARTNER, { send: false });
    assertError(
      await admin.post(`/api/deal/send-mail/${unsent.id}`, { templateName: "deal-reminder-manual-partner" }),
      409,
      "Ce devis n'a pas encore été envoyé au partenaire.",
    );
    const orphan = await requestDeal();
    assertError(
      await admin.post(`/api/deal/send-mail/${orphan.id}`, { templateName: "deal-reminder-manual-partner" }),
      422,
      "Ce devis n'a pas de destinataire pour cet email.",
    );
  },
);

httpTest(
  "emails: each template only while its party has something to do, the dialog's list says why not",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const offer = async (dealId: number) => {
      const res = await admin.get(`/api/deal/email-templates?dealId=${dealId}`);
      assertEquals(res.status, 200, res.text);
      return Object.fromEntries(
        (body(res).results as { template: string; available: boolean; unavailableReason: string | null }[])
          .map((t) => [t.template, t.available ? "ok" : t.unavailableReason]),
      );
    };
    assertEquals((await (await loggedIn(PARTNER)).get("/api/deal/email-templates?dealId=1")).status, 403);
    assertError(await admin.get("/api/deal/email-templates?dealId=999999999"), 404, DEAL_MESSAGES.notFound);
    assertError(await admin.get("/api/deal/email-templates?dealId=abc"), 404, DEAL_MESSAGES.notFound);

    const unsent = await dealForPartner(admin, PARTNER, { send: false });
    assertEquals(await offer(unsent.id), {
      "deal-reminder-manual-partner": MAIL_MESSAGES.notSentToPartner,
      "deal-reminder-manual-customer": MAIL_MESSAGES.notSentToCustomer,
      "deal-invoice-customer": MAIL_MESSAGES.notSentToCustomer,
    });

    // Deal 3 of the report: everything paid; neither the customer nor the partner has anything to do.
    const paid = await sentDealForCustomer(admin, partner);
    assertEquals(await offer(paid.id), {
      "deal-reminder-manual-partner": MAIL_MESSAGES.partnerNothingToDo,
      "deal-reminder-manual-customer": "ok",
      "deal-invoice-customer": MAIL_MESSAGES.noInvoice,
    });
    assertError(
      await admin.post(`/api/deal/send-mail/${paid.id}`, { templateName: "deal-invoice-customer" }),
      409,
      MAIL_MESSAGES.noInvoice,
    );
    dealOf(await admin.post(`/api/deal/${paid.id}/payments`, { kind: "total", amount: paid.totalTTC / 100 }));
    assertEquals(await offer(paid.id), {
      "deal-reminder-manual-partner": MAIL_MESSAGES.partnerNothingToDo,
      "deal-reminder-manual-customer": MAIL_MESSAGES.customerAlreadyPaid,
      "deal-invoice-customer": "ok",
    });
    assertError(
      await admin.post(`/api/deal/send-mail/${paid.id}`, { templateName: "deal-reminder-manual-customer" }),
      409,
      MAIL_MESSAGES.customerAlreadyPaid,
    );
    assertError(
      await admin.post(`/api/deal/send-mail/${paid.id}`, { templateName: "deal-reminder-manual-partner" }),
      409,
      MAIL_MESSAGES.partnerNothingToDo,
    );
    const invoice = await admin.post(`/api/deal/send-mail/${paid.id}`, {
      templateName: "deal-invoice-customer",
    });
    assertEquals(body(invoice).message, SENT("Facture client"), invoice.text);

    // Deal 26: refused; nobody is told the quote awaits them.
    const refused = await sentDealForCustomer(admin, partner);
    await forceStatus(admin, refused.id, "refused_client");
    assertEquals(await offer(refused.id), {
      "deal-reminder-manual-partner": MAIL_MESSAGES.refusedNothingToDo,
      "deal-reminder-manual-customer": MAIL_MESSAGES.refusedNothingToDo,
      "deal-invoice-customer": MAIL_MESSAGES.noInvoice,
    });
    assertError(
      await admin.post(`/api/deal/send-mail/${refused.id}`, {
        templateName: "deal-reminder-manual-customer",
      }),
      409,
      MAIL_MESSAGES.refusedNothingToDo,
    );
  },
);

httpTest(
  "emails: status changes and payments email each side once; the partner's never show the customer",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await sentDealForCustomer(admin, partner);
    const contact = String(deal.request.email);
    await drainNotifications();
    const { deps } = await testEnv();
    // The partner validated: the team hears of it, once.
    const team = (await emailsFor(deps.config.supportEmail)).filter((m) =>
      m.text_body.includes(`#${deal.id} `)
    );
    assertEquals(team.map((m) => m.template), ["deal-availability-validated"]);

    const partnerBefore = (await emailsFor(PARTNER)).length;
    const customerBefore = (await emailsFor(contact)).length;
    const paid = await admin.post(`/api/deal/${deal.id}/payments`, {
      kind: "total",
      amount: deal.totalTTC / 100,
    });
    assertEquals(paid.status, 200, paid.text);
    await drainNotifications();
    await drainNotifications(); // a second drain finds nothing more
    const toCustomer = (await emailsFor(contact)).slice(customerBefore);
    assertEquals(toCustomer.map((m) => m.template), ["deal-payment-received"]);
    assert(toCustomer[0].text_body.includes("paiement intégral"), toCustomer[0].text_body);
    const toPartner = (await emailsFor(PARTNER)).slice(partnerBefore);
    assertEquals(toPartner.map((m) => m.template), ["deal-payment-received-partner"]);
    // Names a partner always sees (ARCHITECTURE 'Who sees what'); contact details it may not.
    for (const secret of [contact, String(deal.request.phone), String(deal.request.adresse_precise)]) {
      assert(!toPartner[0].text_body.includes(secret), `the partner's payment email hides ${secret}`);
    }
  },
);

httpTest("emails: a refusal tells the other side; an admin's internal reason emails nobody", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  // The customer refuses (refused_client): the partner hears the reason.
  const refusedByClient = await sentDealForCustomer(admin, partner);
  await drainNotifications();
  const before = (await emailsFor(PARTNER)).length;
  await forceStatus(admin, refusedByClient.id, "refused_client");
  await drainNotifications();
  const [notice] = (await emailsFor(PARTNER)).slice(before);
  assertEquals(notice?.template, "deal-refused-partner");
  assert(
    notice.text_body.includes("J'ai choisi un autre prestataire") ||
      notice.text_body.includes("Autre prestataire"),
  );
  assert(!notice.text_body.includes(String(refusedByClient.request.email)));

  // The partner refuses a quote the customer held: the customer is told.
  const refusedByPartner = await sentDealForCustomer(admin, partner);
  await drainNotifications();
  const contact = String(refusedByPartner.request.email);
  const customerBefore = (await emailsFor(contact)).length;
  const refused = await partner.post(`/api/deal/${refusedByPartner.id}/refuse`, {
    reason: "partner_unavailable",
  });
  assertEquals(refused.status, 200, refused.text);
  await drainNotifications();
  assertEquals((await emailsFor(contact)).slice(customerBefore).map((m) => m.template), [
    "deal-refused-customer",
  ]);

  // An admin closes a duplicate: nobody is emailed.
  const duplicate = await dealForPartner(admin);
  await drainNotifications();
  const partnerBefore = (await emailsFor(PARTNER)).length;
  const dupContact = String(duplicate.request.email);
  const dupBefore = (await emailsFor(dupContact)).length;
  dealOf(
    await admin.patch(`/api/deal/${duplicate.id}`, { status: "refused_partner", refusalReason: "duplicate" }),
  );
  await drainNotifications();
  assertEquals((await emailsFor(PARTNER)).length, partnerBefore);
  assertEquals((await emailsFor(dupContact)).length, dupBefore);
});

httpTest("emails: the reminder policy, through the app's ticker and the worker", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin);
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set hubspot_id = 'HS-42' where id = $1", [deal.id]);
  // Sent to the partner: a reminder in 48 hours.
  let rows = await scheduledFor(deal.id);
  assertEquals(rows.map((r) => [r.template, r.is_ready, r.is_sent]), [[
    "deal-reminder-manual-partner",
    false,
    false,
  ]]);
  assert(Math.abs(rows[0].wait - 48 * 3600) < 120, `in 48 h: ${rows[0].wait}`);

  // Not due yet: the ticker leaves it.
  await tick();
  assertEquals((await scheduledFor(deal.id))[0].is_ready, false);

  // Due: the ticker marks it ready, the worker sends it through the outbox, once.
  await makeDue(deal.id, "deal-reminder-manual-partner");
  await systemQuery(
    db,
    'update public.scheduled_emails set data = \'{"hubspotId": "HS-42"}\' where entity_id = $1',
    [
      deal.id,
    ],
  );
  const before = (await emailsFor(PARTNER)).length;
  await tick();
  await tick();
  const reminders = (await emailsFor(PARTNER)).slice(before);
  assertEquals(reminders.map((m) => m.template), ["deal-reminder-manual-partner"]);
  rows = await scheduledFor(deal.id);
  assertEquals(rows.map((r) => [r.template, r.is_ready, r.is_sent]), [[
    "deal-reminder-manual-partner",
    true,
    true,
  ]]);

  // The partner validates: the customer gets 3 days to pay the deposit.
  dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
  rows = (await scheduledFor(deal.id)).filter((r) => !r.is_sent);
  assertEquals(rows.map((r) => r.template), ["deal-reminder-manual-customer"]);
  assert(Math.abs(rows[0].wait - 3 * 86400) < 120, `in 3 days: ${rows[0].wait}`);

  // The deposit is paid before the reminder is due: the reminder is dropped, the invoice email waits
  // for the day after the event.
  await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
    await userIdOf(CUSTOMER),
    deal.id,
  ]);
  const [{ total }] = await systemQuery<{ total: number }>(
    db,
    "select (totals->>'totalTTC')::bigint as total from public.deals where id = $1",
    [deal.id],
  );
  const paid = await admin.post(`/api/deal/${deal.id}/payments`, {
    kind: "deposit",
    amount: Math.floor(Number(total) / 300),
  });
  assertEquals(paid.status, 200, paid.text);
  rows = (await scheduledFor(deal.id)).filter((r) => !r.is_sent);
  assertEquals(rows.map((r) => r.template), ["deal-invoice-customer"]);
  const eventDay = new Date(`${deal.request.deal_prestation_date}T00:00:00Z`).getTime() / 1000;
  const at = Date.now() / 1000 + rows[0].wait;
  assert(at > eventDay + 86400 && at < eventDay + 2 * 86400, "the day after the event");

  // A reminder that no longer applies when it falls due is dropped, not sent.
  const stale = await dealForPartner(admin);
  dealOf(await partner.post(`/api/deal/${stale.id}/validate-availability`));
  await systemQuery(db, "update public.deals set status = 'pay_total' where id = $1", [stale.id]);
  await systemQuery(
    db,
    "insert into public.scheduled_emails (template, entity_id, schedule_at) values ('deal-reminder-manual-partner', $1, now())",
    [stale.id],
  );
  const partnerBefore = (await emailsFor(PARTNER)).length;
  await tick();
  assertEquals((await emailsFor(PARTNER)).length, partnerBefore, "nothing sent");
  assertEquals(
    (await scheduledFor(stale.id)).filter((r) => r.template === "deal-reminder-manual-partner").length,
    0,
    "dropped",
  );
});

httpTest("emails: GET /api/cron/status and POST /api/cron/cleanup, admins only", async () => {
  for (const client of [anonymous(), await loggedIn(CUSTOMER), await loggedIn(PARTNER)]) {
    const expected = client.cookies.size ? 403 : 401;
    assertEquals((await client.get("/api/cron/status")).status, expected);
    assertEquals((await client.post("/api/cron/cleanup")).status, expected);
  }
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin);
  const { db } = await testEnv();
  // One sent 40 days ago (cleaned), one sent 10 days ago (kept), one waiting.
  await systemQuery(
    db,
    `insert into public.scheduled_emails (template, entity_id, schedule_at, created_at, is_ready, is_sent, sent_at)
     values ('deal-invoice-customer', $1, now() - interval '40 days', now() - interval '41 days', true, true, now() - interval '40 days'),
            ('deal-reminder-manual-customer', $1, now() - interval '10 days', now() - interval '11 days', true, true, now() - interval '10 days')`,
    [deal.id],
  );
  const res = await admin.get("/api/cron/status");
  assertEquals(res.status, 200, res.text);
  const json = body(res);
  assertEquals(json.success, true);
  for (const key of ["pending", "ready", "sentToday", "totalSent"]) {
    assertEquals(typeof json.data.stats[key], "number", key);
  }
  assert(json.data.stats.totalSent >= 2);
  const row = json.data.nextCrons.find((r: { entityId: number; isSent: boolean }) =>
    r.entityId === deal.id && !r.isSent
  );
  assertEquals(row.template, "deal-reminder-manual-partner");
  assertEquals(Object.keys(row).sort(), [
    "createdAt",
    "data",
    "entityId",
    "id",
    "isReady",
    "isSent",
    "scheduleAt",
    "template",
    "timeRemaining",
  ]);
  assert(row.timeRemaining > 47 * 3600 && row.timeRemaining <= 48 * 3600, String(row.timeRemaining));
  const times = json.data.nextCrons.map((r: { scheduleAt: number }) => r.scheduleAt);
  assertEquals(times, [...times].sort((a: number, b: number) => a - b), "by scheduleAt ascending");

  const cleaned = await admin.post("/api/cron/cleanup");
  assertEquals(cleaned.status, 200, cleaned.text);
  assertEquals(body(cleaned).success, true);
  assert(typeof body(cleaned).message === "string");
  const left = await systemQuery<{ template: string }>(
    db,
    "select template from public.scheduled_emails where entity_id = $1 order by id",
    [deal.id],
  );
  assertEquals(left.map((r) => r.template), [
    "deal-reminder-manual-partner",
    "deal-reminder-manual-customer",
  ]);

  // The page itself: admins only.
  const page = await admin.get("/dashboard/admin/cron");
  assertEquals(page.status, 200);
  assert(page.text.includes("Gestion des emails programmés (Cron)"));
  assertEquals((await (await loggedIn(PARTNER)).get("/dashboard/admin/cron")).status, 403);
});

httpTest(
  "emails: registration confirmation; an outbox email opens as sandboxed HTML for admins only",
  async () => {
    const payload = registrationPayload();
    const registered = await new Client({ ip: freshIp() }).post("/api/security/registration", payload);
    assertEquals(registered.status, 200, registered.text);
    const { db } = await testEnv();
    const [mail] = await systemQuery<{ id: string; subject: string; html_body: string }>(
      db,
      "select id, subject, html_body from public.email_outbox where recipient = $1 and template = 'account-registration'",
      [payload.email],
    );
    assertEquals(mail.subject, "Bienvenue ! Votre compte est créé");

    const [evil] = await systemQuery<{ id: string }>(
      db,
      `insert into public.email_outbox (recipient, template, subject, text_body, html_body)
     values ('x@example.fr', 'test', 'Piège', 'texte', '<p>Bonjour</p><script>alert(1)</script>') returning id`,
    );
    const path = `/dashboard/admin/emails/${evil.id}/html`;
    const admin = await loggedIn(ADMIN);
    const view = await admin.get(path);
    assertEquals(view.status, 200);
    assert(view.text.includes("<p>Bonjour</p>"));
    const csp = view.headers.get("content-security-policy") ?? "";
    assert(/(^|;\s*)sandbox(;|$)/.test(csp), csp);
    assert(csp.includes("default-src 'none'") && !csp.includes("script-src"), csp);
    assertEquals((await (await loggedIn(CUSTOMER)).get(path)).status, 403);
    assertEquals((await anonymous().get(path)).status, 303);
    const [reset] = await systemQuery<{ id: string }>(
      db,
      `insert into public.email_outbox (recipient, template, subject, text_body) values ('y@example.fr', 'password-reset', 'Lien', 'secret') returning id`,
    );
    assertEquals(
      (await admin.get(`/dashboard/admin/emails/${reset.id}/html`)).status,
      404,
      "reset links stay hidden",
    );
    const list = await admin.get("/dashboard/admin/emails");
    assert(list.text.includes(`/dashboard/admin/emails/${evil.id}/html`));
  },
);
