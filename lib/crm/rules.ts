// When the CRM sync runs: with a HubSpot token configured, every change of a deal is queued
// (lib/crm/sync.ts); without one nothing is queued (lib/crm/switch.ts). The admin's 'Marquer devis accepté' message names HubSpot only then
// (spec 001 §8: 'La phase HubSpot a été mise à jour').
import type { Config } from "../config.ts";

export function crmSyncEnabled(config: Pick<Config, "hubspotToken">): boolean {
  return config.hubspotToken !== "";
}

export const CRM_MESSAGES = {
  syncOff:
    "Synchronisation HubSpot désactivée : aucun jeton HUBSPOT_TOKEN n'est configuré. Les modifications des devis ne sont pas mises en file : chaque devis sera envoyé à sa prochaine modification une fois le jeton configuré.",
  syncOn: "Synchronisation HubSpot active : chaque modification d'un devis est envoyée à HubSpot.",
  webhookOff: "HubSpot n'est pas configuré",
  badSignature: "Signature HubSpot invalide",
  badBody: "Corps de requête HubSpot invalide",
} as const;
