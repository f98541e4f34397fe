import { assert, assertEquals } from "../support/assert.ts";
import { TEST_SYSTEM, transactionAs } from "../support/db.ts";
import { Client, httpTest, registrationPayload, testEnv } from "../support/app.ts";

async function newCustomer() {
  const client = new Client();
  const payload = registrationPayload();
  const res = await client.post("/api/security/registration", payload);
  assertEquals(res.status, 200);
  return { client, payload, id: res.json().id as string };
}

const profileUpdate = (overrides: Record<string, unknown> = {}) => ({
  firstname: "Léa",
  lastname: "Martin",
  address1: "5 avenue Foch",
  address2: "Bâtiment B",
  zipcode: "75016",
  city: "Paris",
  phone: registrationPayload().phone,
  birthdate: "1988-07-14",
  name: "Léa Événements",
  siren: "",
  emails: ["compta@example.fr"],
  ...overrides,
});

httpTest("anonymous calls to the account API get 401 in French", async () => {
  const client = new Client();
  for (
    const [method, path] of [["GET", "/api/user/get"], ["PATCH", "/api/user/update"], [
      "DELETE",
      "/api/user/delete",
    ]]
  ) {
    const res = await client.request(method, path, { json: method === "GET" ? undefined : {} });
    assertEquals(res.status, 401, path);
    assertEquals(res.json().message, "Veuillez vous connecter pour continuer.");
  }
});

httpTest("PATCH /api/user/update saves the profile and returns the user", async () => {
  const { client } = await newCustomer();
  const update = profileUpdate();
  const res = await client.patch("/api/user/update", update);
  assertEquals(res.status, 200);
  const user = res.json();
  assertEquals([user.lastname, user.address2, user.name, user.city], [
    "Martin",
    "Bâtiment B",
    "Léa Événements",
    "Paris",
  ]);
  assertEquals(user.emails, ["compta@example.fr"]);
  assertEquals(user.birthdate, Date.UTC(1988, 6, 14) / 1000);
  assertEquals((await client.get("/api/user/get")).json().lastname, "Martin");
});

httpTest("profile validation answers 422 with each field's message and changes nothing", async () => {
  const { client, payload } = await newCustomer();
  const res = await client.patch(
    "/api/user/update",
    profileUpdate({ firstname: " ", siren: "12", emails: ["x"] }),
  );
  assertEquals(res.status, 422);
  const body = res.json<{ message: string; errors: Record<string, string> }>();
  assertEquals(body.message, "Veuillez renseigner toutes les informations obligatoires");
  assertEquals(body.errors.firstname, "Votre prénom est requis.");
  // Spec 001 §5: the 9-digit rule is the partners'; a customer's SIREN only has a 9-character maximum.
  assertEquals(body.errors.siren, undefined);
  assertEquals(body.errors.emails, "Le mail doit être valide.");
  assertEquals((await client.get("/api/user/get")).json().firstname, payload.firstname);
  const long = await client.patch("/api/user/update", profileUpdate({ siren: "1234567890" }));
  assertEquals(long.status, 422);
  assertEquals(
    long.json<{ errors: Record<string, string> }>().errors.siren,
    "Le SIREN ne doit pas dépasser 9 caractères.",
  );
});

httpTest(
  "a customer's SIREN of fewer than 9 digits is kept; a private customer has no VAT number",
  async () => {
    const { client } = await newCustomer();
    const saved = await client.patch("/api/user/update", profileUpdate({ siren: "12" }));
    assertEquals(saved.status, 200, saved.text);
    assertEquals(saved.json().siren, "12");
    // No company name and no SIREN: a private customer; a VAT number sent anyway is not stored.
    const privateCustomer = await client.patch(
      "/api/user/update",
      profileUpdate({ name: "", siren: "", vatNumber: "FR83404833048" }),
    );
    assertEquals(privateCustomer.status, 200, privateCustomer.text);
    assertEquals(privateCustomer.json().vatNumber, null);
    assertEquals((await client.get("/api/user/get")).json().vatNumber, null);
  },
);

