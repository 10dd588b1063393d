import { useState } from 'react';
import { ApiError, type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { csvText } from '../../csv';
import { ErrorMessage, Field, plural, ScrollTable, useAction, useLoad } from '../../ui';
import { NeedsOrg } from '../org';
import {
  CheckAndImport,
  choiceOf,
  importGate,
  ImportModes,
  type ImportMode,
  messageOnly,
  RefusedNote,
  sentPartial,
} from '../shared';
import { saveFile } from './ExportControl';
import {
  CODED_VALUES,
  COLUMN_NOTES,
  CSV_COLUMNS,
  findQuestionType,
  REQUIRED_COLUMNS,
  templateRows,
} from '../../questionTypes';

type RowError = Schemas['ImportRowError'];
type Format = 'auto' | 'csv' | 'gift' | 'aiken' | 'moodle_xml' | 'qti';

const FORMATS: Array<{ value: Format; label: string }> = [
  { value: 'auto', label: 'Auto (from the file name)' },
  { value: 'csv', label: 'CSV' },
  { value: 'gift', label: 'GIFT' },
  { value: 'aiken', label: 'Aiken' },
  { value: 'moodle_xml', label: 'Moodle XML' },
  { value: 'qti', label: 'QTI (2.1 or 3.0 item, or 3.0 package)' },
];

/** One question of the file as the service reports it, in file order. */
type ReportItem = Schemas['ImportedQuestion'];
type ImportReply = Schemas['QuestionImportResult'];

/** What the page shows after a check or an import: the reply, or a refusal that still reports per question. */
interface Outcome {
  dryRun: boolean;
  reply?: ImportReply;
  /** A 400 for the whole file: every question of the file, those that cannot be imported among them. */
  refused?: { questions: ReportItem[]; details: ApiError['details'] };
}

/** Import questions */
export function ImportPage() {
  return (
    <>
      <h1>Import questions</h1>
      <NeedsOrg>{(clientId) => <Importer key={clientId} clientId={clientId} />}</NeedsOrg>
    </>
  );
}

/** The row problems of a 400 VALIDATION_ERROR: its details that carry a row and a field. */
function rowErrorsOf(details: ApiError['details']): RowError[] {
  return details.filter((d): d is RowError => typeof d.row === 'number' && typeof d.field === 'string');
}

const reportOf = (value: unknown): ReportItem[] | undefined =>
  Array.isArray(value) ? (value as ReportItem[]) : undefined;

const questionsText = (n: number) => plural(n, 'question');

/** The service's refusal without its advice to callers of the API ("send ?mode=partial"): the page offers a button. */
const withoutApiAdvice = (message: string) => message.replace(/\s*\(send \?mode=partial[^)]*\)/, '');

