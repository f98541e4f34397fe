// Admin area: the user list with impersonation, the email outbox, and switching back.
import type { Hono } from "hono";
import { type AppEnv, type Ctx, requireSession, withTx } from "../lib/http/context.ts";
import { renderDashboardPage } from "../lib/http/render.tsx";
import { setSessionCookie } from "../lib/http/cookies.ts";
import { listUsers } from "../lib/accounts/users.ts";
import { listOutbox } from "../lib/mail/outbox.ts";
import { impersonate, switchBack } from "../lib/auth/service.ts";
import { homeFor } from "../lib/dashboard/menu.ts";
import { AppError } from "../lib/errors.ts";
import { isForeignNavigation } from "../lib/http/security.ts";

const TYPE_LABELS = { Admin: "Administrateur", Company: "Partenaire", Customer: "Client" } as const;
const dateTime = new Intl.DateTimeFormat("fr-FR", {
  dateStyle: "short",
  timeStyle: "short",
  timeZone: "Europe/Paris",
});

function requireAdmin(c: Ctx) {
  return requireSession(c, ["Admin"]);
}

export function adminRoutes(app: Hono<AppEnv>) {
  // The role is asserted here for every admin page and action; RLS limits what they read again.
  app.use("/dashboard/admin/*", async (c, next) => {
    requireAdmin(c);
    await next();
  });

  app.get("/dashboard/admin/utilisateurs", async (c) => {
    const search = c.req.query("q") ?? "";
    const users = await withTx(c, (tx) => listUsers(tx, search));
    return renderDashboardPage(
      c,
      "Utilisateurs",
      <>
        <h1 class="mb-6 text-2xl font-bold">Utilisateurs</h1>
        <form method="get" class="mb-4 flex gap-2">
          <input
            name="q"
            value={search}
            placeholder="Rechercher un nom, un email…"
            class="w-72 rounded-lg border border-slate-300 px-3 py-2 text-sm"
          />
          <button type="submit" class="rounded-lg bg-slate-800 px-4 py-2 text-sm text-white">
            Rechercher
          </button>
        </form>
        <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table class="w-full text-left text-sm">
            <thead class="bg-slate-50 text-slate-600">
              <tr>
                <th class="px-4 py-3">Nom</th>
                <th class="px-4 py-3">Email</th>
                <th class="px-4 py-3">Type</th>
                <th class="px-4 py-3">Inscription</th>
                <th class="px-4 py-3">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id} class="border-t border-slate-100" data-user-email={user.email}>
                  <td class="px-4 py-3">
                    {user.firstname} {user.lastname}
                    {user.name && <span class="block text-xs text-slate-500">{user.name}</span>}
                  </td>
                  <td class="px-4 py-3">{user.email}</td>
                  <td class="px-4 py-3">
                    {TYPE_LABELS[user.type]}
                    {user.deletedAt && <span class="ml-2 text-xs text-red-600">suppression demandée</span>}
                  </td>
                  <td class="px-4 py-3">{dateTime.format(user.createdAt)}</td>
                  <td class="px-4 py-3">
                    {user.id !== c.var.session!.user.id && (
                      <form method="post" action={`/admin/switch/${user.id}`}>
                        <button
                          type="submit"
                          class="rounded-lg border border-slate-300 px-3 py-1 text-xs hover:border-brand-500"
                        >
                          Se connecter en tant que
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {users.length === 0 && <p class="p-6 text-center text-slate-500">Aucun utilisateur trouvé.</p>}
        </div>
      </>,
    );
  });

  app.get("/dashboard/admin/emails", async (c) => {
    const emails = await withTx(c, (tx) => listOutbox(tx));
    return renderDashboardPage(
      c,
      "Emails envoyés",
      <>
        <h1 class="mb-6 text-2xl font-bold">Emails envoyés</h1>
        {emails.length === 0
          ? (
            <p class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">
              Aucun email pour l'instant.
            </p>
          )
          : (
            <ul class="space-y-3">
              {emails.map((email) => (
                <li key={email.id} class="rounded-xl border border-slate-200 bg-white p-4">
                  <details>
                    <summary class="cursor-pointer text-sm">
                      <span class="font-semibold">{email.subject}</span> — {email.recipient}
                      <span class="ml-2 text-xs text-slate-500">
                        {dateTime.format(email.createdAt)} · {email.status === "sent"
                          ? "envoyé"
                          : email.status === "failed"
                          ? "échec"
                          : "en attente"}
                      </span>
                    </summary>
                    <pre class="mt-3 whitespace-pre-wrap text-sm text-slate-700">{email.textBody}</pre>
                  </details>
                </li>
              ))}
            </ul>
          )}
      </>,
    );
  });

  app.post("/admin/switch/:userId", async (c) => {
    const session = requireAdmin(c);
    const userId = c.req.param("userId");
    if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new AppError("not_found", "Utilisateur introuvable.");
    const token = await impersonate(c.var.deps, session, userId);
    setSessionCookie(c, token);
    return c.redirect("/dashboard", 303);
  });

  app.get("/admin/switch-back", async (c) => {
    if (isForeignNavigation(c)) return c.redirect("/dashboard", 303);
    const session = requireSession(c);
    const token = await switchBack(c.var.deps, session);
    setSessionCookie(c, token);
    return c.redirect(homeFor("Admin"), 303);
  });
}
