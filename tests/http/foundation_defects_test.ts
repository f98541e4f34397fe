// Regression tests for the defects found when the foundation was tried as a new user, an attacker and
// a reviewer (issue "Foundation, second pass" §2 and §4). Each one failed before its fix.
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, ORIGIN, registrationPayload, testEnv, uniqueContact } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";

let ipCounter = 0;
/** A client address of its own, so that per-IP limits of one test do not reach another. */
function freshIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 8) & 255}.${ipCounter & 255}.${Math.floor(Math.random() * 250) + 1}`;
}

httpTest(
  "open redirect: a path that browsers turn into another host falls back to the landing page",
  async () => {
    const client = new Client({ ip: freshIp() });
    await client.login("client@example.fr");
    for (
      const target of [
        "%2F%09%2Fevil.example",
        "%2F%0A%2Fevil.example",
        "%2F%0D%2Fevil.example",
        "%2F%5C%2Fevil.example",
        "%2F%2F%2Fevil.example",
        "%2F.%2F%2Fevil.example",
      ]
    ) {
      const res = await client.get(`/after/login?redirect=${target}`);
      assertEquals(res.status, 303, target);
      assertEquals(res.headers.get("location"), "/dashboard/demandes-en-cours", target);
    }
    // A real local path with a query string still works.
    const ok = await client.get(`/after/login?redirect=${encodeURIComponent("/dashboard/profil?x=1#y")}`);
    assertEquals(ok.headers.get("location"), "/dashboard/profil?x=1");
    // The login page never hands a bad target to its island either.
    const page = await new Client({ ip: freshIp() }).get("/login?redirect=%2F%09%2Fevil.example");
    assertEquals(page.status, 200);
    assert(!page.text.includes("evil.example"));
  },
);

httpTest("login: many accounts from one address end in 429", async () => {
  const client = new Client({ ip: freshIp() });
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const res = await client.post("/api/security/login", {
      username: `inconnu.${i}.${Date.now()}@example.fr`,
      password: "Mauvais#2026",
    });
    statuses.push(res.status);
  }
  assert(statuses.includes(429), `statuses: ${statuses.join(",")}`);
  const last = await client.post("/api/security/login", { username: "x@example.fr", password: "y" });
  assertEquals(last.status, 429);
  assertMatch(String(last.json().message), /Trop de tentatives/);
});

httpTest("login: ten bad tries from one address do not lock the owner out from another", async () => {
  const payload = registrationPayload();
  assertEquals((await new Client({ ip: freshIp() }).post("/api/security/registration", payload)).status, 200);
  const attacker = new Client({ ip: freshIp() });
  for (let i = 0; i < 12; i++) {
    await attacker.post("/api/security/login", { username: payload.email, password: "Faux#0000" });
  }
  const locked = await attacker.post("/api/security/login", {
    username: payload.email,
    password: payload.password,
  });
  assertEquals(locked.status, 429, "the attacker's address is locked for this account");
  const owner = new Client({ ip: freshIp() });
  assertEquals(
    (await owner.post("/api/security/login", {
      username: payload.email,
      password: payload.password,
    })).status,
    200,
  );
});

httpTest("forgotten password is limited per client, never per address asked", async () => {
  // Ten requests for one email answer the same neutral page: a per-email refusal let anyone block
  // someone else's reset ("Production, part 2" §1; the account gets one email per few minutes instead,
  // tests/http/limits_login_test.ts).
  const client = new Client({ ip: freshIp() });
  const email = uniqueContact().email;
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) {
    statuses.push((await client.request("POST", "/forgotten-password", { form: { email } })).status);
  }
  assertEquals(statuses, Array(10).fill(200), `same address: ${statuses.join(",")}`);
  const other = new Client({ ip: freshIp() });
  const perIp: number[] = [];
  for (let i = 0; i < 40; i++) {
    perIp.push(
      (await other.request("POST", "/forgotten-password", { form: { email: uniqueContact().email } })).status,
    );
  }
  assert(perIp.includes(429), `one client: ${perIp.join(",")}`);
  const limited = await other.request("POST", "/forgotten-password", {
    form: { email: uniqueContact().email },
  });
  assertEquals(limited.status, 429);
  assertMatch(limited.text, /Trop de demandes/);
});

httpTest("existence checks are limited per client", async () => {
  const client = new Client({ ip: freshIp() });
  const statuses: number[] = [];
  for (let i = 0; i < 150; i++) {
    const path = i % 2 ? "/email/exists" : "/phone/exists";
    const form: Record<string, string> = i % 2
      ? { email: uniqueContact().email }
      : { phone: uniqueContact().phone };
    statuses.push((await client.request("POST", path, { form })).status);
  }
  assert(statuses.includes(429), `statuses: ${statuses.join(",")}`);
  const res = await client.request("POST", "/email/exists", { form: { email: "client@example.fr" } });
  assertEquals(res.status, 429);
  assertMatch(String(res.json().message), /Trop de requêtes/);
});

httpTest("bad input gets 400 or 422 with a French message and logs no stack", async () => {
  const { db } = await testEnv();
  const before = (await systemQuery(db, "select count(*)::int as n from public.logs where type = 'error'"))[0]
    .n as number;
  const client = new Client({ ip: freshIp() });
  const expectClientError = (res: { status: number; text: string }, what: string) => {
    assert(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 200)}`);
  };
  expectClientError(await client.get("/ville/%00"), "NUL in a path");
  expectClientError(await client.get("/ville/paris%00"), "NUL at the end of a path");
  expectClientError(await client.get("/login?redirect=%00"), "NUL in a query");
  expectClientError(
    await client.request("POST", "/api/security/login", { body: "null" }),
    "null body without content type",
  );
  expectClientError(await client.post("/api/security/login", null), "JSON null");
  expectClientError(await client.post("/api/security/login", "texte"), "JSON string");
  expectClientError(await client.post("/email/exists", { email: { toString: 1 } }), "object as email");
  expectClientError(await client.post("/phone/exists", { phone: { toString: 1 } }), "object as phone");
  expectClientError(
    await client.post("/api/security/login", { username: { toString: 1 }, password: "x" }),
    "object as username",
  );
  expectClientError(
    await client.post("/api/security/registration", registrationPayload({ firstname: "Lé\u0000a" })),
    "NUL in a JSON field",
  );
  expectClientError(
    await client.post("/api/security/registration", registrationPayload({ birthdate: 1e20 })),
    "birth date 1e20",
  );
  const form = await client.request("POST", "/forgotten-password", { form: { email: "a\u0000@b.fr" } });
  expectClientError(form, "NUL in a form field");

  const admin = new Client({ ip: freshIp() });
  await admin.login("admin@example.fr");
  for (
    const id of [
      "------------------------------------",
      "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
      "%00",
      "12345678-1234-1234-1234-12345678901g",
    ]
  ) {
    expectClientError(await admin.request("POST", `/admin/switch/${id}`), `switch to ${id}`);
  }
  const customer = new Client({ ip: freshIp() });
  await customer.login("client2@example.fr");
  expectClientError(await customer.patch("/api/user/update", { birthdate: 1e20 }), "profile birth date 1e20");
  expectClientError(await customer.patch("/api/user/update", { firstname: "a\u0000" }), "profile NUL");
  expectClientError(await customer.patch("/api/user/update", null), "profile null body");

  const after = (await systemQuery(db, "select count(*)::int as n from public.logs where type = 'error'"))[0]
    .n as number;
  assertEquals(after, before, "client errors write no error log");
});

