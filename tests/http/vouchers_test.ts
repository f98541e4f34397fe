// Gift vouchers over HTTP (issue 12; spec 000 §2 'Vos bons cadeaux', §3, §7), PGlite and PostgreSQL:
// who reads the list, the PDF and the invoice (buyer, holder, code bearer, admins; others 404/401/403);
// applying a code to a cart with every refusal in French; code guessing refused with 429 per customer
// and per client address. Buying and redeeming at checkout are in vouchers_checkout_test.ts.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, registrationPayload, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { codeHash, generateCode, sealCode } from "../../lib/vouchers/codes.ts";
import { formatCode, VOUCHER_MESSAGES } from "../../lib/vouchers/rules.ts";
import { pdfText, plain } from "../../lib/billing/fixtures_test.ts";

const ADMIN = "admin@example.fr";
const PARTNER = "partenaire@example.fr";
const CUSTOMER = "client@example.fr";
const CUSTOMER2 = "client2@example.fr";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let ipCounter = 10;
/** A client of its own address: the rate limits of one test never reach another's. */
const client = () => new Client({ ip: `10.9.0.${++ipCounter}` });

/** A voucher as the system would hold it (set-up only; the purchase path is tested elsewhere). */
async function makeVoucher(
  o: {
    buyer?: string;
    recipient?: string;
    remaining?: number;
    status?: string;
    validDays?: number;
    sendInDays?: number;
  } = {},
) {
  const { db, deps } = await testEnv();
  const code = generateCode();
  const [row] = await systemQuery<{ id: string }>(
    db,
    `insert into public.vouchers (buyer_id, code_hash, code_sealed, amount, remaining, sender_name, recipient_name,
       recipient_email, message, send_on, status, activated_at, valid_until)
     values ((select id from public.users where email = $1), $2, $3, 5000, $4, 'Claire Client', 'Camille', $5,
       'Bon anniversaire !', (now() at time zone 'Europe/Paris')::date + $6::int, $7,
       case when $7 = 'active' then now() end,
       case when $7 = 'active' then now() + make_interval(days => $8) end)
     returning id::text as id`,
    [
      o.buyer ?? CUSTOMER,
      await codeHash(code),
      await sealCode(code, deps.config.appSecret),
      o.remaining ?? 5000,
      o.recipient ?? "camille@example.fr",
      o.sendInDays ?? 0,
      o.status ?? "active",
      o.validDays ?? 365,
    ],
  );
  return { id: row.id, code: formatCode(code) };
}

async function signedIn(email: string) {
  const c = client();
  await c.login(email);
  return c;
}

httpTest(
  "vouchers: the buyer lists its vouchers (§3 payload) with code, remaining and validity",
  async () => {
    const v = await makeVoucher({ remaining: 1250 });
    const c = await signedIn(CUSTOMER);
    const response = await c.get("/api/customer/discounts");
    assertEquals(response.status, 200);
    const found = response.json<Json>().results.find((r: Json) => r.id === v.id);
    assertEquals(found.code, v.code);
    assertEquals(found.targetEmail, "camille@example.fr");
    assertEquals(found.amount, 50);
    assertEquals(found.remaining, 12.5);
    assertEquals(found.bought, true);
    assert(found.validUntil > Date.now() / 1000 + 360 * 86400, "valid a year");
    assertEquals(found.pdf, `/discount/pdf/${v.id}`);
    const page = await c.get("/dashboard/client/bons-cadeaux");
    assertEquals(page.status, 200);
    assert(page.text.includes("Vos bons cadeaux") && page.text.includes(v.code), "the page lists it");
    assert(page.text.includes("Offrir un bon cadeau"), "the purchase button");
  },
);

httpTest(
  "vouchers: the list and page are for customers; others are refused or see nothing of it",
  async () => {
    const v = await makeVoucher();
    assertEquals((await client().get("/api/customer/discounts")).status, 401);
    const anonymousPage = await client().get("/dashboard/client/bons-cadeaux");
    assertEquals(anonymousPage.status, 303);
    assertEquals((await (await signedIn(PARTNER)).get("/api/customer/discounts")).status, 403);
    assertEquals((await (await signedIn(ADMIN)).get("/api/customer/discounts")).status, 403);
    const other = await (await signedIn(CUSTOMER2)).get("/api/customer/discounts");
    assertEquals(other.status, 200);
    assert(!other.text.includes(v.id), "another customer does not see it");
  },
);

