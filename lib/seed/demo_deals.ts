// Demo deals: a quote in every status, spread over the two demo partners ('Shaker & Co',
// 'Mixologie Events'), the two demo customers and a few visitors who asked without an account, with
// service dates in the coming months. Each deal is priced by the engine (the partner's own grid, else
// the default one), walked through its statuses so that the history trigger records each move (then
// dated and attributed as the real actors would have been), and paid deals carry the amounts their
// status implies. Also: the quote engine's global settings, each partner's cocktail catalogue, and
// Shaker & Co's own pricing grid.
//
// Idempotent: every demo deal carries a HubSpot id of its own (318770xxxx) and is created only when no
// deal has it; settings are written only when missing. Called by seedDemoData (lib/seed/demo.ts).
import type { Tx } from "../db/database.ts";
import {
  type CommissionTier,
  computeTotals,
  DEFAULT_COMMISSION_TIERS,
  DEFAULT_PRICING,
  priceQuote,
  type PricingConfig,
  type RecipeType,
} from "../deals/pricing.ts";
import { percentOf, percentToBasisPoints } from "../money.ts";
import type { AdminSettings, CustomCocktail, DealSettings, DealStatus } from "../deals/rules.ts";
import { type Catalogue, DEFAULT_DEVISEUR_SETTINGS } from "../deals/settings.ts";
import { loadCommissionTiers, loadDeviseurSettings, loadPricing } from "../deals/settings_store.ts";
import { refreshSearchText, type StoredLine } from "../deals/store.ts";

const DAY = 86_400_000;

/** The HubSpot id of demo deal n: the key that keeps seeding idempotent. */
export const demoHubspotId = (n: number) => String(3_187_700_000 + n);
export const DEMO_HUBSPOT_PREFIX = "318770";

export const PARTNER_EMAILS = {
  shaker: "partenaire@example.fr",
  mixologie: "partenaire2@example.fr",
} as const;
export const CUSTOMER_EMAILS = { client: "client@example.fr", client2: "client2@example.fr" } as const;
const ADMIN_EMAIL = "admin@example.fr";

type PartnerKey = keyof typeof PARTNER_EMAILS;
type CustomerKey = keyof typeof CUSTOMER_EMAILS;

// ---------------------------------------------------------------------------------------------------
// Catalogues and Shaker & Co's grid.

const cocktail = (id: string, name: string, description: string) => ({ id, name, description, photo: "" });

export const DEMO_CATALOGUES: Record<PartnerKey, Catalogue> = {
  shaker: {
    signature: [
      cocktail("shaker-sig-1", "Lyon Mule", "Vodka, ginger beer, sirop de verveine du Velay et citron vert."),
      cocktail(
        "shaker-sig-2",
        "Spritz des Pentes",
        "Vin rosé, liqueur de pamplemousse, eau pétillante et romarin.",
      ),
      cocktail("shaker-sig-3", "Basilic Smash", "Gin, basilic frais, citron jaune pressé et sucre de canne."),
      cocktail(
        "shaker-sig-4",
        "Bouchon Old Fashioned",
        "Bourbon, sirop de marron, bitters et zeste d'orange.",
      ),
      cocktail(
        "shaker-sig-5",
        "Fraîcheur du Rhône (sans alcool)",
        "Concombre, menthe fraîche, citron vert et tonic artisanal.",
      ),
    ],
    classic: [
      cocktail(
        "shaker-cla-1",
        "Mojito",
        "Rhum blanc, menthe fraîche, citron vert, sucre de canne et eau gazeuse.",
      ),
      cocktail("shaker-cla-2", "Spritz", "Apéritif italien, prosecco et eau gazeuse."),
      cocktail("shaker-cla-3", "Moscow Mule", "Vodka, ginger beer et citron vert."),
      cocktail("shaker-cla-4", "Caïpirinha", "Cachaça, citron vert pilé et sucre de canne."),
      cocktail("shaker-cla-5", "Piña Colada", "Rhum, crème de coco et jus d'ananas."),
      cocktail(
        "shaker-cla-6",
        "Virgin Mojito (sans alcool)",
        "Menthe fraîche, citron vert, sucre de canne et eau gazeuse.",
      ),
    ],
    mocktail: [
      cocktail(
        "shaker-moc-1",
        "Virgin Mojito",
        "Menthe fraîche, citron vert, sucre de canne et eau gazeuse.",
      ),
      cocktail("shaker-moc-2", "Ginger Fizz", "Gingembre frais, citron, miel et eau pétillante."),
      cocktail("shaker-moc-3", "Sunset Tropical", "Mangue, passion, ananas et grenadine maison."),
      cocktail("shaker-moc-4", "Pink Garden", "Fraise, basilic, citron et limonade artisanale."),
    ],
  },
  mixologie: {
    signature: [
      cocktail("mixo-sig-1", "Calanque Bleue", "Gin, curaçao, citron jaune et tonic."),
      cocktail("mixo-sig-2", "Provence Spritz", "Vin blanc de Cassis, sirop de lavande et eau pétillante."),
      cocktail("mixo-sig-3", "Vieux-Port Sour", "Whisky, citron, sirop de romarin et blanc d'œuf."),
      cocktail("mixo-sig-4", "Pastis Tonic revisité", "Pastis artisanal, tonic, concombre et basilic."),
      cocktail("mixo-sig-5", "Jardin du Midi (sans alcool)", "Pêche blanche, thym citron et eau pétillante."),
    ],
    classic: [
      cocktail("mixo-cla-1", "Margarita", "Tequila, triple sec et citron vert, bord salé."),
      cocktail("mixo-cla-2", "Cosmopolitan", "Vodka, triple sec, cranberry et citron vert."),
      cocktail("mixo-cla-3", "Daiquiri", "Rhum blanc, citron vert et sucre de canne."),
      cocktail("mixo-cla-4", "Negroni", "Gin, vermouth rouge et bitter italien."),
      cocktail("mixo-cla-5", "Mojito", "Rhum blanc, menthe fraîche, citron vert et eau gazeuse."),
      cocktail("mixo-cla-6", "Virgin Colada (sans alcool)", "Crème de coco, ananas et citron vert."),
    ],
    mocktail: [
      cocktail("mixo-moc-1", "Lavande Lemonade", "Citron pressé, sirop de lavande et eau pétillante."),
      cocktail("mixo-moc-2", "Fraise Basilic", "Fraises fraîches, basilic, citron vert et tonic."),
      cocktail("mixo-moc-3", "Agrumes Pétillants", "Orange sanguine, pamplemousse, citron et soda."),
    ],
  },
};

