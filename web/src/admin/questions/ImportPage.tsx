import { useState } from 'react';
import { ApiError, unwrap, type Schemas } from '../../api/client';
import { useSession } from '../../session';
import { ErrorMessage, Field, useAction } from '../../ui';
import { NeedsOrg } from '../org';

type RowError = Schemas['ImportRowError'];
type Mode = 'dry_run' | 'all_or_nothing' | 'partial';

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
function rowErrorsOf(error: unknown): RowError[] {
  if (!(error instanceof ApiError)) return [];
  return error.details.filter((d): d is RowError => typeof d.row === 'number' && typeof d.field === 'string');
}

function Importer({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<{ mode: Mode; data: Schemas['QuestionImportResult'] } | null>(null);
  const [rowErrors, setRowErrors] = useState<RowError[]>([]);
  const action = useAction();

  const send = (mode: Mode) =>
    action.run(async () => {
      if (!file) return;
      setResult(null);
      setRowErrors([]);
      const form = new FormData();
      form.append('file', file);
      try {
        const data = await unwrap(
          api.POST('/api/questions/import', {
            params: {
              query: {
                client_id: clientId,
                ...(mode === 'dry_run' ? { dry_run: 'true' as const } : {}),
                ...(mode === 'partial' ? { mode: 'partial' as const } : {}),
              },
            },
            // openapi-fetch sends a FormData body as it is (the browser sets the multipart boundary).
            body: form as never,
          }),
        );
        setResult({ mode, data });
        setRowErrors(data.errors);
      } catch (err) {
        setRowErrors(rowErrorsOf(err));
        throw err;
      }
    });

  const error = action.error;
  // The row problems are shown in the table: the alert keeps only the message then.
  const shownError = error instanceof ApiError && rowErrors.length > 0 ? new Error(error.message) : error;

  return (
    <>
      <p className="note">
        A UTF-8 CSV file with a header row:{' '}
        <code>question_text, question_type, options, correct_answer, marks, difficulty</code>, and optionally{' '}
        <code>folder_id, tolerance</code>. Options are separated by <code>|</code>.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send('dry_run');
        }}
      >
        <Field label="CSV file">
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setResult(null);
              setRowErrors([]);
              action.clear();
            }}
          />
        </Field>
        <div className="row">
          <button type="submit" disabled={!file || action.busy}>
            Check (dry run)
          </button>
          <button type="button" disabled={!file || action.busy} onClick={() => void send('all_or_nothing')}>
            Import all or nothing
          </button>
          <button
            type="button"
            className="secondary"
            disabled={!file || action.busy}
            onClick={() => void send('partial')}
          >
            Import valid rows only
          </button>
        </div>
      </form>
      {action.busy && <p role="status">Sending the file…</p>}
      <ErrorMessage error={shownError} />
      {result && (
        <p role="status" className="note">
          {result.mode === 'dry_run'
            ? `Check passed: ${result.data.imported} questions would be imported, ${result.data.failed} rows failed.`
            : `Imported ${result.data.imported} questions; ${result.data.failed} rows failed.`}
        </p>
      )}
      {rowErrors.length > 0 && (
        <section aria-labelledby="row-errors-heading">
          <h2 id="row-errors-heading">Problems in the file ({rowErrors.length})</h2>
          <table>
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
          </table>
        </section>
      )}
    </>
  );
}