httpTest(
  "vouchers: a voucher sent to a customer's email is listed as received once its day has come",
  async () => {
    const today = await makeVoucher({ recipient: CUSTOMER2 });
    const later = await makeVoucher({ recipient: CUSTOMER2, sendInDays: 10 });
    const results = (await (await signedIn(CUSTOMER2)).get("/api/customer/discounts")).json<Json>().results;
    const received = results.find((r: Json) => r.id === today.id);
    assertEquals(received?.bought, false);
    assertEquals(received?.code, today.code);
    assertEquals(received?.invoice, null);
    assert(!results.some((r: Json) => r.id === later.id), "not before its send date");
  },
);

httpTest(
  "vouchers: the PDF prints code, amounts, validity, recipient and message; who may read it",
  async () => {
    const v = await makeVoucher({ remaining: 2000 });
    const buyer = await signedIn(CUSTOMER);
    const response = await buyer.get(`/discount/pdf/${v.id}`);
    assertEquals(response.status, 200);
    assertEquals(response.contentType, "application/pdf");
    const { app } = await testEnv();
    const bytes = new Uint8Array(
      await (await app.request(`http://localhost:8000/discount/pdf/${v.id}?code=${v.code}`, {}, {
        remoteAddr: { transport: "tcp", hostname: "10.9.1.1", port: 1 },
      })).arrayBuffer(),
    );
    const text = plain(await pdfText(bytes));
    for (
      const expected of [
        v.code,
        "50,00 €",
        "20,00 €",
        "Valable jusqu'au",
        "Pour Camille",
        "Bon anniversaire !",
      ]
    ) {
      assert(text.includes(expected), `${expected} in ${text}`);
    }
    assertEquals((await (await signedIn(ADMIN)).get(`/discount/pdf/${v.id}`)).status, 200);
    assertEquals((await (await signedIn(CUSTOMER2)).get(`/discount/pdf/${v.id}`)).status, 404);
    assertEquals((await (await signedIn(PARTNER)).get(`/discount/pdf/${v.id}`)).status, 404);
    assertEquals((await client().get(`/discount/pdf/${v.id}`)).status, 401);
    assertEquals((await client().get(`/discount/pdf/${v.id}?code=AAAA-BBBB-CCCC-DDDD`)).status, 404);
    assertEquals((await client().get(`/discount/pdf/not-a-uuid`)).status, 404);
    const unpaid = await makeVoucher({ status: "pending" });
    assertEquals((await buyer.get(`/discount/pdf/${unpaid.id}`)).status, 409);
  },
);

httpTest("vouchers: the invoice is the buyer's and the admins' only", async () => {
  const v = await makeVoucher();
  // No invoice before payment.
  assertEquals((await (await signedIn(CUSTOMER)).get(`/discount/invoice/${v.id}`)).status, 409);
  const holder = await makeVoucher({ recipient: CUSTOMER2 });
  assertEquals((await (await signedIn(CUSTOMER2)).get(`/discount/invoice/${holder.id}`)).status, 404);
  assertEquals((await (await signedIn(PARTNER)).get(`/discount/invoice/${v.id}`)).status, 404);
  assertEquals((await client().get(`/discount/invoice/${v.id}`)).status, 401);
});

