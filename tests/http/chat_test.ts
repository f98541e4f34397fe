// The deal chat (issue 13): who reads and writes (every role, the three paths), what is refused, the
// live stream (catch-up, logout, lost right), notifications from the database, the unread digest, and
// on PostgreSQL delivery across two app instances.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { createApp } from "../../routes/_app.tsx";
import { openPostgres } from "../../lib/db/postgres.ts";
import { sendChatDigests } from "../../lib/chat/use_cases/send_digests.ts";
import { chatHubOf } from "../../lib/chat/hub.ts";
import { type ChatMessage, MESSAGE_MAX_LENGTH, MESSAGES_PER_MINUTE } from "../../lib/chat/rules.ts";
import type { Hono } from "hono";
import type { AppEnv } from "../../lib/http/context.ts";

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

async function userId(email: string): Promise<string> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    email,
  ]);
  return row.id;
}

/** A deal of client@ and partenaire@ in 'send', with the partner's chat flags as given. */
async function newDeal(flags: Record<string, boolean> = {}): Promise<number> {
  const { db } = await testEnv();
  const [row] = await systemQuery<{ id: number }>(
    db,
    `insert into public.deals (name, status, customer_id, company_id, admin_settings, totals)
     values ('Chat test', 'send', $1, $2, $3, '{"totalTTC": 100000}') returning id`,
    [await userId("client@example.fr"), await userId("partenaire@example.fr"), flags],
  );
  return row.id;
}

const clients = new Map<string, Promise<Client>>();
/** One signed-in client per demo account (sessions are reused across tests). */
function as(email: string): Promise<Client> {
  let client = clients.get(email);
  if (!client) {
    client = (async () => {
      const c = new Client({ ip: `10.13.${clients.size}.1` });
      await c.login(email);
      return c;
    })();
    clients.set(email, client);
  }
  return client;
}

const thread = (id: number) => `entityId=${id}&entityType=DealCompany`;

/** An open server-sent event stream, read event by event. */
class Sse {
  private buffer = "";
  private decoder = new TextDecoder();
  constructor(readonly status: number, private reader: ReadableStreamDefaultReader<Uint8Array> | null) {}

  static async open(client: Client, path: string, app?: Hono<AppEnv>, headers: Record<string, string> = {}) {
    const target = app ?? (await testEnv()).app;
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await target.request(`${ORIGIN}${path}`, { headers: { cookie, ...headers } }, {
      remoteAddr: { transport: "tcp", hostname: client.options.ip ?? "127.0.0.1", port: 40000 },
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      return new Sse(res.status, null);
    }
    return new Sse(res.status, res.body!.getReader());
  }

  /** The next event (comments skipped), or null after `timeoutMs` or at the end of the stream. */
  async next(timeoutMs = 2000): Promise<{ event: string; data: string; id?: string } | null> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const lines = block.split("\n").filter((l) => !l.startsWith(":"));
        if (!lines.length) continue;
        const field = (name: string) =>
          lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trimStart());
        return { event: field("event")[0] ?? "message", data: field("data").join("\n"), id: field("id")[0] };
      }
      const left = deadline - Date.now();
      if (left <= 0 || !this.reader) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<null>((r) => timer = setTimeout(() => r(null), left)),
      ]);
      clearTimeout(timer);
      if (chunk === null) return null;
      if (chunk.done) {
        this.reader = null;
        if (!this.buffer.includes("\n\n")) return null;
        continue;
      }
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next entries' texts until `count` are seen. */
  async messages(count: number, timeoutMs = 2000): Promise<ChatMessage[]> {
    const found: ChatMessage[] = [];
    while (found.length < count) {
      const event = await this.next(timeoutMs);
      if (!event) break;
      if (event.event === "message") found.push(JSON.parse(event.data));
    }
    return found;
  }

  async close() {
    await this.reader?.cancel().catch(() => {});
    this.reader = null;
  }
}

async function post(client: Client, dealId: number, text: string, extra: Record<string, unknown> = {}) {
  return await client.post("/api/chat/messages", {
    entityId: dealId,
    entityType: "DealCompany",
    type: "message",
    text,
    ...extra,
  });
}