httpTest(
  "PATCH /api/user/update refuses lone surrogates and control characters in French (422)",
  async () => {
    const { client, payload } = await newCustomer();
    for (
      const [field, value] of [
        ["firstname", "\ud800"],
        ["firstname", "Lé\r\na"],
        ["city", "Pa\u0085ris"],
        ["address1", "5 avenue\tFoch"],
        ["name", "Léa\u007fÉvénements"],
      ]
    ) {
      const res = await client.patch("/api/user/update", profileUpdate({ [field]: value }));
      assertEquals(res.status, 422, `${field}: ${JSON.stringify(value)}`);
      assertEquals(
        res.json<{ errors: Record<string, string> }>().errors[field],
        "Ce champ contient des caractères non autorisés.",
      );
    }
    // NUL never reaches a schema: the body reader refuses it first (lib/http/context.ts, a French 400).
    const nul = await client.patch("/api/user/update", profileUpdate({ lastname: "Mar\u0000tin" }));
    assertEquals(nul.status, 400);
    assertEquals(nul.json().message, "Le contenu de la requête est invalide.");
    const email = await client.patch(
      "/api/user/update",
      profileUpdate({ emails: ["victim-x@evil.example>,<foo"] }),
    );
    assertEquals(email.status, 422);
    assertEquals(email.json<{ errors: Record<string, string> }>().errors.emails, "Le mail doit être valide.");
    assertEquals((await client.get("/api/user/get")).json().firstname, payload.firstname, "nothing written");
    // Accents, apostrophes and emoji (valid surrogate pairs) are fine.
    assertEquals(
      (await client.patch("/api/user/update", profileUpdate({ firstname: "Zoë 🍸 d'Arc" }))).status,
      200,
    );
  },
);

httpTest("a business customer's VAT number is stored, checked and kept by later updates", async () => {
  const { client } = await newCustomer();
  // Absent before: the field used to be dropped for customers.
  const saved = await client.patch(
    "/api/user/update",
    profileUpdate({ siren: "404833048", vatNumber: "fr 83 404 833 048" }),
  );
  assertEquals(saved.status, 200, saved.text);
  assertEquals([saved.json().siren, saved.json().vatNumber], ["404833048", "FR83404833048"]);
  assertEquals((await client.get("/api/user/get")).json().vatNumber, "FR83404833048");
  // A partial update keeps it; a wrong key or another SIREN is refused in French, nothing written.
  assertEquals((await client.patch("/api/user/update", { city: "Lyon" })).json().vatNumber, "FR83404833048");
  for (
    const [vatNumber, message] of [
      [
        "FR84404833048",
        "Ce numéro de TVA n'existe pas : sa clé (les 2 caractères après FR) ne correspond pas au SIREN qui le suit.",
      ],
      [
        "FR32123456789",
        "Le numéro de TVA doit contenir votre SIREN : FR, la clé, puis les 9 chiffres du SIREN.",
      ],
      ["F1", "Le numéro de TVA doit être au format européen (ex: FR12345678901)."],
    ]
  ) {
    const bad = await client.patch("/api/user/update", { vatNumber });
    assertEquals(bad.status, 422, vatNumber);
    assertEquals(bad.json<{ errors: Record<string, string> }>().errors.vatNumber, message, vatNumber);
  }
  assertEquals((await client.get("/api/user/get")).json().vatNumber, "FR83404833048");
  // Emptied: removed.
  assertEquals((await client.patch("/api/user/update", { vatNumber: "" })).json().vatNumber, null);
});

httpTest("a phone number used by another account is refused", async () => {
  const { client } = await newCustomer();
  const res = await client.patch("/api/user/update", profileUpdate({ phone: "0600000004" }));
  assertEquals(res.status, 422);
  assertEquals(
    res.json<{ errors: Record<string, string> }>().errors.phone,
    "Ce téléphone existe déjà chez nous.",
  );
});

httpTest("users cannot change their type or email through the profile", async () => {
  const { client, payload } = await newCustomer();
  const res = await client.patch(
    "/api/user/update",
    profileUpdate({ type: "Admin", email: "autre@example.fr" }),
  );
  assertEquals(res.status, 200);
  assertEquals(res.json().type, "Customer");
  assertEquals(res.json().email, payload.email);
});

httpTest("company profiles keep SIREN, VAT number and exemption", async () => {
  // A demo partner's profile, put back afterwards: other test files read its company name.
  const { db } = await testEnv();
  const COLUMNS = "firstname, lastname, name, address1, address2, zipcode, city, phone, birthdate, siren, " +
    "vat_number, vat_exemption, emails";
  const [saved] = await transactionAs(
    db,
    TEST_SYSTEM,
    (tx) => tx.query(`select ${COLUMNS} from public.users where email = 'partenaire2@example.fr'`),
  );
  // Its open quotes are priced with VAT: the switch to the exemption is refused while they are open
  // (seller_vat_test.ts); set aside here, then put back.
  const open = await transactionAs(db, TEST_SYSTEM, (tx) =>
    tx.query<{ id: number; status: string }>(
      `select d.id, d.status from public.deals d join public.users u on u.id = d.company_id
       where u.email = 'partenaire2@example.fr'
         and d.status in ('start', 'new', 'pending', 'send', 'edited', 'accepted', 'pay_partial')`,
    ));
  try {
    await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) =>
        tx.query("update public.deals set status = 'refused' where id = any($1::bigint[])", [
          open.map((d) => d.id),
        ]),
    );
    await companyProfile();
  } finally {
    for (const d of open) {
      await transactionAs(
        db,
        TEST_SYSTEM,
        (tx) => tx.query("update public.deals set status = $1 where id = $2", [d.status, d.id]),
      );
    }
    const columns = COLUMNS.split(", ");
    await transactionAs(db, TEST_SYSTEM, (tx) =>
      tx.query(
        `update public.users set ${columns.map((c, i) => `${c} = $${i + 1}`).join(", ")}
         where email = 'partenaire2@example.fr'`,
        columns.map((c) => saved[c]),
      ));
  }
});

