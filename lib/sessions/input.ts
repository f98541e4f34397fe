// What the sessions back office accepts (JSON from the API, or the dashboard's forms), as zod schemas:
// money in euros with at most two decimals (stored in cents), dates as unix seconds or the form's
// "YYYY-MM-DDTHH:mm" in Paris time. Server only.
import { z } from "zod";
import { eurosToCents } from "../money.ts";
import { parseInput } from "../validation.ts";
import { AppError } from "../errors.ts";
import type { DateFields, SessionFields } from "./store.ts";
import { MAX_PLACES_PER_DATE } from "./rules.ts";

const REQUIRED = "Ce champ est requis";
const TOO_LONG = "Ce champ est trop long.";
const NUMBER = "Veuillez saisir un nombre entier valide.";
const AMOUNT = "Veuillez saisir un montant valide (deux décimales au plus).";
export const FORM_INVALID = "Veuillez corriger les champs en erreur.";

const text = (max: number, required = false) =>
  z.unknown().optional().transform((v) => (typeof v === "string" ? v.trim() : v == null ? "" : "\u0000"))
    .pipe(
      z.string().max(max, TOO_LONG).refine((s) => !s.includes("\u0000"), "Valeur invalide.").refine(
        (s) => !required || s.length > 0,
        REQUIRED,
      ),
    );

const flag = z.unknown().optional().transform((v) => v === true || v === "true" || v === "1" || v === "on");

const euros = z.unknown().optional().transform((v) => (v === undefined || v === "" ? 0 : eurosToCents(v)))
  .pipe(
    z.number({ error: AMOUNT }).int(AMOUNT).min(0, "Le montant ne peut pas être négatif.").max(
      100000000,
      "Ce montant est trop élevé.",
    ),
  );

const integer = (min: number, max: number) =>
  z.unknown().transform((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v)).pipe(
    z.number({ error: NUMBER }).int(NUMBER).min(min, NUMBER).max(max, NUMBER),
  );

/** "2026-12-05T19:00" read in Paris time, or unix seconds. */
function parisDateTime(value: unknown): Date | null {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return new Date(value * 1000);
  if (typeof value !== "string") return null;
  if (/^\d{1,11}$/.test(value)) return new Date(Number(value) * 1000);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  if (Number.isNaN(asUtc)) return null;
  // The Paris offset at that moment (one or two hours), found by formatting the UTC guess.
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Paris",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(asUtc));
  const h = Number(parts.find((p) => p.type === "hour")?.value);
  const offsetHours = ((h - +m[4]) + 24) % 24;
  return new Date(asUtc - offsetHours * 3600_000);
}

const sessionSchema = z.object({
  slug: text(120, true).pipe(
    z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Lettres minuscules, chiffres et tirets uniquement."),
  ),
  title: text(200, true),
  description: text(20000),
  city: text(100, true),
  photos: z.unknown().optional().transform((v) =>
    (Array.isArray(v) ? v : typeof v === "string" ? v.split(/\r?\n/) : []).map((s) => String(s).trim())
      .filter(
        Boolean,
      )
  ).pipe(
    z.array(z.string().max(500, TOO_LONG).regex(/^(\/|https:\/\/)/, "Adresse d'image invalide.")).max(
      12,
      "12 photos au plus.",
    ),
  ),
  published: flag,
  // Places of one date one cart may hold (issue "Production, part 2" §2); absent: the default.
  maxPlacesPerDate: z.unknown().optional().transform((v) =>
    v === undefined || v === null || v === "" ? MAX_PLACES_PER_DATE : typeof v === "string" ? Number(v) : v
  ).pipe(z.number({ error: NUMBER }).int(NUMBER).min(1, NUMBER).max(1000, NUMBER)),
});

export function parseSession(body: unknown): SessionFields {
  return parseInput(sessionSchema, body, FORM_INVALID, { multiLine: ["description"] });
}

const additionalCost = z.object({
  title: text(120, true),
  ht: euros,
  vat: z.unknown().transform((v) => (typeof v === "string" ? Number(v.replace(",", ".")) : v)).pipe(
    z.number({ error: "Taux de TVA invalide." }).min(0, "Taux de TVA invalide.").max(
      100,
      "Taux de TVA invalide.",
    ),
  ),
});

const dateSchema = z.object({
  dtstart: z.unknown().transform(parisDateTime).pipe(z.date({ error: "Date et heure invalides." })),
  places: integer(0, 10000),
  priceTTC: euros,
  travelCostTTC: euros,
  additionalCosts: z.unknown().optional().transform((v) => (v == null || v === "" ? [] : v)).pipe(
    z.array(additionalCost).max(10, "10 frais au plus."),
  ),
  soon: flag,
  state: z.unknown().optional().transform((v) => (v == null || v === "" ? "open" : v)).pipe(
    z.enum(["open", "closed", "canceled"], { error: "État invalide." }),
  ),
});

/** A form sends the additional cost as three fields (costTitle, costHt, costVat); JSON as a list. */
export function parseDate(body: Record<string, unknown>): DateFields {
  const input = { ...body };
  // The dashboard's one control 'Mise en vente': open, soon ('BIENTÔT DISPO') or closed.
  if (typeof body.sale === "string") {
    if (!["open", "soon", "closed"].includes(body.sale)) {
      throw new AppError("validation", FORM_INVALID, { sale: "Valeur invalide." });
    }
    input.soon = body.sale === "soon";
    input.state = body.sale === "closed" ? "closed" : "open";
  }
  if (input.additionalCosts === undefined && typeof body.costTitle === "string" && body.costTitle.trim()) {
    input.additionalCosts = [{ title: body.costTitle, ht: body.costHt, vat: body.costVat ?? 20 }];
  }
  return parseInput(dateSchema, input, FORM_INVALID);
}