httpTest("chat: who may read and write, on all three paths", async () => {
  const closed = await newDeal({});
  const open = await newDeal({ showChatForPartner: true });
  const toPartner = await newDeal({ showChatToPartner: true });
  const anonymous = new Client();
  for (const path of ["messages", "stream"]) {
    assertEquals((await anonymous.get(`/api/chat/${path}?${thread(open)}`)).status, 401, `anonymous ${path}`);
  }
  assertEquals((await post(anonymous, open, "Bonjour")).status, 401, "anonymous post");

  const allowed: [string, number][] = [
    ["client@example.fr", closed],
    ["admin@example.fr", closed],
    ["partenaire@example.fr", open],
    ["partenaire@example.fr", toPartner],
  ];
  for (const [email, deal] of allowed) {
    const client = await as(email);
    const res = await post(client, deal, `Bonjour de ${email}`);
    assertEquals(res.status, 200, `${email} posts on ${deal}: ${res.text}`);
    const list = await client.get(`/api/chat/messages?${thread(deal)}`);
    assertEquals(list.status, 200);
    assert(list.json<{ results: ChatMessage[] }>().results.some((m) => m.text === `Bonjour de ${email}`));
    const sse = await Sse.open(client, `/api/chat/stream?${thread(deal)}`);
    assertEquals(sse.status, 200, `${email} streams ${deal}`);
    assertEquals((await sse.next())?.event, "ready");
    await sse.close();
  }
  const denied: [string, number][] = [
    ["client2@example.fr", open],
    ["partenaire2@example.fr", open],
    ["partenaire@example.fr", closed],
  ];
  for (const [email, deal] of denied) {
    const client = await as(email);
    assertEquals(
      (await client.get(`/api/chat/messages?${thread(deal)}`)).status,
      403,
      `${email} list ${deal}`,
    );
    assertEquals((await post(client, deal, "Intrus")).status, 403, `${email} post ${deal}`);
    assertEquals((await Sse.open(client, `/api/chat/stream?${thread(deal)}`)).status, 403, `${email} stream`);
  }
  // A partner never reads a deal still in 'start', flag or not.
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set status = 'start' where id = $1", [open]);
  assertEquals(
    (await (await as("partenaire@example.fr")).get(`/api/chat/messages?${thread(open)}`)).status,
    403,
  );
});

httpTest("chat: the author comes from the session; bad input and floods get French 4xx", async () => {
  const deal = await newDeal({ showChatForPartner: true });
  const customer = await as("client@example.fr");
  const admin = await as("admin@example.fr");
  const res = await post(customer, deal, "<b>Bonjour</b> & merci", {
    authorId: await userId("admin@example.fr"),
    authorType: "Admin",
    authorName: "Administrateur",
  });
  assertEquals(res.status, 200, res.text);
  const message = res.json<{ results: ChatMessage }>().results;
  assertEquals(message.authorId, await userId("client@example.fr"));
  assertEquals(message.authorType, "Customer");
  const { db } = await testEnv();
  const [me] = await systemQuery<{ name: string }>(
    db,
    "select firstname || ' ' || lastname as name from public.users where email = 'client@example.fr'",
  );
  assertEquals(message.authorName, me.name);
  assertEquals(message.text, "<b>Bonjour</b> & merci", "stored as written");
  assertEquals(message.type, "message");
  assertEquals(message.entityType, "DealCompany");
  assert(typeof message.createdAt === "number" && message.createdAt > 1_700_000_000);

  for (
    const [text, what] of [["", "empty"], ["  \n\t ", "blank"], ["x".repeat(MESSAGE_MAX_LENGTH + 1), "long"]]
  ) {
    const bad = await post(admin, deal, text);
    assertEquals(bad.status, 422, what);
    assert(/message ne peut pas/.test(bad.json<{ message: string }>().message), bad.text);
  }
  assertEquals((await post(admin, deal, "x".repeat(MESSAGE_MAX_LENGTH))).status, 200, "the limit itself");
  assertEquals((await post(admin, deal, "Notif", { type: "notification" })).status, 422, "no notification");
  assertEquals((await post(admin, deal, "x", { entityType: "Deal" })).status, 422, "entity type");
  assertEquals((await admin.get(`/api/chat/messages?entityId=abc&entityType=DealCompany`)).status, 422);
  assertEquals((await admin.get(`/api/chat/messages?${thread(999999999)}`)).status, 403, "no such deal");

  // Oldest first; `after` catches up.
  const all =
    (await admin.get(`/api/chat/messages?${thread(deal)}`)).json<{ results: ChatMessage[] }>().results;
  assert(all.length >= 2);
  assert(all.every((m, i) => i === 0 || all[i - 1].id < m.id), "oldest first");
  const after = (await admin.get(`/api/chat/messages?${thread(deal)}&after=${all[0].id}`)).json<
    { results: ChatMessage[] }
  >().results;
  assertEquals(after.map((m) => m.id), all.slice(1).map((m) => m.id));

  // A fresh customer account floods: the limit answers 429 in French.
  const flooder = await as("client2@example.fr");
  const own = await newDeal({});
  await systemQuery(db, "update public.deals set customer_id = $1 where id = $2", [
    await userId("client2@example.fr"),
    own,
  ]);
  let last = 0;
  for (let i = 0; i <= MESSAGES_PER_MINUTE; i++) last = (await post(flooder, own, `Message ${i}`)).status;
  assertEquals(last, 429);
  const refused = await post(flooder, own, "Encore");
  assertEquals(refused.status, 429);
  assert(/trop de messages/.test(refused.json<{ message: string }>().message));
});

