import { ApiError } from '../../api';
import { ErrorMessage } from '../../ui';

/**
 * Whether a detail of the API's error names `field` of the request body: its path is
 * `body.<field>` or one of its items (`body.deployment_ids.1`), as the service's validation writes it.
 */
function names(path: string, field: string): boolean {
  const inBody = path.startsWith('body.') ? path.slice('body.'.length) : null;
  return inBody !== null && (inBody === field || inBody.startsWith(`${field}.`));
}

/** The messages the API's error gives for one field of a form. */
export function fieldProblems(error: unknown, field: string): string[] {
  if (!(error instanceof ApiError)) return [];
  return error.details.filter((d) => d.path && names(d.path, field)).map((d) => d.message);
}

/** A field's own problems, under its input (inside the label, so they are read with it). */
export function FieldProblems({ error, field }: { error: unknown; field: string }) {
  const problems = fieldProblems(error, field);
  if (problems.length === 0) return null;
  return <small className="field-error">{problems.join('; ')}</small>;
}

/**
 * A form's refusal: the API's message, with the details that name none of `fields` (those
 * are shown under their own input).
 */
export function FormError({ error, fields }: { error: unknown; fields: string[] }) {
  if (!(error instanceof ApiError)) return <ErrorMessage error={error} />;
  const rest = error.details.filter((d) => !d.path || !fields.some((f) => names(d.path, f)));
  const shown = new ApiError(error.status, error.code, error.message, rest, error.body);
  return <ErrorMessage error={shown} />;
}
