// Gift vouchers over HTTP (issue 12; spec 000 §2 'Vos bons cadeaux', §3, §7), PGlite and PostgreSQL:
// who reads the list, the PDF and the invoice (buyer, holder, code bearer, admins; others 404/401/403);
// applying a code to a cart with every refusal in French; code guessing refused with 429 per customer
// and per client address, also when the guesses arrive at once on two app instances (PostgreSQL only).
// Buying and redeeming at checkout are in vouchers_checkout_test.ts.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, registrationPayload, TEST_LIMITS, testEnv } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { codeHash, generateCode, sealCode } from "../../lib/vouchers/codes.ts";
import { formatCode, VOUCHER_MESSAGES } from "../../lib/vouchers/rules.ts";
import { pdfText, plain } from "../../lib/billing/fixtures_test.ts";
import { loadConfig } from "../../lib/config.ts";
import { openPostgres } from "../../lib/db/postgres.ts";
import { createLogger } from "../../lib/log/logger.ts";
import { createBackground, type Deps } from "../../lib/deps.ts";
import { memoryStorage } from "../../lib/storage/storage.ts";
import { createApp } from "../../routes/_app.tsx";

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
  "vouchers: a used-up or expired voucher reads the page's state in the API (status 'used', 'expired')",
  async () => {
    const used = await makeVoucher({ remaining: 0 });
    const expired = await makeVoucher({ remaining: 2000, validDays: -1 });
    const active = await makeVoucher({ remaining: 2000 });
    const c = await signedIn(CUSTOMER);
    const results = (await c.get("/api/customer/discounts")).json<Json>().results as Json[];
    const statusOf = (id: string) => results.find((r) => r.id === id)?.status;
    assertEquals([statusOf(used.id), statusOf(expired.id), statusOf(active.id)], [
      "used",
      "expired",
      "active",
    ]);
    const page = (await c.get("/dashboard/client/bons-cadeaux")).text;
    assert(page.includes("Utilisé") && page.includes("Expiré"), "the page says the same");
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
  // Per address: three customers behind one address fail 30 times. The address is then over its limit,
  // but a customer there without a wrong guess of its own still gets its one try ("Production, part 2"
  // §1: a right code is not refused because someone else guessed — this was a 429 before): the right
  // code goes through; a newcomer's wrong code is tried once, then refused.
  const ip = "10.9.3.1";
  for (let n = 0; n < 3; n++) {
    const guesser = await newCustomer(ip);
    for (let i = 0; i < 10; i++) {
      const code = `YYYY-YYYY-YYY${n}-YY${String(i).padStart(2, "0")}`;
      assertEquals((await guesser.post("/api/cart/code", { code })).status, 404);
    }
  }
  assertEquals((await (await newCustomer(ip)).post("/api/cart/code", { code: v.code })).status, 200);
  const newcomer = await newCustomer(ip);
  assertEquals((await newcomer.post("/api/cart/code", { code: "YYYY-YYYY-YYY9-YY00" })).status, 404);
  assertEquals((await newcomer.post("/api/cart/code", { code: "YYYY-YYYY-YYY9-YY01" })).status, 429);
  assertEquals((await newcomer.post("/api/cart/code", { code: v.code })).status, 429);
  assertEquals((await (await newCustomer("10.9.4.1")).post("/api/cart/code", { code: v.code })).status, 200);
});

httpTest(
  "vouchers: a right code gives its try back; only unknown codes count against the limit",
  async () => {
    const v = await makeVoucher({ remaining: 5000 });
    const c = await newCustomer("10.9.6.1");
    for (let i = 0; i < 9; i++) {
      assertEquals(
        (await c.post("/api/cart/code", { code: `XXXX-XXXX-XXXX-XX${String(i).padStart(2, "0")}` })).status,
        404,
      );
    }
    assertEquals((await c.post("/api/cart/code", { code: v.code })).status, 200);
    assertEquals((await c.delete("/api/cart/code")).status, 200);
    assertEquals(
      (await c.post("/api/cart/code", { code: "XXXX-XXXX-XXXX-XX09" })).status,
      404,
      "the tenth unknown code",
    );
    assertEquals((await c.post("/api/cart/code", { code: "XXXX-XXXX-XXXX-XX10" })).status, 429);
  },
);

