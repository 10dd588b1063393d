// Pure: the bounds of a prefix search on a text field.

const MAX_CODE_POINT = 0x10ffff;

/**
 * The range [start, end) holding exactly the strings that begin with `prefix`:
 * `end` is the prefix with its last character replaced by the next one. Firestore
 * orders strings by their UTF-8 bytes, which is code point order, so nothing
 * outside the prefix falls in between. `end` is undefined only when the last
 * character is the highest there is (no upper bound is needed then).
 */
export function prefixRange(prefix: string): { start: string; end: string | undefined } {
  const chars = Array.from(prefix);
  const last = chars.pop();
  if (last === undefined) return { start: prefix, end: undefined };
  let next = last.codePointAt(0)! + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // surrogates are not characters
  if (next > MAX_CODE_POINT) return { start: prefix, end: undefined };
  return { start: prefix, end: chars.join('') + String.fromCodePoint(next) };
}
