// The rich-text editor's settings (spec 001 §9), shared by the editor island and the server's
// sanitiser.
export const EDITOR_FONTS = ["Montserrat", "Permanent Marker", "Blastimo", "Arial"];
export const MIN_FONT_SIZE = 8;
export const MAX_FONT_SIZE = 180;
export const DEFAULT_FONT_SIZE = 16;
export const EDITOR_HEIGHT = 300;
/** Longest stored rich text, in characters (images are links, not data). */
export const MAX_RICH_TEXT = 200_000;
export const RICH_TEXT_TOO_LONG = "Ce texte est trop long.";
