import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Pure (node:crypto only): attempt tokens. 256 random bits in base64url; the
// attempt stores only their SHA-256, so a leaked database opens no attempt.

export const newAttemptToken = (): string => randomBytes(32).toString('base64url');

export const hashAttemptToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the one whose hash the attempt holds (compared in constant time). */
export function tokenOpens(token: string, storedHash: string | undefined): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashAttemptToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