async function companyProfile() {
  const client = new Client();
  await client.login("partenaire2@example.fr");
  const res = await client.patch(
    "/api/user/update",
    profileUpdate({
      siren: "987654321",
      vatNumber: "FR05987654321",
      vatExemption: true,
      phone: "0600000003",
    }),
  );
  assertEquals(res.status, 200);
  assertEquals([res.json().siren, res.json().vatNumber, res.json().vatExemption], [
    "987654321",
    "FR05987654321",
    true,
  ]);
  const bad = await client.patch("/api/user/update", profileUpdate({ siren: "", phone: "0600000003" }));
  assertEquals(
    bad.json<{ errors: Record<string, string> }>().errors.siren,
    "Le SIREN doit contenir exactement 9 chiffres.",
  );
}

httpTest("changing the password keeps this session, ends the others, and works at next login", async () => {
  const { client, payload } = await newCustomer();
  const other = new Client();
  await other.login(payload.email, payload.password);
  const short = await client.patch(
    "/api/user/update",
    profileUpdate({ password: "Court#1", passwordConfirmation: "Court#1" }),
  );
  assertEquals(
    short.json<{ errors: Record<string, string> }>().errors.password,
    "Le mot de passe doit contenir au moins 12 caractères.",
  );
  const res = await client.patch(
    "/api/user/update",
    profileUpdate({ password: "un mot de passe long", passwordConfirmation: "un mot de passe long" }),
  );
  assertEquals(res.status, 200);
  assertEquals((await client.get("/api/user/get")).status, 200);
  assertEquals((await other.get("/api/user/get")).status, 401);
  await new Client().login(payload.email, "un mot de passe long");
});

httpTest(
  "account deletion: 14-day grace, cancel, reactivation by logging in, then anonymisation",
  async () => {
    const { db } = await testEnv();
    const { client, payload, id } = await newCustomer();
    const deleted = await client.delete("/api/user/delete");
    assertEquals(deleted.status, 200);
    assert(typeof deleted.json().deletedAt === "number");
    const cancelled = await client.patch("/api/user/delete/cancel");
    assertEquals(cancelled.json().deletedAt, null);

    await client.delete("/api/user/delete");
    const again = new Client();
    await again.login(payload.email, payload.password);
    assertEquals((await again.get("/api/user/get")).json().deletedAt, null, "logging in reactivates");
    assertEquals((await again.get("/api/user/flash-messages")).json(), [
      { type: "success", message: "Votre compte a été réactivé : sa suppression est annulée." },
    ]);

    await again.delete("/api/user/delete");
    await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) => tx`update public.users set deleted_at = now() - interval '13 days' where id = ${id}`,
    );
    await transactionAs(db, TEST_SYSTEM, (tx) => tx`select public.purge_deleted_accounts()`);
    assertEquals((await again.get("/api/user/get")).status, 200, "still inside the grace period");

    await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) => tx`update public.users set deleted_at = now() - interval '15 days' where id = ${id}`,
    );
    await transactionAs(db, TEST_SYSTEM, (tx) => tx`select public.purge_deleted_accounts()`);
    assertEquals((await again.get("/api/user/get")).status, 401, "sessions end with the account");
    const login = await new Client().post("/api/security/login", {
      username: payload.email,
      password: payload.password,
    });
    assertEquals(login.status, 401);
    const [row] = await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) =>
        tx<{ email: string; phone: string | null }>`select email, phone from public.users where id = ${id}`,
    );
    assertEquals(row.phone, null);
    assert(row.email.endsWith("@invalid.invalid"));
  },
);

httpTest("the profile page renders the profile island with the user's data", async () => {
  const client = new Client();
  await client.login("client@example.fr");
  const page = await client.get("/dashboard/profil");
  assertEquals(page.status, 200);
  assert(page.text.includes('data-island="ProfileForm"'));
  assert(page.text.includes("Mon profil"));
  assert(page.text.includes("client@example.fr"));
});
