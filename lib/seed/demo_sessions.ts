// Demo cocktail workshops: three sessions in two cities (Paris, Lyon) with dates open, soon ('BIENTÔT
// DISPO'), almost full (1 place left) and full ('COMPLET'), the full ones booked by the demo customers.
// Dates are relative to the day of seeding (19:00, Paris time). Idempotent: a session already there is
// left as it is.
import type { Tx } from "../db/database.ts";

interface DemoDate {
  inDays: number;
  places: number;
  /** Places booked by the demo customers (registrations). */
  booked?: [email: string, quantity: number, status: "pending" | "invoiced" | "canceled"][];
  priceTTC: number;
  travelCostTTC?: number;
  additionalCosts?: { title: string; ht: number; vat: number }[];
  soon?: boolean;
}

interface DemoSession {
  slug: string;
  title: string;
  city: string;
  description: string;
  dates: DemoDate[];
}

export const DEMO_SESSIONS: DemoSession[] = [
  {
    slug: "atelier-mojito-paris",
    title: "Atelier Mojito et rhums du monde",
    city: "Paris",
    description:
      "Deux heures pour apprendre les gestes du bartender : muddler, doser, shaker. Vous repartez avec trois recettes maîtrisées et la dégustation de cinq rhums.",
    dates: [
      // A booking left 'En attente' (client@example.fr has one in every status, README).
      { inDays: 7, places: 12, priceTTC: 4500, booked: [["client@example.fr", 2, "pending"]] },
      {
        inDays: 14,
        places: 10,
        priceTTC: 4500,
        booked: [["client@example.fr", 4, "invoiced"], ["client2@example.fr", 5, "pending"]],
      },
      {
        inDays: 21,
        places: 8,
        priceTTC: 4500,
        booked: [["client@example.fr", 3, "invoiced"], ["client2@example.fr", 5, "pending"]],
      },
      { inDays: 60, places: 12, priceTTC: 4500, soon: true },
    ],
  },
  {
    slug: "atelier-gin-tonic-paris",
    title: "Atelier Gin tonic signature",
    city: "Paris",
    description:
      "Botaniques, tonics et garnitures : composez votre gin tonic signature avec un bartender, et emportez votre kit de verrerie.",
    dates: [
      {
        inDays: 10,
        places: 10,
        priceTTC: 5500,
        additionalCosts: [{ title: "Kit de verrerie à emporter", ht: 1000, vat: 20 }],
        // Paid, then canceled by the organiser: 'Annulé', refunded with its credit note.
        booked: [["client@example.fr", 2, "canceled"]],
      },
      { inDays: 40, places: 10, priceTTC: 5500, soon: true },
    ],
  },
  {
    slug: "atelier-mocktails-lyon",
    title: "Atelier mocktails sans alcool",
    city: "Lyon",
    description:
      "Des cocktails sans alcool aussi travaillés que les autres : sirops maison, infusions et techniques de dilution.",
    dates: [
      { inDays: 9, places: 15, priceTTC: 3900, travelCostTTC: 500 },
      {
        inDays: 16,
        places: 6,
        priceTTC: 3900,
        travelCostTTC: 500,
        booked: [["client@example.fr", 6, "invoiced"]],
      },
    ],
  },
];

export async function seedDemoSessions(tx: Tx): Promise<void> {
  for (const session of DEMO_SESSIONS) {
    const [created] = await tx<{ id: number }>`
      insert into public.workshop_sessions (slug, title, description, city)
      values (${session.slug}, ${session.title}, ${session.description}, ${session.city})
      on conflict (slug) do nothing returning id`;
    if (!created) continue;
    for (const date of session.dates) {
      // 'invoiced' and 'canceled' bookings are paid through the checkout by lib/seed/demo_orders.ts (their
      // places then; a canceled one gives them back).
      const booked = (date.booked ?? []).filter(([, , status]) => status === "pending")
        .reduce((sum, [, quantity]) => sum + quantity, 0);
      const [row] = await tx<{ id: number }>`
        insert into public.session_dates (session_id, dtstart, places, places_left, price_ttc, travel_cost_ttc,
          additional_costs, soon)
        values (${created.id},
          (date_trunc('day', now() at time zone 'Europe/Paris') + make_interval(days => ${date.inDays}, hours => 19))
            at time zone 'Europe/Paris',
          ${date.places}, ${date.places - booked}, ${date.priceTTC}, ${date.travelCostTTC ?? 0},
          ${JSON.stringify(date.additionalCosts ?? [])}::jsonb, ${date.soon ?? false})
        returning id`;
      for (const [email, quantity, status] of date.booked ?? []) {
        if (status !== "pending") continue;
        await tx`
          insert into public.registrations (user_id, date_id, quantity, amount, status)
          select u.id, ${row.id}, ${quantity}, ${
          quantity * (date.priceTTC + (date.travelCostTTC ?? 0))
        }, ${status}
          from public.users u where u.email = ${email}`;
      }
    }
  }
}