httpTest("chat: a stream gets new entries live, catches up on reconnect, ends on logout", async () => {
  const deal = await newDeal({ showChatForPartner: true });
  const admin = await as("admin@example.fr");
  const customer = new Client({ ip: "10.13.99.1" });
  await customer.login("client@example.fr");
  const sse = await Sse.open(customer, `/api/chat/stream?${thread(deal)}`);
  assertEquals((await sse.next())?.event, "ready");
  const sent = (await post(admin, deal, "En direct")).json<{ results: ChatMessage }>().results;
  const [live] = await sse.messages(1);
  assertEquals(live?.text, "En direct");
  assertEquals(live?.id, sent.id);

  // A client that goes away leaves nothing behind in the hub.
  const hub = await chatHubOf((await testEnv()).db);
  const open = hub.size;
  await sse.close();
  for (let i = 0; i < 40 && hub.size !== open - 1; i++) await new Promise((r) => setTimeout(r, 25));
  assertEquals(hub.size, open - 1, "the closed stream is dropped");
  // Reconnecting with Last-Event-ID (or after=) replays what was missed, in order.
  await post(admin, deal, "Manqué 1");
  await post(admin, deal, "Manqué 2");
  const again = await Sse.open(customer, `/api/chat/stream?${thread(deal)}`, undefined, {
    "last-event-id": String(sent.id),
  });
  const missed = await again.messages(2);
  assertEquals(missed.map((m) => m.text), ["Manqué 1", "Manqué 2"]);

  // Logging out ends the stream (the session's notice reaches the hub).
  assertEquals((await customer.post("/logout")).status, 303);
  let end = await again.next();
  while (end && end.event !== "end") end = await again.next();
  assertEquals(end?.event, "end");
  assertEquals(JSON.parse(end!.data).reason, "session");
  assertEquals(await again.next(500), null, "closed");
});

httpTest("chat: a partner's stream ends when the admin turns the flag off", async () => {
  const deal = await newDeal({ showChatForPartner: true });
  const partner = await as("partenaire@example.fr");
  const admin = await as("admin@example.fr");
  const sse = await Sse.open(partner, `/api/chat/stream?${thread(deal)}`);
  assertEquals((await sse.next())?.event, "ready");
  await post(admin, deal, "Avant");
  assertEquals((await sse.messages(1))[0]?.text, "Avant");
  const res = await admin.patch(`/api/deal/${deal}`, { adminSettings: { showChatForPartner: false } });
  assertEquals(res.status, 200, res.text);
  let end = await sse.next();
  while (end && end.event !== "end") end = await sse.next();
  assertEquals(end?.event, "end", "the stream ends");
  assertEquals(JSON.parse(end!.data).reason, "access");
  assertEquals((await partner.get(`/api/chat/messages?${thread(deal)}`)).status, 403);
});

