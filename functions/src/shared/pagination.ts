import { z } from 'zod';

// Pure: no Firebase here, so list endpoints and tests share one definition of a page.
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1).describe('Page number, from 1'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`Items per page, 1 to ${MAX_PAGE_LIMIT}`),
};

export const Pagination = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().describe('Total number of items'),
    pages: z.number().int().describe('Total number of pages'),
  })
  .meta({ id: 'Pagination' });

export type PageRequest = { page: number; limit: number };
export type PageInfo = z.infer<typeof Pagination>;

export function pageInfo({ page, limit }: PageRequest, total: number): PageInfo {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

/** Query-string booleans arrive as text; only the two obvious spellings are accepted. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');