function Importer({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<Format>('auto');
  const [mode, setMode] = useState<ImportMode>('all_or_nothing');
  const [folderId, setFolderId] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The file and options the last check was of: "Import" commits exactly what was checked.
  const [checked, setChecked] = useState('');
  const action = useAction();
  const folders = useLoad(
    () => unwrap(api.GET('/api/folders', { params: { query: { client_id: clientId, limit: 100 } } })),
    [api, clientId],
  );
  // The mode is not part of it: a check reports every question, whichever mode then imports.
  const choice = choiceOf(file, format, folderId);

  const reset = () => {
    setOutcome(null);
    setChecked('');
    action.clear();
  };

  // A check is a partial dry run: the only reply that reports every question of the file (an
  // all-or-nothing refusal lists only the questions it refuses). The page then says what the
  // chosen mode would do with it.
  const send = (dryRun: boolean, sentMode: ImportMode = mode) =>
    action.run(async () => {
      if (!file) return;
      setOutcome(null);
      const form = new FormData();
      form.append('file', file);
      // Only what differs from the service's defaults, so a plain CSV import reads as it always did.
      const query = {
        client_id: clientId,
        ...(format !== 'auto' ? { format } : {}),
        ...(sentPartial(dryRun, sentMode) ? { mode: 'partial' as const } : {}),
        ...(folderId ? { folder_id: folderId } : {}),
        ...(dryRun ? { dry_run: 'true' as const } : {}),
      };
      try {
        const reply = await unwrap(
          api.POST('/api/questions/import', {
            params: { query },
            // openapi-fetch sends a FormData body as it is (the browser sets the multipart boundary).
            body: form as never,
          }),
        );
        setOutcome({ dryRun, reply });
        setChecked(dryRun ? choice : '');
      } catch (err) {
        const questions = err instanceof ApiError ? reportOf(err.body.questions) : undefined;
        if (err instanceof ApiError && (questions || rowErrorsOf(err.details).length > 0)) {
          setOutcome({ dryRun, refused: { questions: questions ?? [], details: err.details } });
        }
        throw err;
      }
    });

  const error = action.error;
  const shownError = messageOnly(error, Boolean(outcome?.refused), withoutApiAdvice);
  const reply = outcome?.reply;
  const items = reply?.questions ?? outcome?.refused?.questions ?? [];
  const rowErrors = reply?.errors ?? rowErrorsOf(outcome?.refused?.details ?? []);
  // A check that found questions all or nothing would refuse: nothing to import in that mode.
  const gate = importGate(
    outcome && { dryRun: outcome.dryRun, refused: !reply, failed: reply?.failed ?? 0 },
    mode,
    checked,
    choice,
  );
  const { wouldRefuse } = gate;
  // All or nothing refused (or would refuse) the file: one press imports the others instead.
  const importOthers = () => {
    setMode('partial');
    void send(false, 'partial');
  };
  const othersButton = (count?: number) => (
    <button type="button" disabled={!file || action.busy} onClick={importOthers}>
      {count === undefined
        ? 'Import the valid questions only (partial)'
        : `Import the other ${questionsText(count)} (partial)`}
    </button>
  );

  return (
    <>
      <p className="note">
        CSV, GIFT, Aiken, Moodle XML or QTI, UTF-8, at most 5 MB. Categories of GIFT and Moodle XML (and QTI sections)
        become folders unless you choose one folder for all.
      </p>
      <CsvColumns />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send(true);
        }}
      >
        <div className="row">
          <Field label="File">
            <input
              type="file"
              accept=".csv,.gift,.txt,.xml,.zip"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                reset();
              }}
            />
          </Field>
          <Field label="Format">
            <select
              value={format}
              onChange={(e) => {
                setFormat(e.target.value as Format);
                reset();
              }}
            >
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Folder">
            <select
              value={folderId}
              onChange={(e) => {
                setFolderId(e.target.value);
                reset();
              }}
            >
              <option value="">From the file (categories), or none</option>
              {(folders.data?.data ?? []).map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ImportModes name="import-mode" what="questions" mode={mode} onChange={setMode} />
        <CheckAndImport
          labels={{ check: 'Check file', import: 'Import' }}
          ready={Boolean(file) && !action.busy}
          gate={gate}
          onImport={() => void send(false)}
        />
      </form>
      <ErrorMessage error={folders.error} />
      {action.busy && <p role="status">Sending the file…</p>}
      <ErrorMessage error={shownError} />
      {reply && !wouldRefuse && (
        <p role="status" className="note" data-testid="import-summary">
          {outcome.dryRun
            ? `Check passed: ${questionsText(reply.imported)} would be imported, ${reply.failed} failed.`
            : `Imported ${questionsText(reply.imported)}; ${reply.failed} failed.`}
        </p>
      )}
      {reply && wouldRefuse && (
        <div role="alert" className="error" data-testid="import-summary">
          <p>
            Check failed: all or nothing would refuse the file: {questionsText(reply.failed)} cannot be imported. Fix{' '}
            {reply.failed === 1 ? 'it' : 'them'} and check the file again, or import the others now.
          </p>
          {reply.imported > 0 && othersButton(reply.imported)}
        </div>
      )}
      {outcome?.refused && <RefusedNote dryRun={outcome.dryRun} what="questions" testId="import-summary" />}
      {outcome?.refused && !outcome.dryRun && mode === 'all_or_nothing' && <p>{othersButton()}</p>}
      {items.length > 0 ? (
        <Report items={items} rowErrors={rowErrors} />
      ) : (
        rowErrors.length > 0 && <RowErrors rowErrors={rowErrors} />
      )}
    </>
  );
}

