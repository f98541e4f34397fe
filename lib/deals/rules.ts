// Pure rules of the deals capability: statuses with their French labels and colours, the transition
// table (which role may move a deal from which status to which, spec 001 §4 and 000 §4), refusal
// reasons, the option lists of deal properties, the defaults of deal settings, and French messages.
// No database: unit-tested in rules_test.ts and imported by the islands.
import { formatEuros } from "../money.ts";

export const DEAL_STATUSES = [
  "start",
  "new",
  "pending",
  "send",
  "edited",
  "accepted",
  "pay_partial",
  "pay_total",
  "win",
  "refused",
  "refused_client",
  "refused_partner",
] as const;
export type DealStatus = typeof DEAL_STATUSES[number];

export const STATUS_LABELS: Record<DealStatus, string> = {
  start: "Devis généré",
  new: "Nouvelle demande",
  pending: "Attente revalidation partenaire",
  send: "Devis envoyé",
  edited: "Devis modifié et envoyé",
  accepted: "Devis accepté",
  pay_partial: "Accepté / paiement partiel",
  pay_total: "Accepté / paiement complet",
  win: "Gagné soldé",
  refused: "Refusé",
  refused_client: "Refusé par le client",
  refused_partner: "Refusé par le partenaire",
};

/** Chip colours (Tailwind classes), one family per stage of the deal. */
export const STATUS_COLORS: Record<DealStatus, string> = {
  start: "bg-slate-200 text-slate-800",
  new: "bg-sky-100 text-sky-800",
  pending: "bg-amber-100 text-amber-800",
  send: "bg-indigo-100 text-indigo-800",
  edited: "bg-violet-100 text-violet-800",
  accepted: "bg-teal-100 text-teal-800",
  pay_partial: "bg-lime-100 text-lime-800",
  pay_total: "bg-emerald-100 text-emerald-800",
  win: "bg-emerald-700 text-white",
  refused: "bg-red-100 text-red-800",
  refused_client: "bg-orange-100 text-orange-800",
  refused_partner: "bg-red-100 text-red-800",
};

export function statusOptions(): { value: DealStatus; label: string; color: string }[] {
  return DEAL_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value], color: STATUS_COLORS[value] }));
}

function isDealStatus(value: unknown): value is DealStatus {
  return typeof value === "string" && (DEAL_STATUSES as readonly string[]).includes(value);
}

export const REFUSED_STATUSES: DealStatus[] = ["refused", "refused_client", "refused_partner"];

/** Statuses whose quote the customer's page shows: once a partner has sent it. */
export const VISIBLE_STATUSES: DealStatus[] = [
  "send",
  "edited",
  "accepted",
  "pay_partial",
  "pay_total",
  "win",
  "refused",
  "refused_client",
  "refused_partner",
];

/** A deal's public token, as links carry it: 32 to 128 hexadecimal characters. */
export const DEAL_TOKEN = /^[a-f0-9]{32,128}$/;

