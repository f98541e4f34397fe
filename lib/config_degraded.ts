// What runs degraded with this configuration: the features that work without a setting but do less. In
// production main.ts prints the list once at start-up (lib/config.ts refuses to start without what the
// app cannot run without); an empty list means nothing is degraded.
import type { Config } from "./config.ts";

export function degradedFeatures(config: Config): string[] {
  const notes: string[] = [];
  if (!config.smtpUrl) {
    notes.push(
      "SMTP_URL absent : aucun e-mail n'est envoyé, ils restent dans la boîte d'envoi (« Emails envoyés » " +
        "pour les admins) ; les liens de réinitialisation de mot de passe ne partent pas.",
    );
  }
  if (!config.hubspotToken) {
    notes.push(
      "HUBSPOT_TOKEN absent : synchronisation HubSpot désactivée (aucune mise à jour n'est mise en file ; " +
        "une fois un jeton configuré, chaque devis part à sa prochaine modification).",
    );
  }
  if (!config.hubspotClientSecret) {
    notes.push("HUBSPOT_CLIENT_SECRET absent : le webhook HubSpot répond 404 (rien ne revient de HubSpot).");
  }
  if (!config.databaseUrl) {
    notes.push(
      "DATABASE_URL absent : base embarquée (PGlite) dans DATA_DIR, une seule instance possible, " +
        "sans sauvegarde ni pg_cron.",
    );
  } else if (!config.databasePrepare && !config.databaseListenUrl) {
    notes.push(
      "DATABASE_PREPARE=false sans DATABASE_LISTEN_URL : un pooler en mode transaction ne garde pas un " +
        "LISTEN, le chat en direct et la fin des sessions sur les autres instances ne sont pas " +
        "transmis (donnez une connexion directe ou en mode session).",
    );
  }
  if (!(config.supabaseUrl && config.supabaseServiceRoleKey)) {
    notes.push(
      `Photos des devis sur le disque local (${config.uploadsDir || "./data/uploads"}) : une seule ` +
        "instance les voit (SUPABASE_URL et SUPABASE_SERVICE_ROLE_KEY pour Supabase Storage).",
    );
  }
  if (/^(sk|rk)_test_/.test(config.stripeSecretKey)) {
    notes.push("Clés Stripe de test : aucun paiement réel n'est encaissé.");
  }
  return notes;
}

/** The one start-up message: nothing when nothing is degraded. */
export function degradedReport(config: Config): string | null {
  const notes = degradedFeatures(config);
  if (notes.length === 0) return null;
  return `Fonctionnement dégradé (${notes.length}) :\n${notes.map((note) => `  - ${note}`).join("\n")}`;
}
