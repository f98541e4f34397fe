// Personal data a customer controls (issue "Invoices…" §2): the export (GET /api/user/export, the
// 'Télécharger mes données' button, the privacy page) and the erasure after the 14-day grace (every
// copy of the name, email and phone anonymised except in issued invoices). The erasure test comes last:
// it erases the demo customer the export tests read.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { systemQuery, TEST_SYSTEM, transactionAs } from "../support/db.ts";

const CUSTOMER = "client@example.fr";
const CUSTOMER2 = "client2@example.fr";
const PARTNER = "partenaire@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function loggedIn(email: string): Promise<Client> {
  const client = new Client();
  await client.login(email);
  return client;
}

async function userRow(email: string): Promise<Json> {
  const { db } = await testEnv();
  const [row] = await systemQuery<Json>(
    db,
    "select id, email, firstname, lastname, phone, address1, name, siren from public.users where email = $1",
    [email],
  );
  assert(row, email);
  return row;
}

async function exportOf(client: Client) {
  const res = await client.get("/api/user/export");
  assertEquals(res.status, 200, res.text);
  return res;
}

httpTest("GET /api/user/export: anonymous gets 401 in French", async () => {
  const res = await new Client().get("/api/user/export");
  assertEquals(res.status, 401);
  assertEquals(res.json().message, "Veuillez vous connecter pour continuer.");
});

