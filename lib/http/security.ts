// Security middleware: headers with a strict CSP (island bundles are same-origin files, no inline
// script), a CSRF check on every state-changing request, and a request size limit.
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../errors.ts";
import type { AppEnv } from "./context.ts";

/** The CSP: scripts, styles and fonts from this site only, no inline script. Style attributes are
 * allowed (the rich texts partners write carry them, sanitised property by property on save and on
 * read); frames only Google Maps embeds (a deal's map); with Stripe configured, Stripe.js and its
 * frames. */
export function securityHeaders(options: { secure: boolean; stripe: boolean }): MiddlewareHandler<AppEnv> {
  const stripeScripts = options.stripe ? ["https://js.stripe.com"] : [];
  const stripeFrames = options.stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : [];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...stripeScripts],
      styleSrc: ["'self'"],
      styleSrcAttr: ["'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...(options.stripe ? ["https://api.stripe.com"] : [])],
      frameSrc: ["https://www.google.com/maps/embed", ...stripeFrames],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: options.secure ? "max-age=31536000; includeSubDomains" : false,
    crossOriginEmbedderPolicy: false,
    // A route may set a stricter policy of its own: an email's HTML in 'Emails envoyés' is served with
    // `sandbox` (no script, an opaque origin).
    overwrite: false,
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Refuses state-changing requests sent by another site. Browsers send Sec-Fetch-Site and Origin on
 * such requests; a client that sends neither is not a browser and carries no victim's cookie. Every
 * change of session goes through here too: logging out and switching back are POSTs (routes/auth.tsx,
 * routes/impersonation.tsx), and no GET changes state, so an image, a link or a same-site request
 * from another origin ends no session. */
export function csrfProtection(appUrl: string): MiddlewareHandler<AppEnv> {
  const allowedOrigin = new URL(appUrl).origin;
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      const crossSite = site !== undefined && site !== "same-origin" && site !== "none";
      const foreignOrigin = origin !== undefined && origin !== allowedOrigin &&
        origin !== new URL(c.req.url).origin;
      if (crossSite || foreignOrigin) {
        throw new AppError("forbidden", "Requête refusée : elle ne provient pas de ce site.");
      }
    }
    await next();
  };
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** Requests whose route sets its own, larger limit: the deal photo upload (routes/deal_photos_api.ts). */
const OWN_LIMIT = /^\/api\/deal\/upload-photos\/[^/]+$/;

export function requestSizeLimit(maxSize = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError("payload_too_large");
    },
  });
  return (c, next) => (c.req.method === "POST" && OWN_LIMIT.test(c.req.path) ? next() : limit(c, next));
}

/** A NUL byte in the path or the query (PostgreSQL text cannot hold one) is a bad request. */
export function rejectNulBytes(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    if (/%00/i.test(url.slice(url.indexOf("/", url.indexOf("//") + 2)))) {
      throw new AppError("bad_request", "L'adresse demandée contient un caractère invalide.");
    }
    await next();
  };
}

/** Responses that carry personal data (anything a signed-in user gets, every API answer, anything
 * that sets a cookie) must not be stored by browsers or proxies. */
export function noStoreForPersonalData(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.headers.has("cache-control")) return;
    const personal = c.var.actor.kind === "user" || c.req.path.startsWith("/api/") ||
      c.res.headers.has("set-cookie") || c.req.method !== "GET";
    if (personal) c.res.headers.set("Cache-Control", "no-store");
  };
}
