import type { z } from 'zod';
import { badRequest } from './errors';

/** The one validation helper: zod issues become VALIDATION_ERROR details. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw badRequest(`Invalid request ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
