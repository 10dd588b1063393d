import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';

// A test's access code (a password a proctor reads out to the room), stored
// as a salted scrypt hash: a leaked test document does not give the code away
// to anyone who cannot afford scrypt per guess. Pure apart from node:crypto.

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

/** Whether `candidate` is the code behind `stored`, compared in constant time. */
export async function accessCodeMatches(stored: AccessCodeHash, candidate: string): Promise<boolean> {
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
