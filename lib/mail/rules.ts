// The emails capability's pure rules, shared with islands: the manual templates an admin may send from
// the deals list (spec 001 §9), the scheduled emails' display status (§4) and reminder delays, and the
// French messages of the send-email dialog and the 'Gestion des emails programmés (Cron)' page (§8).

/** Sent (and finally failed) emails are deleted after this many days (job 'purge-sent-emails': the
 * default of public.purge_sent_emails() in 20261128009100_email_secrets.sql). */
export const SENT_EMAIL_RETENTION_DAYS = 90;

export type PaymentKindName = "deposit" | "balance" | "total";
export const PAYMENT_KIND_LABELS: Record<PaymentKindName, string> = {
  deposit: "acompte",
  balance: "solde",
  total: "paiement intégral",
};

export type ManualTemplateName =
  | "deal-reminder-manual-partner"
  | "deal-reminder-manual-customer"
  | "deal-invoice-customer";

export interface EmailTemplateInfo {
  template: ManualTemplateName;
  label: string;
  description: string;
  recipient: "client" | "partner";
}

/** GET /api/deal/email-templates: what the admin's 'send email' dialog offers. */
export const MANUAL_TEMPLATES: EmailTemplateInfo[] = [
  {
    template: "deal-reminder-manual-partner",
    label: "Rappel partenaire",
    description: "Rappelle au partenaire de valider sa disponibilité et ses cocktails pour ce devis.",
    recipient: "partner",
  },
  {
    template: "deal-reminder-manual-customer",
    label: "Rappel client",
    description: "Rappelle au client de choisir ses cocktails et de régler son acompte.",
    recipient: "client",
  },
  {
    template: "deal-invoice-customer",
    label: "Facture client",
    description: "Envoie au client les liens de ses factures et ce qu'il reste à régler.",
    recipient: "client",
  },
];

export const manualTemplate = (name: unknown): EmailTemplateInfo | undefined =>
  MANUAL_TEMPLATES.find((t) => t.template === name);

/** What decides whether a manual template is worth sending for a deal. */
export interface ManualSendFacts {
  status: string;
  hasCustomer: boolean;
  hasPartner: boolean;
  /** A (non-overpayment) payment was recorded: its customer invoice exists (issued by the billing
   * worker within seconds of the payment). */
  anythingPaid: boolean;
}

/** Statuses in which the partner still has to validate its availability and cocktails. */
const PARTNER_TO_VALIDATE = new Set(["new", "pending"]);
/** Statuses in which the customer holds a quote to accept by paying its deposit. */
const CUSTOMER_TO_PAY = new Set(["send", "edited", "accepted"]);
const REFUSED = new Set(["refused", "refused_client", "refused_partner"]);

/** Why a manual template cannot be sent for a deal (null: it can). Each reminder only while its party has
 * something to do (the partner: validate a deal in 'new'/'pending'; the customer: pay the deposit of a
 * quote they hold); 'Facture client' only once an invoice exists; nothing before the deal leaves
 * 'start'. */
export function manualSendRefusal(template: EmailTemplateInfo, deal: ManualSendFacts): string | null {
  const { status } = deal;
  if (!(template.recipient === "partner" ? deal.hasPartner : deal.hasCustomer)) {
    return MAIL_MESSAGES.noRecipient;
  }
  if (status === "start") {
    return template.recipient === "partner"
      ? MAIL_MESSAGES.notSentToPartner
      : MAIL_MESSAGES.notSentToCustomer;
  }
  if (template.template === "deal-invoice-customer") {
    return deal.anythingPaid ? null : MAIL_MESSAGES.noInvoice;
  }
  if (REFUSED.has(status)) return MAIL_MESSAGES.refusedNothingToDo;
  if (template.template === "deal-reminder-manual-partner") {
    return PARTNER_TO_VALIDATE.has(status) ? null : MAIL_MESSAGES.partnerNothingToDo;
  }
  if (PARTNER_TO_VALIDATE.has(status)) return MAIL_MESSAGES.notSentToCustomer;
  if (deal.anythingPaid) return MAIL_MESSAGES.customerAlreadyPaid;
  if (!CUSTOMER_TO_PAY.has(status)) return MAIL_MESSAGES.customerNothingToDo;
  return null;
}

/** A manual template as the dialog offers it for one deal: `unavailableReason` says why it cannot be
 * sent (null: it can). */
export interface DealEmailTemplate extends EmailTemplateInfo {
  available: boolean;
  unavailableReason: string | null;
}

export function dealEmailTemplates(deal: ManualSendFacts): DealEmailTemplate[] {
  return MANUAL_TEMPLATES.map((t) => {
    const reason = manualSendRefusal(t, deal);
    return { ...t, available: reason === null, unavailableReason: reason };
  });
}

