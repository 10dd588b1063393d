import { randomInt } from 'node:crypto';

// Pure: what a share code looks like. Crockford's base32 alphabet leaves out
// I, L, O and U, so a code read aloud or copied from a projector cannot be
// mistyped into another; 13 characters carry 13 × 5 = 65 random bits.

export const SHARE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SHARE_CODE_LENGTH = 13;
export const SHARE_CODE_BITS = SHARE_CODE_LENGTH * Math.log2(SHARE_CODE_ALPHABET.length);

/** A fresh code: each character drawn uniformly from the alphabet by the CSPRNG. */
export function generateShareCode(): string {
  let code = '';
  for (let i = 0; i < SHARE_CODE_LENGTH; i++) code += SHARE_CODE_ALPHABET[randomInt(SHARE_CODE_ALPHABET.length)];
  return code;
}

/** The longest text accepted where a code is expected (room for separators people type). */
export const MAX_SHARE_CODE_INPUT = 32;

/**
 * A code as typed by a person, in its canonical form, or undefined when it
 * cannot be one. Case is ignored, hyphens and spaces are dropped, and the
 * look-alikes Crockford maps are read as what they resemble (I, L → 1; O → 0).
 */
export function canonicalShareCode(input: string): string | undefined {
  const text = input.toUpperCase().replace(/[-\s]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (text.length !== SHARE_CODE_LENGTH) return undefined;
  for (const ch of text) if (!SHARE_CODE_ALPHABET.includes(ch)) return undefined;
  return text;
}
