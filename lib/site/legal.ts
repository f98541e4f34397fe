// Texts of the legal pages linked from the registration form.
import { SITE_NAME } from "./brand.ts";

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
      société le cas échéant) et celles de vos demandes de devis, afin d'organiser votre événement.`,
  },
  {
    title: "Utilisation",
    text:
      `Vos coordonnées sont transmises au prestataire partenaire chargé de votre événement dans la mesure nécessaire
      à la prestation. Elles ne sont jamais vendues. Les mots de passe sont conservés sous forme chiffrée irréversible.`,
  },
  {
    title: "Durée de conservation",
    text:
      `Les données du compte sont conservées tant que le compte est actif. Après une demande de suppression et un
      délai de 14 jours, elles sont anonymisées ; les pièces comptables sont conservées pendant la durée légale.`,
  },
  {
    title: "Vos droits",
    text:
      `Vous disposez d'un droit d'accès, de rectification, d'effacement et d'opposition. Vous pouvez modifier vos
      informations depuis la page « Mon profil » de votre espace, ou nous écrire pour exercer vos autres droits.`,
  },
];
