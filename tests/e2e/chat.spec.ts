// The deal chat live (issue 13): the customer on the quote page and the admin on the deal's 'Chat' tab,
// in two browser contexts, each see the other's message arrive without reloading (server-sent events).
import { expect, request, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, loginViaApi } from "./support/helpers.ts";

test("a customer and an admin see each other's chat messages live", async ({ browser, baseURL }) => {
  const api = await request.newContext({ baseURL });
  await api.post("/api/security/login", { data: { username: DEMO.client.email, password: DEMO_PASSWORD } });
  const list = await (await api.get("/api/customer/deal/index")).json();
  await api.dispose();
  const deal = (list.results as { id: number; token: string; status: string }[])
    .find((d) => ["send", "edited"].includes(d.status))!;
  expect(deal).toBeTruthy();

  const customerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const customer = await customerContext.newPage();
  const admin = await adminContext.newPage();
  await loginViaApi(customer, DEMO.client.email);
  await loginViaApi(admin, DEMO.admin.email);
  await customer.goto(`/deal/show/${deal.token}#chat`);
  await admin.goto(`/dashboard/espace-partenaire/deal/${deal.id}#chat`);
  await expect(admin.getByRole("tab", { name: "Chat" })).toHaveAttribute("aria-selected", "true");
  await expect(customer.getByTestId("chat-live")).toBeVisible();
  await expect(admin.getByTestId("chat-live")).toBeVisible();

  // Every read marker the customer's page sends, from the start: the marker may leave as soon as the
  // message shows, before the test could start waiting for it.
  const readThrough: number[] = [];
  customer.on("requestfinished", (r) => {
    if (r.url().endsWith("/api/chat/read")) readThrough.push(Number(r.postDataJSON()?.through));
  });
  const fromAdmin = `Bonjour, <b>une question</b> ? ${Date.now()}`;
  await admin.getByTestId("chat-input").fill(fromAdmin);
  const posted = admin.waitForResponse((r) => r.url().endsWith("/api/chat/messages") && r.status() === 200);
  await admin.getByTestId("chat-send").click();
  const postedId = Number((await (await posted).json()).results.id);
  await expect(admin.getByTestId("chat-input")).toHaveValue("");
  const received = customer.getByTestId("chat-entry").filter({ hasText: fromAdmin });
  await expect(received).toBeVisible();
  // Shown on screen, the new entry is marked read (the unread digest relies on it).
  await expect.poll(() => readThrough.some((through) => through >= postedId), { timeout: 10_000 }).toBe(true);
  await expect(received).toHaveAttribute("data-side", "start");
  await expect(received).toHaveAttribute("data-colour", "red");
  await expect(received.getByTestId("chat-author")).toHaveText(DEMO.admin.name);

  const fromCustomer = `Merci ! ${Date.now()}`;
  await customer.getByTestId("chat-input").fill(fromCustomer);
  await customer.getByTestId("chat-send").click();
  const mine = customer.getByTestId("chat-entry").filter({ hasText: fromCustomer });
  await expect(mine.getByTestId("chat-author")).toHaveText("Vous");
  await expect(mine).toHaveAttribute("data-side", "end");
  const atAdmin = admin.getByTestId("chat-entry").filter({ hasText: fromCustomer });
  await expect(atAdmin).toBeVisible();
  // For an admin, customer messages sit on the start side, in blue.
  await expect(atAdmin).toHaveAttribute("data-side", "start");
  await expect(atAdmin).toHaveAttribute("data-colour", "blue");

  // An empty message gets the server's French refusal, nothing is posted.
  await customer.getByTestId("chat-send").click();
  await expect(customer.getByTestId("chat-error")).toHaveText("Le message ne peut pas être vide.");
  await customerContext.close();
  await adminContext.close();
});
