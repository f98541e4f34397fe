// The deal chat's pure rules (spec 000 §3, §6, 001 §2.6), shared by the server and the chat island:
// the message shape, French messages, limits, and how a viewer sees an entry (side, colour, name).
import type { UserType } from "../accounts/rules.ts";

export const CHAT_ENTITY_TYPE = "DealCompany";
/** Longest message, in characters (the database checks it too). */
export const MESSAGE_MAX_LENGTH = 2000;
/** Card width of the chat panel (spec 000 §9, 001 §2.6). */
export const CHAT_CARD_WIDTH = 400;
/** Messages a user may post per minute, whatever the deal (server-side, every instance). */
export const MESSAGES_PER_MINUTE = 20;
/** The unread digest goes out when the oldest unread message is this old (minutes). */
export const DIGEST_DELAY_MINUTES = 15;
/** Messages a catch-up (after an id) returns at most. */
export const PAGE_SIZE = 200;
/** Messages the chat opens on (the latest), and each 'Messages précédents' adds before them. */
export const HISTORY_PAGE_SIZE = 50;

export type ChatEntryType = "message" | "notification";

/** A chat entry as the API answers it (spec 000 §3 'Chat message'; createdAt in unix seconds). */
export interface ChatMessage {
  id: number;
  entityId: number;
  entityType: typeof CHAT_ENTITY_TYPE;
  type: ChatEntryType;
  text: string;
  authorId: string | null;
  authorType: UserType | null;
  authorName: string;
  createdAt: number;
}

export interface ChatViewer {
  id: string;
  type: UserType;
}

export const CHAT_MESSAGES = {
  title: "Discussion",
  anonymous: "Veuillez-vous connecter pour avoir accès au chat",
  forbidden: "Vous n'avez pas accès au chat de ce devis.",
  empty: "Le message ne peut pas être vide.",
  // A fixed text (2\u202f000), the same whatever the runtime's locale data.
  tooLong: "Le message ne peut pas dépasser 2\u202f000 caractères.",
  notificationRefused: "Seuls les messages peuvent être envoyés dans le chat.",
  badEntity: "Ce fil de discussion n'existe pas.",
  rateLimited: "Vous envoyez trop de messages. Patientez une minute avant de réessayer.",
  sendError: "Erreur lors de l'envoi du message",
  placeholder: "Écrivez votre message…",
  send: "Envoyer",
  you: "Vous",
  none: "Aucun message pour le moment.",
  ended: "Vous n'avez plus accès à ce chat.",
  reconnecting: "Connexion au chat perdue, reconnexion…",
  notificationAuthor: "Notification",
  older: "Messages précédents",
  olderLoading: "Chargement…",
  olderError: "Les messages précédents n'ont pas pu être chargés. Réessayez.",
  badCursor: "Le curseur de reprise est invalide.",
  bothCursors: "Indiquez soit after, soit before, pas les deux.",
} as const;

/** Why a text cannot be sent, or null (the database refuses the same). */
export function messageTextError(text: string): string | null {
  if (text.trim() === "") return CHAT_MESSAGES.empty;
  if (text.length > MESSAGE_MAX_LENGTH) return CHAT_MESSAGES.tooLong;
  return null;
}

export type ChatSide = "start" | "end";

/** Spec 000 §6: for an admin viewer customer messages sit on the start side and the rest on the end
 * side; for others their own messages sit on the end side. */
export function sideOf(message: ChatMessage, viewer: ChatViewer): ChatSide {
  if (viewer.type === "Admin") return message.authorType === "Customer" ? "start" : "end";
  return message.authorId === viewer.id ? "end" : "start";
}

export const isOwn = (message: ChatMessage, viewer: ChatViewer) =>
  message.authorId !== null && message.authorId === viewer.id;

/** Author colours: own grey, Admin red, Customer blue, Company green (notifications: slate). */
export function colourOf(
  message: ChatMessage,
  viewer: ChatViewer,
): "grey" | "red" | "blue" | "green" | "slate" {
  if (isOwn(message, viewer)) return "grey";
  switch (message.authorType) {
    case "Admin":
      return "red";
    case "Customer":
      return "blue";
    case "Company":
      return "green";
    default:
      return "slate";
  }
}

/** 'Vous' for one's own entries. */
export function authorLabel(message: ChatMessage, viewer: ChatViewer): string {
  if (isOwn(message, viewer)) return CHAT_MESSAGES.you;
  return message.authorName || CHAT_MESSAGES.notificationAuthor;
}

/** Adds entries to a timeline kept sorted by id, without duplicates (catch-up and live may overlap). */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (!incoming.length) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The API address of the entries before `before` (the 'Messages précédents' button). */
export function olderUrl(dealId: number, before: number): string {
  return `/api/chat/messages?entityId=${dealId}&entityType=${CHAT_ENTITY_TYPE}&before=${before}`;
}

/** The stream's address for a deal, after the last entry the client holds. */
export function streamUrl(dealId: number, after: number): string {
  return `/api/chat/stream?entityId=${dealId}&entityType=${CHAT_ENTITY_TYPE}&after=${after}`;
}
