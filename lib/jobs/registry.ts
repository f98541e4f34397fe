// The one list of scheduled jobs. A job runs either an SQL function (pg_cron runs it where pg_cron
// serves this database, the app's scheduler otherwise) or a handler in the app (always the app's
// scheduler, under a lease so that one instance runs it at a time). Schedules are cron expressions,
// read by pg_cron and by the app alike; the finest is every minute.
import type { Deps } from "../deps.ts";
import { reconcilePayments } from "../payments/use_cases/reconcile.ts";
import { sendChatDigests } from "../chat/use_cases/send_digests.ts";
import { SENT_EMAIL_RETENTION_DAYS } from "../mail/rules.ts";

export interface ScheduledJob {
  /** Unique name; pg_cron's jobname is `app:<name>`. */
  name: string;
  schedule: string;
  description: string;
  /** One call of a function: `select <schema>.<function>()`. */
  sql?: string;
  handler?: (deps: Deps) => Promise<unknown>;
}

export const JOBS: ScheduledJob[] = [
  {
    name: "purge-deleted-accounts",
    schedule: "* * * * *",
    description: "Anonymise les comptes dont la suppression a été demandée il y a plus de 14 jours",
    sql: "select public.purge_deleted_accounts()",
  },
  {
    name: "purge-expired-identity",
    schedule: "*/5 * * * *",
    description:
      "Supprime les sessions expirées, les anciennes tentatives de connexion et les compteurs de limites",
    sql: "select identity.purge_expired()",
  },
  {
    name: "purge-outbox",
    schedule: "17 * * * *",
    description: "Supprime les tâches de la file de travail terminées depuis plus de 7 jours",
    sql: "select public.purge_outbox()",
  },
  {
    name: "purge-idempotency-keys",
    schedule: "23 * * * *",
    description: "Supprime les clés d'idempotence de plus de 24 heures (elles ne sont plus honorées)",
    sql: "select public.purge_idempotency_keys()",
  },
  {
    name: "release-expired-holds",
    schedule: "* * * * *",
    description: "Remet en vente les places des paniers d'ateliers dont la réservation a expiré",
    sql: "select public.release_expired_holds()",
  },
  {
    name: "expire-seat-offers",
    schedule: "* * * * *",
    description:
      "Rend les places des alertes non utilisées à temps, qui passent à la personne suivante sur la liste d'attente",
    sql: "select public.expire_seat_offers()",
  },
  {
    name: "expire-unpaid-orders",
    schedule: "* * * * *",
    description:
      "Marque expirées les commandes d'ateliers non payées dont les places ont été remises en vente",
    sql: "select public.expire_unpaid_orders()",
  },
  {
    name: "release-stale-voucher-holds",
    schedule: "17 * * * *",
    description:
      "Rend aux bons cadeaux les montants réservés par des commandes d'ateliers expirées depuis plus d'un jour",
    sql: "select public.release_stale_voucher_holds()",
  },
  {
    name: "scheduled-emails-ready",
    schedule: "* * * * *",
    description: "Marque prêts à partir les emails programmés (rappels, factures) dont l'heure est venue",
    sql: "select public.mark_scheduled_emails_ready()",
  },
  {
    name: "purge-scheduled-emails",
    schedule: "40 3 * * *",
    description: "Supprime les emails programmés envoyés depuis plus de 30 jours",
    sql: "select public.purge_scheduled_emails()",
  },
  {
    name: "purge-sent-emails",
    schedule: "50 3 * * *",
    description:
      `Supprime les emails envoyés (ou abandonnés) depuis plus de ${SENT_EMAIL_RETENTION_DAYS} jours`,
    sql: "select public.purge_sent_emails()",
  },
  {
    name: "purge-old-logs",
    schedule: "30 3 * * *",
    description: "Supprime les logs de plus de 30 jours (comme 'Nettoyer les anciens')",
    sql: "select public.purge_old_logs()",
  },
  {
    name: "log-cron-failures",
    schedule: "*/5 * * * *",
    description: "Reporte dans les logs (service jobs) les exécutions pg_cron en échec",
    sql: "select public.log_cron_failures()",
  },
  {
    name: "reconcile-payments",
    schedule: "*/10 * * * *",
    description: "Rattrape les paiements par carte réussis qu'aucun webhook ni retour client n'a enregistrés",
    handler: (deps) => reconcilePayments(deps),
  },
  {
    name: "chat-unread-digests",
    schedule: "* * * * *",
    description: "Envoie un email récapitulatif des messages de chat non lus depuis 15 minutes",
    handler: (deps) => sendChatDigests(deps),
  },
];
