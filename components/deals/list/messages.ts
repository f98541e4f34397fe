// The admin deals list's French messages and shared classes.
export const LIST_MESSAGES = {
  searchPlaceholder: "Recherche par client, partenaire ou ID...",
  editLinkCopied: "Lien d'édition copié dans le presse-papiers !",
  publicLinkCopied: "Lien d'accès public copié dans le presse-papiers !",
  copyError: "Erreur lors de la copie du lien",
  noPartner: "Aucun partenaire trouvé",
  partnersError: "Erreur lors du chargement des partenaires.",
  partnerChanged: (name: string) => `Le partenaire du devis est maintenant ${name}.`,
  partnerError: "Erreur lors du changement de partenaire.",
  previewError: "Erreur lors du calcul du nouveau montant.",
  deleted: "Le devis a été supprimé.",
  deleteError: "Erreur lors de la suppression du devis.",
  loadError: "Erreur lors du chargement des devis.",
  empty: "Aucun devis pour le moment.",
  emptySearch: "Aucun devis ne correspond à votre recherche.",
} as const;

export const INPUT = "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm outline-none " +
  "focus:ring-2 focus:ring-brand-500";
