// The production cookie path end to end: APP_ENV=production with an https APP_URL, log in, reach the
// dashboard, log out, replay the old cookie.
import { assert, assertEquals } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { productionApp } from "../support/production.ts";

const HTTPS_ORIGIN = "https://bar.example";

httpTest("production over https: login keeps the user logged in and logout revokes the cookie", async () => {
  const { db } = await testEnv();
  const app = await productionApp(db, HTTPS_ORIGIN);
  const client = new Client({ app, origin: HTTPS_ORIGIN, ip: "10.200.0.1" });
  const login = await client.login("partenaire@example.fr");
  const setCookie = login.headers.getSetCookie().find((c) => c.includes("session="))!;
  assert(setCookie.startsWith("__Host-session="), setCookie);
  assert(
    /;\s*Secure/i.test(setCookie) && /;\s*Path=\//i.test(setCookie) && !/Domain=/i.test(setCookie),
    setCookie,
  );
  assertEquals([...client.cookies.keys()].filter((k) => k.includes("session")), ["__Host-session"]);

  const dashboard = await client.get("/dashboard");
  assertEquals(dashboard.status, 200, "the dashboard is reached with the session cookie");
  assertEquals((await client.get("/api/user/get")).json().email, "partenaire@example.fr");

  const token = client.cookies.get("__Host-session")!;
  const logout = await client.request("POST", "/logout", { headers: { "sec-fetch-site": "same-origin" } });
  assertEquals(logout.status, 303);
  const cleared = logout.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
  assert(cleared && /Max-Age=0/i.test(cleared), `logout clears the cookie: ${cleared}`);

  const replay = new Client({ app, origin: HTTPS_ORIGIN, ip: "10.200.0.2" });
  replay.cookies.set("__Host-session", token);
  assertEquals((await replay.get("/api/user/get")).status, 401, "the old cookie is revoked");
  const page = await replay.get("/dashboard");
  assertEquals(page.status, 303);
  assert(page.headers.get("location")!.startsWith("/login"));
});