/** Shaker & Co's own grid: a bit more generous on cocktails per guest, pricier per bartender. */
export const SHAKER_PRICING: PricingConfig = {
  settings: [
    { id: "min_cocktail", value: 60 },
    { id: "nb_cocktail_per_h_per_person", value: 1.2 },
    { id: "staff_capacity", value: 55 },
  ],
  flatFees: [
    { id: "fdd", value: 0.5 },
    { id: "bm", value: 180 },
    { id: "fcr", value: 150 },
  ],
  cocktailTiers: [
    { from: 1, to: 150, signature: 9.5, classic: 8, mocktail: 6.5 },
    { from: 151, to: 300, signature: 8.5, classic: 7, mocktail: 6 },
    { from: 301, to: 600, signature: 7.5, classic: 6.5, mocktail: 5.5 },
    { from: 601, to: 100000, signature: 7, classic: 6, mocktail: 5 },
  ],
  staffTiers: [
    { from: 1, to: 40, count: 1 },
    { from: 41, to: 100, count: 2 },
    { from: 101, to: 200, count: 3 },
    { from: 201, to: 100000, count: 4 },
  ],
  durationTiers: [
    { from: 1, to: 120, cost: 200 },
    { from: 121, to: 240, cost: 300 },
    { from: 241, to: 360, cost: 400 },
    { from: 361, to: 100000, cost: 500 },
  ],
};

// ---------------------------------------------------------------------------------------------------
// The demo deals.

interface Contact {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
}

type Mover = "Admin" | "Company" | "Customer";

interface Refusal {
  reason: string;
  by: Mover;
}

export interface DemoDeal {
  n: number;
  /** The statuses after 'start', in order (empty: still 'start'). */
  path: DealStatus[];
  partner: PartnerKey | null;
  customer?: CustomerKey;
  /** A visitor who asked without an account. */
  contact?: Contact;
  event: string;
  /** Days from today to the service (moved to `weekday`), or null: 'Date à confirmer'. */
  inDays: number | null;
  weekday?: number;
  time: string;
  guests: number;
  duration: number;
  city: string;
  address: string;
  distance: number;
  mobileBar: boolean;
  recipe: RecipeType;
  creation?: CustomCocktail[];
  createdDaysAgo: number;
  flags?: Partial<AdminSettings>;
  /** Deposit percentage; false: no deposit (paid in full). */
  deposit?: number | false;
  /** Lines the partner added when editing (cents). */
  extraLines?: StoredLine[];
  refusal?: Refusal;
  message?: string;
  couple?: string;
  adminComments?: string;
  partnerDescription?: string;
  nbCocktailsAuthorized?: number;
}

const SAT = 6, THU = 4, FRI = 5, TUE = 2, WED = 3;

const line = (label: string, qty: number, unitCost: number): StoredLine => ({
  label,
  qty,
  unitCost,
  totalCost: qty * unitCost,
});

