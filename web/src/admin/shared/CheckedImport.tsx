import { ApiError } from '../../api';
import { importTitle, type ImportMode } from './importGate';

/** The choice of what an import does with the rows (questions) it cannot import. */
export function ImportModes({
  name,
  what,
  mode,
  onChange,
}: {
  name: string;
  what: string;
  mode: ImportMode;
  onChange: (mode: ImportMode) => void;
}) {
  return (
    <fieldset className="modes">
      <legend>When some {what} cannot be imported</legend>
      <label className="option">
        <input
          type="radio"
          name={name}
          checked={mode === 'all_or_nothing'}
          onChange={() => onChange('all_or_nothing')}
        />{' '}
        Import nothing (all or nothing)
      </label>
      <label className="option">
        <input type="radio" name={name} checked={mode === 'partial'} onChange={() => onChange('partial')} /> Import the
        others (partial)
      </label>
    </fieldset>
  );
}

/** *Check* (the form's submit) and *Import*, enabled once that exact file was checked and would not be refused. */
export function CheckAndImport({
  labels,
  ready,
  gate,
  onImport,
}: {
  labels: { check: string; import: string };
  /** A file is chosen and nothing is being sent. */
  ready: boolean;
  gate: { wouldRefuse: boolean; canImport: boolean };
  onImport: () => void;
}) {
  return (
    <div className="row">
      <button type="submit" disabled={!ready}>
        {labels.check}
      </button>
      <button type="button" disabled={!ready || !gate.canImport} title={importTitle(gate)} onClick={onImport}>
        {labels.import}
      </button>
    </div>
  );
}

/** Said when the whole file was refused: its rows (questions) are in the report below. */
export function RefusedNote({ dryRun, what, testId }: { dryRun: boolean; what: string; testId: string }) {
  return (
    <p role="status" className="note" data-testid={testId}>
      {dryRun ? 'Check failed' : 'Nothing was imported'}: see the {what} below.
    </p>
  );
}

/** A refusal whose rows the report shows: the alert keeps only its message (worded by `message`). */
export const messageOnly = (error: unknown, refused: boolean, message = (text: string) => text): unknown =>
  error instanceof ApiError && refused ? new Error(message(error.message)) : error;
