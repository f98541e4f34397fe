// One typed error for every expected failure. lib/http/errors.ts maps it to an HTTP status and a
// French message (API) or an error page (pages).

export type ErrorCode =
  | "validation" // 422: bad input, with per-field messages
  | "bad_request" // 400
  | "unauthenticated" // 401
  | "forbidden" // 403
  | "not_found" // 404
  | "conflict" // 409
  | "payload_too_large" // 413
  | "too_many_requests" // 429
  | "unavailable"; // 503: the database cannot be reached (answered with Retry-After)

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation: 422,
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
};

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  validation: "Veuillez renseigner tous les champs obligatoires",
  bad_request: "La requête est invalide.",
  unauthenticated: "Veuillez vous connecter pour continuer.",
  forbidden: "Vous n'avez pas accès à cette page.",
  not_found: "La page demandée n'existe pas.",
  conflict: "Cette action n'est plus possible.",
  payload_too_large: "La requête est trop volumineuse.",
  too_many_requests: "Trop de requêtes. Veuillez réessayer plus tard.",
  unavailable: "Le service est momentanément indisponible, veuillez réessayer dans quelques instants.",
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = DEFAULT_MESSAGES[code],
    /** Field name → French message, for forms. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}
