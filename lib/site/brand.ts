export const SITE_NAME = "Cocktails & Co";
export const ALCOHOL_WARNING = "L'abus d'alcool est dangereux pour la santé, à consommer avec modération.";
export const CREDIT_LINE = {
  developer: { label: "Développement : Atelier Numérique", url: "https://atelier-numerique.example.fr" },
  artDirector: { label: "Direction artistique : Studio Zeste", url: "https://studio-zeste.example.fr" },
};