const typeLabel = (t: string | null | undefined) => (t ? (findQuestionType(t)?.label ?? t) : '—');

/** The per-question report: the questions of the file, their status, why, and what was carried imperfectly. */
function Report({ items, rowErrors }: { items: ReportItem[]; rowErrors: RowError[] }) {
  const count = (status: ReportItem['status']) => items.filter((i) => i.status === status).length;
  const warned = items.filter((i) => (i.warnings ?? []).length > 0).length;
  const lines = new Set(items.map((i) => i.line).filter((l): l is number => typeof l === 'number'));
  // Field errors of a question that has a line are shown on its row; any others below the table.
  const unplaced = rowErrors.filter((e) => !lines.has(e.row));
  return (
    <section aria-labelledby="report-heading">
      <h2 id="report-heading">Questions in the file ({items.length})</h2>
      <p data-testid="report-counts">
        {count('ok')} ok · {count('error')} with errors · {count('unsupported')} unsupported · {warned} with warnings
      </p>
      <ScrollTable label="Questions of the file" className="report">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Line or path</th>
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Message</th>
            <th scope="col">Warnings</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const fieldErrors = typeof item.line === 'number' ? rowErrors.filter((e) => e.row === item.line) : [];
            return (
              <tr key={item.index} data-status={item.status}>
                <td>{item.index}</td>
                <td>{item.line ?? item.path ?? '—'}</td>
                <td>{item.title || '—'}</td>
                <td>{typeLabel(item.question_type)}</td>
                <td>
                  <span className={`badge badge-${item.status}`}>{item.status}</span>
                </td>
                <td>
                  {item.message ?? ''}
                  {fieldErrors.length > 0 && (
                    <ul className="field-errors">
                      {fieldErrors.map((e, i) => (
                        <li key={i}>
                          <code>{e.field}</code>: {e.message}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {(item.warnings ?? []).length > 0 ? (
                    <ul className="warnings">
                      {item.warnings!.map((w, i) => (
                        <li key={i}>{w}</li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </ScrollTable>
      {unplaced.length > 0 && <RowErrors rowErrors={unplaced} />}
    </section>
  );
}

/** Row problems as a CSV import reports them (line, field, message). */
function RowErrors({ rowErrors }: { rowErrors: RowError[] }) {
  return (
    <section aria-labelledby="row-errors-heading">
      <h2 id="row-errors-heading">Problems in the file ({rowErrors.length})</h2>
      <ScrollTable label="Problems in the file">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Field</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {rowErrors.map((e, i) => (
            <tr key={i}>
              <td>{e.row}</td>
              <td>{e.field}</td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}

/** The CSV columns, each with what it holds and, for a coded one, its allowed values; and the template to start from. */
function CsvColumns() {
  const required = new Set<string>(REQUIRED_COLUMNS);
  return (
    <>
      <p>
        <button
          type="button"
          className="secondary"
          onClick={() => saveFile(new Blob([csvText(templateRows())], { type: 'text/csv' }), 'questions-template.csv')}
        >
          Download the CSV template
        </button>{' '}
        every column, and an example of each question type.
      </p>
      <details className="csv-columns">
        <summary>CSV columns and their allowed values</summary>
        <p>
          A CSV file starts with a header row naming its columns, in any order: the first six are required, the others
          optional. Options, option feedback and option credits are separated by <code>|</code>.
        </p>
        <ScrollTable label="CSV columns">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Required</th>
              <th scope="col">What it holds</th>
              <th scope="col">Allowed values</th>
            </tr>
          </thead>
          <tbody>
            {CSV_COLUMNS.map((column) => (
              <tr key={column}>
                <th scope="row">
                  <code>{column}</code>
                </th>
                <td>{required.has(column) ? 'yes' : 'no'}</td>
                <td>{COLUMN_NOTES[column]}</td>
                <td data-testid={`allowed-${column}`}>
                  {CODED_VALUES[column]
                    ? CODED_VALUES[column].map((value, i) => (
                        <span key={value}>
                          {i > 0 ? ', ' : ''}
                          <code>{value}</code>
                        </span>
                      ))
                    : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </details>
    </>
  );
}