/** A partner's public slug: `<name in kebab case>-<first 8 hex digits of its id>`. */
export function companySlug(name: string, id: string): string {
  const base = name.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${base || "partenaire"}-${id.slice(0, 8)}`;
}
/** Accepted or paid: the customer can no longer refuse (spec 000 §4). */
export const COMMITTED_STATUSES: DealStatus[] = ["accepted", "pay_partial", "pay_total", "win"];

export type Role = "Admin" | "Company" | "Customer" | "System";

/** What moves a deal. `edit` is saving its lines or properties. */
export type DealAction =
  | "send_to_partner"
  | "validate"
  | "edit"
  | "accept"
  | "pay_deposit"
  | "pay_balance"
  | "pay_total"
  | "refuse"
  | "set_status";

/** The transition table (written out in ARCHITECTURE.md): for each action, who may do it, from
 * which statuses, and where it leads. `to` may depend on the status it starts from. */
interface Rule {
  roles: Role[];
  from: DealStatus[];
  to: (from: DealStatus) => DealStatus;
}

const OPEN_FOR_EDIT: DealStatus[] = ["new", "pending", "send", "edited"];
const PAYABLE: DealStatus[] = ["send", "edited", "accepted"];

const TRANSITIONS: Record<Exclude<DealAction, "refuse" | "set_status" | "edit">, Rule> = {
  // Admin: 'Envoyer le devis au partenaire' (a partner must be assigned: checked by the use case).
  send_to_partner: { roles: ["Admin"], from: ["start"], to: () => "new" },
  // Partner (own deal) or admin: 'Valider ma disponibilité et les cocktails' / '(Re)valider ma dispo'.
  validate: {
    roles: ["Admin", "Company"],
    from: ["new", "pending"],
    to: (from) => (from === "pending" ? "edited" : "send"),
  },
  // Admin: 'Marquer devis accepté' (locks edits).
  accept: { roles: ["Admin"], from: ["send", "edited"], to: () => "accepted" },
  // Admin by hand ('Marquer l'acompte payé'…), or the system when a card payment succeeds.
  pay_deposit: { roles: ["Admin", "System"], from: PAYABLE, to: () => "pay_partial" },
  pay_balance: { roles: ["Admin", "System"], from: ["pay_partial"], to: () => "pay_total" },
  pay_total: { roles: ["Admin", "System"], from: PAYABLE, to: () => "pay_total" },
};

/** Statuses of a quote the customer received but not paid: a new partner never validated it, so a change
 * of partner sends the deal back to 'new' (paid deals keep their partner: partnerFixedOncePaid). */
export const PARTNER_CHANGE_RESETS: DealStatus[] = ["pending", "send", "edited", "accepted"];
/** Statuses in which the partners hear of a change of partner (the deal was sent to a partner and is
 * still alive): the previous one loses it, the new one is asked to validate. Mirrors the trigger
 * deal_emails_on_partner() of 20261128008100_partner_change.sql. */
export const PARTNER_CHANGE_EMAILS: DealStatus[] = ["new", ...PARTNER_CHANGE_RESETS];

export const DEAL_MESSAGES = {
  notAllowed: "Vous n'avez pas le droit d'effectuer cette action sur ce devis.",
  locked: "Les modifications de ce devis sont désactivées par l'administrateur.",
  sameStatus: "Le devis a déjà ce statut.",
  noPartner: "Choisissez d'abord un partenaire pour ce devis.",
  notFound: "Ce devis n'existe pas ou vous n'y avez pas accès.",
  partnerFixedOncePaid:
    "Un paiement a déjà été reçu pour ce devis : son partenaire ne peut plus changer (les factures sont émises en son nom).",
  /** An edit of a paid quote's amounts (totalChangeError). */
  paidTotalFixed:
    "Ce devis est entièrement réglé : son montant ne peut plus changer. Remboursez d'abord le paiement concerné.",
  totalBelowPaid: (held: string) =>
    `Le total du devis doit rester supérieur à l'acompte déjà reçu (${held}).`,
  unavailable: "Devis non disponible",
  /** The customer's page while a quote they received is with a partner again (a new partner, or an
   * edit to revalidate). */
  beingUpdated: "Votre devis est en cours de mise à jour",
  /** The partner-change dialog, before confirming, and the answer of the change (issue "Invoices…" §3). */
  partnerChangeResets:
    "Ce devis a déjà été envoyé au client : il repassera en « Nouvelle demande » pour que le nouveau partenaire valide sa disponibilité. Le client verra que son devis est en cours de mise à jour ; l'ancien et le nouveau partenaire seront prévenus par email.",
  partnerChangeNotifies: "L'ancien et le nouveau partenaire seront prévenus par email.",
  partnerChangedBackToNew: (name: string) =>
    `Partenaire changé pour ${name} : le devis repasse en « Nouvelle demande » et les deux partenaires ont été prévenus par email.`,
  invalid: "Veuillez vérifier les informations du devis.",
  reasonRequired: "Veuillez choisir une raison de refus.",
  amountPositive: "Le montant doit être supérieur à 0",
  sentToPartner: "Le devis a été envoyé au partenaire.",
  alreadySentToPartner: "Devis déjà envoyé au partenaire",
  sendToPartnerError: "Erreur lors de l'envoi du devis au partenaire",
  validated: "Disponibilité validée ! Le devis a été envoyé au client.",
  revalidated: "Disponibilité revalidée ! Le devis mis à jour a été envoyé au client.",
  mustRevalidate: "Informations mises à jour ! Vous devez relavider votre devis.",
  accepted: "Le devis a été marqué comme accepté. La phase HubSpot a été mise à jour.",
  /** When no CRM update will follow (no HubSpot token, or a deal not from HubSpot). */
  acceptedWithoutCrm: "Le devis a été marqué comme accepté.",
  acceptError: "Erreur lors du marquage du devis comme accepté",
  refused: "Le devis a été refusé.",
  refuseError: "Erreur lors du refus du devis",
  saveError: "Erreur lors de la sauvegarde des informations",
  commentsError: "Erreur lors de la sauvegarde des commentaires",
  acceptConfirm:
    "Êtes-vous sûr de vouloir marquer ce devis comme accepté ? Le client et le partenaire en seront informés. Les modifications seront verrouillées.",
  deleteConfirm: "Êtes-vous sûr de vouloir supprimer ce deal ?",
  noComment: "Aucun commentaire de l'équipe pour le moment",
  editsDisabledChip: "Modifications désactivées",
} as const;

