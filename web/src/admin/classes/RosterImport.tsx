import { useState, type ReactNode } from 'react';
import { ApiError, type Schemas } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, plural, ScrollTable, useAction } from '../../ui';
import {
  CheckAndImport,
  choiceOf,
  CopyValue,
  importGate,
  ImportModes,
  messageOnly,
  RefusedNote,
  sentPartial,
} from '../shared';
import { saveFile } from '../questions/ExportControl';
import { importRoster, type RosterStatus } from './classApi';
import { invitationsCsv } from './invitationsCsv';

type Mode = Schemas['RosterImportResult']['mode'];

/** A row of either roster import's report: a class's, or the organization's (which may carry an invitation link). */
export interface ImportRow {
  line: number;
  email: string;
  name: string | null;
  status: RosterStatus;
  uid?: string;
  message?: string;
  invitation_link?: string;
}

interface Outcome {
  dryRun: boolean;
  rows: ImportRow[];
  /** The whole file refused (all or nothing, or nothing importable): nothing was written. */
  refused: boolean;
}

// A refusal (400) carries the rows it refuses in the error body, which the client leaves untyped (Error.rows).
const rowsOf = (value: unknown): ImportRow[] | undefined => (Array.isArray(value) ? (value as ImportRow[]) : undefined);

export const countOf = (rows: ImportRow[], status: RosterStatus) => rows.filter((r) => r.status === status).length;

/** What one roster import is about: where it sends the file, and its words. */
export interface RosterTarget {
  /** The heading's and the inputs' id prefix (two imports never share a page, but stay apart anyway). */
  id: string;
  heading: string;
  note: ReactNode;
  statusLabel: Record<RosterStatus, string>;
  summary: (rows: ImportRow[]) => string;
  send: (file: File, opts: { partial: boolean; dryRun: boolean }) => Promise<{ rows: ImportRow[] }>;
}

/** A class's roster: its students are created in the organization if need be, and added to the class. */
export function RosterImport({ classId, onImported }: { classId: string; onImported: () => void }) {
  const { api } = useSession();
  const target: RosterTarget = {
    id: 'roster',
    heading: 'Roster import',
    note: (
      <>
        A CSV file with a header row <code>email,name</code>, UTF-8. Students who do not exist yet are created in the
        organization; everyone is added to this class.
      </>
    ),
    statusLabel: { created: 'new student', added: 'added', already_member: 'already a member', error: 'error' },
    summary: (rows) =>
      `${plural(countOf(rows, 'created'), 'new student')}, ${countOf(rows, 'added')} added, ${countOf(rows, 'already_member')} already in the class, ${countOf(rows, 'error')} with errors`,
    send: (file, opts) => importRoster(api, classId, file, opts),
  };
  return <RosterImportForm target={target} onImported={onImported} />;
}

/**
 * A roster (CSV of email and name) checked, then imported: as the question import, *Check*
 * is a partial dry run (the one reply that reports every row), and the page says what the
 * chosen mode would do with the file.
 */
export function RosterImportForm({ target, onImported }: { target: RosterTarget; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('all_or_nothing');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [checked, setChecked] = useState('');
  const action = useAction();
  const choice = choiceOf(file);

  const send = (dryRun: boolean) =>
    action.run(async () => {
      if (!file) return;
      setOutcome(null);
      try {
        const reply = await target.send(file, { partial: sentPartial(dryRun, mode), dryRun });
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
  const gate = importGate(outcome && { ...outcome, failed: errors }, mode, checked, choice);
  const { wouldRefuse } = gate;
  const shownError = messageOnly(action.error, Boolean(outcome?.refused));
  const summary = target.summary(rows);
  const links = rows.filter((r) => r.invitation_link);

  return (
    <section className="card" aria-labelledby={`${target.id}-heading`}>
      <h2 id={`${target.id}-heading`}>{target.heading}</h2>
      <p className="note">{target.note}</p>
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
        <ImportModes name={`${target.id}-mode`} what="rows" mode={mode} onChange={setMode} />
        <CheckAndImport
          labels={{ check: 'Check roster', import: 'Import roster' }}
          ready={Boolean(file) && !action.busy}
          gate={gate}
          onImport={() => void send(false)}
        />
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
            Check failed: all or nothing would refuse the file: {plural(errors, 'row has', 'rows have')} errors. Fix{' '}
            {errors === 1 ? 'it' : 'them'}, or choose partial to import the others.
          </p>
        </div>
      )}
      {outcome?.refused && <RefusedNote dryRun={outcome.dryRun} what="rows" testId="roster-summary" />}
      {links.length > 0 && (
        <p className="row">
          <span>
            Send each new student its invitation link: it opens a page to choose a password, once, within your
            organization’s invitation days (after that, <em>New invitation link</em> in the list makes another).
          </span>
          <button
            type="button"
            className="secondary"
            onClick={() => saveFile(new Blob([invitationsCsv(links)], { type: 'text/csv' }), 'invitations.csv')}
          >
            Download the invitation links (CSV)
          </button>
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
              {links.length > 0 && <th scope="col">Invitation link</th>}
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
                    {target.statusLabel[r.status]}
                  </span>
                </td>
                <td>{r.message ?? ''}</td>
                {links.length > 0 && (
                  <td>
                    {r.invitation_link ? (
                      <CopyValue value={r.invitation_link} label={`the invitation link of ${r.email}`} />
                    ) : null}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
