import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { Client, httpTest, testEnv } from "../support/app.ts";
import { TEST_SYSTEM, transactionAs } from "../support/db.ts";
import { invalidateSiteChrome } from "../../lib/site/chrome.ts";

httpTest("a city page renders server-side with header and footer, and ships no JavaScript", async () => {
  const res = await new Client().get("/ville/lyon");
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /text\/html/);
  assert(res.text.includes("Bar à cocktails événementiel à Lyon"));
  assert(res.text.includes("L'abus d'alcool est dangereux pour la santé"));
  assert(res.text.includes('href="/ville/paris"'));
  assertEquals(res.text.includes("<script"), false);
});

httpTest("footer cities are grouped in columns of 12", async () => {
  const res = await new Client().get("/ville/paris");
  const footer = res.text.slice(res.text.indexOf('data-testid="city-columns"'));
  const columns = footer.split("</ul>").slice(0, -1).map((col) =>
    (col.match(/href="\/ville\//g) ?? []).length
  );
  assertEquals(columns, [12, 6]);
});

httpTest("an unknown city is a French 404 page", async () => {
  const res = await new Client().get("/ville/atlantide");
  assertEquals(res.status, 404);
  assertMatch(res.contentType, /text\/html/);
  assert(res.text.includes("Cette ville n'existe pas."));
});

httpTest("the home page has one island and links its bundle only", async () => {
  const res = await new Client().get("/");
  assertEquals(res.status, 200);
  const scripts = res.text.match(/<script[^>]*>/g) ?? [];
  assertEquals(scripts.length, 1);
  assertMatch(scripts[0], /type="module" src="\/build\/islands\/AuthDialog-[A-Z0-9]+\.js"/);
  assert(res.text.includes('data-island="AuthDialog"'));
});

httpTest("GET /api/city/index lists the cities", async () => {
  const res = await new Client().get("/api/city/index");
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /application\/json/);
  const cities = res.json<{ slug: string; name: string }[]>();
  assertEquals(cities[0], { slug: "paris", name: "Paris" });
  assertEquals(cities.length, 18);
});

httpTest("security headers: strict CSP without inline script, no framing, nosniff", async () => {
  const res = await new Client().get("/");
  const csp = res.headers.get("content-security-policy") ?? "";
  const directives = Object.fromEntries(
    csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(" ")]),
  );
  assertEquals(directives["script-src"], "'self'");
  assertEquals(directives["style-src"], "'self'", "no inline <style>");
  // Style attributes only: the sanitised rich texts partners write carry them.
  assertEquals(directives["style-src-attr"], "'unsafe-inline'");
  assertEquals(
    directives["frame-src"],
    "https://www.google.com/maps/embed",
    "frames: Google Maps embeds only",
  );
  assertEquals(csp.replace("style-src-attr 'unsafe-inline'", "").includes("unsafe-inline"), false);
  assert(csp.includes("frame-ancestors 'none'"));
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  assertEquals(res.headers.get("x-frame-options"), "DENY");
});

httpTest("legal pages linked from registration exist", async () => {
  const client = new Client();
  for (const path of ["/cgu-cgv", "/politique-de-confidentialite"]) {
    const res = await client.get(path);
    assertEquals(res.status, 200, path);
  }
});

httpTest("unknown API paths answer a JSON 404 in French", async () => {
  const res = await new Client().get("/api/nothing/here");
  assertEquals(res.status, 404);
  assertMatch(res.contentType, /application\/json/);
  assertEquals(res.json().message, "La page demandée n'existe pas.");
});

httpTest("island bundles are served with a long immutable cache", async () => {
  const client = new Client();
  const home = await client.get("/");
  const src = /src="(\/build\/islands\/[^"]+)"/.exec(home.text)![1];
  const res = await client.get(src);
  assertEquals(res.status, 200);
  assertMatch(res.contentType, /javascript/);
  assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
});

httpTest(
  "public pages are cached for anonymous visitors only, and cleared with the site content",
  async () => {
    const { db } = await testEnv();
    const anonymous = new Client();
    const first = await anonymous.get("/ville/nantes");
    assert(first.text.includes('href="/login"'));
    await transactionAs(
      db,
      TEST_SYSTEM,
      (tx) => tx`update public.cities set intro = 'Texte modifié pour Nantes.' where slug = 'nantes'`,
    );
    assertEquals((await anonymous.get("/ville/nantes")).text, first.text, "served from the cache");

    const member = new Client();
    await member.login("client@example.fr");
    const personal = await member.get("/ville/nantes");
    assert(personal.text.includes("Mon espace"), "a signed-in visitor gets a fresh page");
    assert(personal.text.includes("Texte modifié pour Nantes."));

    invalidateSiteChrome();
    assert((await anonymous.get("/ville/nantes")).text.includes("Texte modifié pour Nantes."));

    assertEquals((await member.post("/logout")).status, 303);
    const withFlash = await member.get("/ville/nantes");
    assert(withFlash.text.includes("Vous êtes déconnecté."), "a pending flash message bypasses the cache");
    assertEquals((await anonymous.get("/ville/nantes")).text.includes("Vous êtes déconnecté."), false);
  },
);
