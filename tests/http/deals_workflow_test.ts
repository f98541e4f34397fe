// The deal workflow through the API with every message of spec 001 §4/§8: send to the partner, the
// cocktail list validation outcomes, validate → send, edit → pending, revalidate → edited, accept (locks
// edits), manual payments, refusals, the admin's direct status change; every action refused outside
// the transition table (409 with the French wrong-status message); the status history (who, the admin
// behind an impersonation, from, to, action); totals recomputed on the server; exact money; the edit
// lock.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { formatEuros } from "../../lib/money.ts";
import {
  ADMIN,
  assertError,
  body,
  CUSTOMER,
  dealForPartner,
  dealOf,
  forceStatus,
  freshIp,
  historyRows,
  type Json,
  loggedIn,
  MSG,
  PARTNER,
  readCatalogue,
  requestDeal,
  setCatalogue,
  SIGNATURE_CATALOGUE,
  statusChanged,
  userIdOf,
  wrongStatus,
} from "./deals_fixtures_test.ts";

/** The deal's pending HubSpot sync (one per deal: changes coalesce), as the deals trigger queued it. */
async function crmSyncs(dealId: number): Promise<Json[]> {
  const { db } = await testEnv();
  return await systemQuery<Json>(
    db,
    "select payload from outbox.jobs where queue = 'crm-sync' and key = $1 and state = 'pending'",
    [`deal-${dealId}`],
  );
}