export function statusChanged(label: string): string {
  return `Statut mis à jour vers : ${label}`;
}

export function wrongStatus(status: DealStatus): string {
  return `Cette action n'est pas possible pour un devis au statut « ${STATUS_LABELS[status]} ».`;
}

export type TransitionResult = { ok: true; to: DealStatus } | { ok: false; error: string };

export interface TransitionContext {
  from: DealStatus;
  role: Role;
  /** adminSettings.disableQuoteEdits */
  locked: boolean;
  /** For `refuse`: whether the chosen reason is shown to the customer. */
  reasonForCustomer?: boolean;
  /** For `set_status`: the status asked for. */
  target?: DealStatus;
}

const deny = (error: string): TransitionResult => ({ ok: false, error });

/** The one place that decides whether `action` may move a deal, and where to. */
export function transition(action: DealAction, ctx: TransitionContext): TransitionResult {
  const { from, role, locked } = ctx;
  switch (action) {
    case "edit": {
      // Admins edit in any status; partners only while the quote is open and not locked. Saving lines
      // or properties of a quote the customer already received sends it back for revalidation.
      if (role === "Admin") return { ok: true, to: from === "send" || from === "edited" ? "pending" : from };
      if (role !== "Company") return deny(DEAL_MESSAGES.notAllowed);
      if (locked) return deny(DEAL_MESSAGES.locked);
      if (!OPEN_FOR_EDIT.includes(from)) return deny(wrongStatus(from));
      return { ok: true, to: from === "send" || from === "edited" ? "pending" : from };
    }
    case "refuse": {
      if (role === "Customer") {
        // Spec 000 §4: not once accepted, paid or already refused.
        if (COMMITTED_STATUSES.includes(from) || REFUSED_STATUSES.includes(from)) {
          return deny(wrongStatus(from));
        }
        return { ok: true, to: "refused_client" };
      }
      if (role === "Company") {
        // The refuse button is hidden when edits are locked or the deal is already refused.
        if (locked) return deny(DEAL_MESSAGES.locked);
        if (!OPEN_FOR_EDIT.includes(from)) return deny(wrongStatus(from));
        return { ok: true, to: "refused_partner" };
      }
      if (role === "Admin") {
        if (REFUSED_STATUSES.includes(from) || ["pay_partial", "pay_total", "win"].includes(from)) {
          return deny(wrongStatus(from));
        }
        return { ok: true, to: ctx.reasonForCustomer ? "refused_client" : "refused_partner" };
      }
      return deny(DEAL_MESSAGES.notAllowed);
    }
    case "set_status": {
      // Admins may set any status directly (spec 001 §4); the others go through the actions above.
      if (role !== "Admin") return deny(DEAL_MESSAGES.notAllowed);
      if (!ctx.target || !isDealStatus(ctx.target)) return deny(DEAL_MESSAGES.invalid);
      if (ctx.target === from) return deny(DEAL_MESSAGES.sameStatus);
      return { ok: true, to: ctx.target };
    }
    default: {
      const rule = TRANSITIONS[action];
      if (!rule.roles.includes(role)) return deny(DEAL_MESSAGES.notAllowed);
      if (!rule.from.includes(from)) return deny(wrongStatus(from));
      return { ok: true, to: rule.to(from) };
    }
  }
}

