// Session cookie (HttpOnly, SameSite=Lax; with secure cookies, Secure and the __Host- prefix, which
// Hono adds to the name itself) and flash messages (a signed cookie read once by the next page or by
// GET /api/user/flash-messages).
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from "hono/cookie";
import type { Ctx } from "./context.ts";
import { SESSION_ABSOLUTE_MS } from "../auth/policy.ts";

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

export type FlashType = "success" | "error" | "warning" | "info";
export interface FlashMessage {
  type: FlashType;
  message: string;
}

const FLASH_COOKIE = "flash";

async function readFlashCookie(c: Ctx): Promise<FlashMessage[]> {
  const raw = await getSignedCookie(c, c.var.deps.config.appSecret, FLASH_COOKIE);
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list) ? list.slice(0, 5) : [];
  } catch {
    return [];
  }
}

export async function addFlash(c: Ctx, type: FlashType, message: string): Promise<void> {
  const list = [...await readFlashCookie(c), { type, message }].slice(-5);
  await setSignedCookie(c, FLASH_COOKIE, JSON.stringify(list), c.var.deps.config.appSecret, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: c.var.deps.config.secureCookies,
    maxAge: 300,
  });
}

/** Returns the pending flash messages and clears them. */
export async function takeFlashes(c: Ctx): Promise<FlashMessage[]> {
  if (!getCookie(c, FLASH_COOKIE)) return [];
  const list = await readFlashCookie(c);
  deleteCookie(c, FLASH_COOKIE, { path: "/", secure: c.var.deps.config.secureCookies });
  return list;
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
