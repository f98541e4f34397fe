import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { TEST_SYSTEM, transactionAs } from "../support/db.ts";
import { Client, httpTest, ORIGIN, registrationPayload, testEnv, uniqueContact } from "../support/app.ts";
import { sentText } from "../support/mail.ts";

httpTest("registration creates a customer and logs them in", async () => {
  const client = new Client();
  const payload = registrationPayload();
  const res = await client.post("/api/security/registration", payload);
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /application\/json/);
  const user = res.json();
  assertEquals(user.type, "Customer");
  assertEquals(user.email, payload.email);
  assertEquals(user.isPreviousAdmin, false);
  assertEquals(user.birthdate, Date.UTC(1990, 4, 12) / 1000);
  const me = await client.get("/api/user/get");
  assertEquals(me.status, 200);
  assertEquals(me.json().id, user.id);
});

httpTest("a professional registration needs the company name and a 9-digit SIREN", async () => {
  const client = new Client();
  let res = await client.post("/api/security/registration", registrationPayload({ professional: true }));
  assertEquals(res.status, 422);
  assertEquals(res.json<{ errors: Record<string, string> }>().errors, {
    name: "Ce champ est requis",
    siren: "Ce champ est requis",
  });
  res = await client.post(
    "/api/security/registration",
    registrationPayload({ name: "Ma Société", siren: "1234" }),
  );
  assertEquals(
    res.json<{ errors: Record<string, string> }>().errors.siren,
    "Le SIREN doit contenir exactement 9 chiffres.",
  );
  res = await client.post(
    "/api/security/registration",
    registrationPayload({ professional: true, name: "Ma Société", siren: "123 456 789" }),
  );
  assertEquals(res.status, 200);
  assertEquals(res.json().name, "Ma Société");
  assertEquals(res.json().siren, "123456789");
});

httpTest("registration rejects bad input with the spec's French messages and writes nothing", async () => {
  const payload = registrationPayload({
    email: "pas-un-email",
    password: "faible",
    passwordConfirmation: "autre",
    terms: false,
    birthdate: "2015-01-01",
  });
  const res = await new Client().post("/api/security/registration", payload);
  assertEquals(res.status, 422);
  const body = res.json<{ message: string; errors: Record<string, string> }>();
  assertEquals(body.message, "Veuillez renseigner tous les champs obligatoires");
  assertEquals(body.errors.email, "L'email doit être valide.");
  assertEquals(
    body.errors.password,
    "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.",
  );
  // The confirmation follows the password rule before it is compared (spec 000 §5).
  assertEquals(
    body.errors.passwordConfirmation,
    "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.",
  );
  assertEquals(body.errors.terms, "Vous devez accepter les conditions générales");
  assertEquals(body.errors.birthdate, "Vous devez avoir plus de 18 ans");
  const { db } = await testEnv();
  const rows = await transactionAs(
    db,
    TEST_SYSTEM,
    (tx) => tx`select 1 from public.users where phone = ${payload.phone}`,
  );
  assertEquals(rows.length, 0);
});

httpTest("registration refuses an email or phone that already exists", async () => {
  const res = await new Client().post(
    "/api/security/registration",
    registrationPayload({ email: "CLIENT@example.fr", phone: "06 00 00 00 05" }),
  );
  assertEquals(res.status, 422);
  const errors = res.json<{ errors: Record<string, string> }>().errors;
  assertEquals(errors.email, "Cet email existe déjà chez nous.");
  assertEquals(errors.phone, "Ce téléphone existe déjà chez nous.");
});

httpTest("/email/exists and /phone/exists take a form field and answer exists", async () => {
  const client = new Client();
  const check = async (path: string, form: Record<string, string>) =>
    (await client.request("POST", path, { form })).json().exists;
  assertEquals(await check("/email/exists", { email: "client@example.fr" }), true);
  assertEquals(await check("/email/exists", { email: uniqueContact().email }), false);
  assertEquals(await check("/phone/exists", { phone: "06.00.00.00.04" }), true);
  assertEquals(await check("/phone/exists", { phone: uniqueContact().phone }), false);
});

httpTest("login returns the user and a token, sets an HttpOnly SameSite session cookie", async () => {
  const client = new Client();
  const res = await client.post("/api/security/login", {
    username: "partenaire@example.fr",
    password: "Cocktail#2026",
  });
  assertEquals(res.status, 200);
  assertEquals(res.json().type, "Company");
  assertEquals(typeof res.json().token, "string");
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="))!;
  assertMatch(cookie, /HttpOnly/);
  assertMatch(cookie, /SameSite=Lax/);
});

