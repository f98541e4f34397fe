// The settings keys the admin's 'Paramètres' tab reads and writes (spec 001 §3 'Settings keys'),
// with their labels: pure, shared by the page and its island.
export const TEXT_KEYS = [
  "deviseur_description",
  "deviseur_custom_field_1",
  "deviseur_custom_field_2",
  "deviseur_signtext_field",
] as const;
export type TextKey = typeof TEXT_KEYS[number];

export const TEXT_LABELS: Record<TextKey, string> = {
  deviseur_description: "Description",
  deviseur_custom_field_1: "Champ libre 1",
  deviseur_custom_field_2: "Champ libre 2",
  deviseur_signtext_field: "Texte à côté de la signature",
};

export const FLAG_KEYS = [
  "deviseur_show_custom_field_1_on_quote",
  "deviseur_show_custom_field_1_on_invoice",
  "deviseur_show_custom_field_2_on_quote",
  "deviseur_show_custom_field_2_on_invoice",
] as const;
export type FlagKey = typeof FLAG_KEYS[number];

/** The checkboxes under each free field. */
export const FIELD_FLAGS: Partial<Record<TextKey, { key: FlagKey; label: string }[]>> = {
  deviseur_custom_field_1: [
    { key: "deviseur_show_custom_field_1_on_quote", label: "Afficher sur le devis" },
    { key: "deviseur_show_custom_field_1_on_invoice", label: "Afficher sur la facture" },
  ],
  deviseur_custom_field_2: [
    { key: "deviseur_show_custom_field_2_on_quote", label: "Afficher sur le devis" },
    { key: "deviseur_show_custom_field_2_on_invoice", label: "Afficher sur la facture" },
  ],
};

export const SETTINGS_KEY = "deviseur_settings";
export const COMMISSION_KEY = "deviseur_fixed_commission_tiers";
export const PRICING_KEY = "deviseur_pricing";

/** Every key the tab shows, in the order they are saved. */
export const DEVISEUR_KEYS = [SETTINGS_KEY, COMMISSION_KEY, ...TEXT_KEYS, ...FLAG_KEYS] as const;

/** Booleans are stored as '1' (spec 001 §3). */
export const isOn = (value: unknown) => value === "1" || value === 1 || value === true || value === "true";