httpTest("a customer's export is a JSON download of their data, never cached", async () => {
  const { db } = await testEnv();
  const me = await userRow(CUSTOMER);
  await systemQuery(
    db,
    `insert into public.email_outbox (recipient, template, subject, text_body, status, sent_at)
     values ($1, 'deal-quote-ready', 'Votre devis est prêt', 'Bonjour, votre devis est prêt.', 'sent', now())`,
    [CUSTOMER],
  );
  const client = await loggedIn(CUSTOMER);
  const [deal] = await systemQuery<{ id: number }>(
    db,
    "select id from public.deals where customer_id = $1 and status <> 'start' order by id limit 1",
    [me.id],
  );
  const posted = await client.post("/api/chat/messages", {
    entityId: Number(deal.id),
    entityType: "DealCompany",
    text: "Bonjour, une question sur le devis.",
  });
  assertEquals(posted.status, 200, posted.text);
  const res = await exportOf(client);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertMatch(
    res.headers.get("content-disposition") ?? "",
    /^attachment; filename="mes-donnees-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  assertMatch(res.contentType, /^application\/json/);
  const data = res.json<Json>();
  assertEquals(data.profile.email, CUSTOMER);
  assertEquals(data.profile.id, me.id);
  const dealIds = (await systemQuery<{ id: number }>(
    db,
    "select id from public.deals where customer_id = $1 order by created_at, id",
    [me.id],
  )).map((r) => Number(r.id));
  assert(dealIds.length > 0, "the demo customer has deals");
  assertEquals(data.deals.map((d: Json) => Number(d.id)), dealIds);
  // Each deal with its contact as stored (the demo's carry the customer's own address; a deal made for
  // them by someone else may name another contact).
  assert(
    data.deals.every((d: Json) => d.contact === null || typeof d.contact.email === "string"),
    `each deal's contact: ${JSON.stringify(data.deals.map((d: Json) => [d.id, d.contact?.email]))}`,
  );
  assert(data.deals.some((d: Json) => d.contact?.email === CUSTOMER), "the customer's own contact");
  const withChat = data.deals.find((d: Json) => Number(d.id) === Number(deal.id));
  assertEquals(withChat.messages.at(-1).text, "Bonjour, une question sur le devis.");
  assertEquals(withChat.messages.at(-1).mine, true);
  const cgu = data.consents.find((c: Json) => c.kind === "cgu");
  assert(cgu && "date" in cgu, "the CGU consent and its date");
  assert(data.consents.some((c: Json) => c.kind === "newsletter"), "the newsletter choice");
  assert(
    data.vouchers.bought.length > 0 && data.vouchers.received.length > 0,
    "vouchers bought and received",
  );
  assert(data.documents.length > 0, "documents");
  for (const doc of data.documents) {
    assertMatch(doc.url, /^\/quote\/invoice\/[0-9a-f-]{36}$/);
    assert(["FA", "AV", "RE"].includes(doc.series), doc.series);
  }
  // The link downloads the document with the customer's own rights.
  const pdf = await (await loggedIn(CUSTOMER)).get(data.documents[0].url);
  assertEquals(pdf.status, 200);
  assert(data.payments.length > 0, "payments");
  const email = data.emails.find((e: Json) => e.subject === "Votre devis est prêt");
  assertEquals([email?.template, email?.text], ["deal-quote-ready", "Bonjour, votre devis est prêt."]);
  assert(data.emails.every((e: Json) => e.recipient === CUSTOMER), "only emails sent to them");
  assert(!("sealed_body" in (email ?? {})) && !("sealedBody" in (email ?? {})), "never the sealed copy");
});

httpTest("a customer's export holds nothing of another customer, the partner or the admins", async () => {
  const { db } = await testEnv();
  const me = await userRow(CUSTOMER);
  const other = await userRow(CUSTOMER2);
  const partner = await userRow(PARTNER);
  // Admin-only notes on the customer's own deals, another customer's email.
  await systemQuery(
    db,
    `update public.deals set admin_comments = 'NOTE-ADMIN-SECRETE', admin_description = 'DESCRIPTION-ADMIN-SECRETE',
       custom_field_1 = 'CHAMP-ADMIN-SECRET' where customer_id = $1`,
    [me.id],
  );
  await systemQuery(
    db,
    `insert into public.email_outbox (recipient, template, subject, text_body, status, sent_at)
     values ($1, 'deal-quote-ready', 'Pour client2', 'EMAIL-DE-CLIENT2', 'sent', now())`,
    [CUSTOMER2],
  );
  // What others wrote in the customer's own chats is theirs to read (the chat shows it): the scan leaves
  // those messages out, whatever other tests sharing the database posted there.
  const exported = (await exportOf(await loggedIn(CUSTOMER))).json<Json>();
  const text = JSON.stringify({
    ...exported,
    deals: exported.deals.map((d: Json) => ({ ...d, messages: d.messages.filter((m: Json) => m.mine) })),
  });
  const otherTokens = await systemQuery<{ token: string }>(
    db,
    "select token from public.deals where customer_id = $1",
    [other.id],
  );
  const forbidden = [
    CUSTOMER2,
    other.phone,
    other.address1,
    "EMAIL-DE-CLIENT2",
    "NOTE-ADMIN-SECRETE",
    "DESCRIPTION-ADMIN-SECRETE",
    "CHAMP-ADMIN-SECRET",
    partner.email,
    partner.phone,
    partner.siren,
    ...otherTokens.map((t) => t.token),
  ].filter((s): s is string => typeof s === "string" && s.length > 0);
  assert(otherTokens.length > 0, "client2 has deals to leak");
  for (const s of forbidden) {
    const at = text.indexOf(s);
    assert(at < 0, `the export leaks ${s}: …${text.slice(Math.max(0, at - 300), at + 100)}…`);
  }
});

httpTest("a partner's export has its own data, not its customers'", async () => {
  const { db } = await testEnv();
  const partner = await userRow(PARTNER);
  const data = (await exportOf(await loggedIn(PARTNER))).json<Json>();
  assertEquals([data.profile.email, data.profile.siren], [PARTNER, partner.siren]);
  const own = await systemQuery<{ id: number }>(
    db,
    "select id from public.deals where company_id = $1 and status <> 'start'",
    [partner.id],
  );
  assert(own.length > 0);
  assertEquals(data.deals.length, own.length);
  assert(data.deals.every((d: Json) => d.role === "Company" && d.contact === null), "no customer contact");
  for (const deal of data.deals) {
    assert(deal.messages.every((m: Json) => m.mine), "only the partner's own messages");
  }
  assert(data.documents.every((d: Json) => ["CO", "CA"].includes(d.series)), "its commission documents only");
  const text = JSON.stringify(data);
  for (const s of [CUSTOMER, CUSTOMER2, "+33600000004", "+33600000005"]) {
    assert(!text.includes(s), `the partner's export leaks ${s}`);
  }
});

httpTest(
  "'Mon profil' offers 'Télécharger mes données'; the privacy page lists rights and retention",
  async () => {
    const profile = await (await loggedIn(CUSTOMER)).get("/dashboard/profil");
    assertEquals(profile.status, 200);
    assert(profile.text.includes("Télécharger mes données"), "the button");
    assert(profile.text.includes('href="/api/user/export"'), "its link");
    const privacy = await new Client().get("/politique-de-confidentialite");
    assertEquals(privacy.status, 200);
    for (
      const s of [
        "Droit d'accès et de portabilité",
        "Droit de rectification",
        "Droit à l'effacement",
        "Droit d'opposition",
        "Télécharger mes données",
        "Supprimer mon compte",
        "contact@example.fr",
        "L123-22",
        "90 jours",
        "30 jours",
        "14 jours",
      ]
    ) {
      assert(
        privacy.text.includes(s.replaceAll("'", "&#39;")) || privacy.text.includes(s),
        `privacy page: ${s}`,
      );
    }
  },
);

/** Every text, JSON and array column of every table (public, outbox, identity) but the billing
 * documents, searched for each string; returns "table.column: string" for each hit. */
async function tracesOf(needles: string[]): Promise<string[]> {
  const { db } = await testEnv();
  const columns = await systemQuery<{ schema: string; table: string; column: string }>(
    db,
    `select n.nspname as schema, c.relname as table, a.attname as column
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname in ('public', 'outbox', 'identity') and a.attnum > 0
       and not a.attisdropped
       and format_type(a.atttypid, a.atttypmod) in ('text', 'jsonb', 'json', 'text[]', 'character varying')
       and c.relname not in ('invoices', 'invoice_counters')
     order by 1, 2, 3`,
  );
  assert(columns.length > 50, "the scan sees the schema");
  const patterns = needles.map((s) => `%${s}%`);
  const hits: string[] = [];
  for (const { schema, table, column } of columns) {
    const rows = await systemQuery<{ value: string }>(
      db,
      `select "${column}"::text as value from "${schema}"."${table}" where "${column}"::text ilike any($1::text[])`,
      [patterns],
    );
    for (const row of rows) {
      const found = needles.filter((s) => row.value.toLowerCase().includes(s.toLowerCase()));
      hits.push(`${schema}.${table}.${column}: ${found.join(", ")}`);
    }
  }
  return hits;
}

httpTest(
  "after the grace period, no trace of the customer's name, email or phone remains but in invoices",
  async () => {
    const { db } = await testEnv();
    const me = await userRow(CUSTOMER);
    const needles = [
      CUSTOMER,
      `${me.firstname} ${me.lastname}`,
      me.lastname,
      me.phone,
      "0600000004",
      "06 00 00 00 04",
    ];
    // Activity that copies the customer's identity: a quote request as them (contact, deal name, emails),
    // a chat message, 16 emails sent to them with their full text, an email to the partner quoting them.
    const client = await loggedIn(CUSTOMER);
    const requested = await client.post("/api/deal/request", {
      type_d_evenement: "Anniversaire",
      deal_prestation_date: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
      horaire_souhaite: "19:30",
      nombre_de_participants: 30,
      duree_2_service: 180,
      ville: "Lyon",
      adresse_precise: "3 place Bellecour, 69002 Lyon",
      distance_en_km: 5,
      bar_mobile: false,
      type_de_recette: "classic",
      creation_de_recette: false,
      description: `Anniversaire de ${me.firstname} ${me.lastname}, joignable au 06 00 00 00 04.`,
      firstname: me.firstname,
      lastname: me.lastname,
      email: CUSTOMER,
      phone: "06 00 00 00 04",
      consent: true,
    });
    assertEquals(requested.status, 200, requested.text);
    const [chatDeal] = await systemQuery<{ id: number }>(
      db,
      `select d.id from public.deals d where d.customer_id = $1 and d.status <> 'start'
         and exists (select from public.chat_messages m where m.deal_id = d.id and m.author_id = $1)
       order by d.id limit 1`,
      [me.id],
    );
    assert(chatDeal, "a deal whose chat the customer wrote in");
    const posted = await client.post("/api/chat/messages", {
      entityId: Number(chatDeal.id),
      entityType: "DealCompany",
      text: `Ici ${me.firstname} ${me.lastname}, mon numéro : 06 00 00 00 04`,
    });
    assertEquals(posted.status, 200, posted.text);
    for (let i = 1; i <= 16; i++) {
      await systemQuery(
        db,
        `insert into public.email_outbox (recipient, template, subject, text_body, html_body, status, sent_at)
         values ($1, 'deal-quote-ready', $2, $3, $4, 'sent', now())`,
        [
          CUSTOMER,
          `Votre devis n°${i}`,
          `Bonjour ${me.firstname} ${me.lastname}, votre devis ${i}.`,
          `<p>Bonjour ${me.firstname} ${me.lastname}</p>`,
        ],
      );
    }
    await systemQuery(
      db,
      `insert into public.email_outbox (recipient, template, subject, text_body, status, sent_at)
       values ($1, 'new-deal-partner', $2, $3, 'sent', now())`,
      [
        PARTNER,
        `Nouvelle demande : Anniversaire – ${me.lastname}`,
        `Client : ${me.firstname} ${me.lastname}, ${CUSTOMER}, ${me.phone}. Rappelez-la vite.`,
      ],
    );
    const invoicesBefore = await systemQuery<{ id: string; document: string }>(
      db,
      "select id, document::text as document from public.invoices where document::text ilike $1 order by id",
      [`%${me.lastname}%`],
    );
    assert(invoicesBefore.length > 0, "the customer has issued invoices");
    assert((await tracesOf(needles)).length > 10, "the traces exist before");
    assertEquals((await client.delete("/api/user/delete")).status, 200);
    await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) => tx`update public.users set deleted_at = now() - interval '15 days' where id = ${me.id}`,
    );
    const [{ purged }] = await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) => tx<{ purged: number }>`select public.purge_deleted_accounts() as purged`,
    );
    assert(Number(purged) >= 1);
    const left = await tracesOf(needles);
    assertEquals(left.slice(0, 30), [], `no trace left outside the invoices (${left.length})`);
    const sentToThem = await systemQuery<{ n: number }>(
      db,
      "select count(*)::int as n from public.email_outbox where subject like 'Votre devis n°%'",
    );
    assertEquals(sentToThem[0].n, 0, "the 16 emails sent to them are gone");
    const [partnerEmail] = await systemQuery<{ subject: string; text: string }>(
      db,
      "select subject, text_body as text from public.email_outbox where template = 'new-deal-partner' and recipient = $1",
      [PARTNER],
    );
    assertEquals(partnerEmail.subject, "Nouvelle demande : Anniversaire – [anonymisé]");
    assertEquals(partnerEmail.text, "Client : [anonymisé], [anonymisé], [anonymisé]. Rappelez-la vite.");
    const [deal] = await systemQuery<{ name: string; description: string }>(
      db,
      "select name, properties::text as description from public.deals where token = $1",
      [String(requested.json<Json>().results.token)],
    );
    assert(deal.name.includes("[anonymisé]") && deal.name.startsWith("Anniversaire"), deal.name);
    assert(
      deal.description.includes("Anniversaire de [anonymisé], joignable au [anonymisé]."),
      deal.description,
    );
    const [author] = await systemQuery<{ author: string }>(
      db,
      "select author_name as author from public.chat_messages where author_id = $1 order by id desc limit 1",
      [me.id],
    );
    assertEquals(author.author, "Compte supprimé");
    const invoicesAfter = await systemQuery<{ id: string; document: string }>(
      db,
      "select id, document::text as document from public.invoices where id = any($1::uuid[]) order by id",
      [invoicesBefore.map((i) => i.id)],
    );
    assertEquals(invoicesAfter, invoicesBefore, "issued invoices stay as they are");
  },
);