httpTest("vouchers: applying a code to the cart, and each refusal in French", async () => {
  // A customer of its own: on PostgreSQL the demo customers' carts hold other test files' lines.
  const c = client();
  const registered = await c.post("/api/security/registration", registrationPayload());
  assertEquals(registered.status, 200, registered.text);
  const v = await makeVoucher({ remaining: 3000 });
  const applied = await c.post("/api/cart/code", { code: v.code.toLowerCase().replaceAll("-", " ") });
  assertEquals(applied.status, 200, applied.text);
  assertEquals(applied.json<Json>().results.remaining, 3000);
  assert(applied.json<Json>().message.startsWith("Bon cadeau appliqué"), applied.text);
  const cart = (await c.get("/api/cart")).json<Json>().results;
  assertEquals([cart.voucher, cart.discount, cart.toPay], [{ remaining: 3000 }, 0, 0], "an empty cart");
  // The customer who applied it now reads it (RLS), without an invoice link.
  const listed = (await c.get("/api/customer/discounts")).json<Json>().results.find((r: Json) =>
    r.id === v.id
  );
  assertEquals(listed?.invoice, null);
  assertEquals((await c.delete("/api/cart/code")).status, 200);
  assertEquals((await c.delete("/api/cart/code")).json<Json>().message, VOUCHER_MESSAGES.noCode);

  const unknown = await c.post("/api/cart/code", { code: "ZZZZ-ZZZZ-ZZZZ-ZZZZ" });
  assertEquals(unknown.status, 404);
  assertEquals(unknown.json<Json>().message, VOUCHER_MESSAGES.codeUnknown);
  const malformed = await c.post("/api/cart/code", { code: "bonjour" });
  assertEquals(malformed.status, 404);
  const empty = await c.post("/api/cart/code", { code: "" });
  assertEquals(empty.status, 422);
  assertEquals(empty.json<Json>().message, VOUCHER_MESSAGES.codeRequired);
  const expired = await makeVoucher({ validDays: -1 });
  const expiredAnswer = await c.post("/api/cart/code", { code: expired.code });
  assertEquals(expiredAnswer.status, 409);
  assert(
    /^Ce bon cadeau a expiré le \d\d\/\d\d\/\d{4}\.$/.test(expiredAnswer.json<Json>().message),
    expiredAnswer.text,
  );
  const used = await makeVoucher({ remaining: 0 });
  const usedAnswer = await c.post("/api/cart/code", { code: used.code });
  assertEquals(usedAnswer.status, 409);
  assertEquals(usedAnswer.json<Json>().message, VOUCHER_MESSAGES.codeEmpty);
  const unpaid = await makeVoucher({ status: "pending" });
  assertEquals(
    (await c.post("/api/cart/code", { code: unpaid.code })).json<Json>().message,
    VOUCHER_MESSAGES.codeNotActive,
  );
});

httpTest("vouchers: only customers apply codes", async () => {
  const v = await makeVoucher();
  const anonymous = await client().post("/api/cart/code", { code: v.code });
  assertEquals(anonymous.status, 401);
  assertEquals(anonymous.json<Json>().message, VOUCHER_MESSAGES.loginToRedeem);
  assertEquals((await (await signedIn(PARTNER)).post("/api/cart/code", { code: v.code })).status, 403);
  assertEquals((await (await signedIn(ADMIN)).post("/api/cart/code", { code: v.code })).status, 403);
});

/** A new customer account signed in from `ip` (registration logs in). */
async function newCustomer(ip: string): Promise<Client> {
  const c = new Client({ ip });
  const response = await c.post("/api/security/registration", registrationPayload());
  assert(response.status === 200 || response.status === 201, response.text);
  return c;
}

httpTest("vouchers: guessing codes is refused with 429, per customer and per client address", async () => {
  const v = await makeVoucher();
  const c = await newCustomer("10.9.2.1");
  for (let i = 0; i < 10; i++) {
    const code = `ZZZZ-ZZZZ-ZZZZ-ZZ${String(i).padStart(2, "0")}`;
    assertEquals((await c.post("/api/cart/code", { code })).status, 404);
  }
  const refused = await c.post("/api/cart/code", { code: v.code });
  assertEquals(refused.status, 429, "even the right code, once over the limit");
  assertEquals(refused.json<Json>().message, VOUCHER_MESSAGES.tooManyCodes);
  // Per address: three customers behind one address fail 30 times; a fourth there is refused at once,
  // while the same code from elsewhere goes through.
  const ip = "10.9.3.1";
  for (let n = 0; n < 3; n++) {
    const guesser = await newCustomer(ip);
    for (let i = 0; i < 10; i++) {
      const code = `YYYY-YYYY-YYY${n}-YY${String(i).padStart(2, "0")}`;
      assertEquals((await guesser.post("/api/cart/code", { code })).status, 404);
    }
  }
  assertEquals((await (await newCustomer(ip)).post("/api/cart/code", { code: v.code })).status, 429);
  assertEquals((await (await newCustomer("10.9.4.1")).post("/api/cart/code", { code: v.code })).status, 200);
});
