// Admin pages: the user list with impersonation, the email outbox, partner applications.
import type { UserListItem } from "../../lib/accounts/store.ts";
import type { OutboxEntry } from "../../lib/mail/outbox.ts";
import type { ApplicationRow } from "../../lib/partners/store.ts";
import { APPLICATION_STATUS_LABELS } from "../../lib/partners/rules.ts";
import { displayPhone } from "../../lib/accounts/rules.ts";
import { dateTime, EmptyState, PageTitle } from "../dashboard/parts.tsx";

const TYPE_LABELS = { Admin: "Administrateur", Company: "Partenaire", Customer: "Client" } as const;

export function UsersPage(
  { users, search, selfId }: { users: UserListItem[]; search: string; selfId: string },
) {
  return (
    <>
      <PageTitle>Utilisateurs</PageTitle>
      <form method="get" class="mb-4 flex flex-wrap gap-2">
        <input
          name="q"
          value={search}
          aria-label="Rechercher"
          placeholder="Rechercher un nom, un email…"
          class="w-72 max-w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <button type="submit" class="rounded-lg bg-slate-800 px-4 py-2 text-sm text-white">Rechercher</button>
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
                  {user.id !== selfId && (
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
    </>
  );
}

const OUTBOX_STATUS = { sent: "envoyé", failed: "échec", pending: "en attente" } as const;
/** Without SMTP_URL nothing is sent: a waiting email is kept here on purpose, not failing. */
export const OUTBOX_KEPT = "Conservé ici (pas de serveur SMTP)";

export function OutboxPage({ emails, smtp = true }: {
  emails: OutboxEntry[];
  /** SMTP_URL is set: waiting emails go out; otherwise they are only kept in this list. */
  smtp?: boolean;
}) {
  return (
    <>
      <PageTitle>Emails envoyés</PageTitle>
      {!smtp && (
        <p
          role="note"
          class="mb-4 rounded-lg bg-sky-50 p-3 text-sm text-sky-900"
          data-testid="outbox-no-smtp"
        >
          Aucun serveur SMTP n'est configuré (SMTP_URL) : les emails ne partent pas, ils sont conservés ici
          pour être lus.
        </p>
      )}
      {emails.length === 0 ? <EmptyState>Aucun email pour l'instant.</EmptyState> : (
        <ul class="space-y-3">
          {emails.map((email) => (
            <li key={email.id} class="rounded-xl border border-slate-200 bg-white p-4">
              <details>
                <summary class="cursor-pointer text-sm">
                  <span class="font-semibold">{email.subject}</span> — {email.recipient}
                  <span class="ml-2 text-xs text-slate-500">
                    {dateTime.format(email.createdAt)} ·{" "}
                    {!smtp && email.status === "pending" ? OUTBOX_KEPT : OUTBOX_STATUS[email.status]}
                  </span>
                </summary>
                <p class="mt-3">
                  <a
                    href={`/dashboard/admin/emails/${email.id}/html`}
                    target="_blank"
                    rel="noopener"
                    class="text-sm text-brand-700 underline"
                    data-email-html={email.id}
                  >
                    Voir l'email tel qu'il est reçu (HTML)
                  </a>
                </p>
                <pre class="mt-3 whitespace-pre-wrap text-sm text-slate-700">{email.textBody}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ApplicationsPage({ applications }: { applications: ApplicationRow[] }) {
  return (
    <>
      <PageTitle>Candidatures partenaires</PageTitle>
      {applications.length === 0
        ? <EmptyState>Aucune candidature pour l'instant.</EmptyState>
        : (
          <ul class="space-y-3">
            {applications.map((a) => (
              <li
                key={a.id}
                class="rounded-xl border border-slate-200 bg-white p-4 text-sm"
                data-application={a.email}
              >
                <div class="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p class="text-base font-semibold">{a.companyName}</p>
                    <p class="text-slate-600">
                      {a.firstname} {a.lastname} · {a.email} · {displayPhone(a.phone)} · {a.city} · SIREN{" "}
                      {a.siren}
                    </p>
                    <p class="mt-1 text-xs text-slate-500">Reçue le {dateTime.format(a.createdAt)}</p>
                  </div>
                  <span
                    class={`rounded-full px-3 py-1 text-xs font-semibold ${
                      a.status === "pending"
                        ? "bg-amber-100 text-amber-800"
                        : a.status === "accepted"
                        ? "bg-emerald-100 text-emerald-800"
                        : "bg-slate-200 text-slate-700"
                    }`}
                  >
                    {APPLICATION_STATUS_LABELS[a.status]}
                  </span>
                </div>
                {a.message && <p class="mt-3 whitespace-pre-wrap text-slate-700">{a.message}</p>}
                {a.status === "pending" && (
                  <div class="mt-4 flex flex-wrap gap-2">
                    <form method="post" action={`/dashboard/admin/candidatures/${a.id}/accepter`}>
                      <button
                        type="submit"
                        class="rounded-lg bg-emerald-600 px-3 py-1.5 font-semibold text-white"
                      >
                        Créer le compte partenaire
                      </button>
                    </form>
                    <form method="post" action={`/dashboard/admin/candidatures/${a.id}/refuser`}>
                      <button type="submit" class="rounded-lg border border-slate-300 px-3 py-1.5">
                        Refuser
                      </button>
                    </form>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
    </>
  );
}
