// Pure: the stored size of a Firestore document, by Firestore's own rules
// (https://firebase.google.com/docs/firestore/storage-size), so a frozen
// version that would not fit in one document is refused before it is written.

export const MAX_DOCUMENT_BYTES = 1_048_576;

/** Stored size of a field value: strings are UTF-8 bytes + 1, numbers 8, booleans and null 1. */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8') + 1;
  if (typeof value === 'number') return 8;
  if (typeof value === 'boolean') return 1;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + valueSize(v), 0);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).reduce(
      (sum, [key, v]) => (v === undefined ? sum : sum + Buffer.byteLength(key, 'utf8') + 1 + valueSize(v)),
      0,
    );
  }
  throw new TypeError(`No Firestore size for a ${typeof value}`);
}

/** Stored size of a document at `path` (e.g. clients/c/tests/t/versions/1) holding `data`. */
export function documentSize(path: string, data: Record<string, unknown>): number {
  const name = path.split('/').reduce((sum, segment) => sum + Buffer.byteLength(segment, 'utf8') + 1, 0) + 16;
  return name + valueSize(data) + 32;
}
