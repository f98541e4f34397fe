// The privacy page: what is collected, the rights and how to use each one (the export button and the
// deletion in 'Mon profil', the contact address), and how long each kind of data is kept.
import { PRIVACY_RIGHTS, PRIVACY_SECTIONS, RETENTION_ROWS } from "../../lib/site/legal.ts";

export function PrivacyPage({ contact }: { contact: string }) {
  return (
    <article class="mx-auto max-w-3xl px-4 py-12">
      <h1 class="text-3xl font-bold">Politique de confidentialité</h1>
      {PRIVACY_SECTIONS.map((s) => (
        <section key={s.title} class="mt-8">
          <h2 class="text-xl font-semibold">{s.title}</h2>
          <p class="mt-2 leading-relaxed text-slate-700">{s.text}</p>
        </section>
      ))}
      <section class="mt-8" id="vos-droits">
        <h2 class="text-xl font-semibold">Vos droits et comment les exercer</h2>
        <ul class="mt-2 space-y-2 text-slate-700">
          {PRIVACY_RIGHTS.map((r) => (
            <li key={r.right}>
              <strong>{r.right}</strong> : {r.how.replace("{contact}", contact)}
            </li>
          ))}
        </ul>
        <p class="mt-2 text-slate-700">
          Pour toute question sur vos données : <a class="underline" href={`mailto:${contact}`}>{contact}</a>.
        </p>
      </section>
      <section class="mt-8" id="conservation">
        <h2 class="text-xl font-semibold">Durée de conservation</h2>
        <table class="mt-2 w-full text-left text-sm text-slate-700">
          <thead>
            <tr>
              <th class="py-1 pr-4">Données</th>
              <th class="py-1">Conservation</th>
            </tr>
          </thead>
          <tbody>
            {RETENTION_ROWS.map((r) => (
              <tr key={r.data} class="border-t border-slate-200">
                <td class="py-1 pr-4 align-top">{r.data}</td>
                <td class="py-1">{r.retention}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </article>
  );
}
