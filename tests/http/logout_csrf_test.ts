// No session ends or changes on a GET (issue 11 §3): an `<img src="/logout">`, a link or a script's
// request cannot log anyone out or end an impersonation. Logging out and switching back are POSTs,
// refused when another site sends them (Origin, Sec-Fetch-Site: lib/http/security.ts), and the menus'
// 'Déconnexion' and 'Revenir à mon compte' are form buttons.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, ORIGIN } from "../support/app.ts";
import { systemQuery } from "../support/db.ts";
import { testEnv } from "../support/app.ts";

const CSRF_REFUSED = "Requête refusée : elle ne provient pas de ce site.";

let ip = 0;
async function signedIn(email: string): Promise<Client> {
  const client = new Client({ ip: `10.62.${(++ip >> 8) & 255}.${(ip & 255) || 1}` });
  await client.login(email);
  return client;
}

const whoAmI = async (client: Client) => {
  const res = await client.get("/api/user/get");
  return res.status === 200 ? String(res.json().email) : null;
};

/** The ways a browser sends a GET: an image on this site's page, a link from another site, a typed
 * address, a script's fetch. */
const GETS: Record<string, string>[] = [
  { "sec-fetch-site": "same-origin", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
  { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
  { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
  {},
];

/** The ways another site can send a POST with the user's cookie. */
const FOREIGN_POSTS: Record<string, string>[] = [
  { origin: "https://evil.example" },
  { origin: "null" },
  { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
  { origin: ORIGIN, "sec-fetch-site": "cross-site" },
  { origin: ORIGIN, "sec-fetch-site": "same-site" },
  { origin: "http://localhost:8001" },
];

httpTest("GET /logout ends no session: it shows a button that logs out by POST", async () => {
  const client = await signedIn("client@example.fr");
  for (const headers of GETS) {
    const res = await client.get("/logout", headers);
    assertEquals(res.status, 200, JSON.stringify(headers));
    assertEquals(
      await whoAmI(client),
      "client@example.fr",
      `still signed in after GET ${JSON.stringify(headers)}`,
    );
    assert(/<form[^>]*method="post"[^>]*action="\/logout"/.test(res.text), res.text.slice(0, 500));
    assert(/<button[^>]*type="submit"[^>]*>[^<]*Se déconnecter/.test(res.text), "a confirm button");
  }
  // A visitor who is not signed in has nothing to confirm.
  const visitor = await new Client().get("/logout");
  assertEquals([visitor.status, visitor.headers.get("location")], [303, "/"]);
});

httpTest("POST /logout from another site is refused; from this site it logs out", async () => {
  const client = await signedIn("client@example.fr");
  for (const headers of FOREIGN_POSTS) {
    const res = await client.request("POST", "/logout", { headers });
    assertEquals(res.status, 403, JSON.stringify(headers));
    assertEquals(res.text.includes(CSRF_REFUSED), true, res.text.slice(0, 300));
    assertEquals(
      await whoAmI(client),
      "client@example.fr",
      `still signed in after ${JSON.stringify(headers)}`,
    );
  }
  const token = client.cookies.get("session")!;
  const res = await client.request("POST", "/logout", {
    headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" },
    form: {},
  });
  assertEquals([res.status, res.headers.get("location")], [303, "/"]);
  assertEquals(await whoAmI(client), null);
  const stale = new Client();
  stale.cookies.set("session", token);
  assertEquals(await whoAmI(stale), null, "the session is gone from the server, not only the cookie");
});

httpTest("GET /admin/switch-back ends no impersonation; POST does, from this site only", async () => {
  const admin = await signedIn("admin@example.fr");
  const { db } = await testEnv();
  const [target] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    "client2@example.fr",
  ]);
  assertEquals((await admin.request("POST", `/admin/switch/${target.id}`)).status, 303);
  assertEquals(await whoAmI(admin), "client2@example.fr");

  for (const headers of GETS) {
    const res = await admin.get("/admin/switch-back", headers);
    assertEquals(res.status, 200, JSON.stringify(headers));
    assert(
      /<form[^>]*method="post"[^>]*action="\/admin\/switch-back"/.test(res.text),
      res.text.slice(0, 500),
    );
    assertEquals(
      await whoAmI(admin),
      "client2@example.fr",
      `still impersonating after ${JSON.stringify(headers)}`,
    );
  }
  for (const headers of FOREIGN_POSTS) {
    const res = await admin.request("POST", "/admin/switch-back", { headers });
    assertEquals(res.status, 403, JSON.stringify(headers));
    assertEquals(
      await whoAmI(admin),
      "client2@example.fr",
      `still impersonating after ${JSON.stringify(headers)}`,
    );
  }
  // GET /logout while impersonating ends nothing either.
  await admin.get("/logout", GETS[0]);
  assertEquals(await whoAmI(admin), "client2@example.fr");

  const back = await admin.request("POST", "/admin/switch-back", {
    headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" },
    form: {},
  });
  assertEquals([back.status, back.headers.get("location")], [303, "/dashboard/admin/utilisateurs"]);
  assertEquals(await whoAmI(admin), "admin@example.fr");
});

httpTest("switching back without impersonating is refused, by GET as by POST", async () => {
  const admin = await signedIn("admin@example.fr");
  for (
    const res of [await admin.get("/admin/switch-back"), await admin.request("POST", "/admin/switch-back")]
  ) {
    assertEquals(res.status, 400);
    assert(
      res.text.includes("Vous n&#39;êtes pas en mode administrateur.") ||
        res.text.includes("Vous n'êtes pas en mode administrateur."),
      res.text.slice(0, 300),
    );
  }
  assertEquals(await whoAmI(admin), "admin@example.fr");
});

httpTest("the menus log out and switch back with form buttons, never with a link", async () => {
  const customer = await signedIn("client@example.fr");
  const admin = await signedIn("admin@example.fr");
  const { db } = await testEnv();
  const [target] = await systemQuery<{ id: string }>(db, "select id from public.users where email = $1", [
    "partenaire2@example.fr",
  ]);
  const impersonating = await signedIn("admin@example.fr");
  assertEquals((await impersonating.request("POST", `/admin/switch/${target.id}`)).status, 303);
  const pages: [string, Client, string][] = [
    ["the site's header", customer, "/"],
    ["the customer's dashboard", customer, "/dashboard"],
    ["the admin's dashboard", admin, "/dashboard/admin/utilisateurs"],
    ["the impersonated partner's dashboard", impersonating, "/dashboard"],
  ];
  for (const [what, client, path] of pages) {
    const page = await client.get(path);
    assertEquals(page.status, 200, what);
    assert(!/href="\/logout"/.test(page.text), `${what}: no link to /logout`);
    assert(!/href="\/admin\/switch-back"/.test(page.text), `${what}: no link to /admin/switch-back`);
    const forms = [...page.text.matchAll(/<form[^>]*action="\/logout"[^>]*>([\s\S]*?)<\/form>/g)];
    assert(forms.length > 0, `${what}: a logout form`);
    for (const form of forms) {
      assert(/method="post"/.test(form[0]), `${what}: the form posts`);
      assert(
        /<button[^>]*type="submit"[\s\S]*Déconnexion/.test(form[1]),
        `${what}: 'Déconnexion' is a button`,
      );
    }
  }
  const bar = (await impersonating.get("/dashboard")).text;
  assert(
    /<form[^>]*method="post"[^>]*action="\/admin\/switch-back"[^>]*>\s*<button[^>]*type="submit"[^>]*>Revenir à mon compte<\/button>/
      .test(bar),
    "the 'Mode Administrateur' bar switches back with a form button",
  );
});
