import { useState } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { useSession } from '../../session';
import { ErrorMessage, Field, ScrollTable, useAction } from '../../ui';
import { importRoster, type RosterRow, type RosterStatus } from './classApi';

type Mode = Schemas['RosterImportResult']['mode'];

interface Outcome {
  dryRun: boolean;
  rows: RosterRow[];
  /** The whole file refused (all or nothing, or nothing importable): nothing was written. */
  refused: boolean;
}

const STATUS_LABEL: Record<RosterStatus, string> = {
  created: 'new student',
  added: 'added',
  already_member: 'already a member',
  error: 'error',
};

// A refusal (400) carries the rows it refuses in the error body, which the client leaves untyped (Error.rows).
const rowsOf = (value: unknown): RosterRow[] | undefined => (Array.isArray(value) ? (value as RosterRow[]) : undefined);

const countOf = (rows: RosterRow[], status: RosterStatus) => rows.filter((r) => r.status === status).length;

/**
 * A roster (CSV of email and name) checked, then imported: as the question import, *Check*
 * is a partial dry run (the one reply that reports every row), and the page says what the
 * chosen mode would do with the file.
 */
export function RosterImport({ classId, onImported }: { classId: string; onImported: () => void }) {
  const { api } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('all_or_nothing');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [checked, setChecked] = useState('');
  const action = useAction();
  const choice = file ? [file.name, file.size, file.lastModified].join('\u0000') : '';

  const send = (dryRun: boolean) =>
    action.run(async () => {
      if (!file) return;
      setOutcome(null);
      try {
        const reply = await importRoster(api, classId, file, { partial: dryRun || mode === 'partial', dryRun });
        setOutcome({ dryRun, rows: reply.rows, refused: false });
        setChecked(dryRun ? choice : '');
        if (!dryRun) onImported();
      } catch (err) {
        const rows = err instanceof ApiError ? rowsOf(err.body.rows) : undefined;
        if (rows) setOutcome({ dryRun, rows, refused: true });
        throw err;
      }
    });

  const rows = outcome?.rows ?? [];
  const errors = countOf(rows, 'error');
  const wouldRefuse = Boolean(outcome?.dryRun && !outcome.refused && errors > 0 && mode === 'all_or_nothing');
  const canImport = checked !== '' && checked === choice && !wouldRefuse;
  // The rows are in the table: the alert keeps only the message then.
  const shownError =
    action.error instanceof ApiError && outcome?.refused ? new Error(action.error.message) : action.error;
  const created = countOf(rows, 'created');
  const summary = `${created} new ${created === 1 ? 'student' : 'students'}, ${countOf(rows, 'added')} added, ${countOf(rows, 'already_member')} already in the class, ${errors} with errors`;

  return (
    <section className="card" aria-labelledby="roster-heading">
      <h2 id="roster-heading">Roster import</h2>
      <p className="note">
        A CSV file with a header row <code>email,name</code>, UTF-8. Students who do not exist yet are created in the
        organization; everyone is added to this class.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send(true);
        }}
      >
        <Field label="Roster file">
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setOutcome(null);
              setChecked('');
              action.clear();
            }}
          />
        </Field>
        <fieldset className="modes">
          <legend>When some rows cannot be imported</legend>
          <label className="option">
            <input
              type="radio"
              name="roster-mode"
              checked={mode === 'all_or_nothing'}
              onChange={() => setMode('all_or_nothing')}
            />{' '}
            Import nothing (all or nothing)
          </label>
          <label className="option">
            <input type="radio" name="roster-mode" checked={mode === 'partial'} onChange={() => setMode('partial')} />{' '}
            Import the others (partial)
          </label>
        </fieldset>
        <div className="row">
          <button type="submit" disabled={!file || action.busy}>
            Check roster
          </button>
          <button
            type="button"
            disabled={!file || action.busy || !canImport}
            title={
              wouldRefuse ? 'All or nothing would refuse this file' : !canImport ? 'Check the file first' : undefined
            }
            onClick={() => void send(false)}
          >
            Import roster
          </button>
        </div>
      </form>
      {action.busy && <p role="status">Sending the roster…</p>}
      <ErrorMessage error={shownError} />
      {outcome && !outcome.refused && !wouldRefuse && (
        <p role="status" className="note" data-testid="roster-summary">
          {outcome.dryRun ? `Check passed: ${summary}.` : `Imported: ${summary}.`}
        </p>
      )}
      {wouldRefuse && (
        <div role="alert" className="error" data-testid="roster-summary">
          <p>
            Check failed: all or nothing would refuse the file: {errors} {errors === 1 ? 'row has' : 'rows have'}{' '}
            errors. Fix {errors === 1 ? 'it' : 'them'}, or choose partial to import the others.
          </p>
        </div>
      )}
      {outcome?.refused && (
        <p role="status" className="note" data-testid="roster-summary">
          {outcome.dryRun ? 'Check failed' : 'Nothing was imported'}: see the rows below.
        </p>
      )}
      {rows.length > 0 && (
        <ScrollTable label="Roster rows" className="report">
          <caption>
            {outcome?.refused ? 'Rows that cannot be imported' : 'Rows of the roster'} ({rows.length})
          </caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.line}-${r.email}`} data-status={r.status}>
                <td>{r.line}</td>
                <td>{r.email}</td>
                <td>{r.name ?? '—'}</td>
                <td>
                  <span className={`badge badge-${r.status === 'error' ? 'error' : 'ok'}`}>
                    {STATUS_LABEL[r.status]}
                  </span>
                </td>
                <td>{r.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
