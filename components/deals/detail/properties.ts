// The deal properties the 'Demande client' cards show and edit (spec 001 §3), with their French
// labels, the kind of input each takes and its options (lib/deals/rules.ts FIELDS, the lists GET
// /api/field/{name} serves).
import { type FieldOption, FIELDS } from "../../../lib/deals/rules.ts";
import { isoDateFr } from "../../../lib/deals/format.ts";

export type PropertyKind = "text" | "number" | "date" | "select" | "yesno" | "multi" | "textarea";

export interface PropertyField {
  name: string;
  label: string;
  kind: PropertyKind;
  options?: FieldOption[];
}

const YES_NO: FieldOption[] = [{ value: "true", label: "Oui" }, { value: "false", label: "Non" }];

/** Shown only when it has a value or while editing (spec 001 §2.2). */
export const SPOUSE_FIELD = "nom_futur_e__marie_e_";
/** The precise service address: the partner sees it only when adminSettings.showServiceAddress is on. */
export const SERVICE_ADDRESS_FIELD = "adresse_precise";

export const MAIN_FIELDS: PropertyField[] = [
  {
    name: "type_d_evenement",
    label: "Type d'événement",
    kind: "select",
    options: FIELDS.type_d_evenement.options,
  },
  { name: SPOUSE_FIELD, label: "Nom du / de la futur(e) marié(e)", kind: "text" },
  { name: "deal_prestation_date", label: "Date de la prestation", kind: "date" },
  {
    name: "horaire_souhaite",
    label: "Horaire souhaité",
    kind: "select",
    options: FIELDS.horaire_souhaite.options,
  },
  {
    name: "duree_2_service",
    label: "Durée du service",
    kind: "select",
    options: FIELDS.duree_2_service.options,
  },
  { name: "nombre_de_participants", label: "Nombre de participants", kind: "number" },
  { name: "ville", label: "Ville", kind: "text" },
  { name: SERVICE_ADDRESS_FIELD, label: "Adresse précise du service", kind: "text" },
  {
    name: "deal_location_type",
    label: "Lieu du service",
    kind: "select",
    options: FIELDS.deal_location_type.options,
  },
  { name: "emplacement_du_service", label: "Emplacement du service", kind: "text" },
];

export const SECONDARY_FIELDS: PropertyField[] = [
  {
    name: "bar_mobile___table_a_dispo",
    label: "Bar mobile",
    kind: "select",
    options: FIELDS.bar_mobile.options,
  },
  {
    name: "carte_des_cocktails",
    label: "Carte des cocktails",
    kind: "multi",
    options: FIELDS.carte_des_cocktails.options,
  },
  { name: "mocktails", label: "Mocktails", kind: "select", options: FIELDS.mocktails.options },
  {
    name: "service_vin_champ__en_complement__",
    label: "Service vin / champagne en complément",
    kind: "yesno",
    options: YES_NO,
  },
  { name: "acces_au_lieu", label: "Accès au lieu", kind: "text" },
  { name: "acces_a_l_eau", label: "Accès à l'eau", kind: "yesno", options: YES_NO },
  { name: "distance_en_km", label: "Distance (km)", kind: "number" },
  { name: "validite_devis__en_jours_", label: "Validité du devis (jours)", kind: "number" },
  { name: "description", label: "Description de l'événement", kind: "textarea" },
];

/** A property's stored value as the text an input holds ("" when unset). */
export function inputValue(value: unknown): string {
  if (value == null) return "";
  if (Array.isArray(value)) return value.join(";");
  return String(value);
}

/** Semicolon-separated lists (carte_des_cocktails, spec 001 §3). */
export const splitList = (text: string) => text.split(";").map((s) => s.trim()).filter(Boolean);

/** A property as it reads: option labels, French dates, "Oui"/"Non"; "—" when unset. */
export function displayValue(field: PropertyField, value: unknown): string {
  const text = inputValue(value).trim();
  if (!text) return "—";
  const label = (v: string) => field.options?.find((o) => o.value === v)?.label ?? v;
  switch (field.kind) {
    case "date":
      return isoDateFr(text);
    case "multi":
      return splitList(text).map(label).join(", ");
    case "select":
    case "yesno":
      return label(text);
    case "number":
      return field.name === "distance_en_km" ? `${text} km` : text;
    default:
      return text;
  }
}
