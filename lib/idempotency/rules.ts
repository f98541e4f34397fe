// Idempotency keys (pure: imported by islands too). The POSTs that create something accept an
// `Idempotency-Key` header (or, from an HTML form without JavaScript, the hidden field
// `idempotency_key`): the same key from the same caller within KEY_TTL_HOURS answers the first
// response again and creates nothing. See ARCHITECTURE.md "Retries that don't double".

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The form field that stands for the header in HTML forms posted without JavaScript. */
export const IDEMPOTENCY_FIELD = "idempotency_key";
/** Set on an answer that is the stored answer of an earlier request with the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

export const KEY_MAX_LENGTH = 255;
/** How long a key is honoured (and then purged by the job 'purge-idempotency-keys'). */
export const KEY_TTL_HOURS = 24;
/** How long a request holds its key while it runs. A request still running after it may see its key
 * taken over by a retry; its creation then rolls back (the database refuses its mark), never doubles. */
export const LEASE_SECONDS = 60;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey:
    "La clé d'idempotence (en-tête Idempotency-Key) doit compter de 1 à 255 caractères ASCII imprimables.",
  inProgress: "Une requête identique est déjà en cours de traitement. Veuillez réessayer dans un instant.",
  otherRequest:
    "Cette clé d'idempotence a déjà servi pour une autre requête. Utilisez une nouvelle clé pour une nouvelle demande.",
  answerLost:
    "Cette requête a déjà été traitée, mais sa réponse n'a pas pu être conservée. Rechargez la page pour voir le résultat.",
} as const;

const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

/** True for 1 to 255 printable ASCII characters (space to tilde). */
export function isValidKey(key: string): boolean {
  return key.length >= 1 && key.length <= KEY_MAX_LENGTH && PRINTABLE_ASCII.test(key);
}

/** A new key for one submission (a random UUID). A retry of the same submission sends the same one. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