httpTest("the whole workflow, message by message, from the request to full payment", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const customer = await loggedIn(CUSTOMER);
  const partnerId = await userIdOf(PARTNER);
  const deal = await requestDeal({ client: customer });
  const id = deal.id;

  // Sending needs a partner.
  assertError(await admin.post(`/api/deal/${id}/send-to-partner`), 409, MSG.noPartner);
  const assigned = dealOf(await admin.patch(`/api/deal/${id}`, { company: partnerId }));
  assertEquals(assigned.company.id, partnerId);
  assertEquals(assigned.company.email, PARTNER);
  assertEquals(assigned.status, "start");

  // 'Envoyer le devis au partenaire': start → new, envoi_devis_partenaire = 'oui'.
  const sent = await admin.post(`/api/deal/${id}/send-to-partner`);
  assertEquals(body(sent).message, MSG.sentToPartner);
  assertEquals(dealOf(sent).status, "new");
  assertEquals(dealOf(sent).properties.envoi_devis_partenaire, "oui");
  assertError(await admin.post(`/api/deal/${id}/send-to-partner`), 409, MSG.alreadySent);

  // The cocktail list validation dialog: each outcome, and validation refused until it succeeds.
  const outcome = async (expected: string, message: string) => {
    const v = dealOf(await partner.get(`/api/deal/${id}/cocktail-validation`));
    assertEquals(v.type, expected);
    assertEquals(v.message, message);
    if (expected !== "validation_success") {
      assertError(
        await partner.post(`/api/deal/${id}/validate-availability`),
        409,
        `${message} ${MSG.cocktailHint}`,
      );
    }
    return v;
  };
  dealOf(await partner.patch(`/api/deal/${id}`, { settings: { cocktailListType: null } }));
  await outcome("no_list_selected", "Aucune liste de cocktails n'est choisie pour ce devis.");
  // The partner's catalogue is emptied for a moment, then put back (the test files share the database
  // on PostgreSQL).
  const original = await readCatalogue(admin, partnerId) as Json | null;
  await setCatalogue(admin, partnerId, { signature: [], classic: [], mocktail: [] });
  dealOf(await partner.patch(`/api/deal/${id}`, { settings: { cocktailListType: "signature" } }));
  await outcome("no_cocktails", "Votre liste de cocktails de ce type est vide.");
  dealOf(
    await partner.patch(`/api/deal/${id}`, {
      settings: { cocktailListType: "creation", customCocktails: [] },
    }),
  );
  await outcome(
    "incomplete_creation",
    "La création sur mesure est choisie mais aucun cocktail personnalisé n'est encore décrit pour ce devis.",
  );
  const custom = [{ id: "c1", name: "Création maison", description: "Gin, basilic, concombre" }];
  dealOf(await partner.patch(`/api/deal/${id}`, { settings: { customCocktails: custom } }));
  const created = await outcome(
    "validation_success",
    "Votre liste de cocktails est prête : vous pouvez valider votre disponibilité.",
  );
  assertEquals(created.cocktailListType, "creation");
  assertEquals(created.selectedCocktails, ["c1"]);
  const partnerWrites = await partner.patch(`/api/company/settings/cocktails/${partnerId}`, {
    value: SIGNATURE_CATALOGUE,
  });
  assertEquals(partnerWrites.status, 200, "the partner writes its own catalogue");
  dealOf(await partner.patch(`/api/deal/${id}`, { settings: { cocktailListType: "signature" } }));
  const signature = await outcome(
    "validation_success",
    "Votre liste de cocktails est prête : vous pouvez valider votre disponibilité.",
  );
  assertEquals(signature.selectedCocktails, ["mojito-maison", "spritz-royal"]);
  if (Array.isArray(original?.signature) && original.signature.length > 0) {
    await setCatalogue(admin, partnerId, original);
  }

  // 'Valider ma disponibilité et les cocktails': new → send.
  const validated = await partner.post(`/api/deal/${id}/validate-availability`);
  assertEquals(body(validated).message, MSG.validated);
  assertEquals(dealOf(validated).status, "send");
  assertError(await partner.post(`/api/deal/${id}/validate-availability`), 409, wrongStatus("send"));

  // Editing lines of a quote the customer received: send → pending, the partner must revalidate.
  const edited = await partner.patch(`/api/deal/${id}`, {
    lines: [{ label: "Barman (4 h)", qty: 2, unitCost: "280" }, {
      label: "Cocktails signature",
      qty: 120,
      unitCost: "8,50",
    }],
  });
  assertEquals(body(edited).message, MSG.mustRevalidate);
  assertEquals(dealOf(edited).status, "pending");
  // Editing properties while pending keeps it pending, with the same message.
  const again = await partner.patch(`/api/deal/${id}`, { properties: { nombre_de_participants: 45 } });
  assertEquals(dealOf(again).status, "pending");
  assertEquals(dealOf(again).properties.nombre_de_participants, 45);

  // '(Re)valider ma dispo': pending → edited.
  const revalidated = await partner.post(`/api/deal/${id}/validate-availability`);
  assertEquals(body(revalidated).message, MSG.revalidated);
  assertEquals(dealOf(revalidated).status, "edited");

  // 'Marquer devis accepté' (admin): edited → accepted, edits locked, the CRM phase queued.
  assertError(await partner.post(`/api/deal/${id}/accept`), 403, MSG.notAllowed);
  const accepted = await admin.post(`/api/deal/${id}/accept`);
  // The tests run without a HubSpot token: the message does not claim the CRM was updated.
  assertEquals(body(accepted).message, MSG.acceptedWithoutCrm);
  assertEquals(dealOf(accepted).status, "accepted");
  assertEquals(dealOf(accepted).adminSettings.disableQuoteEdits, true);
  assertEquals((await crmSyncs(id)).map((e) => e.payload), [{ dealId: id }]);
  assertError(await admin.post(`/api/deal/${id}/accept`), 409, wrongStatus("accepted"));
  const locked = await partner.patch(`/api/deal/${id}`, {
    lines: [{ label: "Barman", qty: 1, unitCost: 1 }],
  });
  assertEquals(body(locked).message, MSG.locked);
  assert([403, 409].includes(locked.status), `locked: ${locked.status}`);
  assertError(
    await partner.post(`/api/deal/${id}/refuse`, { reason: "partner_unavailable" }),
    409,
    MSG.locked,
  );

  // Manual payments: amounts must be above 0.
  for (const amount of [0, "0", "0,00", -10, "-10", "abc", "10,001", null]) {
    const res = await admin.post(`/api/deal/${id}/payments`, { kind: "deposit", amount });
    assertError(res, 422, MSG.amountPositive, `amount ${JSON.stringify(amount)}`);
    assertEquals(body(res).errors.amount, MSG.amountPositive, `field message for ${JSON.stringify(amount)}`);
  }
  assertError(
    await admin.post(`/api/deal/${id}/payments`, { kind: "balance", amount: 10 }),
    409,
    wrongStatus("accepted"),
  );
  assertError(
    await partner.post(`/api/deal/${id}/payments`, { kind: "deposit", amount: 10 }),
    403,
    MSG.notAllowed,
  );
  const deposit = await admin.post(`/api/deal/${id}/payments`, { kind: "deposit", amount: "300,50" });
  const afterDeposit = dealOf(deposit);
  // The confirmation names the amount recorded (issue "Invoices…" §3).
  assertEquals(
    body(deposit).message,
    `Acompte de ${formatEuros(30050)} enregistré. ${statusChanged("pay_partial")}`,
  );
  assertEquals(afterDeposit.status, "pay_partial");
  assertEquals(afterDeposit.depositAmount, 300.5);
  assert(
    Math.abs(afterDeposit.depositPaidAt - Date.now() / 1000) < 120,
    "depositPaidAt is now, in unix seconds",
  );
  assertEquals(afterDeposit.paidAt, null);
  assertError(
    await admin.post(`/api/deal/${id}/payments`, { kind: "deposit", amount: 10 }),
    409,
    wrongStatus("pay_partial"),
  );
  assertError(
    await admin.post(`/api/deal/${id}/payments`, { kind: "total", amount: 10 }),
    409,
    wrongStatus("pay_partial"),
  );
  // The balance is exactly the rest (a smaller 'balance' would mark the deal paid while money is due).
  const quoted = Math.round(Number(afterDeposit.totals.totalTTC) * 100);
  const balance = await admin.post(`/api/deal/${id}/payments`, {
    kind: "balance",
    amount: (quoted - 30050) / 100,
  });
  const paid = dealOf(balance);
  assertEquals(
    body(balance).message,
    `Solde de ${formatEuros(quoted - 30050)} enregistré. ${statusChanged("pay_total")}`,
  );
  assertEquals(paid.status, "pay_total");
  assertEquals(paid.totalAmountPaid, quoted / 100, "deposit + balance");
  assertEquals(paid.depositAmount, 300.5);
  assert(paid.paidAt >= paid.depositPaidAt, "paidAt set");
  const { db } = await testEnv();
  const [cents] = await systemQuery<Json>(
    db,
    "select deposit_amount, total_amount_paid from public.deals where id = $1",
    [id],
  );
  assertEquals(
    [Number(cents.deposit_amount), Number(cents.total_amount_paid)],
    [30050, quoted],
    "stored in cents",
  );
  assertError(
    await admin.post(`/api/deal/${id}/payments`, { kind: "balance", amount: 1 }),
    409,
    wrongStatus("pay_total"),
  );

  // The history names every step.
  const history = (await historyRows(id)).map((h) => `${h.from_status ?? "-"}>${h.to_status}:${h.action}`);
  assertEquals(history, [
    "->start:request",
    "start>new:send_to_partner",
    "new>send:validate",
    "send>pending:edit",
    "pending>edited:validate",
    "edited>accepted:accept",
    "accepted>pay_partial:manual_pay_deposit",
    "pay_partial>pay_total:manual_pay_balance",
  ]);
});