httpTest("phone numbers are compared in one international form", async () => {
  const client = new Client({ ip: freshIp() });
  for (const phone of ["+33 6 00 00 00 05", "+33600000005", "0033600000005", "06-00-00-00-05"]) {
    const res = await client.post("/api/security/registration", registrationPayload({ phone }));
    assertEquals(res.status, 422, phone);
    assertEquals(
      res.json<{ errors: Record<string, string> }>().errors.phone,
      "Ce téléphone existe déjà chez nous.",
    );
    const exists = await client.request("POST", "/phone/exists", { form: { phone } });
    assertEquals(exists.json().exists, true, phone);
  }
  const invalid = await client.post(
    "/api/security/registration",
    registrationPayload({ phone: "+0600000005" }),
  );
  assertEquals(invalid.status, 422);
  assertEquals(
    invalid.json<{ errors: Record<string, string> }>().errors.phone,
    "Le téléphone doit être valide.",
  );
  // A new number is stored in its international form.
  const payload = registrationPayload();
  const created = await client.post("/api/security/registration", payload);
  assertEquals(created.status, 200);
  assertEquals(created.json().phone, `+33${payload.phone.slice(1)}`);
});

httpTest("responses with personal data are never cached", async () => {
  const client = new Client({ ip: freshIp() });
  const login = await client.login("client@example.fr");
  assertEquals(login.headers.get("cache-control"), "no-store");
  for (const path of ["/api/user/get", "/dashboard", "/dashboard/profil", "/api/user/flash-messages", "/"]) {
    const res = await client.get(path);
    assertEquals(res.headers.get("cache-control"), "no-store", path);
  }
});