export const DEMO_DEALS: DemoDeal[] = [
  {
    n: 1,
    path: [],
    partner: null,
    contact: {
      firstname: "Julie",
      lastname: "Lefèvre",
      email: "julie.lefevre@example.fr",
      phone: "+33641278309",
    },
    event: "Mariage - soirée dansante",
    inDays: 95,
    weekday: SAT,
    time: "19:00",
    guests: 120,
    duration: 300,
    city: "Nantes",
    address: "Château de la Colinière, 44300 Nantes",
    distance: 12,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 2,
    message: "Mariage en extérieur sur le thème champêtre, une centaine d'adultes et quelques enfants.",
    couple: "Julie & Maxime",
  },
  {
    n: 2,
    path: [],
    partner: null,
    customer: "client",
    event: "Anniversaire",
    inDays: null,
    time: "20:00",
    guests: 40,
    duration: 180,
    city: "Bordeaux",
    address: "",
    distance: 0,
    mobileBar: false,
    recipe: "classic",
    createdDaysAgo: 1,
    message: "Les 30 ans de mon compagnon, à la maison. La date n'est pas encore fixée (mai ou juin).",
  },
  {
    n: 3,
    path: [],
    partner: "shaker",
    contact: {
      firstname: "Thomas",
      lastname: "Girard",
      email: "thomas.girard@example.fr",
      phone: "+33672345018",
    },
    event: "Entreprise séminaire",
    inDays: 40,
    weekday: THU,
    time: "18:30",
    guests: 80,
    duration: 180,
    city: "Lyon",
    address: "Cité Internationale, 50 quai Charles de Gaulle, 69006 Lyon",
    distance: 5,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 3,
    flags: { showEmailForPartner: true },
    adminComments: "Partenaire choisi, devis à envoyer après vérification du lieu.",
  },
  {
    n: 4,
    path: ["new"],
    partner: "shaker",
    customer: "client2",
    event: "Entreprise team building",
    inDays: 30,
    weekday: THU,
    time: "17:00",
    guests: 60,
    duration: 120,
    city: "Lyon",
    address: "12 rue de la République, 69002 Lyon",
    distance: 0,
    mobileBar: false,
    recipe: "signature",
    createdDaysAgo: 6,
    flags: { showEmailForPartner: true, showAddressForPartner: true },
    message: "Atelier pour notre équipe commerciale, dans nos locaux.",
  },
  {
    n: 5,
    path: ["new"],
    partner: "mixologie",
    contact: {
      firstname: "Sophie",
      lastname: "Roux",
      email: "sophie.roux@example.fr",
      phone: "+33611223344",
    },
    event: "Mariage - Vin d'honneur",
    inDays: 120,
    weekday: SAT,
    time: "16:30",
    guests: 150,
    duration: 120,
    city: "Aix-en-Provence",
    address: "Domaine de la Baume, 13100 Aix-en-Provence",
    distance: 18,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 4,
    flags: { showServiceAddress: true, showPhoneForPartner: true },
    couple: "Sophie & Karim",
  },
  {
    n: 6,
    path: ["new", "send", "pending"],
    partner: "shaker",
    customer: "client",
    event: "Mariage - soirée dansante",
    inDays: 150,
    weekday: SAT,
    time: "20:00",
    guests: 110,
    duration: 360,
    city: "Annecy",
    address: "Impérial Palace, allée de l'Impérial, 74000 Annecy",
    distance: 45,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 20,
    flags: {
      showEmailForPartner: true,
      showPhoneForPartner: true,
      showServiceAddress: true,
      showChatForPartner: true,
    },
    extraLines: [line("Service vin et champagne", 1, 25000)],
    couple: "Camille & Antoine",
    partnerDescription:
      "<p>Bar en bois clair et lumières chaudes, deux bartenders en tenue de soirée pendant toute la soirée dansante.</p>",
  },
  {
    n: 7,
    path: ["new", "send", "pending"],
    partner: "mixologie",
    contact: {
      firstname: "Nicolas",
      lastname: "Fournier",
      email: "nicolas.fournier@example.fr",
      phone: "+33645987120",
    },
    event: "Lancement",
    inDays: 25,
    weekday: WED,
    time: "19:00",
    guests: 200,
    duration: 180,
    city: "Marseille",
    address: "Les Docks Village, 10 place de la Joliette, 13002 Marseille",
    distance: 0,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 15,
    extraLines: [line("Verrerie supplémentaire", 200, 50)],
    message: "Lancement de notre nouvelle gamme, 200 invités professionnels.",
  },
  {
    n: 8,
    path: ["new", "send"],
    partner: "shaker",
    // client@example.fr: a sent quote without a deposit (paid in full at once).
    customer: "client",
    deposit: false,
    event: "Salon - Congrès",
    inDays: 60,
    weekday: TUE,
    time: "10:00",
    guests: 200,
    duration: 300,
    city: "Lyon",
    address: "Eurexpo, boulevard de l'Europe, 69500 Bron",
    distance: 15,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 12,
    flags: { disableQuoteEdits: true, showEmailForPartner: true },
    adminComments:
      "L'organisateur a validé le devis par téléphone : modifications bloquées en attendant son bon de commande.",
  },
  {
    n: 9,
    path: ["new", "send"],
    partner: "mixologie",
    customer: "client2",
    event: "Anniversaire",
    inDays: 45,
    weekday: SAT,
    time: "21:00",
    guests: 35,
    duration: 180,
    city: "Montpellier",
    address: "",
    distance: 8,
    mobileBar: false,
    recipe: "mocktail",
    createdDaysAgo: 10,
    message: "Soirée entièrement sans alcool pour les 18 ans de ma fille.",
  },
  {
    n: 10,
    path: ["new", "send", "pending", "edited"],
    partner: "shaker",
    contact: {
      firstname: "Antoine",
      lastname: "Lambert",
      email: "antoine.lambert@example.fr",
      phone: "+33699887766",
    },
    event: "Entreprise séminaire",
    inDays: 75,
    weekday: THU,
    time: "19:30",
    guests: 90,
    duration: 240,
    city: "Grenoble",
    address: "Alpexpo, 2 avenue d'Innsbruck, 38100 Grenoble",
    distance: 104,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 25,
    extraLines: [line("Atelier cocktails (1 h)", 1, 35000)],
    partnerDescription: "<p>Soirée de séminaire avec un atelier cocktails animé par notre chef barman.</p>",
  },
  {
    n: 11,
    path: ["new", "send", "pending", "edited"],
    partner: "mixologie",
    customer: "client",
    event: "Mariage - soirée dansante",
    inDays: 200,
    weekday: SAT,
    time: "22:00",
    guests: 160,
    duration: 420,
    city: "Nice",
    address: "Villa Ephrussi de Rothschild, 06230 Saint-Jean-Cap-Ferrat",
    distance: 10,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 30,
    flags: {
      showEmailForPartner: true,
      showPhoneForPartner: true,
      showChatForPartner: true,
      showPartnerProfileOnDeal: true,
    },
    extraLines: [line("Bar lumineux", 1, 18000)],
    couple: "Camille & Julien",
  },
  {
    n: 12,
    path: ["new", "send", "accepted"],
    partner: "shaker",
    customer: "client",
    event: "Mariage - Vin d'honneur",
    inDays: 100,
    weekday: SAT,
    time: "17:00",
    guests: 130,
    duration: 180,
    city: "Lyon",
    address: "Domaine de Lacroix-Laval, 69280 Marcy-l'Étoile",
    distance: 14,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 35,
    deposit: 30,
    flags: { showPartnerProfileOnDeal: true, showServiceAddress: true },
    couple: "Camille & Théo",
  },
  {
    n: 13,
    path: ["new", "send", "accepted"],
    partner: "mixologie",
    contact: {
      firstname: "Manon",
      lastname: "Chevalier",
      email: "manon.chevalier@example.fr",
      phone: "+33656781234",
    },
    event: "Entreprise team building",
    inDays: 20,
    weekday: FRI,
    time: "18:00",
    guests: 45,
    duration: 120,
    city: "Marseille",
    address: "Friche la Belle de Mai, 41 rue Jobin, 13003 Marseille",
    distance: 0,
    mobileBar: false,
    recipe: "signature",
    createdDaysAgo: 18,
    deposit: 30,
  },
  {
    n: 14,
    path: ["new", "send", "accepted", "pay_partial"],
    partner: "shaker",
    customer: "client2",
    event: "Entreprise séminaire",
    inDays: 55,
    weekday: THU,
    time: "19:00",
    guests: 70,
    duration: 240,
    city: "Dijon",
    address: "Palais des congrès, 3 boulevard de Champagne, 21000 Dijon",
    distance: 190,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 40,
    deposit: 30,
  },
  {
    n: 15,
    path: ["new", "send", "accepted", "pay_partial"],
    partner: "mixologie",
    // client@example.fr: a quote with its deposit paid, the balance still due.
    customer: "client",
    event: "Mariage - soirée dansante",
    inDays: 170,
    weekday: SAT,
    time: "21:00",
    guests: 140,
    duration: 360,
    city: "Aix-en-Provence",
    address: "Château de la Pioline, 260 rue Guillaume du Vair, 13290 Aix-en-Provence",
    distance: 25,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 45,
    deposit: 35,
    flags: {
      showEmailForPartner: true,
      showPhoneForPartner: true,
      showServiceAddress: true,
      showChatForPartner: true,
    },
    couple: "Léa & Hugo",
  },
  {
    n: 16,
    path: ["new", "send", "accepted", "pay_partial", "pay_total"],
    partner: "shaker",
    customer: "client",
    event: "Anniversaire",
    inDays: 15,
    weekday: SAT,
    time: "20:30",
    guests: 50,
    duration: 240,
    city: "Lyon",
    address: "",
    distance: 0,
    mobileBar: false,
    recipe: "classic",
    createdDaysAgo: 50,
    deposit: 30,
  },
  {
    n: 17,
    path: ["new", "send", "accepted", "pay_total"],
    partner: "mixologie",
    customer: "client2",
    event: "Lancement",
    inDays: 35,
    weekday: TUE,
    time: "18:30",
    guests: 120,
    duration: 180,
    city: "Nice",
    address: "Hôtel Negresco, 37 promenade des Anglais, 06000 Nice",
    distance: 200,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 28,
    deposit: false,
  },
  {
    n: 18,
    path: ["new", "send", "accepted", "pay_partial", "pay_total", "win"],
    partner: "shaker",
    contact: {
      firstname: "Mathieu",
      lastname: "Faure",
      email: "mathieu.faure@example.fr",
      phone: "+33623456789",
    },
    event: "Mariage - soirée dansante",
    inDays: 10,
    weekday: SAT,
    time: "22:00",
    guests: 180,
    duration: 480,
    city: "Annecy",
    address: "Château de Duingt, 74410 Duingt",
    distance: 50,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 90,
    deposit: 40,
    flags: {
      showEmailForPartner: true,
      showPhoneForPartner: true,
      showAddressForPartner: true,
      showServiceAddress: true,
      showChatForPartner: true,
    },
    couple: "Mathieu & Pauline",
    partnerDescription: "<p>Trois bartenders, bar mobile lumineux et carte signature autour des Alpes.</p>",
  },
  {
    n: 19,
    path: ["new", "send", "accepted", "pay_total", "win"],
    partner: "mixologie",
    customer: "client",
    event: "Entreprise team building",
    inDays: 8,
    weekday: FRI,
    time: "16:00",
    guests: 30,
    duration: 120,
    city: "Marseille",
    address: "Calanque de Sormiou, 13009 Marseille",
    distance: 12,
    mobileBar: false,
    recipe: "mocktail",
    createdDaysAgo: 60,
    deposit: false,
  },
  {
    n: 20,
    path: ["new", "refused"],
    partner: "shaker",
    contact: {
      firstname: "Clément",
      lastname: "Roussel",
      email: "clement.roussel@example.fr",
      phone: "+33634567812",
    },
    event: "Autre",
    inDays: 70,
    weekday: SAT,
    time: "19:00",
    guests: 60,
    duration: 180,
    city: "Lyon",
    address: "",
    distance: 0,
    mobileBar: false,
    recipe: "classic",
    createdDaysAgo: 9,
    refusal: { reason: "duplicate", by: "Admin" },
    adminComments: "Doublon de la demande envoyée la veille par le même client.",
  },
  {
    n: 21,
    path: ["new", "send", "refused_client"],
    partner: "shaker",
    customer: "client2",
    event: "Anniversaire",
    inDays: 50,
    weekday: SAT,
    time: "20:00",
    guests: 40,
    duration: 240,
    city: "Lyon",
    address: "",
    distance: 20,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 22,
    refusal: { reason: "budget", by: "Customer" },
  },
  {
    n: 22,
    path: ["new", "send", "refused_client"],
    partner: "mixologie",
    contact: {
      firstname: "Chloé",
      lastname: "Blanc",
      email: "chloe.blanc@example.fr",
      phone: "+33698123456",
    },
    event: "Entreprise séminaire",
    inDays: 80,
    weekday: THU,
    time: "19:00",
    guests: 100,
    duration: 180,
    city: "Toulon",
    address: "Palais Neptune, 83000 Toulon",
    distance: 65,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 26,
    refusal: { reason: "other_provider", by: "Admin" },
  },
  {
    n: 23,
    path: ["new", "refused_partner"],
    partner: "shaker",
    contact: {
      firstname: "Louis",
      lastname: "Bonnet",
      email: "louis.bonnet@example.fr",
      phone: "+33612987654",
    },
    event: "Mariage - soirée dansante",
    inDays: 130,
    weekday: SAT,
    time: "21:00",
    guests: 90,
    duration: 300,
    city: "Villefranche-sur-Saône",
    address: "",
    distance: 30,
    mobileBar: true,
    recipe: "signature",
    createdDaysAgo: 14,
    refusal: { reason: "partner_unavailable", by: "Company" },
  },
  {
    n: 24,
    path: ["new", "refused_partner"],
    partner: "mixologie",
    customer: "client",
    event: "Salon - Congrès",
    inDays: 90,
    weekday: WED,
    time: "11:00",
    guests: 180,
    duration: 360,
    city: "Strasbourg",
    address: "Parc des expositions, 67000 Strasbourg",
    distance: 800,
    mobileBar: true,
    recipe: "classic",
    createdDaysAgo: 16,
    refusal: { reason: "partner_too_far", by: "Company" },
  },
  {
    n: 25,
    path: ["new", "send"],
    partner: "shaker",
    customer: "client2",
    event: "Mariage - soirée dansante",
    inDays: 140,
    weekday: SAT,
    time: "20:00",
    guests: 100,
    duration: 300,
    city: "Lyon",
    address: "La Sucrière, 49 quai Rambaud, 69002 Lyon",
    distance: 0,
    mobileBar: true,
    recipe: "signature",
    creation: [
      {
        id: "creation-1",
        name: "Le Oui",
        description: "Champagne, liqueur de sureau et framboises fraîches.",
      },
      {
        id: "creation-2",
        name: "Lune de Miel",
        description: "Rhum ambré, miel de lavande et citron vert ; existe aussi sans alcool.",
      },
      { id: "creation-3", name: "Bouquet Final", description: "Gin, violette, citron jaune et tonic." },
    ],
    createdDaysAgo: 11,
    flags: { showChatForPartner: true },
    couple: "Hugo & Inès",
    message: "Nous aimerions trois cocktails créés pour nous, aux couleurs du mariage (bleu et doré).",
  },
  {
    n: 26,
    path: ["new"],
    partner: "shaker",
    contact: {
      firstname: "Élodie",
      lastname: "Perrin",
      email: "elodie.perrin@example.fr",
      phone: "+33661234598",
    },
    event: "Anniversaire",
    inDays: null,
    time: "",
    guests: 50,
    duration: 180,
    city: "Lyon",
    address: "",
    distance: 0,
    mobileBar: false,
    recipe: "classic",
    createdDaysAgo: 1,
    message: "Anniversaire surprise, la date dépendra de la disponibilité de la salle.",
  },
];