/** Statuses a partner may pick in its status dialog, from `from`: its own actions only. */
export function partnerStatusChoices(from: DealStatus, locked: boolean): DealStatus[] {
  const choices: DealStatus[] = [];
  const validate = transition("validate", { from, role: "Company", locked });
  if (validate.ok) choices.push(validate.to);
  if (transition("refuse", { from, role: "Company", locked }).ok) choices.push("refused_partner");
  return choices;
}

// ---------------------------------------------------------------------------------------------------
// Refusal reasons (spec 000 §3): value, label (admins and partners), the label customers read, and
// whether customers may pick it and see it.

export interface RefusalReason {
  value: string;
  label: string;
  labelForCustomer: string;
  displayForCustomer: boolean;
  /** Offered to partners in their refusal dialog. */
  forPartner: boolean;
}

const reason = (
  value: string,
  label: string,
  labelForCustomer = label,
  displayForCustomer = false,
  forPartner = false,
) => ({
  value,
  label,
  labelForCustomer,
  displayForCustomer,
  forPartner,
});

export const REFUSAL_REASONS: RefusalReason[] = [
  reason("other_provider", "Autre prestataire", "J'ai choisi un autre prestataire", true),
  reason("other_activity", "Autre activité choisie", "J'ai choisi une autre activité", true),
  reason("budget", "Budget trop élevé", "Le budget est trop élevé", true),
  reason("event_cancelled", "Événement annulé", "L'événement n'aura pas lieu", true),
  reason("event_postponed", "Événement reporté", "L'événement est reporté", true),
  reason("client_other", "Autre (client)", "Autre raison", true),
  reason("min_participants", "Minimum de participants non atteint", undefined, false, true),
  reason("no_answer", "Resté sans réponse"),
  reason("client_organisation", "Organisation Client"),
  reason("gift_voucher", "Bon Cadeau"),
  reason("no_partner", "Pas de partenaire dispo"),
  reason("individual", "Participant individuel"),
  reason("unknown", "Ne sait pas"),
  reason("junk", "Junk"),
  reason("direct_partner", "Passé en direct partenaire"),
  reason("tender_lost", "Perte d'appel d'offre"),
  reason("tracking_error", "Erreur de suivi"),
  reason("incompatible_hours", "Horaires incompatibles", undefined, false, true),
  reason("duplicate", "Doublon"),
  reason("free_registration", "passé en inscription libre"),
  reason("partner_unavailable", "Partenaire indisponible à cette date", undefined, false, true),
  reason("partner_too_far", "Lieu de prestation trop éloigné", undefined, false, true),
  reason("partner_not_suited", "Prestation non adaptée à notre offre", undefined, false, true),
  reason("partner_other", "Autre (partenaire)", undefined, false, true),
];

export function findReason(value: string): RefusalReason | undefined {
  return REFUSAL_REASONS.find((r) => r.value === value);
}

/** The reasons a role may pick. */
export function reasonsFor(role: Role): RefusalReason[] {
  if (role === "Admin") return REFUSAL_REASONS;
  if (role === "Company") return REFUSAL_REASONS.filter((r) => r.forPartner);
  return REFUSAL_REASONS.filter((r) => r.displayForCustomer);
}