httpTest(
  "full payment at once; refusals by the partner, by the admin with and without a customer reason, by the customer",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await loggedIn(CUSTOMER);

    const whole = await dealForPartner(admin);
    const wholeTotal = Number(
      dealOf(await partner.post(`/api/deal/${whole.id}/validate-availability`)).totals.totalTTC,
    );
    const total = await admin.post(`/api/deal/${whole.id}/payments`, {
      kind: "total",
      amount: String(wholeTotal).replace(".", ","),
    });
    assertEquals(
      body(total).message,
      `Paiement intégral de ${formatEuros(Math.round(wholeTotal * 100))} enregistré. ${
        statusChanged("pay_total")
      }`,
    );
    assertEquals(dealOf(total).totalAmountPaid, wholeTotal);
    assertEquals(dealOf(total).depositAmount, null);

    // Partner: refused_partner with one of its reasons (not a customer's).
    const byPartner = await dealForPartner(admin);
    assertError(
      await partner.post(`/api/deal/${byPartner.id}/refuse`, { reason: "budget" }),
      422,
      MSG.reasonRequired,
    );
    const refused = await partner.post(`/api/deal/${byPartner.id}/refuse`, { reason: "partner_unavailable" });
    assertEquals(body(refused).message, MSG.refused);
    assertEquals(dealOf(refused).status, "refused_partner");
    assertEquals(dealOf(refused).refusalReason, "partner_unavailable");
    assertEquals(
      dealOf(refused).refusalBanner,
      "Devis refusé par le partenaire : Partenaire indisponible à cette date",
    );
    assertError(
      await partner.post(`/api/deal/${byPartner.id}/refuse`, { reason: "partner_other" }),
      409,
      wrongStatus("refused_partner"),
    );

    // Admin, a reason shown to customers: refused_client, and the customer reads its customer label.
    const shown = await dealForPartner(admin, PARTNER, { client: customer });
    const r1 = await admin.post(`/api/deal/${shown.id}/refuse`, { reason: "other_provider" });
    assertEquals(body(r1).message, MSG.refused);
    assertEquals(dealOf(r1).status, "refused_client");
    const seen = dealOf(await customer.get(`/api/customer/deal/get/${shown.token}`));
    assertEquals(seen.refusalReason, "other_provider");
    assertEquals(seen.refusalBanner, "Devis refusé par le client : J'ai choisi un autre prestataire");

    // Admin, a reason not shown to customers: refused_partner.
    const hidden = await dealForPartner(admin);
    const r2 = await admin.post(`/api/deal/${hidden.id}/refuse`, { reason: "no_answer" });
    assertEquals(dealOf(r2).status, "refused_partner");
    assertEquals(dealOf(r2).refusalBanner, "Devis refusé par le partenaire : Resté sans réponse");

    // The history keeps the reason.
    const [last] = (await historyRows(hidden.id)).slice(-1);
    assertEquals([last.to_status, last.action, last.reason], ["refused_partner", "refuse", "no_answer"]);

    // The customer refuses their own quote once sent, with a customer reason only.
    const own = await dealForPartner(admin, PARTNER, { client: customer });
    dealOf(await partner.post(`/api/deal/${own.id}/validate-availability`));
    const refuse = `/api/customer/deal/refuse/${own.token}`;
    assertError(await customer.patch(refuse, { refusalReason: "no_answer" }), 422, MSG.reasonRequired);
    const r3 = await customer.patch(refuse, { refusalReason: "event_cancelled" });
    assertEquals(dealOf(r3).status, "refused_client");
    assertEquals(dealOf(r3).refusalBanner, "Devis refusé par le client : L'événement n'aura pas lieu");
  },
);

