// Accounts: registration (private and professional), login/logout, and the 'Mon profil' page.
import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  authCard,
  authFieldError,
  dashboardMenu,
  DEMO,
  displayedPhone,
  flash,
  loginThroughForm,
  type NewAccount,
  newAccount,
  registerViaApi,
  requestsTo,
  uniqueEmail,
  uniqueId,
} from "./support/helpers.ts";

const REGISTRATION_INVALID = "Veuillez renseigner tous les champs obligatoires";
const REQUIRED = "Ce champ est requis";
const PASSWORD_RULE =
  "Le mot de passe doit contenir au moins 8 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.";
const CONSENT_ERRORS = {
  terms: "Vous devez accepter les conditions générales",
  privacy: "Vous devez accepter la politique de confidentialité",
  age: "Vous devez avoir plus de 18 ans",
  optin: "Vous devez accepter d'être contacté dans le cadre de l'organisation de votre événement",
};

async function openRegistration(page: Page): Promise<Locator> {
  await page.goto("/login?mode=register");
  const card = authCard(page);
  await expect(card).toHaveAttribute("data-mode", "register");
  await expect(card.getByRole("heading", { level: 1 })).toHaveText("Inscription");
  return card;
}

/** An input of the AuthForm by its name (labels also contain the field's error once there is one). */
function authInput(card: Locator, name: string): Locator {
  return card.locator(`input[name="${name}"]`);
}

/** Fills the personal part of the registration form and ticks the four consents. */
async function fillRegistration(card: Locator, account: NewAccount): Promise<void> {
  await authInput(card, "firstname").fill(account.firstname);
  await authInput(card, "lastname").fill(account.lastname);
  await authInput(card, "birthdate").fill(account.birthdate);
  await authInput(card, "phone").fill(account.phone);
  await authInput(card, "address").fill(account.address);
  await authInput(card, "zipcode").fill(account.zipcode);
  await authInput(card, "city").fill(account.city);
  await authInput(card, "email").fill(account.email);
  await authInput(card, "password").fill(account.password);
  await authInput(card, "passwordConfirmation").fill(account.password);
  for (const name of ["terms", "privacy", "age", "optin"]) await authInput(card, name).check();
}

/** Records the registration requests the page sends from now on: the browser checks every field with
 * lib/accounts/rules.ts first, so a form it refuses never reaches the server. Tests assert the list is
 * still empty once the errors of the refused submission are on screen (they would only show after the
 * response if the form had been sent, so the request would already be recorded). */
function registrationRequests(page: Page): string[] {
  return requestsTo(page, "/api/security/registration");
}

async function submitRegistration(card: Locator): Promise<void> {
  await card.getByRole("button", { name: "S'inscrire" }).click();
}

