import { z } from 'zod';
import { isDocumentId } from './ids';
import { isWellFormedText } from './text';

// Pure: no Firebase here, so list endpoints and tests share one definition of a page.
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
/**
 * The deepest item `page` can reach. Firestore bills an offset for every item
 * it skips, so page 500 of a long list would cost 50,000 reads; past this,
 * `cursor` walks on at the cost of one page.
 */
export const MAX_PAGE_OFFSET = 1_000;
export const MAX_CURSOR_LENGTH = 1_024;
/** No walk goes deeper than this many pages (a million items at the smallest page). */
export const MAX_CURSOR_PAGE = 1_000_000;

const pageFields = {
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_OFFSET + 1)
    .optional()
    .describe(`Page number, from 1 (default 1); (page − 1) × limit may be at most ${MAX_PAGE_OFFSET}`),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`Items per page, 1 to ${MAX_PAGE_LIMIT}`),
  cursor: z
    .string()
    .min(1)
    .max(MAX_CURSOR_LENGTH)
    .optional()
    .describe(
      '`pagination.next_cursor` of the previous page: the page after it, at any depth (send it without `page`)',
    ),
};

/**
 * A list endpoint's query: its filters plus page, limit and cursor, with the
 * offset cap checked. Unknown parameters are refused.
 */
export function pagedQuery<Shape extends z.ZodRawShape>(filters: Shape) {
  return z.strictObject({ ...pageFields, ...filters }).superRefine((query, ctx) => {
    const { page, limit, cursor } = query as { page?: number; limit: number; cursor?: string };
    if (cursor !== undefined && page !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['page'], message: 'Send either page or cursor, not both' });
    }
    if (page !== undefined && (page - 1) * limit > MAX_PAGE_OFFSET) {
      ctx.addIssue({
        code: 'custom',
        path: ['page'],
        message: `(page − 1) × limit may be at most ${MAX_PAGE_OFFSET}; walk further with cursor (pagination.next_cursor) or narrow the filters`,
      });
    }
  });
}

export const Pagination = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().describe('Total number of items'),
    pages: z.number().int().describe('Total number of pages'),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  })
  .meta({ id: 'Pagination' });

export type PageRequest = { page?: number; limit: number; cursor?: string };
export type PageInfo = z.infer<typeof Pagination>;

/** Splits a validated list query into its page request and its filters. */
export function splitPageQuery<Q extends PageRequest>(
  query: Q,
): { page: PageRequest; filters: Omit<Q, 'page' | 'limit' | 'cursor'> } {
  const { page, limit, cursor, ...filters } = query;
  return { page: { page, limit, cursor }, filters };
}

export function pageInfo(pageNumber: number, limit: number, total: number, nextCursor: string | null): PageInfo {
  return { page: pageNumber, limit, total, pages: Math.ceil(total / limit), next_cursor: nextCursor };
}

/** Query-string booleans arrive as text; only the two obvious spellings are accepted. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

// ---- cursors: opaque to callers; they carry the last item's sort values and id, and the page number.

export type CursorValue = string | number | boolean | null;
export interface Cursor {
  page: number;
  after: CursorValue[];
}

export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify([cursor.page, ...cursor.after]), 'utf8').toString('base64url');

/** A document path ("clients/c1/attempts/a1"): collection and document ids in pairs. */
export function isDocumentPath(text: string): boolean {
  const segments = text.split('/');
  return segments.length >= 2 && segments.length % 2 === 0 && segments.every(isDocumentId);
}

/**
 * The cursor, or undefined when it is not one this service issued for a query of `sortFields` sort fields.
 * Its last value is the document's id, or for a collection group (isKey = isDocumentPath) its path.
 */
export function decodeCursor(
  text: string,
  sortFields: number,
  isKey: (key: string) => boolean = isDocumentId,
): Cursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== sortFields + 2) return undefined;
  const [page, ...after] = parsed;
  // A cursor is only ever walked to from page 1, one page at a time.
  if (!Number.isInteger(page) || page < 1 || page > MAX_CURSOR_PAGE) return undefined;
  const wellFormed = (v: unknown) =>
    v === null ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (typeof v === 'string' && isWellFormedText(v));
  if (!after.every(wellFormed)) return undefined;
  const id = after[after.length - 1];
  if (typeof id !== 'string' || !isKey(id)) return undefined;
  return { page, after };
}