export const RECIPIENT_LABELS: Record<EmailTemplateInfo["recipient"], string> = {
  client: "Client",
  partner: "Partenaire",
};

export const MAIL_MESSAGES = {
  templatesError: "Erreur lors du chargement des templates d'emails",
  sendError: "Erreur lors de l'envoi de l'email",
  sent: (label: string) => `Email "${label}" envoyé avec succès !`,
  noTemplate: "Aucun template d'email disponible",
  unknownTemplate: "Ce modèle d'email n'existe pas.",
  templateRequired: "Veuillez choisir un modèle d'email.",
  notAllowed: "Seuls les administrateurs peuvent envoyer des emails.",
  noRecipient: "Ce devis n'a pas de destinataire pour cet email.",
  notSentToPartner: "Ce devis n'a pas encore été envoyé au partenaire.",
  notSentToCustomer: "Ce devis n'a pas encore été envoyé au client.",
  partnerNothingToDo: "Le partenaire a déjà validé sa disponibilité : il n'a rien à faire sur ce devis.",
  customerAlreadyPaid: "Le client a déjà réglé son acompte : il n'a rien à faire sur ce devis.",
  customerNothingToDo: "Le client n'a rien à faire sur ce devis.",
  refusedNothingToDo: "Ce devis est refusé : il n'y a plus rien à rappeler.",
  noInvoice: "Aucune facture n'existe encore pour ce devis : elle est émise au premier paiement.",
  notFound: "Email introuvable.",
} as const;

/** Reminder policy (ARCHITECTURE 'Emails'): delays after the action that starts each wait. */
export const REMINDER_DELAYS = {
  /** The partner has not validated a deal sent to it. */
  partnerHours: 48,
  /** The customer has not paid the deposit of a sent quote. */
  customerDays: 3,
} as const;

// ---- 'Gestion des emails programmés (Cron)' (spec 001 §2.14, §4, §8, §9) ----

export interface ScheduledEmailJson {
  id: number;
  template: string;
  entityId: number | null;
  data: { hubspotId: string | null };
  /** Unix seconds. */
  scheduleAt: number;
  createdAt: number;
  isSent: boolean;
  isReady: boolean;
  /** Seconds until scheduleAt (0 once due). */
  timeRemaining: number;
}

export interface CronStats {
  pending: number;
  ready: number;
  sentToday: number;
  totalSent: number;
}

export type ScheduledDisplay = "sent" | "ready" | "scheduled";

/** Checked in this order (spec 001 §4): sent, ready to send, scheduled. */
export function scheduledDisplay(row: Pick<ScheduledEmailJson, "isSent" | "isReady">): ScheduledDisplay {
  return row.isSent ? "sent" : row.isReady ? "ready" : "scheduled";
}

export const SCHEDULED_LABELS: Record<ScheduledDisplay, string> = {
  sent: "Envoyé",
  ready: "À envoyer",
  scheduled: "Programmé",
};

/** "2 j 3 h", "5 h 12 min", "4 min", "Maintenant". */
export function remainingLabel(seconds: number): string {
  if (seconds <= 0) return "Maintenant";
  const minutes = Math.ceil(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours ? `${days} j ${hours} h` : `${days} j`;
  if (hours > 0) return mins ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

export const CRON_MESSAGES = {
  title: "Gestion des emails programmés (Cron)",
  loadError: (message: string) => `Erreur lors du chargement des données : ${message}`,
  cleanupError: (message: string) => `Erreur lors du nettoyage : ${message}`,
  cleanupConfirm: "Voulez-vous vraiment supprimer les crons envoyés depuis plus de 30 jours ?",
  cleaned: (count: number) =>
    count === 0
      ? "Aucun email programmé envoyé depuis plus de 30 jours."
      : `${count} email${count > 1 ? "s" : ""} programmé${count > 1 ? "s" : ""} supprimé${
        count > 1 ? "s" : ""
      }.`,
  empty: "Aucun email programmé pour le moment.",
} as const;

/** The page reloads its data every 5 minutes (spec 001 §9: 300000 ms). */
export const CRON_REFRESH_MS = 300_000;
export const CRON_NOTICE_MS = 3000;
/** Sent scheduled emails older than this are removed by the cleanup (spec 001 §9). */
export const CLEANUP_DAYS = 30;

/** Human names of the templates the scheduled page lists. */
export const TEMPLATE_LABELS: Record<string, string> = Object.fromEntries(
  MANUAL_TEMPLATES.map((t) => [t.template, t.label]),
);