httpTest("chat: status changes and payments post notifications in the same timeline", async () => {
  const deal = await newDeal({});
  const admin = await as("admin@example.fr");
  const { db } = await testEnv();
  await systemQuery(db, "update public.deals set status = 'accepted' where id = $1", [deal]);
  const paid = await admin.post(`/api/deal/${deal}/payments`, { kind: "deposit", amount: 250 });
  assertEquals(paid.status, 200, paid.text);
  await systemQuery(
    db,
    "update public.deals set refusal_reason = 'other', status = 'refused' where id = $1",
    [deal],
  );
  const customer = await as("client@example.fr");
  const entries =
    (await customer.get(`/api/chat/messages?${thread(deal)}`)).json<{ results: ChatMessage[] }>()
      .results;
  const notes = entries.filter((m) => m.type === "notification").map((m) => m.text);
  assert(notes.includes("Statut du devis : Devis accepté."), notes.join(" | "));
  assert(notes.some((t) => /^Acompte reçu : 250,00\u00a0€\.$/.test(t)), notes.join(" | "));
  assert(notes.includes("Statut du devis : Accepté / paiement partiel."), notes.join(" | "));
  assert(notes.includes("Le devis a été refusé (Refusé)."), notes.join(" | "));
  const payment = entries.find((m) => m.text.startsWith("Acompte reçu"))!;
  assertEquals(payment.authorType, "Admin", "the admin who recorded it");
});

httpTest("chat: one digest email of unread messages after 15 minutes, not one per message", async () => {
  const deal = await newDeal({ showChatForPartner: true });
  const customer = await as("client@example.fr");
  const { db, deps } = await testEnv();
  await post(customer, deal, "Première question");
  await post(customer, deal, "Deuxième question");
  const partnerEmail = "partenaire@example.fr";
  const digests = async () =>
    (await systemQuery<{ n: number }>(
      db,
      `select count(*)::int as n from public.email_outbox where template = 'chat-unread-digest'
       and recipient = $1 and text_body like $2`,
      [partnerEmail, `%#chat%`],
    ))[0].n;
  const before = await digests();
  await sendChatDigests(deps);
  assertEquals(await digests(), before, "nothing before 15 minutes");
  await systemQuery(
    db,
    "update public.chat_messages set created_at = now() - interval '16 minutes' where deal_id = $1",
    [
      deal,
    ],
  );
  await sendChatDigests(deps);
  assertEquals(await digests(), before + 1, "one digest for two messages");
  const [mail] = await systemQuery<{ text_body: string; subject: string }>(
    db,
    `select text_body, subject from public.email_outbox where template = 'chat-unread-digest' and recipient = $1
     order by created_at desc limit 1`,
    [partnerEmail],
  );
  assert(mail.text_body.includes("Première question") && mail.text_body.includes("Deuxième question"));
  assertEquals(mail.subject, "2 nouveaux messages sur votre devis « Chat test »");
  await sendChatDigests(deps);
  assertEquals(await digests(), before + 1, "not twice");
  // The customer wrote them: no digest to the customer; once the partner reads, nothing more either.
  const [own] = await systemQuery<{ n: number }>(
    db,
    `select count(*)::int as n from public.email_outbox where template = 'chat-unread-digest'
     and recipient = 'client@example.fr' and text_body like $1`,
    [`%Première question%`],
  );
  assertEquals(own.n, 0);
  // Opening the deal page (chat in a hidden tab) reads nothing: the island says when it is shown.
  const third = (await post(customer, deal, "Troisième")).json<{ results: ChatMessage }>().results;
  const partner = await as(partnerEmail);
  assertEquals((await partner.get(`/dashboard/espace-partenaire/deal/${deal}`)).status, 200);
  const marker = async () =>
    (await systemQuery<{ last: number }>(
      db,
      `select coalesce(max(last_read_id), 0)::bigint as last from public.chat_reads
       where deal_id = $1 and user_id = (select id from public.users where email = $2)`,
      [deal, partnerEmail],
    ))[0].last;
  assert((await marker()) < third.id, "the page view marks nothing");
  const read = { entityId: deal, entityType: "DealCompany", through: third.id };
  assertEquals((await new Client().post("/api/chat/read", read)).status, 401);
  assertEquals((await (await as("partenaire2@example.fr")).post("/api/chat/read", read)).status, 403);
  assertEquals((await partner.post("/api/chat/read", read)).status, 200);
  assertEquals(await marker(), third.id);
  await systemQuery(
    db,
    "update public.chat_messages set created_at = now() - interval '16 minutes' where deal_id = $1",
    [
      deal,
    ],
  );
  await sendChatDigests(deps);
  assertEquals(await digests(), before + 1, "read: no digest");
});

