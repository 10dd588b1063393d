import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';

// A test's access code (a password a proctor reads out to the room). It is
// stored as set, so the organization's admins can read it back (it protects a
// room, not an account), and compared ignoring case and surrounding spaces.
// Tests whose code was set before that keep a salted scrypt hash of it, which
// still compares (exactly, surrounding spaces aside: a hash cannot ignore case)
// until the code is set again. Pure apart from node:crypto.

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/** Node's default cost (N = 2^14, r = 8): about 30 ms of one thread-pool thread, off the event loop. */
const COST = { N: 16384, r: 8, p: 1 };
const KEY_BYTES = 32;

export interface AccessCodeHash {
  algorithm: 'scrypt';
  n: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}

/** The legacy stored form; kept so that hashes stored before codes were readable can be made in tests. */
export async function hashAccessCode(code: string): Promise<AccessCodeHash> {
  const salt = randomBytes(16);
  const key = await scryptAsync(code.normalize('NFC'), salt, KEY_BYTES, COST);
  return {
    algorithm: 'scrypt',
    n: COST.N,
    r: COST.r,
    p: COST.p,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/**
 * Codes already verified against a stored hash, per instance: a room of 30
 * typing the same code pays scrypt once, and a transaction retried under
 * contention does not pay it again. Only successes are kept, keyed by the
 * stored hash and a SHA-256 of the candidate, so a changed code (new salt)
 * misses, and wrong guesses always pay full price.
 */
const verified = new LRUCache<string, true>({ max: 1000 });

/** Whether `candidate` is the code behind a legacy `stored` hash, compared in constant time. */
export async function hashedAccessCodeMatches(stored: AccessCodeHash, candidate: string): Promise<boolean> {
  const normalized = candidate.normalize('NFC');
  const memoKey = `${stored.salt}:${stored.hash}:${createHash('sha256').update(normalized).digest('base64')}`;
  if (verified.has(memoKey)) return true;
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await scryptAsync(normalized, Buffer.from(stored.salt, 'base64'), expected.length, {
    N: stored.n,
    r: stored.r,
    p: stored.p,
  });
  const matches = key.length === expected.length && timingSafeEqual(key, expected);
  if (matches) verified.set(memoKey, true);
  return matches;
}

/** A code as it is compared: Unicode NFC, no surrounding spaces, lower case. */
export const canonicalAccessCode = (code: string): string => code.normalize('NFC').trim().toLowerCase();

/** Whether a candidate is the readable code, ignoring case and surrounding spaces; in constant time (SHA-256 digests of equal length). */
export function plainAccessCodeMatches(stored: string, candidate: string): boolean {
  const digest = (text: string) => createHash('sha256').update(canonicalAccessCode(text)).digest();
  return timingSafeEqual(digest(stored), digest(candidate));
}

/** The access code fields of a stored test: the readable code, or (stored before it) only a hash. */
export interface StoredAccessCode {
  access_code?: string | null;
  access_code_hash?: AccessCodeHash | null;
}

/** Whether the test asks for an access code at all. */
export const hasAccessCode = (test: StoredAccessCode): boolean => Boolean(test.access_code || test.access_code_hash);

/**
 * Whether `candidate` opens the test. A readable code ignores case and surrounding spaces; a
 * legacy hash takes the candidate as typed, then without its surrounding spaces.
 */
export async function accessCodeMatches(test: StoredAccessCode, candidate: string): Promise<boolean> {
  if (test.access_code) return plainAccessCodeMatches(test.access_code, candidate);
  if (!test.access_code_hash) return false;
  if (await hashedAccessCodeMatches(test.access_code_hash, candidate)) return true;
  const trimmed = candidate.trim();
  return trimmed !== candidate && hashedAccessCodeMatches(test.access_code_hash, trimmed);
}
