// `deno task create-admin <email> <prénom> <nom>`: creates an administrator for a real deployment.
// The password is read from ADMIN_PASSWORD or asked on the terminal.
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/open.ts";
import { migrate } from "../lib/db/migrate.ts";
import { systemActor } from "../lib/actor.ts";
import { createAccount } from "../lib/auth/actions.ts";
import { EMAIL_TAKEN, isEmailShape, isStrongPassword, PASSWORD_RULE_MESSAGE } from "../lib/accounts/rules.ts";

const [email, firstname = "Admin", lastname = ""] = Deno.args;
if (!email || !isEmailShape(email)) {
  console.error("Usage : deno task create-admin <email> [prénom] [nom]");
  Deno.exit(2);
}
const password = Deno.env.get("ADMIN_PASSWORD") ?? prompt("Mot de passe :") ?? "";
if (!isStrongPassword(password)) {
  console.error(PASSWORD_RULE_MESSAGE);
  Deno.exit(2);
}
const db = await openDatabase(loadConfig());
await migrate(db);
try {
  const id = await createAccount({ db }, systemActor("cli"), {
    type: "Admin",
    email,
    password,
    firstname,
    lastname,
  });
  console.log(`Administrateur créé : ${email} (${id})`);
} catch (error) {
  console.error((error as { code?: string }).code === "23505" ? EMAIL_TAKEN : error);
  Deno.exitCode = 1;
} finally {
  await db.close();
}