httpTest("a wrong password is refused in French, without a session", async () => {
  const client = new Client();
  const res = await client.post("/api/security/login", {
    username: "client@example.fr",
    password: "Mauvais#2026",
  });
  assertEquals(res.status, 401);
  assertEquals(res.json().message, "Email ou mot de passe incorrect");
  assertEquals((await client.get("/api/user/get")).status, 401);
});

httpTest("every login gets a new session id", async () => {
  const a = new Client();
  await a.login("client2@example.fr");
  const first = a.cookies.get("session");
  await a.login("client2@example.fr");
  assert(first && a.cookies.get("session") && first !== a.cookies.get("session"));
  // The first session is independent and still valid for its own holder.
  const b = new Client();
  b.cookies.set("session", first!);
  assertEquals((await b.get("/api/user/get")).status, 200);
});

httpTest("after 10 failed logins in 15 minutes the account is locked with a clear message", async () => {
  const client = new Client();
  const payload = registrationPayload();
  await client.post("/api/security/registration", payload);
  for (let i = 0; i < 10; i++) {
    const res = await client.post("/api/security/login", { username: payload.email, password: "Faux#0000" });
    assertEquals(res.status, 401);
  }
  const locked = await client.post("/api/security/login", {
    username: payload.email,
    password: payload.password,
  });
  assertEquals(locked.status, 429);
  assertEquals(
    locked.json().message,
    "Trop de tentatives de connexion échouées. Veuillez réessayer dans 15 minutes.",
  );
  // Other accounts are not affected.
  assertEquals(
    (await new Client().post("/api/security/login", {
      username: "client@example.fr",
      password: "Cocktail#2026",
    })).status,
    200,
  );
});

httpTest("logout ends the session and leaves a flash message", async () => {
  const client = new Client();
  await client.login("client@example.fr");
  const token = client.cookies.get("session")!;
  const res = await client.request("POST", "/logout", { form: {} });
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/");
  const stale = new Client();
  stale.cookies.set("session", token);
  assertEquals((await stale.get("/api/user/get")).status, 401);
  const flashes = await client.get("/api/user/flash-messages");
  assertEquals(flashes.json(), [{ type: "info", message: "Vous êtes déconnecté." }]);
  assertEquals((await client.get("/api/user/flash-messages")).json(), []);
});

httpTest("/after/login sends each role to its landing page and honours local redirects only", async () => {
  const expectations: [string, string][] = [
    ["admin@example.fr", "/dashboard/admin/utilisateurs"],
    ["partenaire@example.fr", "/dashboard"],
    ["client@example.fr", "/dashboard/demandes-en-cours"],
  ];
  for (const [email, landing] of expectations) {
    const client = new Client();
    await client.login(email);
    assertEquals((await client.get("/after/login")).headers.get("location"), landing);
    assertEquals(
      (await client.get("/after/login?redirect=%2Fdashboard%2Fprofil")).headers.get("location"),
      "/dashboard/profil",
    );
    assertEquals(
      (await client.get("/after/login?redirect=https%3A%2F%2Fevil.example")).headers.get("location"),
      landing,
    );
  }
  assertEquals((await new Client().get("/after/login")).headers.get("location"), "/login");
});

httpTest("state-changing requests from another site are refused", async () => {
  const client = new Client();
  const foreign = await client.request("POST", "/api/security/login", {
    json: { username: "client@example.fr", password: "Cocktail#2026" },
    headers: { origin: "https://evil.example" },
  });
  assertEquals(foreign.status, 403);
  const crossSite = await client.request("POST", "/api/security/login", {
    json: { username: "client@example.fr", password: "Cocktail#2026" },
    headers: { origin: ORIGIN, "sec-fetch-site": "cross-site" },
  });
  assertEquals(crossSite.status, 403);
  assertEquals(client.cookies.has("session"), false);
});

httpTest("malformed and oversized bodies get 400 and 413, never 500", async () => {
  const client = new Client();
  const malformed = await client.request("POST", "/api/security/login", {
    body: "{not json",
    headers: { "content-type": "application/json" },
  });
  assertEquals(malformed.status, 400);
  assertEquals(malformed.json().message, "Le contenu de la requête est invalide.");
  const huge = await client.request("POST", "/api/security/registration", {
    body: JSON.stringify({ firstname: "x".repeat(1_100_000) }),
    headers: { "content-type": "application/json" },
  });
  assertEquals(huge.status, 413);
  const array = await client.post("/api/security/registration", [1, 2]);
  assertEquals(array.status, 400);
});