// ---------------------------------------------------------------------------------------------------
// Seeding.

interface Account {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string | null;
  vatExemption: boolean;
}

interface Step {
  status: DealStatus;
  action: string;
  role: Mover | "System";
  actorId: string | null;
  at: Date;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** `days` from `now`, then forward to the next `weekday` (0 Sunday … 6 Saturday). */
export function serviceDate(now: Date, days: number, weekday?: number): string {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  if (weekday !== undefined) date.setUTCDate(date.getUTCDate() + ((weekday - date.getUTCDay() + 7) % 7));
  return iso(date);
}

function dealName(event: string, lastname: string, date: string | null): string {
  const shown = date ? date.split("-").reverse().join("/") : "date à confirmer";
  return `${event} – ${lastname} – ${shown}`;
}

/** Who makes each move, as the app would have recorded it. */
function steps(deal: DemoDeal, created: Date, now: Date, ids: {
  admin: string | null;
  partner: string | null;
  customer: string | null;
}): Step[] {
  const span = now.getTime() - created.getTime() - 3_600_000;
  const at = (i: number) => new Date(created.getTime() + Math.round((span * i) / (deal.path.length + 1)));
  const paidBy = (): [Mover | "System", string | null] =>
    ids.customer ? ["Customer", ids.customer] : ["Admin", ids.admin];
  const card = !!ids.customer;
  const result: Step[] = [{ status: "start", action: "request", role: "System", actorId: null, at: created }];
  let previous: DealStatus = "start";
  deal.path.forEach((status, index) => {
    let role: Mover | "System" = "Admin";
    let actorId = ids.admin;
    let action = "set_status";
    switch (status) {
      case "new":
        action = "send_to_partner";
        break;
      case "send":
      case "edited":
        action = "validate";
        role = "Company";
        actorId = ids.partner;
        break;
      case "pending":
        action = "edit";
        role = "Company";
        actorId = ids.partner;
        break;
      case "accepted":
        action = "accept";
        break;
      case "pay_partial":
        action = card ? "card_pay_deposit" : "manual_pay_deposit";
        [role, actorId] = paidBy();
        break;
      case "pay_total":
        action = `${card ? "card" : "manual"}_${previous === "pay_partial" ? "pay_balance" : "pay_total"}`;
        [role, actorId] = paidBy();
        break;
      case "refused":
      case "refused_client":
      case "refused_partner": {
        action = "refuse";
        const by = deal.refusal?.by ?? "Admin";
        role = by === "Customer" && !ids.customer ? "Admin" : by;
        actorId = role === "Company" ? ids.partner : role === "Customer" ? ids.customer : ids.admin;
        break;
      }
    }
    result.push({ status, action, role, actorId, at: at(index + 1) });
    previous = status;
  });
  return result;
}

async function accounts(tx: Tx): Promise<Map<string, Account>> {
  const rows = await tx<Account>`
    select id, firstname, lastname, email, phone, vat_exemption as "vatExemption" from public.users
    where email in (select jsonb_array_elements_text(${
    JSON.stringify([ADMIN_EMAIL, ...Object.values(PARTNER_EMAILS), ...Object.values(CUSTOMER_EMAILS)])
  }::jsonb)) and anonymized_at is null`;
  return new Map(rows.map((row) => [row.email, row]));
}

/** The quote engine's global settings (spec 001 §3), written with their defaults when missing. */
async function seedSettings(tx: Tx, partners: Map<PartnerKey, Account>): Promise<void> {
  const settings: [string, unknown][] = [
    ["deviseur_pricing", DEFAULT_PRICING],
    ["deviseur_settings", DEFAULT_DEVISEUR_SETTINGS],
    ["deviseur_fixed_commission_tiers", DEFAULT_COMMISSION_TIERS],
  ];
  for (const [key, value] of settings) {
    await tx`insert into public.settings (key, value, type) values (${key}, ${
      JSON.stringify(value)
    }::jsonb, 'json')
             on conflict (key) do nothing`;
  }
  for (const [key, partner] of partners) {
    const records: [string, unknown][] = [["cocktails", DEMO_CATALOGUES[key]]];
    if (key === "shaker") records.push(["deviseur_pricing", SHAKER_PRICING]);
    for (const [name, value] of records) {
      await tx`insert into public.company_settings (user_id, name, value, type)
               values (${partner.id}, ${name}, ${JSON.stringify(value)}::jsonb, 'json')
               on conflict (user_id, name) do nothing`;
    }
  }
}

async function hasRecordPayment(tx: Tx): Promise<boolean> {
  const [row] = await tx<{ found: boolean }>`
    select to_regprocedure('public.record_payment(bigint, text, bigint, text, text, text, uuid, timestamptz)')
      is not null as found`;
  return row.found;
}

/** Creates the demo deals that are missing. Returns how many were created. */
export async function seedDemoDeals(tx: Tx, now = new Date()): Promise<number> {
  const found = await accounts(tx);
  const partners = new Map<PartnerKey, Account>();
  for (const key of Object.keys(PARTNER_EMAILS) as PartnerKey[]) {
    const account = found.get(PARTNER_EMAILS[key]);
    if (account) partners.set(key, account);
  }
  await seedSettings(tx, partners);

  const existing = new Set(
    (await tx<{ hubspotId: string }>`
      select hubspot_id as "hubspotId" from public.deals
      where hubspot_id in (select jsonb_array_elements_text(${
      JSON.stringify(DEMO_DEALS.map((d) => demoHubspotId(d.n)))
    }::jsonb))`).map((r) => r.hubspotId),
  );
  const missing = DEMO_DEALS.filter((d) => !existing.has(demoHubspotId(d.n)));
  if (missing.length === 0) return 0;

  const admin = found.get(ADMIN_EMAIL) ?? null;
  const deviseur = await loadDeviseurSettings(tx);
  const tiers: CommissionTier[] = await loadCommissionTiers(tx);
  const grids = new Map<string | null, PricingConfig>();
  const gridOf = async (companyId: string | null) => {
    if (!grids.has(companyId)) grids.set(companyId, await loadPricing(tx, companyId));
    return grids.get(companyId)!;
  };
  const recordPayment = await hasRecordPayment(tx);

  let created = 0;
  for (const deal of missing) {
    const partner = deal.partner ? partners.get(deal.partner) ?? null : null;
    const customer = deal.customer ? found.get(CUSTOMER_EMAILS[deal.customer]) ?? null : null;
    // A deal whose partner or customer account is gone is left out rather than made up.
    if ((deal.partner && !partner) || (deal.customer && !customer)) continue;
    const contact: Contact = deal.contact ?? {
      firstname: customer!.firstname,
      lastname: customer!.lastname,
      email: customer!.email,
      phone: customer!.phone ?? "",
    };
    await insertDeal(tx, deal, {
      now,
      partner,
      customer,
      contact,
      admin,
      grid: await gridOf(partner?.id ?? null),
      tiers,
      deviseur,
      recordPayment,
    });
    created++;
  }
  return created;
}

interface Context {
  now: Date;
  partner: Account | null;
  customer: Account | null;
  contact: Contact;
  admin: Account | null;
  grid: PricingConfig;
  tiers: CommissionTier[];
  deviseur: Awaited<ReturnType<typeof loadDeviseurSettings>>;
  recordPayment: boolean;
}

async function insertDeal(tx: Tx, deal: DemoDeal, ctx: Context): Promise<void> {
  const { now, partner, customer, contact, deviseur } = ctx;
  const createdAt = new Date(now.getTime() - deal.createdDaysAgo * DAY - ((deal.n * 37) % 300) * 60_000);
  const date = deal.inDays === null ? null : serviceDate(now, deal.inDays, deal.weekday);
  const reached = new Set(deal.path);
  const status: DealStatus = deal.path[deal.path.length - 1] ?? "start";

  const quote = priceQuote(ctx.grid, {
    guests: deal.guests,
    durationMinutes: deal.duration,
    recipeType: deal.recipe,
    customRecipe: !!deal.creation,
    mobileBar: deal.mobileBar,
    distanceKm: deal.distance,
  });
  const lines = [...quote.lines, ...(deal.extraLines ?? [])];
  const parameters = {
    vat: partner?.vatExemption ? 0 : deviseur.vatRate,
    commissionRate: deviseur.commissionRate,
  };
  const calculations = { nbCocktails: quote.nbCocktails, officialStaffCount: quote.staff };
  const totals = computeTotals(lines, parameters, {
    guests: deal.guests,
    nbCocktails: quote.nbCocktails,
    commissionTiers: ctx.tiers,
  });

  const listType = deal.creation ? "creation" : deal.recipe;
  const depositPercentage = deal.deposit === false ? null : deal.deposit ?? deviseur.depositPercentage;
  const settings: DealSettings = {
    hasDeposit: deal.deposit !== false,
    depositPercentage,
    cocktailListType: listType,
    customCocktails: deal.creation ?? [],
    nbCocktailsAuthorized: deal.nbCocktailsAuthorized ?? deviseur.nbCocktailsAuthorized,
  };
  // Once accepted, the customer has chosen; paid deals too.
  const chosen = reached.has("accepted")
    ? (deal.creation ?? DEMO_CATALOGUES[deal.partner!][deal.recipe]).slice(0, settings.nbCocktailsAuthorized)
      .map((c) => c.id)
    : [];
  const adminSettings: Partial<AdminSettings> = {
    ...deal.flags,
    // 'Marquer devis accepté' locks edits (spec 001 §4).
    ...(reached.has("accepted") ? { disableQuoteEdits: true } : {}),
  };
  const properties: Record<string, unknown> = {
    type_d_evenement: deal.event,
    deal_prestation_date: date ?? "",
    horaire_souhaite: deal.time,
    nombre_de_participants: deal.guests,
    duree_2_service: deal.duration,
    ville: deal.city,
    distance_en_km: deal.distance,
    bar_mobile___table_a_dispo: String(deal.mobileBar),
    type_de_recette: deal.recipe,
    creation_de_recette: String(!!deal.creation),
    mocktails: String(deal.recipe === "mocktail"),
    description: deal.message ?? "",
    validite_devis__en_jours_: deviseur.quoteValidityDays,
    createdate: iso(createdAt),
    ...(deal.couple ? { nom_futur_e__marie_e_: deal.couple } : {}),
    ...(reached.has("new") ? { envoi_devis_partenaire: "oui" } : {}),
    ...(reached.has("send") ? { envoi_devis: "oui" } : {}),
  };

  const history = steps(deal, createdAt, now, {
    admin: ctx.admin?.id ?? null,
    partner: partner?.id ?? null,
    customer: customer?.id ?? null,
  });
  const editedAt = history.find((s) => s.status === "pending")?.at ?? null;

  await tx`select set_config('app.deal_action', 'request', true)`;
  const [row] = await tx<{ id: number }>`
    insert into public.deals (name, status, hubspot_id, admin_comments, lines, settings, admin_settings, choices,
      description, parameters, properties, calculations, totals, total_ht, service_date, guests, event_type,
      customer_id, company_id, created_at, edited_at)
    values (${dealName(deal.event, contact.lastname, date)}, 'start', ${demoHubspotId(deal.n)},
      ${deal.adminComments ?? ""}, ${JSON.stringify(lines)}::jsonb, ${JSON.stringify(settings)}::jsonb,
      ${JSON.stringify(adminSettings)}::jsonb, ${JSON.stringify({ cocktails: chosen })}::jsonb,
      ${deal.partnerDescription ?? ""}, ${JSON.stringify(parameters)}::jsonb, ${
    JSON.stringify(properties)
  }::jsonb,
      ${JSON.stringify(calculations)}::jsonb, ${
    JSON.stringify(totals)
  }::jsonb, ${totals.totalInvoiceByPartner},
      ${date}::date, ${deal.guests}, ${deal.event}, ${customer?.id ?? null}, ${partner?.id ?? null},
      ${createdAt}, ${editedAt})
    returning id`;
  await tx`insert into public.deal_contacts (deal_id, firstname, lastname, email, phone, service_address)
           values (${row.id}, ${contact.firstname}, ${contact.lastname}, ${contact.email}, ${contact.phone},
                   ${deal.address})`;
  await refreshSearchText(tx, row.id);

  // The walk: each move recorded by the history trigger, payments as the app records them.
  const deposit = depositPercentage === null
    ? 0
    : percentOf(totals.totalTTC, percentToBasisPoints(depositPercentage));
  let depositPaid = 0;
  for (const step of history.slice(1)) {
    await tx`select set_config('app.deal_action', ${step.action}, true)`;
    if (step.status === "pay_partial" || step.status === "pay_total") {
      const kind = step.status === "pay_partial" ? "deposit" : depositPaid ? "balance" : "total";
      const amount = kind === "deposit" ? deposit : totals.totalTTC - depositPaid;
      if (kind === "deposit") depositPaid = amount;
      await pay(tx, ctx, row.id, kind, amount, step);
      continue;
    }
    const reason = step.status.startsWith("refused") ? deal.refusal?.reason ?? null : null;
    await tx`update public.deals set status = ${step.status},
               refusal_reason = coalesce(${reason}, refusal_reason) where id = ${row.id}`;
  }

  // Each history row dated and attributed as the app would have recorded it.
  const recorded = await tx<{ id: number }>`
    select id from public.deal_status_changes where deal_id = ${row.id} order by id`;
  if (recorded.length !== history.length) {
    throw new Error(`démo : historique inattendu pour le devis ${deal.n} (${recorded.length} lignes)`);
  }
  const fixes = recorded.map((r, i) => ({
    id: r.id,
    at: history[i].at.toISOString(),
    actor: history[i].actorId,
    role: history[i].role === "System" ? "service_role" : history[i].role,
    action: history[i].action,
  }));
  await tx`
    update public.deal_status_changes h
    set created_at = f.at, actor_id = f.actor, actor_role = f.role, action = f.action
    from jsonb_to_recordset(${JSON.stringify(fixes)}::jsonb)
      as f(id bigint, at timestamptz, actor uuid, role text, action text)
    where h.id = f.id`;
  if (
    status !==
      (await tx<{ status: DealStatus }>`select status from public.deals where id = ${row.id}`)[0].status
  ) {
    throw new Error(`démo : le devis ${deal.n} n'a pas atteint le statut ${status}`);
  }
}

/** A payment: through record_payment() when the payments capability is installed (the payment row,
 * the amounts and the status in one call), else the deal's columns directly. */
async function pay(
  tx: Tx,
  ctx: Context,
  dealId: number,
  kind: "deposit" | "balance" | "total",
  amount: number,
  step: Step,
): Promise<void> {
  if (ctx.recordPayment) {
    await tx`select * from public.record_payment(${dealId}, ${kind}, ${amount}, 'manual', null, null,
                                                 ${ctx.admin?.id ?? null}, ${step.at})`;
    // record_payment names its own action; the history fix-up attributes it afterwards.
    return;
  }
  if (kind === "deposit") {
    await tx`update public.deals set status = 'pay_partial', deposit_paid_at = ${step.at}, deposit_amount = ${amount}
             where id = ${dealId}`;
  } else {
    await tx`update public.deals set status = 'pay_total', paid_at = ${step.at},
               total_amount_paid = coalesce(deposit_amount, 0) + ${amount}
             where id = ${dealId}`;
  }
}
