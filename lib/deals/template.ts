// Placeholders of the admin description (spec 001 §9), filled from the deal when it is shown (the
// stored text keeps them, so it stays true when the deal changes). Values are escaped HTML.
import { durationLabel } from "./rules.ts";

export interface TemplateValues {
  chatAvailable: boolean;
  durationMinutes: number | null;
  startTime: string | null;
  staff: number;
  mobileBar: boolean;
  nbCocktails: number;
  guests: number;
  serviceAddress: string | null;
  editedAt: Date | null;
  validityDays: number;
  nbCocktailsAuthorized: number;
  depositPercentage: number;
}

export const PLACEHOLDERS: Record<string, string> = {
  "{{chat}}": "disponibilité du chat avec votre partenaire",
  "{{duree}}": "durée du service",
  "{{periode}}": "horaires du service (début à fin)",
  "{{staff}}": "nombre de barmen",
  "{{bar_mobile}}": "bar mobile fourni ou non",
  "{{nb_cocktails}}": "nombre de cocktails",
  "{{cocktails_par_personne}}": "cocktails par personne",
  "{{adresse}}": "adresse précise du service",
  "{{date_modification}}": "date de la dernière modification",
  "{{validite}}": "validité du devis en jours",
  "{{nb_cocktails_autorises}}": "nombre de cocktails au choix",
  "{{acompte}}": "pourcentage d'acompte",
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** "22:30" + 150 min → "22h30 à 01h00" (modulo 24 h). */
export function period(startTime: string | null, durationMinutes: number | null): string {
  if (!startTime || !durationMinutes || !/^\d{2}:\d{2}$/.test(startTime)) return "horaires à confirmer";
  const [h, m] = startTime.split(":").map(Number);
  const end = (h * 60 + m + durationMinutes) % (24 * 60);
  const fmt = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, "0")}h${String(minutes % 60).padStart(2, "0")}`;
  return `${fmt(h * 60 + m)} à ${fmt(end)}`;
}

export function fillTemplate(html: string, v: TemplateValues): string {
  const perPerson = v.guests > 0
    ? (v.nbCocktails / v.guests).toLocaleString("fr-FR", { maximumFractionDigits: 1 })
    : "—";
  const values: Record<string, string> = {
    "{{chat}}": v.chatAvailable ? "Le chat avec votre partenaire est ouvert sur cette page." : "",
    "{{duree}}": v.durationMinutes ? durationLabel(v.durationMinutes) : "durée à confirmer",
    "{{periode}}": period(v.startTime, v.durationMinutes),
    "{{staff}}": `${v.staff} ${v.staff > 1 ? "barmen" : "barman"}`,
    "{{bar_mobile}}": v.mobileBar ? "bar mobile fourni" : "sans bar mobile (table à disposition)",
    "{{nb_cocktails}}": String(v.nbCocktails),
    "{{cocktails_par_personne}}": perPerson,
    "{{adresse}}": v.serviceAddress || "adresse à confirmer",
    "{{date_modification}}": v.editedAt
      ? v.editedAt.toLocaleDateString("fr-FR", { timeZone: "Europe/Paris" })
      : "—",
    "{{validite}}": String(v.validityDays),
    "{{nb_cocktails_autorises}}": String(v.nbCocktailsAuthorized),
    "{{acompte}}": `${v.depositPercentage} %`,
  };
  return html.replace(/\{\{[a-z_]+\}\}/g, (token) => (token in values ? escapeHtml(values[token]) : token));
}
