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

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * The issues to report. A union no branch passed (one answer or a batch of
 * them) is reported as the one branch whose shape the value has, the only one
 * with no issue at its own root (no unknown key, the right type): its issues
 * name the field at fault, such as body.answers.3.client_seq. When no branch,
 * or several, have its shape, the union's own message stands.
 */
function reported(issues: readonly Issue[], at: PropertyKey[] = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors) {
      const shaped = issue.errors.filter(
        (branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0),
      );
      if (shaped.length === 1) return reported(shaped[0], path);
    }
    return [{ path, message: issue.message }];
  });
}

/** The one validation helper: zod issues become VALIDATION_ERROR details. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params',
): z.infer<S> {
  const malformed = malformedText(value, [where]);
  if (malformed) {
    const path = malformed.join('.');
    throw badRequest(`Invalid request ${where}: ${path} is not well-formed Unicode text`, [
      { path, message: 'Contains a lone UTF-16 surrogate' },
    ]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = reported(result.error.issues as unknown as Issue[]).map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw badRequest(`Invalid request ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
