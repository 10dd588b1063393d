import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { ApiError } from './api';
import { noProblems, plainMessage, problemsOf, type FieldLabels, type Problems } from './fieldErrors';
import { ErrorMessage } from './ui';

/**
 * What a form shows: its own checks when they found something (nothing was sent), else the API's
 * refusal sorted into its fields. A refusal without details (a 409, offline) has no field problems.
 */
export function formProblems(local: Problems, error: unknown, labels: FieldLabels): Problems {
  if (local.rest.length > 0 || Object.keys(local.fields).length > 0) return local;
  return error instanceof ApiError ? problemsOf(error.details, labels) : noProblems;
}

type AriaProps = { 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/** The control with aria-invalid and the message's id added to what describes it. */
function described(child: ReactNode, id: string, invalid: boolean): ReactNode {
  if (!isValidElement(child)) return child;
  const element = child as ReactElement<AriaProps>;
  const before = element.props['aria-describedby'];
  return cloneElement(element, {
    'aria-invalid': invalid || undefined,
    'aria-describedby': [before, id].filter(Boolean).join(' '),
  });
}

/**
 * A field's or a group's problems, in plain words. Inside a label it is hidden from the label's name
 * (`inLabel`): the control is described by it instead, so it is not read twice.
 */
export function ProblemText({
  id,
  messages,
  inLabel = false,
}: {
  id: string;
  messages: string[] | undefined;
  inLabel?: boolean;
}) {
  if (!messages || messages.length === 0) return null;
  return (
    <small className="field-error" id={id} aria-hidden={inLabel || undefined}>
      {messages.join(' ')}
    </small>
  );
}

/**
 * A labelled control, as `Field`, that shows its problems under it: the control is marked
 * aria-invalid and described by the message.
 */
export function CheckedField({
  label,
  hint,
  problems,
  children,
}: {
  label: string;
  hint?: string;
  problems: string[] | undefined;
  children: ReactElement;
}) {
  const id = useId();
  const invalid = Boolean(problems && problems.length > 0);
  return (
    <label className="field">
      <span>{label}</span>
      {invalid ? described(children, id, true) : children}
      {hint ? <small>{hint}</small> : null}
      <ProblemText id={id} messages={problems} inLabel />
    </label>
  );
}

/** A path no field shows, as words: `body.option_feedback.1` → "option feedback 2". */
const pathWords = (path: string) =>
  path
    .replace(/^body\./, '')
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replace(/_/g, ' ')))
    .join(' ');

/**
 * The form's alert: how many fields to fix and which (each says what to do under it), then every
 * problem no field shows, in plain words. An error that is not a field refusal is shown as it is.
 */
export function FormSummary({
  error,
  problems,
  labels,
  not = 'saved',
}: {
  error: unknown;
  problems: Problems;
  labels: FieldLabels;
  /** "Not saved", "Not published": what did not happen. */
  not?: string;
}) {
  const marked = Object.keys(problems.fields);
  if (marked.length === 0 && problems.rest.length === 0) return <ErrorMessage error={error} />;
  const names = marked.map((f) => labels[f] ?? f);
  return (
    <div role="alert" className="error" data-testid="form-problems">
      <p>
        Not {not}:{' '}
        {marked.length === 0
          ? 'see below.'
          : `fix ${marked.length === 1 ? 'the field' : `the ${marked.length} fields`} marked below (${names.join(', ')}).`}
      </p>
      {problems.rest.length > 0 && (
        <ul>
          {problems.rest.map((d, i) => (
            <li key={i}>
              {d.path ? `${pathWords(d.path)}: ` : ''}
              {plainMessage(d.message, labels)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
