// Session cookie (HttpOnly, SameSite=Lax; with secure cookies, Secure and the __Host- prefix, which
// Hono adds to the name itself) and flash messages (kept on the server per session, read once by the
// next page or by GET /api/user/flash-messages).
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Ctx } from "./context.ts";
import { SESSION_ABSOLUTE_MS } from "../auth/policy.ts";
import { statementTx, systemActor } from "../actor.ts";
import { randomHex, sha256Hex } from "../auth/crypto.ts";
import {
  addFlashMessage,
  FLASH_TTL_SECONDS,
  type FlashMessage,
  type FlashType,
  takeFlashMessages,
} from "../auth/flash_store.ts";

/** The cookie's base name; on the wire it is `__Host-session` with secure cookies, `session` otherwise. */
export const SESSION_COOKIE = "session";

export function readSessionCookie(c: Ctx): string | undefined {
  return c.var.deps.config.secureCookies
    ? getCookie(c, SESSION_COOKIE, "host")
    : getCookie(c, SESSION_COOKIE);
}

export function setSessionCookie(c: Ctx, token: string): void {
  const secure = c.var.deps.config.secureCookies;
  setCookie(c, SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
    ...(secure ? { prefix: "host" as const } : {}),
  });
}

export function clearSessionCookie(c: Ctx): void {
  const secure = c.var.deps.config.secureCookies;
  deleteCookie(c, SESSION_COOKIE, {
    path: "/",
    secure,
    ...(secure ? { prefix: "host" as const } : {}),
  });
}

export type { FlashMessage, FlashType } from "../auth/flash_store.ts";

// Flash messages are kept on the server (identity.flash_messages), per session: a signed-in request's
// messages belong to its session (the session's hash), a visitor's (after logout, before a login
// completes) to the hash of a random `flash` cookie. The cookie also says "messages may be waiting",
// so that pages render without a query when none are; it never carries a message.
const FLASH_COOKIE = "flash";
const FLASH_ID = /^[0-9a-f]{64}$/;
const AUTH = systemActor("auth");

function flashCookieId(c: Ctx): string | null {
  const id = getCookie(c, FLASH_COOKIE);
  return id && FLASH_ID.test(id) ? id : null;
}

/** Keeps a message for the next page or GET /api/user/flash-messages of this session. `signedOut`:
 * the request just ended its session (logout), so the message waits for the visitor instead. */
export async function addFlash(
  c: Ctx,
  type: FlashType,
  message: string,
  options: { signedOut?: boolean } = {},
): Promise<void> {
  const actor = c.var.actor;
  let id = flashCookieId(c);
  if (!id) id = randomHex(32);
  setCookie(c, FLASH_COOKIE, id, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: c.var.deps.config.secureCookies,
    maxAge: FLASH_TTL_SECONDS,
  });
  const key = actor.kind === "user" && !options.signedOut ? actor.sessionHash : await sha256Hex(id);
  await addFlashMessage(statementTx(c.var.deps.db, AUTH), key, { type, message });
}

/** Returns the waiting flash messages of this session (and of this browser's visitor key) and
 * forgets them: a message is shown once, by the page shell or by GET /api/user/flash-messages. */
export async function takeFlashes(c: Ctx): Promise<FlashMessage[]> {
  const id = flashCookieId(c);
  if (!getCookie(c, FLASH_COOKIE)) return [];
  deleteCookie(c, FLASH_COOKIE, { path: "/", secure: c.var.deps.config.secureCookies });
  const keys = id ? [await sha256Hex(id)] : [];
  const actor = c.var.actor;
  if (actor.kind === "user") keys.push(actor.sessionHash);
  if (keys.length === 0) return [];
  return await takeFlashMessages(statementTx(c.var.deps.db, AUTH), keys);
}

/** The anonymous workshop cart's token (spec 000 §7 'Sessions'): random, HttpOnly, 30 days; the
 * database keeps only its SHA-256. It joins the customer's cart at login and is then cleared. */
const CART_COOKIE = "cart";
const CART_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function readCartCookie(c: Ctx): string | null {
  const secure = c.var.deps.config.secureCookies;
  const value = secure ? getCookie(c, CART_COOKIE, "host") : getCookie(c, CART_COOKIE);
  return value && CART_TOKEN.test(value) ? value : null;
}

export function newCartToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function setCartCookie(c: Ctx, token: string): void {
  const secure = c.var.deps.config.secureCookies;
  setCookie(c, CART_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure,
    maxAge: 30 * 24 * 3600,
    ...(secure ? { prefix: "host" as const } : {}),
  });
}

export function clearCartCookie(c: Ctx): void {
  const secure = c.var.deps.config.secureCookies;
  deleteCookie(c, CART_COOKIE, { path: "/", secure, ...(secure ? { prefix: "host" as const } : {}) });
}
