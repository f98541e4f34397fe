// When the CRM sync runs: every change of a deal is queued (lib/crm/sync.ts), but sent only when a
// HubSpot token is configured. The admin's 'Marquer devis accepté' message names HubSpot only then
// (spec 001 §8: 'La phase HubSpot a été mise à jour').
import type { Config } from "../config.ts";

export function crmSyncEnabled(config: Pick<Config, "hubspotToken">): boolean {
  return config.hubspotToken !== "";
}

export const CRM_MESSAGES = {
  syncOff:
    "Synchronisation HubSpot désactivée : aucun jeton HUBSPOT_TOKEN n'est configuré. Les modifications des devis attendent dans la file de travail.",
  syncOn: "Synchronisation HubSpot active : chaque modification d'un devis est envoyée à HubSpot.",
  webhookOff: "HubSpot n'est pas configuré",
  badSignature: "Signature HubSpot invalide",
  badBody: "Corps de requête HubSpot invalide",
} as const;