httpTest("PATCH /api/user/update leaves absent fields as they are", async () => {
  const client = new Client({ ip: freshIp() });
  const payload = registrationPayload({ professional: true, name: "Mon Entreprise", siren: "123456789" });
  assertEquals((await client.post("/api/security/registration", payload)).status, 200);
  const res = await client.patch("/api/user/update", { firstname: "Zoé" });
  assertEquals(res.status, 200, res.text);
  const user = res.json();
  assertEquals(user.firstname, "Zoé");
  assertEquals(user.name, "Mon Entreprise");
  assertEquals(user.siren, "123456789");
  assertEquals(user.lastname, payload.lastname);
  assertEquals(user.address1, payload.address);
  assertEquals(user.birthdate, Date.UTC(1990, 4, 12) / 1000);
});

httpTest("every demo account can save its profile untouched", async () => {
  for (
    const email of [
      "admin@example.fr",
      "partenaire@example.fr",
      "partenaire2@example.fr",
      "client@example.fr",
      "client2@example.fr",
    ]
  ) {
    const client = new Client({ ip: freshIp() });
    await client.login(email);
    const user = (await client.get("/api/user/get")).json();
    for (const field of ["address1", "zipcode", "city", "birthdate", "phone"]) {
      assert(user[field] !== null && user[field] !== "", `${email}: ${field} is empty`);
    }
    const saved = await client.patch("/api/user/update", user);
    assertEquals(saved.status, 200, `${email}: ${saved.text}`);
  }
});

httpTest("registration: the confirmation follows the password rule too", async () => {
  const res = await new Client({ ip: freshIp() }).post(
    "/api/security/registration",
    registrationPayload({ password: "faible", passwordConfirmation: "faible" }),
  );
  assertEquals(res.status, 422);
  assertEquals(
    res.json<{ errors: Record<string, string> }>().errors.passwordConfirmation,
    "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.",
  );
});

httpTest("forgotten password answers before doing the work", async () => {
  const env = await testEnv();
  const payload = registrationPayload();
  assertEquals((await new Client({ ip: freshIp() }).post("/api/security/registration", payload)).status, 200);
  const res = await new Client({ ip: freshIp() }).request("POST", "/forgotten-password", {
    form: { email: payload.email },
  });
  assertEquals(res.status, 200);
  const count = async () =>
    (await systemQuery(
      env.db,
      "select count(*)::int as n from public.email_outbox where recipient = $1 and template = 'password-reset'",
      [payload.email],
    ))[0].n;
  // The answer left before the reset email was written: the same work follows for any address.
  assertEquals(await count(), 0);
  await env.settle();
  assertEquals(await count(), 1);
});

httpTest("unknown origins of the test client stay refused (sanity)", async () => {
  const res = await new Client({ ip: freshIp() }).request("POST", "/api/security/login", {
    json: { username: "client@example.fr", password: "Cocktail#2026" },
    headers: { origin: "https://evil.example" },
  });
  assertEquals(res.status, 403);
  assertEquals(ORIGIN.startsWith("http://"), true);
});
