// Accessibility (WCAG 2.1 AA): axe-core with the tags wcag2a, wcag2aa, wcag21a and wcag21aa on the main
// pages of each role, at 1280 px and 390 px, must find nothing. Before the brand and slate-400 colour
// tokens were darkened (static/styles.css), colour contrast failed on every page (27 nodes on the admin
// deals list, 7 on the customer's 'Mes devis', 3 on the quote page).
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page, request, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "./support/helpers.ts";

type Who = keyof typeof DEMO | null;

async function apiGet<T>(baseURL: string, email: string, path: string): Promise<T> {
  const api = await request.newContext({ baseURL });
  const login = await api.post("/api/security/login", { data: { username: email, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const answer = await api.get(path);
  expect(answer.status(), path).toBe(200);
  const body = (await answer.json()).results as T;
  await api.dispose();
  return body;
}

let partnerDealId = 0;
let quoteToken = "";
test.beforeAll(async ({ baseURL }) => {
  // The partner's list answers the deals themselves (the admin's, a page with its items).
  const deals = await apiGet<{ id: number }[]>(baseURL!, DEMO.partner.email, "/api/deal/index");
  partnerDealId = deals[0].id;
  const quotes = await apiGet<{ token: string; status: string }[]>(
    baseURL!,
    DEMO.client.email,
    "/api/customer/deal/index",
  );
  quoteToken = quotes.find((q) => !["start", "new", "pending"].includes(q.status))!.token;
});

const PAGES: { name: string; who: Who; path: () => string }[] = [
  { name: "liste des devis (admin)", who: "admin", path: () => "/dashboard/admin/devis" },
  {
    name: "fiche devis (admin)",
    who: "admin",
    path: () => `/dashboard/espace-partenaire/deal/${partnerDealId}`,
  },
  {
    name: "fiche devis (partenaire)",
    who: "partner",
    path: () => `/dashboard/espace-partenaire/deal/${partnerDealId}`,
  },
  { name: "Mes devis (partenaire)", who: "partner", path: () => "/dashboard/partenaire/devis" },
  { name: "Mes devis (client)", who: "client", path: () => "/dashboard/client/devis" },
  { name: "page devis (visiteur)", who: null, path: () => `/deal/show/${quoteToken}` },
  { name: "page devis (client)", who: "client", path: () => `/deal/show/${quoteToken}` },
  { name: "connexion", who: null, path: () => "/login" },
  { name: "demande de devis", who: null, path: () => "/demande-de-devis" },
  { name: "profil (client)", who: "client", path: () => "/dashboard/profil" },
];

/** Rules a page is known to break (none today: add one only with its reason). */
const KNOWN: Record<string, string[]> = {};

async function violations(page: Page, known: string[]) {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .disableRules(known)
    .analyze();
  return result.violations.map((v) => ({
    rule: v.id,
    nodes: v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1] ?? ""}`),
  }));
}

for (const width of [1280, 390]) {
  test.describe(`axe WCAG 2.1 AA à ${width} px`, () => {
    test.use({ viewport: { width, height: width < 500 ? 844 : 800 } });
    for (const { name, who, path } of PAGES) {
      test(name, async ({ page }) => {
        if (who) {
          const login = await page.request.post("/api/security/login", {
            data: { username: DEMO[who].email, password: DEMO_PASSWORD },
          });
          expect(login.status()).toBe(200);
        }
        await page.goto(path(), { waitUntil: "networkidle" });
        expect(await violations(page, KNOWN[`${name}@${width}`] ?? [])).toEqual([]);
      });
    }
  });
}