test.describe("Inscription", () => {
  test("une inscription vide affiche les erreurs en français sous chaque champ", async ({ page }) => {
    const card = await openRegistration(page);
    // The French labels of the form.
    for (
      const [label, name] of [
        ["Prénom", "firstname"],
        ["Nom", "lastname"],
        ["Date de naissance", "birthdate"],
        ["Téléphone", "phone"],
        ["Adresse", "address"],
        ["Code postal", "zipcode"],
        ["Ville", "city"],
        ["Email", "email"],
        ["Mot de passe", "password"],
        ["Confirmation du mot de passe", "passwordConfirmation"],
        ["Je certifie avoir plus de 18 ans", "age"],
      ]
    ) {
      await expect(card.getByLabel(label, { exact: true }), label).toHaveAttribute("name", name);
    }
    await expect(card.locator("[data-error-for]")).toHaveCount(0);

    const sent = registrationRequests(page);
    await submitRegistration(card);
    await expect(card.getByTestId("form-error")).toHaveText(REGISTRATION_INVALID);
    for (const field of ["firstname", "lastname", "birthdate", "address", "zipcode", "city"]) {
      await expect(authFieldError(card, field), field).toHaveText(REQUIRED);
    }
    await expect(authFieldError(card, "phone")).toHaveText("Votre téléphone est requis.");
    await expect(authFieldError(card, "email")).toHaveText("Votre email est requis.");
    await expect(authFieldError(card, "password")).toHaveText("Votre mot de passe est requis.");
    await expect(authFieldError(card, "passwordConfirmation")).toHaveText(
      "Votre confirmation de mot de passe est requise.",
    );
    for (const [name, message] of Object.entries(CONSENT_ERRORS)) {
      await expect(authFieldError(card, name), name).toHaveText(message);
      // Tied to its checkbox, as the text fields' messages are to theirs.
      await expect(authInput(card, name), name).toHaveAttribute("aria-invalid", "true");
      await expect(authInput(card, name), name).toHaveAccessibleDescription(message);
    }
    await expect(authInput(card, "email")).toHaveAccessibleDescription("Votre email est requis.");
    // Not a professional: no company errors.
    await expect(authFieldError(card, "name")).toHaveCount(0);
    await expect(authFieldError(card, "siren")).toHaveCount(0);
    await expect(authInput(card, "firstname")).toHaveAttribute("aria-invalid", "true");
    await expect(authInput(card, "firstname")).toHaveAttribute("id", "auth-firstname");
    await expect(authInput(card, "firstname")).toHaveAttribute("aria-describedby", "auth-firstname-error");
    await expect(card.locator("#auth-firstname-error")).toHaveText(REQUIRED);
    await expect(authInput(card, "terms")).not.toBeChecked();
    // Checked in the browser: nothing was sent.
    expect(sent).toEqual([]);
    // Still on the form, not logged in.
    expect(new URL(page.url()).pathname).toBe("/login");
    await expect(page.getByRole("link", { name: "Connexion", exact: true })).toBeVisible();
  });

  test("inscription professionnelle vide : nom de société et SIREN sont aussi requis", async ({ page }) => {
    const card = await openRegistration(page);
    await expect(card.getByLabel("Nom de la société", { exact: true })).toHaveCount(0);
    await expect(card.getByLabel("SIREN", { exact: true })).toHaveCount(0);
    await card.getByLabel("Je suis un professionnel").check();
    await expect(card.getByLabel("Nom de la société", { exact: true })).toBeVisible();
    await expect(card.getByLabel("SIREN", { exact: true })).toBeVisible();
    const sent = registrationRequests(page);
    await submitRegistration(card);
    await expect(card.getByTestId("form-error")).toHaveText(REGISTRATION_INVALID);
    await expect(authFieldError(card, "firstname")).toHaveText(REQUIRED);
    await expect(authFieldError(card, "name")).toHaveText(REQUIRED);
    await expect(authFieldError(card, "siren")).toHaveText(REQUIRED);
    await expect(authFieldError(card, "terms")).toHaveText(CONSENT_ERRORS.terms);
    expect(sent).toEqual([]);
  });

  test("inscription d'un professionnel : vérifications en direct, société et SIREN, puis connexion automatique", async ({ page }) => {
    const card = await openRegistration(page);
    const account = newAccount({ name: `Les Cocktails ${uniqueId()}`, siren: "552100554" });
    await card.getByLabel("Je suis un professionnel").check();

    // Live existence checks while typing an email and a phone number that already exist.
    await authInput(card, "email").pressSequentially(DEMO.client.email, { delay: 10 });
    await expect(authFieldError(card, "email")).toHaveText("Cet email existe déjà chez nous.");
    await expect(authInput(card, "email")).toHaveAttribute("aria-invalid", "true");
    await authInput(card, "phone").pressSequentially("06 00 00 00 04", { delay: 10 });
    await expect(authFieldError(card, "phone")).toHaveText("Ce téléphone existe déjà chez nous.");
    await expect(authFieldError(card, "email")).toHaveText("Cet email existe déjà chez nous.");

    // Everything valid except the company fields: the live messages go away.
    await fillRegistration(card, account);
    await expect(authFieldError(card, "email")).toHaveCount(0);
    await expect(authFieldError(card, "phone")).toHaveCount(0);
    const sent = registrationRequests(page);
    await submitRegistration(card);
    await expect(card.getByTestId("form-error")).toHaveText(REGISTRATION_INVALID);
    await expect(authFieldError(card, "name")).toHaveText(REQUIRED);
    await expect(authFieldError(card, "siren")).toHaveText(REQUIRED);
    await expect(authFieldError(card, "firstname")).toHaveCount(0);

    // Editing a field removes its message at once, before any new submission.
    await authInput(card, "name").fill(account.name!);
    await expect(authFieldError(card, "name")).toHaveCount(0);
    await expect(authFieldError(card, "siren")).toHaveText(REQUIRED);
    await authInput(card, "siren").fill("12345");
    await expect(authFieldError(card, "siren")).toHaveCount(0);
    await submitRegistration(card);
    await expect(authFieldError(card, "siren")).toHaveText("Le SIREN doit contenir exactement 9 chiffres.");
    await expect(authFieldError(card, "name")).toHaveCount(0);
    // Both refusals came from the browser's rules.
    expect(sent).toEqual([]);

    await authInput(card, "siren").fill(account.siren!);
    await Promise.all([
      page.waitForURL("**/dashboard/demandes-en-cours"),
      card.getByRole("button", { name: "S'inscrire" }).click(),
    ]);
    await expect(page.getByTestId("user-name")).toHaveText(`${account.firstname} ${account.lastname}`);
    await expect(flash(page, "Bienvenue ! Votre compte a bien été créé.")).toBeVisible();
    await expect(page.getByTestId("admin-mode")).toHaveCount(0);

    // The company details were stored with the account.
    await dashboardMenu(page).getByRole("link", { name: "Mon profil" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profil$/);
    const form = page.getByTestId("profile-form");
    await expect(form.locator("input[name=name]")).toHaveValue(account.name!);
    await expect(form.locator("input[name=siren]")).toHaveValue(account.siren!);
    await expect(form.locator("input[name=email]")).toHaveValue(account.email);
    // Stored as +33…, shown the French way.
    await expect(form.locator("input[name=phone]")).toHaveValue(displayedPhone(account.phone));
  });

  test("inscription d'un particulier, déconnexion, mauvais mot de passe et reconnexion", async ({ page }) => {
    const card = await openRegistration(page);
    const account = newAccount();
    await expect(card.getByLabel("Je suis un professionnel")).not.toBeChecked();
    await fillRegistration(card, account);
    await Promise.all([
      page.waitForURL("**/dashboard/demandes-en-cours"),
      card.getByRole("button", { name: "S'inscrire" }).click(),
    ]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mes demandes de devis en cours");
    await expect(page.getByTestId("user-name")).toHaveText(`${account.firstname} ${account.lastname}`);

    // An image or a script's request to /logout ends no session: only the button's POST does.
    await page.evaluate(async () => {
      await new Promise((done) => {
        const image = new Image();
        image.onload = image.onerror = done;
        image.src = "/logout";
      });
      await fetch("/logout");
      await fetch("/admin/switch-back");
    });
    await page.reload();
    await expect(page.getByTestId("user-name")).toHaveText(`${account.firstname} ${account.lastname}`);
    // The address typed by hand asks to confirm, with the same POST.
    await page.goto("/logout");
    await expect(page.getByTestId("logout-confirm")).toBeVisible();
    await expect(page.getByText("Voulez-vous vous déconnecter ?")).toBeVisible();
    await page.goto("/dashboard/demandes-en-cours");
    await expect(page.getByTestId("user-name")).toHaveText(`${account.firstname} ${account.lastname}`);

    // Logout: back on the home page, anonymous, with the flash message.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(flash(page, "Vous êtes déconnecté.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Connexion", exact: true })).toBeVisible();
    await page.goto("/dashboard/demandes-en-cours");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%2Fdemandes-en-cours$/);

    // Empty login form: checked in the browser.
    await page.goto("/login");
    const login = authCard(page);
    await login.getByRole("button", { name: "Se connecter" }).click();
    await expect(login.getByTestId("form-error")).toHaveText(REGISTRATION_INVALID);
    await expect(authFieldError(login, "username")).toHaveText(REQUIRED);
    await expect(authFieldError(login, "password")).toHaveText(REQUIRED);

    // Wrong password.
    await authInput(login, "username").fill(account.email);
    await authInput(login, "password").fill("Mauvais#2026");
    const failed = page.waitForResponse((r) => r.url().endsWith("/api/security/login"));
    await login.getByRole("button", { name: "Se connecter" }).click();
    expect((await failed).status()).toBe(401);
    await expect(login.getByTestId("form-error")).toHaveText("Email ou mot de passe incorrect");
    await expect(authFieldError(login, "username")).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe("/login");

    // The right password (the email is case-insensitive).
    await authInput(login, "username").fill(account.email.toUpperCase());
    await authInput(login, "password").fill(account.password);
    await Promise.all([
      page.waitForURL("**/dashboard/demandes-en-cours"),
      login.getByRole("button", { name: "Se connecter" }).click(),
    ]);
    await expect(page.getByTestId("user-name")).toHaveText(`${account.firstname} ${account.lastname}`);
  });

  // Editing a field clears the server's message about it; the live existence check is shown first.
  test("après une soumission vide, taper un email existant affiche 'Cet email existe déjà chez nous.'", async ({ page }) => {
    const card = await openRegistration(page);
    await submitRegistration(card);
    await expect(authFieldError(card, "email")).toHaveText("Votre email est requis.");
    const check = page.waitForResponse((r) => r.url().endsWith("/email/exists"));
    await authInput(card, "email").pressSequentially(DEMO.client.email, { delay: 10 });
    expect(await (await check).json()).toEqual({ exists: true });
    await expect(authFieldError(card, "email")).toHaveText("Cet email existe déjà chez nous.", {
      timeout: 3_000,
    });
  });

  // The error sits outside the <label>: the accessible name stays "Prénom", the error is its description.
  test("un champ en erreur garde son libellé comme nom accessible", async ({ page }) => {
    const card = await openRegistration(page);
    await submitRegistration(card);
    await expect(authFieldError(card, "firstname")).toHaveText(REQUIRED);
    await expect(card.getByRole("textbox", { name: "Prénom", exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
      { timeout: 2_000 },
    );
  });

  // Spec 000 §5: the confirmation follows the password rule too, and must equal the password.
  test("le mot de passe et sa confirmation suivent la règle, vérifiés dans le navigateur", async ({ page }) => {
    const card = await openRegistration(page);
    const sent = registrationRequests(page);
    const account = newAccount();
    await fillRegistration(card, { ...account, password: "cocktail" });
    await submitRegistration(card);
    await expect(card.getByTestId("form-error")).toHaveText(REGISTRATION_INVALID);
    await expect(authFieldError(card, "password")).toHaveText(PASSWORD_RULE);
    await expect(authFieldError(card, "passwordConfirmation")).toHaveText(PASSWORD_RULE);
    await expect(card.locator("[data-error-for]")).toHaveCount(2);

    // Each message goes as soon as its field is edited; the other stays.
    await authInput(card, "password").fill(account.password);
    await expect(authFieldError(card, "password")).toHaveCount(0);
    await expect(authFieldError(card, "passwordConfirmation")).toHaveText(PASSWORD_RULE);
    await authInput(card, "passwordConfirmation").fill("Different#2026");
    await expect(authFieldError(card, "passwordConfirmation")).toHaveCount(0);
    await submitRegistration(card);
    await expect(authFieldError(card, "passwordConfirmation")).toHaveText(
      "Les mots de passe doivent être identiques.",
    );
    await expect(authFieldError(card, "password")).toHaveCount(0);
    expect(sent).toEqual([]);
  });
});

test.describe("Mon profil", () => {
  test("modifier le profil, les emails supplémentaires (5 au plus) et le mot de passe", async ({ page }) => {
    const account = await registerViaApi(page);
    await page.goto("/dashboard");
    await dashboardMenu(page).getByRole("link", { name: "Mon profil" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profil$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mon profil");
    const form = page.getByTestId("profile-form");
    const input = (name: string) => form.locator(`[name="${name}"]`);

    // Prefilled from the registration.
    await expect(form.getByLabel("Prénom", { exact: true })).toHaveValue(account.firstname);
    await expect(form.getByLabel("Nom", { exact: true })).toHaveValue(account.lastname);
    await expect(input("address1")).toHaveValue(account.address);
    await expect(input("zipcode")).toHaveValue(account.zipcode);
    await expect(input("city")).toHaveValue(account.city);
    await expect(input("phone")).toHaveValue(displayedPhone(account.phone));
    await expect(input("birthDay")).toHaveValue("14");
    await expect(input("birthMonth")).toHaveValue("5");
    await expect(input("birthYear")).toHaveValue("1990");
    await expect(input("email")).toHaveValue(account.email);
    await expect(input("email")).toHaveJSProperty("readOnly", true);
    await expect(form.getByText("Aucun email supplémentaire ajouté")).toBeVisible();

    // New values.
    const changed = {
      firstname: "Margaux",
      lastname: `Renommée-${uniqueId()}`,
      address2: "Bâtiment B",
      zipcode: "69002",
      city: "Lyon",
      name: "Événements Margaux",
      siren: "552100554",
    };
    for (const [name, value] of Object.entries(changed)) await input(name).fill(value);
    await input("birthDay").selectOption("3");
    await input("birthMonth").selectOption({ label: "mars" });
    await input("birthYear").selectOption("1985");

    // Additional emails: shape, duplicates, at most 5, removal.
    const emailBox = input("newEmail");
    const addButton = form.getByRole("button", { name: "Ajouter", exact: true });
    const emailError = form.locator('[data-error-for="emails"]');
    const list = form.getByTestId("additional-emails").locator("li");
    await emailBox.fill("pas-un-email");
    await addButton.click();
    await expect(emailError).toHaveText("Le mail doit être valide.");
    await expect(emailBox).toHaveAccessibleDescription("Le mail doit être valide.");
    const extra = Array.from({ length: 6 }, () => uniqueEmail("autre"));
    await emailBox.fill(extra[0].toUpperCase());
    await addButton.click();
    await expect(emailError).toHaveCount(0);
    await expect(list).toHaveCount(1);
    await expect(list.first()).toContainText(extra[0]); // stored lower-cased
    await emailBox.fill(extra[0]);
    await addButton.click();
    await expect(emailError).toHaveText("Cet email est déjà dans la liste.");
    for (const email of extra.slice(1, 4)) {
      await emailBox.fill(email);
      await addButton.click();
    }
    await emailBox.fill(extra[4]);
    await emailBox.press("Enter"); // Enter adds too, without submitting the form
    await expect(list).toHaveCount(5);
    await expect(emailError).toHaveCount(0);
    await emailBox.fill(extra[5]);
    await addButton.click();
    await expect(emailError).toHaveText("Vous avez atteint le maximum de 5 emails supplémentaires.");
    await expect(list).toHaveCount(5);
    await form.getByRole("button", { name: `Supprimer ${extra[2]}` }).click();
    await expect(list).toHaveCount(4);
    await expect(emailError).toHaveCount(0);
    await addButton.click(); // extra[5] is still typed in
    await expect(list).toHaveCount(5);
    const expectedEmails = [extra[0], extra[1], extra[3], extra[4], extra[5]];
    await expect(list).toHaveText(expectedEmails.map((e) => new RegExp(`^${e.replace(/[.]/g, "\\.")}`)));

    // A too-short password is refused in the browser (12-character rule): nothing is sent or saved.
    const save = form.getByRole("button", { name: "Enregistrer", exact: true });
    const updates = requestsTo(page, "/api/user/update");
    await input("password").fill("court");
    await input("passwordConfirmation").fill("court");
    await save.click();
    await expect(form.getByRole("alert")).toHaveText(
      "Veuillez renseigner toutes les informations obligatoires",
    );
    await expect(form.locator('[data-error-for="password"]')).toHaveText(
      "Le mot de passe doit contenir au moins 12 caractères.",
    );
    expect(updates).toEqual([]);

    // A valid new password and save.
    const newPassword = "NouveauSecret#2026";
    await input("password").fill(newPassword);
    await expect(form.locator('[data-error-for="password"]')).toHaveCount(0);
    await input("passwordConfirmation").fill(newPassword);
    const response = page.waitForResponse((r) => r.url().endsWith("/api/user/update"));
    await save.click();
    expect((await response).status()).toBe(200);
    await expect(form.getByRole("status")).toHaveText("Les données ont été sauvegardées.");
    await expect(form.locator('[data-error-for="password"]')).toHaveCount(0);
    await expect(input("password")).toHaveValue("");
    await expect(input("passwordConfirmation")).toHaveValue("");

    // Everything persisted.
    await page.reload();
    for (const [name, value] of Object.entries(changed)) await expect(input(name), name).toHaveValue(value);
    await expect(input("birthDay")).toHaveValue("3");
    await expect(input("birthMonth")).toHaveValue("3");
    await expect(input("birthYear")).toHaveValue("1985");
    await expect(input("email")).toHaveValue(account.email);
    await expect(list).toHaveCount(5);
    await expect(list).toHaveText(expectedEmails.map((e) => new RegExp(`^${e.replace(/[.]/g, "\\.")}`)));
    await expect(page.getByTestId("user-name")).toHaveText(`${changed.firstname} ${changed.lastname}`);
    await expect(form.getByRole("status")).toHaveCount(0);

    // The new password replaced the old one. (Logging out from the confirmation page at /logout.)
    await page.goto("/logout");
    await page.getByTestId("logout-confirm").getByRole("button", { name: "Se déconnecter" }).click();
    await expect(flash(page, "Vous êtes déconnecté.")).toBeVisible();
    await page.goto("/login");
    const login = authCard(page);
    await login.getByLabel("Email", { exact: true }).fill(account.email);
    await login.getByLabel("Mot de passe", { exact: true }).fill(account.password);
    await login.getByRole("button", { name: "Se connecter" }).click();
    await expect(login.getByTestId("form-error")).toHaveText("Email ou mot de passe incorrect");
    await loginThroughForm(page, account.email, newPassword);
    await expect(page).toHaveURL(/\/dashboard\/demandes-en-cours$/);
    await expect(page.getByTestId("user-name")).toHaveText(`${changed.firstname} ${changed.lastname}`);
  });
});