/** The refused banner (spec 001 §4): the customer-facing label is preferred for a client refusal. */
export function refusalBanner(status: DealStatus, value: string | null): string | null {
  if (!REFUSED_STATUSES.includes(status)) return null;
  const found = value ? findReason(value) : undefined;
  if (status === "refused_client") {
    return `Devis refusé par le client : ${found ? found.labelForCustomer : value ?? ""}`.trim();
  }
  return `Devis refusé par le partenaire : ${found ? found.label : value ?? ""}`.trim();
}

export function refuseConfirmation(label: string): string {
  return `Êtes-vous sûr de vouloir refuser ce devis avec la raison : "${label}" ? Cette action ne peut pas être annulée.`;
}

// ---------------------------------------------------------------------------------------------------
// Option lists (spec 000 §9, 001 §3 and §9), served by GET /api/field/{name}.

export const EVENT_TYPES = [
  "Entreprise team building",
  "Entreprise séminaire",
  "Anniversaire",
  "Mariage - soirée dansante",
  "Mariage - Vin d'honneur",
  "Salon - Congrès",
  "Lancement",
  "Autre",
];

export const DURATIONS_MINUTES = [90, 120, 180, 240, 300, 360, 420, 480, 600];

/** 90 → "1h30", 600 → "+ de 8h00". */
export function durationLabel(minutes: number): string {
  if (minutes === 600) return "+ de 8h00";
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}`;
}

/** Wished start times: every 30 minutes from 08:00 to 00:00. */
export const START_TIMES: string[] = Array.from({ length: 33 }, (_, i) => {
  const minutes = 8 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60) % 24).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});

export const LOCATION_TYPES = ["Intérieur", "Extérieur", "Intérieur et extérieur"];

export const COCKTAIL_LIST_TYPES = ["signature", "classic", "mocktail", "creation"] as const;
export type CocktailListType = typeof COCKTAIL_LIST_TYPES[number];
export const COCKTAIL_LIST_LABELS: Record<CocktailListType, string> = {
  signature: "Cocktails signature",
  classic: "Cocktails classiques",
  mocktail: "Mocktails (sans alcool)",
  creation: "Création sur mesure",
};

export interface FieldOption {
  value: string;
  label: string;
}

export interface FieldDefinition {
  name: string;
  label: string;
  options: FieldOption[];
}

const same = (values: string[]): FieldOption[] => values.map((value) => ({ value, label: value }));

export const FIELDS: Record<string, FieldDefinition> = {
  duree_2_service: {
    name: "duree_2_service",
    label: "Durée du service",
    options: DURATIONS_MINUTES.map((m) => ({ value: String(m), label: durationLabel(m) })),
  },
  horaire_souhaite: { name: "horaire_souhaite", label: "Horaire souhaité", options: same(START_TIMES) },
  bar_mobile: {
    name: "bar_mobile",
    label: "Bar mobile",
    options: [{ value: "true", label: "Oui, il nous faut un bar" }, {
      value: "false",
      label: "Non, une table est à disposition",
    }],
  },
  carte_des_cocktails: {
    name: "carte_des_cocktails",
    label: "Carte des cocktails",
    options: COCKTAIL_LIST_TYPES.filter((t) => t !== "mocktail").map((t) => ({
      value: t,
      label: COCKTAIL_LIST_LABELS[t],
    })),
  },
  mocktails: {
    name: "mocktails",
    label: "Mocktails",
    options: [{ value: "true", label: "Menu entièrement sans alcool" }, {
      value: "false",
      label: "Avec alcool",
    }],
  },
  type_d_evenement: { name: "type_d_evenement", label: "Type d'événement", options: same(EVENT_TYPES) },
  deal_location_type: { name: "deal_location_type", label: "Lieu du service", options: same(LOCATION_TYPES) },
};

// ---------------------------------------------------------------------------------------------------
// Deal settings and admin settings (spec 001 §3), with their defaults.

export interface CustomCocktail {
  id: string;
  name: string;
  description: string;
}

export interface DealSettings {
  hasDeposit: boolean;
  depositPercentage: number | null;
  cocktailListType: CocktailListType | null;
  customCocktails: CustomCocktail[];
  nbCocktailsAuthorized: number;
}

/** What the customer's deal page says (server answers and the cocktail island share them). */
export const CUSTOMER_MESSAGES = {
  linkedElsewhere:
    "Ce devis est rattaché à un autre compte client : connectez-vous avec le compte qui l'a demandé.",
  choicesSaved: "Votre choix de cocktails est enregistré.",
  choicesNotSaved: "Votre choix n'a pas pu être enregistré, veuillez réessayer.",
  tooManyCocktails: (n: number) => `Vous pouvez choisir ${n} cocktail${n > 1 ? "s" : ""} au plus.`,
  unknownCocktail: "Ce cocktail n'est pas proposé pour ce devis.",
  choicesClosed: "Le choix des cocktails n'est plus possible pour ce devis.",
} as const;

/** 30 in the settings form; 35 wherever a deal has no percentage (spec 000 §9, 001 §9). */
export const DEPOSIT_PERCENTAGE_FORM_DEFAULT = 30;
const DEPOSIT_PERCENTAGE_FALLBACK = 35;
export const DEFAULT_COCKTAILS_AUTHORIZED = 3;
const DEFAULT_LIST_TYPE: CocktailListType = "signature";

export const DEFAULT_SETTINGS: DealSettings = {
  hasDeposit: false,
  depositPercentage: null,
  cocktailListType: DEFAULT_LIST_TYPE,
  customCocktails: [],
  nbCocktailsAuthorized: DEFAULT_COCKTAILS_AUTHORIZED,
};

/** Spec 000 §9: a deposit is offered unless hasDeposit is explicitly false (settings of deals made
 * before the setting existed have none). */
export function depositOffered(settings: Partial<DealSettings>): boolean {
  return settings.hasDeposit !== false;
}

export function depositPercentage(settings: Partial<DealSettings>): number {
  const p = settings.depositPercentage;
  return typeof p === "number" && p > 0 && p <= 100 ? p : DEPOSIT_PERCENTAGE_FALLBACK;
}

export const ADMIN_SETTING_KEYS = [
  "showChatForPartner",
  "showChatToPartner",
  "showEmailForPartner",
  "showPhoneForPartner",
  "showAddressForPartner",
  "showPartnerProfileOnDeal",
  "showServiceAddress",
  "showCustomField1OnQuote",
  "showCustomField2OnQuote",
  "showCustomField1OnInvoice",
  "showCustomField2OnInvoice",
  "disableQuoteEdits",
  "showProformaInvoice",
] as const;
export type AdminSettingKey = typeof ADMIN_SETTING_KEYS[number];
export type AdminSettings = Record<AdminSettingKey, boolean>;

export const ADMIN_SETTING_LABELS: Record<AdminSettingKey, string> = {
  showChatForPartner: "Afficher le chat au partenaire (fiche devis)",
  showChatToPartner: "Afficher le chat au partenaire (page client)",
  showEmailForPartner: "Le partenaire voit l'email du client",
  showPhoneForPartner: "Le partenaire voit le téléphone du client",
  showAddressForPartner: "Le partenaire voit la société, le SIREN et l'adresse du client",
  showPartnerProfileOnDeal: "Afficher le profil du partenaire sur le devis",
  showServiceAddress: "Le partenaire voit l'adresse précise du service",
  showCustomField1OnQuote: "Afficher le champ libre 1 sur le devis",
  showCustomField2OnQuote: "Afficher le champ libre 2 sur le devis",
  showCustomField1OnInvoice: "Afficher le champ libre 1 sur la facture",
  showCustomField2OnInvoice: "Afficher le champ libre 2 sur la facture",
  disableQuoteEdits: "Désactiver les modifications du partenaire",
  showProformaInvoice: "Afficher la facture proforma",
};

export const DEFAULT_ADMIN_SETTINGS: AdminSettings = Object.fromEntries(
  ADMIN_SETTING_KEYS.map((key) => [key, false]),
) as AdminSettings;

// ---------------------------------------------------------------------------------------------------
// The cocktail list validation dialog (spec 001 §3 'Validation result').

export type CocktailValidationType =
  | "validation_success"
  | "incomplete_creation"
  | "no_list_selected"
  | "no_cocktails";

export interface CocktailValidation {
  type: CocktailValidationType;
  message: string;
  cocktailListType: CocktailListType | null;
  selectedCocktails: string[];
}

const COCKTAIL_VALIDATION_MESSAGES: Record<CocktailValidationType, string> = {
  validation_success: "Votre liste de cocktails est prête : vous pouvez valider votre disponibilité.",
  incomplete_creation:
    "La création sur mesure est choisie mais aucun cocktail personnalisé n'est encore décrit pour ce devis.",
  no_list_selected: "Aucune liste de cocktails n'est choisie pour ce devis.",
  no_cocktails: "Votre liste de cocktails de ce type est vide.",
};
export const COCKTAIL_VALIDATION_HINT =
  "Revenez valider votre disponibilité une fois votre liste de cocktails configurée.";

/** Is the cocktail list ready for the customer to choose from? */
export function validateCocktailList(
  settings: Pick<DealSettings, "cocktailListType" | "customCocktails">,
  catalogueSize: Record<"signature" | "classic" | "mocktail", number>,
  proposedIds: string[],
): CocktailValidation {
  const type = settings.cocktailListType;
  const result = (kind: CocktailValidationType): CocktailValidation => ({
    type: kind,
    message: COCKTAIL_VALIDATION_MESSAGES[kind],
    cocktailListType: type,
    selectedCocktails: proposedIds,
  });
  if (!type) return result("no_list_selected");
  if (type === "creation") {
    return result(settings.customCocktails.length ? "validation_success" : "incomplete_creation");
  }
  return result(catalogueSize[type] > 0 ? "validation_success" : "no_cocktails");
}

// The cocktail catalogue ('Mes cocktails', spec 001 §5 and §8).
export const COCKTAIL_MESSAGES = {
  required: "Le nom et la description du cocktail sont obligatoires.",
  saved: "Cocktail sauvegardé avec succès !",
  deleted: "Cocktail supprimé avec succès !",
  reordered: "Ordre des cocktails sauvegardé !",
  saveError: "Erreur lors de la sauvegarde du cocktail.",
  deleteError: "Erreur lors de la suppression du cocktail.",
} as const;

/** Why an edit may not bring the quote's total TTC to `nextTotal` (cents), or null: once a deposit is
 * received the total stays above it (a balance is left to pay), and a fully paid quote keeps its total.
 * The deals table's guard trigger holds the same rule. */
export function totalChangeError(
  deal: {
    totals: { totalTTC?: number };
    depositPaidAt: Date | null;
    depositAmount: number | null;
    paidAt: Date | null;
  },
  nextTotal: number,
): string | null {
  if (nextTotal === (deal.totals.totalTTC ?? 0)) return null;
  if (deal.paidAt) return DEAL_MESSAGES.paidTotalFixed;
  const held = deal.depositAmount ?? 0;
  if (deal.depositPaidAt && nextTotal <= held) return DEAL_MESSAGES.totalBelowPaid(formatEuros(held));
  return null;
}

/** GET /api/deal/{id}/repricing: the quote engine's lines for the request as it stands; amounts in euros,
 * as the deal API carries them. */
export interface RepricingProposal {
  lines: { label: string; qty: number; unitCost: number; totalCost: number }[];
  guests: number;
  nbCocktails: number;
  staff: number;
  current: { totalHt: number; totalTTC: number };
  proposed: { totalHt: number; totalTTC: number };
  /** false when the engine gives exactly the deal's lines: nothing to offer. */
  changed: boolean;
}