Deno.test({
  name: "chat: a message posted on instance A reaches a stream on instance B within 1 s (PostgreSQL)",
  ignore: !TEST_DATABASE_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { deps } = await testEnv();
    const db = openPostgres(TEST_DATABASE_URL!, { max: 4 });
    try {
      const b = await createApp({ ...deps, db });
      const deal = await newDeal({});
      const customer = await as("client@example.fr");
      const sse = await Sse.open(customer, `/api/chat/stream?${thread(deal)}`, b);
      assertEquals((await sse.next())?.event, "ready");
      const started = performance.now();
      await post(await as("admin@example.fr"), deal, "De A vers B");
      const [got] = await sse.messages(1, 1000);
      const elapsed = performance.now() - started;
      assertEquals(got?.text, "De A vers B");
      assert(elapsed < 1000, `${elapsed} ms`);
      await sse.close();
    } finally {
      await db.close();
    }
  },
});

httpTest("chat on the pages: escaped text, the visitor's prompt, each page's partner flag", async () => {
  const deal = await newDeal({ showChatForPartner: true });
  const { db } = await testEnv();
  const [{ token }] = await systemQuery<{ token: string }>(
    db,
    "select token from public.deals where id = $1",
    [deal],
  );
  const customer = await as("client@example.fr");
  await post(customer, deal, "<script>alert(1)</script><b>gras</b>");
  const page = await customer.get(`/deal/show/${token}`);
  assertEquals(page.status, 200);
  assert(page.text.includes('data-island="DealChat"'), "the chat island");
  assert(!page.text.includes("<b>gras</b>") && !page.text.includes("<script>alert(1)"), "never raw HTML");
  assert(/&lt;b(&gt;|>)gras&lt;\/b/.test(page.text), "rendered escaped");
  const visitor = await new Client().get(`/deal/show/${token}`);
  assert(visitor.text.includes("Veuillez-vous connecter pour avoir accès au chat"), "the visitor's prompt");
  assert(
    visitor.text.includes(`href="/login?redirect=${encodeURIComponent(`/deal/show/${token}`)}"`),
    "to log in",
  );
  assert(
    !visitor.text.includes('data-island="DealChat"') && !visitor.text.includes("gras"),
    "no chat for visitors",
  );
  // The customer's page uses showChatToPartner, the back office's tab showChatForPartner.
  const partner = await as("partenaire@example.fr");
  assert(!(await partner.get(`/deal/show/${token}`)).text.includes('data-island="DealChat"'));
  const detail = await partner.get(`/dashboard/espace-partenaire/deal/${deal}`);
  assertEquals(detail.status, 200);
  assert(detail.text.includes('id="deal-chat-tab"') && detail.text.includes('data-island="DealChat"'));
  const closed = await newDeal({});
  const noChat = await partner.get(`/dashboard/espace-partenaire/deal/${closed}`);
  assert(!noChat.text.includes('data-island="DealChat"'), "no chat tab without the flag");
});

httpTest(
  "chat: a revoked session's stream ends (sessions deleted in SQL, as a password reset does)",
  async () => {
    const { db } = await testEnv();
    const payload = registrationPayload();
    const client = new Client({ ip: "10.13.98.1" });
    assertEquals((await client.post("/api/security/registration", payload)).status, 200);
    await client.login(String(payload.email));
    const deal = await newDeal({});
    await systemQuery(
      db,
      "update public.deals set customer_id = (select id from public.users where email = $1) where id = $2",
      [
        payload.email,
        deal,
      ],
    );
    const sse = await Sse.open(client, `/api/chat/stream?${thread(deal)}`);
    assertEquals((await sse.next())?.event, "ready");
    await systemQuery(
      db,
      "delete from identity.sessions where user_id = (select id from public.users where email = $1)",
      [payload.email],
    );
    let end = await sse.next();
    while (end && end.event !== "end") end = await sse.next();
    assertEquals(end?.event, "end");
    assertEquals(JSON.parse(end!.data).reason, "session");
    assertEquals((await client.get(`/api/chat/messages?${thread(deal)}`)).status, 401);
  },
);