httpTest(
  "the admin's direct status change: 'Statut mis à jour vers : {label}'; partners only their own moves",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin);
    for (const status of ["pending", "accepted", "win", "start", "send"]) {
      const res = await admin.patch(`/api/deal/${deal.id}`, { status });
      assertEquals(body(res).message, statusChanged(status), status);
      assertEquals(dealOf(res).status, status);
    }
    // The same status again is a no-op: no message, no history row.
    const rows = (await historyRows(deal.id)).length;
    const same = await admin.patch(`/api/deal/${deal.id}`, { status: "send" });
    assertEquals(dealOf(same).status, "send");
    assertEquals(body(same).message, undefined);
    assertEquals((await historyRows(deal.id)).length, rows);
    // A refused status needs a reason.
    const noReason = await admin.patch(`/api/deal/${deal.id}`, { status: "refused_client" });
    assertError(noReason, 422, MSG.reasonRequired);
    // Partners: only their moves through the status dialog.
    for (const status of ["accepted", "win", "pay_total", "new", "start", "edited"]) {
      assertError(
        await partner.patch(`/api/deal/${deal.id}`, { status }),
        409,
        MSG.notAllowed,
        `partner → ${status}`,
      );
    }
    const toPending = await partner.patch(`/api/deal/${deal.id}`, {
      status: "refused_partner",
      refusalReason: "partner_too_far",
    });
    assertEquals(dealOf(toPending).status, "refused_partner");
    assertEquals(body(toPending).message, MSG.refused);
    const history = (await historyRows(deal.id)).map((h) =>
      `${h.from_status}>${h.to_status}:${h.action}:${h.actor_role}`
    );
    assertEquals(history.slice(2), [
      "new>pending:set_status:Admin",
      "pending>accepted:set_status:Admin",
      "accepted>win:set_status:Admin",
      "win>start:set_status:Admin",
      "start>send:set_status:Admin",
      "send>refused_partner:refuse:Company",
    ]);
  },
);

