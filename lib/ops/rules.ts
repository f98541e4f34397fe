// The admin logs page (spec 001 §2.13, §8, §9), pure: shared by the server and the island.
import type { OpsAlert } from "./alerts.ts";

export const LOG_TYPES = ["error", "warning", "info"] as const;
export type LogType = typeof LOG_TYPES[number];

/** 50 rows a page, newest first (spec 001 §9). */
export const LOG_PAGE_SIZE = 50;
/** 'Nettoyer les anciens' and the nightly job delete rows older than this. */
export const LOG_RETENTION_DAYS = 30;
/** The page refreshes itself every 5 minutes (300 000 ms). */
export const LOG_REFRESH_MS = 300_000;
/** Snackbars of the logs page. */
export const LOG_NOTICE_MS = 3000;
export const MAX_SERVICE_LENGTH = 64;

export const LOG_TYPE_LABELS: Record<LogType, string> = {
  error: "Erreur",
  warning: "Avertissement",
  info: "Info",
};

export const LOG_STAT_LABELS = {
  total: "Total",
  errors: "Erreurs",
  warnings: "Avertissements",
  info: "Info",
  today: "Aujourd'hui",
} as const;

export const LOG_MESSAGES = {
  title: "Gestion des Logs",
  refresh: "Actualiser",
  cleanup: "Nettoyer les anciens",
  allServices: "Tous les services",
  allTypes: "Tous les types",
  empty: "Aucun log pour le moment.",
  noMatch: "Aucun log ne correspond à ces filtres.",
  deleted: "Log supprimé avec succès",
  confirmDelete: "Voulez-vous vraiment supprimer ce log ?",
  confirmCleanup: "Voulez-vous vraiment supprimer les logs de plus de 30 jours ?",
  loadError: (message: string) => `Erreur lors du chargement des logs : ${message}`,
  deleteError: (message: string) => `Erreur lors de la suppression : ${message}`,
  cleanupError: (message: string) => `Erreur lors du nettoyage : ${message}`,
  cleaned: (count: number) =>
    count === 0
      ? "Aucun log de plus de 30 jours à supprimer."
      : count === 1
      ? "1 log de plus de 30 jours supprimé."
      : `${count} logs de plus de 30 jours supprimés.`,
  notFound: "Ce log n'existe pas ou a déjà été supprimé.",
  badType: "Type de log inconnu : choisissez error, warning ou info.",
  badService: "Service de log invalide.",
  badPage: "Numéro de page invalide.",
  notAllowed: "La gestion des logs est réservée aux administrateurs.",
} as const;

/** What the page shows for a service (the API and the filter's value keep the raw id). */
export const LOG_SERVICE_LABELS: Record<string, string> = {
  accounts: "Comptes",
  auth: "Connexion",
  background: "Arrière-plan",
  chat: "Messagerie",
  cron: "Tâches planifiées",
  deals: "Devis",
  http: "Serveur web",
  hubspot: "HubSpot",
  impersonation: "Connexion en tant que",
  jobs: "Tâches planifiées",
  logs: "Logs",
  mail: "Emails",
  outbox: "File de tâches",
  partners: "Partenaires",
  payments: "Paiements",
  sessions: "Ateliers",
  smtp: "SMTP",
  stripe: "Stripe",
  vouchers: "Bons cadeaux",
  worker: "File de tâches",
};

/** The French name of a log's service; an unknown one shows as it is. */
export function serviceLabel(service: string): string {
  return Object.hasOwn(LOG_SERVICE_LABELS, service) ? LOG_SERVICE_LABELS[service] : service;
}

export interface LogStats {
  total: number;
  errors: number;
  warnings: number;
  info: number;
  today: number;
}

export interface LogEntry {
  id: number;
  /** Unix seconds. */
  createdAt: number;
  service: string;
  type: LogType;
  message: string;
  context: Record<string, unknown>;
}

export interface LogFilters {
  service: string;
  type: LogType | "";
  page: number;
}

/** GET /api/logs's `data`. */
export interface LogsData {
  stats: LogStats;
  logs: LogEntry[];
  services: string[];
  /** Rows matching the filters, the page shown and its size. */
  total: number;
  page: number;
  pageSize: number;
  /** Whether HubSpot is kept in step (HUBSPOT_TOKEN), and the sentence saying so. */
  hubspot: { enabled: boolean; message: string };
  /** Dead letters and a stalled worker, shown as errors above the logs (alerts.ts). */
  alerts: OpsAlert[];
}

export type ParsedFilters = { ok: true; filters: LogFilters } | { ok: false; message: string };

/** The query string's filters: empty service or type mean all; page from 1. */
export function parseFilters(query: Record<string, string | undefined>): ParsedFilters {
  const service = (query.service ?? "").trim();
  const type = (query.type ?? "").trim();
  const pageText = (query.page ?? "").trim();
  if (service.length > MAX_SERVICE_LENGTH || [...service].some((ch) => ch.charCodeAt(0) < 32)) {
    return { ok: false, message: LOG_MESSAGES.badService };
  }
  if (type !== "" && !(LOG_TYPES as readonly string[]).includes(type)) {
    return { ok: false, message: LOG_MESSAGES.badType };
  }
  const page = pageText === "" ? 1 : Number(pageText);
  if (!Number.isInteger(page) || page < 1 || page > 100_000) {
    return { ok: false, message: LOG_MESSAGES.badPage };
  }
  return { ok: true, filters: { service, type: type as LogType | "", page } };
}

export function pageCountOf(total: number, pageSize = LOG_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The query string of filters (for the API and the page's URL), without empty values. */
export function filtersQuery(filters: Partial<LogFilters>): string {
  const params = new URLSearchParams();
  if (filters.service) params.set("service", filters.service);
  if (filters.type) params.set("type", filters.type);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}
