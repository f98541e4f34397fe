// The sign-in sheet of a date ('Feuille d'émargement'), to print: the workshop, its date and city, then
// one line per seat (the booker's name, then 'Invité 2 de …' for each further place) with an empty
// signature column. A4 portrait; the back link, the 'Imprimer' button and its hint are hidden on paper.
import { formatDateTime } from "../../lib/sessions/rules.ts";
import { signInLines } from "../../lib/sessions/attendees.ts";
import type { DateAttendees } from "../../lib/sessions/use_cases/date_attendees.ts";
import { Island } from "../Island.tsx";
import PrintButton from "../../islands/PrintButton.tsx";

export function SignInSheet({ session, date, attendees }: DateAttendees) {
  const lines = signInLines(attendees);
  const when = formatDateTime(Math.floor(date.dtstart.getTime() / 1000));
  return (
    <div class="mx-auto max-w-[210mm] p-6 text-sm print:p-0" data-testid="sign-in-sheet">
      <div class="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <a href={`/dashboard/admin/ateliers/date/${date.uuid}`} class="text-sm text-brand-700 underline">
          ← Retour à la date
        </a>
        <Island component={PrintButton} props={{}} />
      </div>
      <p class="mb-4 rounded-lg bg-sky-50 p-3 text-sky-900 print:hidden">
        Imprimez cette page (bouton « Imprimer » ou Ctrl + P) : une ligne par place, avec une colonne pour la
        signature.
      </p>
      <h1 class="text-xl font-bold">Feuille d'émargement</h1>
      <p class="mt-1 text-base font-semibold">{session.title}</p>
      <p class="text-slate-700">{when} · {session.city} · {lines.length} place(s)</p>
      {lines.length === 0
        ? <p class="mt-6">Aucun inscrit pour cette date.</p>
        : (
          <table class="mt-4 w-full border-collapse">
            <thead>
              <tr class="text-left">
                <th class="w-10 border border-slate-400 p-2">N°</th>
                <th class="border border-slate-400 p-2">Participant</th>
                <th class="border border-slate-400 p-2">Contact</th>
                <th class="w-[45%] border border-slate-400 p-2">Signature</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line, i) => (
                <tr key={i} class="h-12 break-inside-avoid" data-testid="sign-in-line">
                  <td class="border border-slate-400 p-2">{i + 1}</td>
                  <td class="border border-slate-400 p-2">{line.name}</td>
                  <td class="border border-slate-400 p-2">{line.detail}</td>
                  <td class="border border-slate-400 p-2"></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </div>
  );
}