httpTest(
  "every action is refused outside the transition table, with the French wrong-status message",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const customer = await loggedIn(CUSTOMER);
    const deal = await dealForPartner(admin, PARTNER, { client: customer });
    const id = deal.id;
    const attempt = async (from: string, who: string, client: Client, path: string, payload?: Json) => {
      await forceStatus(admin, id, from);
      // Admin's forced moves never lock: clear any lock left by an earlier step.
      dealOf(await admin.patch(`/api/deal/${id}`, { adminSettings: { disableQuoteEdits: false } }));
      const res = await client.post(`/api/deal/${id}/${path}`, payload);
      assertError(res, 409, wrongStatus(from), `${who} ${path} from ${from}:`);
      const after = dealOf(await admin.get(`/api/deal/get/${id}`));
      assertEquals(after.status, from, `${who} ${path} from ${from} changed nothing`);
    };
    for (
      const from of [
        "send",
        "edited",
        "accepted",
        "pay_partial",
        "pay_total",
        "win",
        "refused_client",
        "refused_partner",
      ]
    ) {
      await attempt(from, "partner", partner, "validate-availability");
    }
    for (const from of ["new", "pending", "pay_partial", "pay_total", "win", "refused_partner"]) {
      await attempt(from, "admin", admin, "accept");
    }
    for (const from of ["start", "new", "pending", "pay_partial", "pay_total", "win", "refused_client"]) {
      await attempt(from, "admin", admin, "payments", { kind: "deposit", amount: 100 });
      await attempt(from, "admin", admin, "payments", { kind: "total", amount: 100 });
    }
    for (const from of ["start", "new", "send", "edited", "accepted", "pay_total", "refused_partner"]) {
      await attempt(from, "admin", admin, "payments", { kind: "balance", amount: 100 });
    }
    for (const from of ["accepted", "pay_partial", "pay_total", "win", "refused_client", "refused_partner"]) {
      await attempt(from, "partner", partner, "refuse", { reason: "partner_unavailable" });
    }
    for (const from of ["pay_partial", "pay_total", "win", "refused_client", "refused_partner"]) {
      await attempt(from, "admin", admin, "refuse", { reason: "no_answer" });
    }
    // The customer refuses through their API (the back office's refuse is not theirs).
    for (const from of ["accepted", "pay_partial", "pay_total", "win", "refused_client", "refused_partner"]) {
      await forceStatus(admin, id, from);
      const res = await customer.patch(`/api/customer/deal/refuse/${deal.token}`, {
        refusalReason: "budget",
      });
      assertError(res, 409, wrongStatus(from), `customer refuse from ${from}:`);
      assertEquals(
        dealOf(await admin.get(`/api/deal/get/${id}`)).status,
        from,
        `customer refuse from ${from}`,
      );
    }
    // send-to-partner from anything but 'start' (never sent by the button: the status was forced).
    const fresh = await dealForPartner(admin, PARTNER, { send: false });
    for (const from of ["send", "accepted", "refused_partner"]) {
      await forceStatus(admin, fresh.id, from);
      assertError(await admin.post(`/api/deal/${fresh.id}/send-to-partner`), 409, wrongStatus(from), from);
    }
    // Partner edits outside an open quote.
    for (const from of ["accepted", "pay_total", "refused_partner"]) {
      await forceStatus(admin, id, from);
      dealOf(await admin.patch(`/api/deal/${id}`, { adminSettings: { disableQuoteEdits: false } }));
      const res = await partner.patch(`/api/deal/${id}`, {
        lines: [{ label: "Barman", qty: 1, unitCost: 100 }],
      });
      assertError(res, 409, wrongStatus(from), `partner edits lines in ${from}`);
    }
  },
);