httpTest("forgotten password: emailed single-use expiring link, sessions revoked", async () => {
  const { db } = await testEnv();
  const owner = new Client();
  const payload = registrationPayload();
  await owner.post("/api/security/registration", payload);

  const visitor = new Client();
  const page = await visitor.request("POST", "/forgotten-password", { form: { email: payload.email } });
  assertEquals(page.status, 200);
  assert(page.text.includes("Si un compte existe pour cet email"));
  // Unknown emails get the same answer and no email.
  const unknown = await visitor.request("POST", "/forgotten-password", {
    form: { email: uniqueContact().email },
  });
  assert(unknown.text.includes("Si un compte existe pour cet email"));
  await testEnv().then((env) => env.settle());

  const [mail] = await transactionAs(
    db,
    TEST_SYSTEM,
    (tx) =>
      tx<{ text_body: string; subject: string; sealed: string | null }>`
      select text_body, subject, sealed_body as sealed from public.email_outbox
      where recipient = ${payload.email} and template = 'password-reset'`,
  );
  assertEquals(mail.subject, "Réinitialisation de votre mot de passe");
  // Stored with the link masked and sealed (what Studio or a backup reads opens no account).
  assert(!mail.text_body.includes("/reset-password/"), mail.text_body);
  const sent = await sentText({ text: mail.text_body, sealed: mail.sealed });
  const link = /http:\/\/localhost:8000(\/reset-password\/[A-Za-z0-9_-]+)/.exec(sent)![1];

  assertEquals((await visitor.get(link)).status, 200);
  const weak = await visitor.request("POST", link, {
    form: { password: "court", passwordConfirmation: "court" },
  });
  assertEquals(weak.status, 422);
  const done = await visitor.request("POST", link, {
    form: { password: "Nouveau#2026", passwordConfirmation: "Nouveau#2026" },
  });
  assertEquals(done.status, 303);
  assertEquals(done.headers.get("location"), "/login");

  assertEquals((await owner.get("/api/user/get")).status, 401, "old sessions end");
  assertEquals((await visitor.get(link)).status, 400, "the link is single-use");
  await new Client().login(payload.email, "Nouveau#2026");

  // An expired link is refused too.
  await visitor.request("POST", "/forgotten-password", { form: { email: payload.email } });
  await testEnv().then((env) => env.settle());
  await transactionAs(
    db,
    TEST_SYSTEM,
    (tx) => tx`update identity.password_reset_tokens set expires_at = now() - interval '1 minute'`,
  );
  const [second] = await transactionAs(
    db,
    TEST_SYSTEM,
    (tx) =>
      tx<{ text: string; sealed: string | null }>`select text_body as text, sealed_body as sealed
        from public.email_outbox where recipient = ${payload.email} and template = 'password-reset'
        order by created_at desc limit 1`,
  );
  const expired =
    /http:\/\/localhost:8000(\/reset-password\/[A-Za-z0-9_-]+)/.exec(await sentText(second))![1];
  const res = await visitor.get(expired);
  assertEquals(res.status, 400);
  assert(res.text.includes("Ce lien de réinitialisation est invalide ou a expiré."));
});

httpTest("the login page renders the auth island; logged-in visitors skip it", async () => {
  const client = new Client();
  const page = await client.get("/login?mode=register");
  assertEquals(page.status, 200);
  assert(page.text.includes('data-island="AuthForm"'));
  assert(page.text.includes("&quot;mode&quot;:&quot;register&quot;"));
  await client.login("client@example.fr");
  assertEquals((await client.get("/login")).headers.get("location"), "/after/login");
});

httpTest("a link from another site cannot log the user out", async () => {
  const client = new Client();
  await client.login("client@example.fr");
  const res = await client.get("/logout", { "sec-fetch-site": "cross-site" });
  assertEquals(res.status, 200, "a page asking to confirm");
  assertEquals((await client.get("/api/user/get")).status, 200);
  const post = await client.request("POST", "/logout", { headers: { "sec-fetch-site": "cross-site" } });
  assertEquals(post.status, 403);
  assertEquals((await client.get("/api/user/get")).status, 200);
  await client.request("POST", "/logout", { headers: { "sec-fetch-site": "same-origin" } });
  assertEquals((await client.get("/api/user/get")).status, 401);
});
