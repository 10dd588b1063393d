import type { z } from 'zod';
import { isWellFormedText } from './text';
import { badRequest } from './errors';

/** The path of the first string (key or value) in `value` that is not well-formed text, or undefined. */
function malformedText(value: unknown, path: string[], depth = 0): string[] | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path;
  if (depth > 20 || value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isWellFormedText(key)) return [...path, key];
    const found = malformedText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The one validation helper: zod issues become VALIDATION_ERROR details. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const malformed = malformedText(value, [where]);
  if (malformed) {
    const path = malformed.join('.');
    throw badRequest(`Invalid request ${where}: ${path} is not well-formed Unicode text`, [{ path, message: 'Contains a lone UTF-16 surrogate' }]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw badRequest(`Invalid request ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