httpTest(
  "the status history records who acted, the admin behind an impersonation, from, to and the action",
  async () => {
    const admin = await loggedIn(ADMIN);
    const adminId = await userIdOf(ADMIN);
    const partnerId = await userIdOf(PARTNER);
    const deal = await dealForPartner(admin);
    const impersonator = new Client({ ip: freshIp() });
    await impersonator.login(ADMIN);
    assertEquals((await impersonator.request("POST", `/admin/switch/${partnerId}`)).status, 303);
    const validated = await impersonator.post(`/api/deal/${deal.id}/validate-availability`);
    assertEquals(body(validated).message, MSG.validated);
    const edit = await impersonator.patch(`/api/deal/${deal.id}`, {
      lines: [{ label: "Barman", qty: 1, unitCost: 300 }],
    });
    assertEquals(body(edit).message, MSG.mustRevalidate);

    const rows = await historyRows(deal.id);
    assertEquals(rows.map((h) => [h.from_status, h.to_status, h.action]), [
      [null, "start", "request"],
      ["start", "new", "send_to_partner"],
      ["new", "send", "validate"],
      ["send", "pending", "edit"],
    ]);
    assertEquals([rows[1].actor_id, rows[1].impersonator_id, rows[1].actor_role], [adminId, null, "Admin"]);
    for (const row of rows.slice(2)) {
      assertEquals(
        [row.actor_id, row.impersonator_id, row.actor_role],
        [partnerId, adminId, "Company"],
        row.action,
      );
    }
    // The API's history: the partner's name, and that an admin acted for it.
    const api = dealOf(await admin.get(`/api/deal/${deal.id}/history`)) as unknown as Json[];
    assertEquals(api.map((h) => [h.fromStatus, h.toStatus, h.action, h.actorRole, h.impersonated]), [
      [null, "start", "request", "service_role", false],
      ["start", "new", "send_to_partner", "Admin", false],
      ["new", "send", "validate", "Company", true],
      ["send", "pending", "edit", "Company", true],
    ]);
    assertEquals(api[1].actorName, "Alice Martin");
    assertEquals(api[2].actorName, "Paul Durand");
  },
);

