// The production cookie path in a real browser (the second web server of playwright.config.ts:
// APP_ENV=production, secure cookies, an empty database with one admin made by `deno task
// create-admin`). Logging in through /login sets `__Host-session` (Secure, HttpOnly, Path=/, no
// Domain), which Chromium keeps on http://localhost as on https; logging out ends the session on the
// server, so replaying the old cookie value no longer opens the dashboard.
import { type APIRequestContext, type BrowserContext, type Cookie, expect, test } from "@playwright/test";
import { authCard, flash } from "./support/helpers.ts";
import { PROD_ADMIN, PROD_URL, SECURE_SESSION_COOKIE } from "./support/production.ts";

test.use({ baseURL: PROD_URL });

const USERS = "/dashboard/admin/utilisateurs";

async function sessionCookies(context: BrowserContext): Promise<Cookie[]> {
  return (await context.cookies(PROD_URL)).filter((c) => /session/.test(c.name));
}

/** Puts a session cookie with this value back into a browser context, as an attacker replaying a
 * copied cookie would. (With `url`, Playwright derives `secure` from the scheme — false on http — so
 * the host goes in `domain`: without a leading dot it stays a host-only cookie, as __Host- requires.) */
function replay(context: BrowserContext, value: string): Promise<void> {
  return context.addCookies([{
    name: SECURE_SESSION_COOKIE,
    value,
    domain: new URL(PROD_URL).hostname,
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Lax",
  }]);
}

/** GET /api/user/get with this session cookie value, from a request context without cookies of its own. */
function readProfile(request: APIRequestContext, value: string) {
  return request.get("/api/user/get", {
    headers: { accept: "application/json", cookie: `${SECURE_SESSION_COOKIE}=${value}` },
  });
}

test("production : cookie __Host-session sécurisé à la connexion, inutilisable après la déconnexion", async ({ page, context, browser, request }) => {
  // Production loads no demo data: the demo accounts do not exist.
  const demo = await page.request.post("/api/security/login", {
    data: { username: "client@example.fr", password: "Cocktail#2026" },
  });
  expect(demo.status()).toBe(401);
  expect(await sessionCookies(context)).toEqual([]);

  // Logging in through the /login form.
  await page.goto("/login");
  const card = authCard(page);
  await expect(card).toHaveAttribute("data-mode", "login");
  await card.getByLabel("Email", { exact: true }).fill(PROD_ADMIN.email);
  await card.getByLabel("Mot de passe", { exact: true }).fill(PROD_ADMIN.password);
  const loginResponse = page.waitForResponse((r) => r.url().endsWith("/api/security/login"));
  await Promise.all([
    page.waitForURL(new RegExp(`${USERS}$`)),
    card.getByRole("button", { name: "Se connecter" }).click(),
  ]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Utilisateurs");
  await expect(page.getByTestId("user-name")).toHaveText(`${PROD_ADMIN.firstname} ${PROD_ADMIN.lastname}`);

  // What the server sent…
  const setCookie = (await (await loginResponse).headersArray())
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value)
    .find((v) => v.startsWith(`${SECURE_SESSION_COOKIE}=`));
  expect(setCookie, "Set-Cookie: __Host-session=…").toBeTruthy();
  const attributes = setCookie!.split(/;\s*/).slice(1).map((a) => a.toLowerCase());
  expect(attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "secure", "samesite=lax"]));
  expect(attributes.some((a) => a.startsWith("domain="))).toBe(false);

  // … and what Chromium kept: only __Host-session, Secure, host-only, for the whole site.
  const cookies = await sessionCookies(context);
  expect(cookies.map((c) => c.name)).toEqual([SECURE_SESSION_COOKIE]);
  const [session] = cookies;
  expect(session).toMatchObject({
    name: SECURE_SESSION_COOKIE,
    domain: "localhost",
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "Lax",
  });
  expect(session.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);

  // While the session lives, the copied value opens the dashboard from another browser context: the
  // replay below is a fair test.
  const other = await browser.newContext({ baseURL: PROD_URL });
  try {
    await replay(other, session.value);
    const otherPage = await other.newPage();
    await otherPage.goto("/dashboard");
    await expect(otherPage).toHaveURL(`${PROD_URL}/dashboard`);
    await expect(otherPage.getByRole("heading", { level: 1 })).toHaveText("Mon tableau de bord");
    await expect(otherPage.getByTestId("user-name")).toHaveText(
      `${PROD_ADMIN.firstname} ${PROD_ADMIN.lastname}`,
    );

    const apiBefore = await readProfile(request, session.value);
    expect(apiBefore.status()).toBe(200);
    expect((await apiBefore.json()).email).toBe(PROD_ADMIN.email);

    // Logging out: the cookie goes from the browser and the session from the server.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await expect(page).toHaveURL(`${PROD_URL}/`);
    await expect(flash(page, "Vous êtes déconnecté.")).toBeVisible();
    expect(await sessionCookies(context)).toEqual([]);
    const afterLogout = await page.goto(USERS);
    expect(afterLogout?.request().redirectedFrom()).toBeTruthy();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%2Fadmin%2Futilisateurs$/);

    // Replaying the old value: refused in the same browser…
    await replay(context, session.value);
    const { expires: _expires, ...sameCookie } = session; // a session cookie now, with the same value
    expect(await sessionCookies(context)).toEqual([expect.objectContaining(sameCookie)]);
    await page.goto(USERS);
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%2Fadmin%2Futilisateurs$/);
    await expect(authCard(page)).toHaveAttribute("data-mode", "login");
    await expect(page.getByTestId("user-name")).toHaveCount(0);
    await page.goto("/dashboard/profil");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%2Fprofil$/);

    // … and in the other context, which still holds it.
    await otherPage.goto("/dashboard");
    await expect(otherPage).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
    // The API refuses it too (sent by hand, outside any browser).
    const apiAfter = await readProfile(request, session.value);
    expect(apiAfter.status(), await apiAfter.text()).toBe(401);
  } finally {
    await other.close();
  }
});