const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

/** A second instance of the app: its own pool on the same PostgreSQL database, as a second deployment. */
async function secondInstance() {
  const config = loadConfig((name) => ({ APP_ENV: "test", APP_URL: ORIGIN, ...TEST_LIMITS })[name]);
  const db = openPostgres(TEST_DATABASE_URL!, { max: 4 });
  const logger = createLogger(db, { quiet: true });
  const deps: Deps = {
    config,
    db,
    logger,
    background: createBackground(logger, { manual: true }),
    storage: memoryStorage(),
  };
  return { app: await createApp(deps), db };
}

const tally = (responses: { status: number }[]) => {
  const by: Record<number, number> = {};
  for (const r of responses) by[r.status] = (by[r.status] ?? 0) + 1;
  return by;
};

Deno.test({
  name:
    "vouchers: guesses sent at once on two instances get 10 tries per customer, 30 per address (cart and PDF)",
  ignore: !TEST_DATABASE_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const { app } = await testEnv();
    const second = await secondInstance();
    try {
      const v = await makeVoucher();
      /** `c`'s cookies (its session) on the first or the second instance, alternately. */
      const on = (c: Client, ip: string, i: number) => {
        const twin = new Client({ ip, app: i % 2 === 0 ? app : second.app });
        twin.cookies = c.cookies;
        return twin;
      };
      // One customer, 60 unknown codes at once: 10 are tried, 50 refused; then even the right code is.
      const one = await newCustomer("10.9.7.1");
      const burst = await Promise.all(
        Array.from(
          { length: 60 },
          (_, i) =>
            on(one, "10.9.7.1", i).post("/api/cart/code", {
              code: `WWWW-WWWW-WWWW-${String(i).padStart(4, "0")}`,
            }),
        ),
      );
      assertEquals(tally(burst), { 404: 10, 429: 50 });
      assertEquals((await one.post("/api/cart/code", { code: v.code })).status, 429);
      // Four customers behind one address, 12 each at once: 40 pass their own limit, 30 the address's —
      // plus, for a customer whose first guess came after the address was full, that one guess (its
      // first try is its own: lib/vouchers/guesses.ts), so 30 to 34 are tried.
      const ip = "10.9.7.2";
      const four = await Promise.all(Array.from({ length: 4 }, () => newCustomer(ip)));
      const crowd = await Promise.all(
        four.flatMap((c, n) =>
          Array.from(
            { length: 12 },
            (_, i) =>
              on(c, ip, i).post("/api/cart/code", {
                code: `VVVV-VVVV-VVV${n}-${String(i).padStart(4, "0")}`,
              }),
          )
        ),
      );
      const tried = tally(crowd)[404];
      assert(tried >= 30 && tried <= 34, `tried: ${tried}`);
      assertEquals(tally(crowd)[404] + tally(crowd)[429], 48);
      // The PDF by code, anonymously from one address: 10 wrong codes of one voucher tried (each address
      // has its own budget per voucher; it was the address's 30 before), the rest refused.
      const visitor = new Client({ ip: "10.9.7.3" });
      const pdfs = await Promise.all(
        Array.from(
          { length: 40 },
          (_, i) =>
            on(visitor, "10.9.7.3", i).get(
              `/discount/pdf/${v.id}?code=UUUU-UUUU-UUUU-${String(i).padStart(4, "0")}`,
            ),
        ),
      );
      assertEquals(tally(pdfs), { 404: 10, 429: 30 });
      assertEquals((await visitor.get(`/discount/pdf/${v.id}?code=${v.code}`)).status, 429);
    } finally {
      await second.db.close();
    }
  },
});
