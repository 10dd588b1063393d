import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The launch bound to the browser that started its login (login CSRF, as the 1EdTech security
// framework asks): the login gives the browser a random key in the `__session` cookie (the one
// cookie Firebase Hosting forwards to a function) and keeps its hash with the state; the launch
// must come back with that key. Pure but for the random key.

/** The cookie's name: Hosting strips every other cookie before the function sees the request. */
const COOKIE = '__session';
/** 32 random bytes, base64url: anything else in the cookie is not ours. */
const KEY = /^[A-Za-z0-9_-]{43}$/;

/** The browser's key from a Cookie header, when it carries one of ours. */
export function browserKeyOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== COOKIE) continue;
    const value = part.slice(at + 1).trim();
    if (KEY.test(value)) return value;
  }
  return undefined;
}

/** The key the login binds its state to: the browser's own when it has one (two launches at once in one browser both stand), else a new one. */
export const browserKeyFor = (existing: string | undefined): string =>
  existing ?? randomBytes(32).toString('base64url');

export const browserKeyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * The Set-Cookie of the login. The launch is a cross-site form post from the platform, which only a
 * SameSite=None cookie goes with, and browsers take SameSite=None only with Secure: so over https
 * (every deployment) it is `Secure; SameSite=None`. Over plain http (the emulators, on loopback) a
 * Secure cookie cannot be set, and the platform there is on the same site: `SameSite=Lax`.
 */
export function browserCookie(key: string, opts: { secure: boolean; maxAgeS: number }): string {
  const site = opts.secure ? 'Secure; SameSite=None' : 'SameSite=Lax';
  return `${COOKIE}=${key}; Path=/api/lti/; Max-Age=${opts.maxAgeS}; HttpOnly; ${site}`;
}

/** Why a launch is not from the login's browser, or null: no key sent back, or another browser's. */
export function browserRefusal(
  stateHash: string,
  key: string | undefined,
): 'cookie_missing' | 'cookie_mismatch' | null {
  if (key === undefined) return 'cookie_missing';
  const sent = Buffer.from(browserKeyHash(key), 'hex');
  const kept = Buffer.from(stateHash, 'hex');
  return sent.length === kept.length && timingSafeEqual(sent, kept) ? null : 'cookie_mismatch';
}
