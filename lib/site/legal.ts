// Texts of the legal pages linked from the registration form.
import { SITE_NAME } from "./brand.ts";
import { DELETION_GRACE_DAYS } from "../accounts/rules.ts";
import { SENT_EMAIL_RETENTION_DAYS } from "../mail/rules.ts";
import { LOG_RETENTION_DAYS } from "../ops/rules.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../auth/policy.ts";

export const CGU_SECTIONS = [
  {
    title: "Objet",
    text:
      `${SITE_NAME} met en relation des particuliers et des entreprises qui organisent un événement avec des
      prestataires de bar à cocktails partenaires, et vend des places pour des ateliers cocktails et des bons cadeaux.
      Les présentes conditions régissent l'utilisation du site et les commandes qui y sont passées.`,
  },
  {
    title: "Compte client",
    text:
      `La création d'un compte est réservée aux personnes majeures. Vous êtes responsable de l'exactitude des
      informations fournies et de la confidentialité de votre mot de passe. Vous pouvez demander la suppression de votre
      compte à tout moment : elle devient définitive après un délai de 14 jours, pendant lequel une simple connexion
      l'annule.`,
  },
  {
    title: "Devis et commandes",
    text: `Un devis est établi pour un événement à partir du nombre d'invités, de la durée du service et des
      options choisies. Il est validé par le prestataire partenaire puis accepté par le client au paiement d'un acompte
      ou du montant total. Les prix sont indiqués en euros, hors taxes et toutes taxes comprises.`,
  },
  {
    title: "Paiement",
    text:
      `Le paiement s'effectue par carte bancaire auprès de notre prestataire de paiement sécurisé. Aucune donnée de
      carte n'est conservée par ${SITE_NAME}. Une facture est disponible dans votre espace après chaque règlement.`,
  },
  {
    title: "Consommation d'alcool",
    text:
      "L'abus d'alcool est dangereux pour la santé, à consommer avec modération. La vente d'alcool aux mineurs est interdite.",
  },
];

export const PRIVACY_SECTIONS = [
  {
    title: "Données collectées",
    text:
      `Nous collectons les informations de votre compte (identité, coordonnées, date de naissance, informations de
      société le cas échéant), celles de vos demandes de devis et de leurs messages, de vos réservations d'ateliers,
      de vos bons cadeaux et de vos paiements, ainsi que la date de vos consentements (acceptation des conditions
      générales, offres par email).`,
  },
  {
    title: "Utilisation",
    text:
      `Vos coordonnées sont transmises au prestataire partenaire chargé de votre événement dans la mesure nécessaire
      à la prestation. Elles ne sont jamais vendues. Les mots de passe sont conservés sous forme chiffrée irréversible.
      Les numéros de carte bancaire ne sont jamais conservés par ${SITE_NAME}.`,
  },
];

/** The rights of the person (RGPD art. 15 to 21), each with how to use it; `{contact}` is the address
 * to write to (config SUPPORT_EMAIL). */
export const PRIVACY_RIGHTS = [
  {
    right: "Droit d'accès et de portabilité",
    how:
      "Dans « Mon profil », le bouton « Télécharger mes données » fournit immédiatement un fichier JSON de tout ce que nous conservons sur vous.",
  },
  {
    right: "Droit de rectification",
    how:
      "Modifiez vos informations dans « Mon profil », ou écrivez-nous pour ce que vous ne pouvez pas modifier.",
  },
  {
    right: "Droit à l'effacement",
    how:
      `Dans « Mon profil », « Supprimer mon compte » : le compte est anonymisé ${DELETION_GRACE_DAYS} jours après la
      demande (vous pouvez annuler d'ici là en vous reconnectant). Vos coordonnées sont alors effacées partout, sauf
      sur les factures et avoirs émis, que la loi nous oblige à conserver.`,
  },
  {
    right: "Droit d'opposition et de limitation",
    how: "Écrivez-nous à {contact} ; nous répondons sous un mois.",
  },
  {
    right: "Réclamation",
    how: "Vous pouvez saisir la CNIL (www.cnil.fr) si vous estimez que vos droits ne sont pas respectés.",
  },
];

/** How long each kind of data is kept: the values the code applies (lib/accounts/rules.ts,
 * lib/mail/rules.ts, lib/ops/rules.ts, lib/auth/policy.ts and the purge functions of the migrations). */
export const RETENTION_ROWS = [
  {
    data: "Compte (identité, coordonnées, adresses)",
    retention:
      `Tant que le compte existe, puis ${DELETION_GRACE_DAYS} jours après la demande de suppression : anonymisé.`,
  },
  {
    data: "Demandes de devis, messages, réservations, bons cadeaux",
    retention:
      "Avec le compte ; à sa suppression, les noms, emails, téléphones et adresses qu'ils contiennent sont anonymisés (les montants et dates restent, support des factures).",
  },
  {
    data: "Factures, avoirs et reçus émis",
    retention: "10 ans, inchangés, même après la suppression du compte (Code de commerce, art. L123-22).",
  },
  {
    data: "Paiements",
    retention: "10 ans, avec les factures qu'ils justifient ; aucun numéro de carte n'est conservé.",
  },
  {
    data: "Emails envoyés",
    retention:
      `${SENT_EMAIL_RETENTION_DAYS} jours après l'envoi ; ceux qui vous sont adressés sont supprimés avec le compte.`,
  },
  {
    data: "Journaux techniques",
    retention: `${LOG_RETENTION_DAYS} jours.`,
  },
  {
    data: "Sessions de connexion",
    retention: `${SESSION_IDLE_MS / 3_600_000} heures sans activité, ${
      SESSION_ABSOLUTE_MS / 86_400_000
    } jours au plus.`,
  },
  {
    data: "Tentatives de connexion",
    retention: "1 jour (échecs), 30 jours (réussies).",
  },
];