httpTest("a manual payment's history row names the admin who recorded it", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const adminId = await userIdOf(ADMIN);
  const deal = await dealForPartner(admin);
  const quoted = Number(
    dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`)).totals.totalTTC,
  );
  dealOf(await admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: 100 }));
  dealOf(await admin.post(`/api/deal/${deal.id}/payments`, { kind: "balance", amount: quoted - 100 }));
  const rows = (await historyRows(deal.id)).slice(-2);
  assertEquals(
    rows.map((h) => [h.from_status, h.to_status, h.action, h.actor_id, h.actor_role]),
    [
      ["send", "pay_partial", "manual_pay_deposit", adminId, "Admin"],
      ["pay_partial", "pay_total", "manual_pay_balance", adminId, "Admin"],
    ],
  );
  const api = (dealOf(await admin.get(`/api/deal/${deal.id}/history`)) as unknown as Json[]).slice(-1);
  assertEquals(api[0].actorName, "Alice Martin", "the API's history names the admin");
});

httpTest("a manual payment never exceeds what the quote still asks", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin);
  const sent = dealOf(await partner.post(`/api/deal/${deal.id}/validate-availability`));
  const total = Number(sent.totals.totalTTC);
  const due = (euros: number) =>
    `Le montant dépasse le reste à payer du devis (${formatEuros(Math.round(euros * 100))}).`;
  assertError(
    await admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: 99_999 }),
    422,
    due(total),
  );
  assertEquals(dealOf(await admin.get(`/api/deal/get/${deal.id}`)).status, "send", "nothing recorded");
  dealOf(await admin.post(`/api/deal/${deal.id}/payments`, { kind: "deposit", amount: 100 }));
  assertError(
    await admin.post(`/api/deal/${deal.id}/payments`, { kind: "balance", amount: total }),
    422,
    due(total - 100),
  );
  const paid = dealOf(
    await admin.post(`/api/deal/${deal.id}/payments`, { kind: "balance", amount: total - 100 }),
  );
  assertEquals([paid.status, paid.totalAmountPaid], ["pay_total", total]);
});

httpTest("totals are recomputed on the server from the lines; a client-sent total is ignored", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin);
  const res = await partner.patch(`/api/deal/${deal.id}`, {
    lines: [
      { label: "Barman", qty: 2, unitCost: 280, totalCost: 1, totalCostVat: 1 },
      { label: "Cocktails", qty: 100, unitCost: "8,50", totalCost: 99999 },
    ],
    totals: { totalCost: 1, totalTTC: 1, totalInvoiceByPartner: 1 },
    totalHt: 1,
  });
  const saved = dealOf(res);
  assertEquals(saved.lines.map((l: Json) => [l.label, l.qty, l.unitCost, l.totalCost]), [
    ["Barman", 2, 280, 560],
    ["Cocktails", 100, 8.5, 850],
  ]);
  const vat = saved.parameters.vat;
  const rate = saved.parameters.commissionRate;
  const totalCost = 141000;
  const fee = Math.round((totalCost * rate * 100) / 10000);
  const partnerTotal = totalCost + Math.round(fee / 2);
  const vatAmount = Math.round((partnerTotal * vat * 100) / 10000);
  assertEquals(saved.totals.totalCost, 1410);
  assertEquals(saved.totals.managementFee, fee / 100);
  assertEquals(saved.totals.totalInvoiceByPartner, partnerTotal / 100);
  assertEquals(saved.totals.vatAmount, vatAmount / 100);
  assertEquals(saved.totals.totalTTC, (partnerTotal + vatAmount) / 100);
  assertEquals(saved.lines[0].totalCostVat, (56000 + Math.round(56000 * vat / 100)) / 100);
  const { db } = await testEnv();
  const [row] = await systemQuery<Json>(db, "select total_ht, totals from public.deals where id = $1", [
    deal.id,
  ]);
  assertEquals(Number(row.total_ht), partnerTotal, "the list's column follows");
  assertEquals(row.totals.totalCost, totalCost, "stored in cents");
});

httpTest("money is exact: '8,50', 8.5 and '8.50' are 850 cents; three decimals are refused", async () => {
  const admin = await loggedIn(ADMIN);
  const deal = await dealForPartner(admin);
  const { db } = await testEnv();
  for (const unitCost of ["8,50", 8.5, "8.50", " 8,5 ", "8.5"]) {
    const saved = dealOf(
      await admin.patch(`/api/deal/${deal.id}`, { lines: [{ label: "Cocktail", qty: 3, unitCost }] }),
    );
    assertEquals(saved.lines[0].unitCost, 8.5, JSON.stringify(unitCost));
    assertEquals(saved.lines[0].totalCost, 25.5, JSON.stringify(unitCost));
    const [row] = await systemQuery<Json>(db, "select lines from public.deals where id = $1", [deal.id]);
    assertEquals(row.lines[0].unitCost, 850, `${JSON.stringify(unitCost)} stored as 850 cents`);
    assertEquals(row.lines[0].totalCost, 2550);
  }
  // 0.1 + 0.2 style sums stay exact.
  const sum = dealOf(
    await admin.patch(`/api/deal/${deal.id}`, {
      lines: [{ label: "A", qty: 1, unitCost: 0.1 }, { label: "B", qty: 1, unitCost: 0.2 }],
    }),
  );
  assertEquals(sum.totals.totalCost, 0.3);
  for (const unitCost of ["8,505", 8.505, "8.501", "1e3", "huit"]) {
    const res = await admin.patch(`/api/deal/${deal.id}`, {
      lines: [{ label: "Cocktail", qty: 1, unitCost }],
    });
    assertError(res, 422, MSG.invalid, JSON.stringify(unitCost));
  }
  const amount = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
  assertEquals(amount.totals.totalCost, 0.3, "refused edits changed nothing");
});

httpTest(
  "the edit lock refuses the partner's lines, properties, description and map, never the admin's",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin);
    const map = '<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12" width="600"></iframe>';
    // Unlocked, the partner edits each of them.
    const described = dealOf(
      await partner.patch(`/api/deal/${deal.id}`, { description: "<p>Notre bar</p>", map }),
    );
    assertEquals(described.description, "<p>Notre bar</p>");
    assertEquals(described.mapUrl, "https://www.google.com/maps/embed?pb=!1m18!1m12");
    assert(described.map.startsWith('<iframe src="https://www.google.com/maps/embed?pb='), described.map);

    const locked = dealOf(
      await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { disableQuoteEdits: true } }),
    );
    assertEquals(locked.adminSettings.disableQuoteEdits, true);
    for (
      const patch of [
        { lines: [{ label: "Barman", qty: 1, unitCost: 1 }] },
        { lines: [] },
        { properties: { nombre_de_participants: 10 } },
        { description: "<p>Autre</p>" },
        { map: "" },
        { map },
      ] as Json[]
    ) {
      const res = await partner.patch(`/api/deal/${deal.id}`, patch);
      assert([403, 409].includes(res.status), `${JSON.stringify(patch)}: ${res.status}`);
      assertEquals(body(res).message, MSG.locked, JSON.stringify(patch));
    }
    const unchanged = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
    assertEquals(unchanged.description, "<p>Notre bar</p>");
    assertEquals(unchanged.lines, described.lines);
    // The deal's settings (deposit, cocktails) are part of the locked quote too (issue "Quotes and
    // payments, second pass" §3; tests/http/deal_lock_test.ts).
    const deposit = await partner.patch(`/api/deal/${deal.id}`, {
      settings: { hasDeposit: true, depositPercentage: 40 },
    });
    assertEquals([deposit.status, body(deposit).message], [409, MSG.locked], "the deposit is locked");
    // The admin edits everything while locked.
    const byAdmin = dealOf(
      await admin.patch(`/api/deal/${deal.id}`, {
        lines: [{ label: "Barman", qty: 1, unitCost: 350 }],
        properties: { nombre_de_participants: 70 },
        description: "<p>Par l'admin</p>",
        map: "",
      }),
    );
    assertEquals(byAdmin.lines.map((l: Json) => l.unitCost), [350]);
    assertEquals(byAdmin.properties.nombre_de_participants, 70);
    assertEquals(byAdmin.description, "<p>Par l'admin</p>");
    assertEquals(byAdmin.mapUrl, null);
    assertEquals(byAdmin.status, "new", "the admin's edit of a quote not yet sent keeps its status");
    // Unlocked again, the partner edits.
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { disableQuoteEdits: false } }));
    assertEquals(
      dealOf(await partner.patch(`/api/deal/${deal.id}`, { description: "<p>Libre</p>" })).description,
      "<p>Libre</p>",
    );
  },
);

httpTest(
  "a partner may still validate its availability on a quote whose edits the admin locked",
  async () => {
    const admin = await loggedIn(ADMIN);
    const partner = await loggedIn(PARTNER);
    const deal = await dealForPartner(admin);
    dealOf(await admin.patch(`/api/deal/${deal.id}`, { adminSettings: { disableQuoteEdits: true } }));
    const res = await partner.post(`/api/deal/${deal.id}/validate-availability`);
    // Validating is not an edit (spec 001 §4 locks description, photos, map, lines and properties):
    // either it is allowed, or refused with the lock's message — never the generic 403.
    if (res.status !== 200) {
      assertError(res, 409, MSG.locked, "validate on a locked deal:");
    } else {
      assertEquals(dealOf(res).status, "send");
    }
  },
);

httpTest("admin-only fields: a partner's PATCH is refused 403 and changes nothing", async () => {
  const admin = await loggedIn(ADMIN);
  const partner = await loggedIn(PARTNER);
  const deal = await dealForPartner(admin);
  const partner2Id = await userIdOf("partenaire2@example.fr");
  const before = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
  const fields: Json = {
    company: partner2Id,
    adminSettings: { showEmailForPartner: true },
    adminComments: "Moi-même",
    adminDescription: "<p>Moi</p>",
    customField1: "<p>1</p>",
    customField2: "<p>2</p>",
    parameters: { commissionRate: 0 },
    name: "Renommé",
    hubspotId: "HS-1",
  };
  for (const [field, value] of Object.entries(fields)) {
    assertError(await partner.patch(`/api/deal/${deal.id}`, { [field]: value }), 403, MSG.notAllowed, field);
    // Even mixed with a field the partner may change.
    assertError(
      await partner.patch(`/api/deal/${deal.id}`, { description: "<p>x</p>", [field]: value }),
      403,
      MSG.notAllowed,
      field,
    );
  }
  const after = dealOf(await admin.get(`/api/deal/get/${deal.id}`));
  for (
    const key of [
      "company",
      "adminSettings",
      "adminComments",
      "adminDescription",
      "customField1",
      "customField2",
      "parameters",
      "name",
      "hubspotId",
      "description",
    ]
  ) {
    assertEquals(after[key], before[key], key);
  }
  // The admin changes them all.
  const byAdmin = dealOf(await admin.patch(`/api/deal/${deal.id}`, { ...fields, company: deal.partnerId }));
  assertEquals([byAdmin.name, byAdmin.hubspotId, byAdmin.adminComments], ["Renommé", "HS-1", "Moi-même"]);
  assertEquals([byAdmin.customField1, byAdmin.customField2, byAdmin.adminDescription], [
    "<p>1</p>",
    "<p>2</p>",
    "<p>Moi</p>",
  ]);
  assertEquals(byAdmin.parameters.commissionRate, 0);
  assertEquals(byAdmin.adminSettings.showEmailForPartner, true);
  // Rich texts are sanitised.
  const clean = dealOf(
    await admin.patch(`/api/deal/${deal.id}`, {
      adminDescription: '<p onclick="x()">a<script>alert(1)</script></p>',
    }),
  );
  assertEquals(clean.adminDescription, "<p>a</p>");
});
