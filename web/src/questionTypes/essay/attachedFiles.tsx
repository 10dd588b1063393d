import { useId, useRef, useState } from 'react';
import { OfflineError, type Schemas } from '../../api';
import type { AnswerFiles } from '../module';

type Attachment = Schemas['Attachment'];

/** The most a file may weigh (the API's MAX_ATTACHMENT_BYTES): a larger one is refused here, before it is sent. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** What the picker offers: what the service takes (it decides by the content, not by this). */
const ACCEPTED = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';
const OFFLINE =
  'Attaching a file needs the network: you are offline. Your written answer is still kept and sent when you are back online.';

const sizeText = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Why an attach or a removal failed, in the taker's words (the service's own message when it gave one). */
function failureText(err: unknown): string {
  if (err instanceof OfflineError) return OFFLINE;
  return err instanceof Error && err.message ? err.message : 'The file could not be sent; try again';
}

/** A file as a link that fetches it with the reader's credentials (a plain link would carry none). */
function FileLink({ file, open }: { file: Attachment; open: AnswerFiles['open'] }) {
  return (
    <a
      href={file.url}
      onClick={(e) => {
        e.preventDefault();
        void open(file);
      }}
    >
      {file.name}
    </a>
  );
}

/** The files attached to an answer, as links, for its review and its marker. */
export function AttachmentLinks({ files, open }: { files: readonly Attachment[]; open: AnswerFiles['open'] }) {
  if (files.length === 0) return null;
  return (
    <div data-testid="attached-files">
      <p>Attached files:</p>
      <ul>
        {files.map((file) => (
          <li key={file.id}>
            <FileLink file={file} open={open} /> ({sizeText(file.size)})
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The taker's files beside its essay: a labelled file picker that sends each file at once, the
 * files attached (each with its remove button), and what happened said in a live region (an error
 * as an alert). All by keyboard: the picker is the browser's own file input.
 */
export function AttachmentPicker({
  name,
  most,
  required,
  files,
}: {
  name: string;
  most: number;
  required: number;
  files: AnswerFiles;
}) {
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (what: string, work: () => Promise<void>, done: string) => {
    setBusy(true);
    setError('');
    setStatus(what);
    try {
      await work();
      setStatus(done);
    } catch (err) {
      setStatus('');
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };
  const attach = (file: File | undefined) => {
    if (!file) return;
    if (input.current) input.current.value = '';
    if (file.size > MAX_FILE_BYTES) {
      setStatus('');
      return setError(`${file.name} is ${sizeText(file.size)}; a file may be at most 10 MB`);
    }
    if (!navigator.onLine) {
      setStatus('');
      return setError(OFFLINE);
    }
    void run(`Attaching ${file.name}…`, () => files.attach(file), `${file.name} attached`);
  };
  const full = files.list.length >= most;
  return (
    <div role="group" aria-labelledby={headingId} className="attachments">
      <p id={headingId}>
        Attached files: {files.list.length} of at most {most}
        {required > 0 ? `, at least ${required} required` : ''} (PDF, PNG or JPEG, 10 MB each)
      </p>
      {files.list.length > 0 ? (
        <ul>
          {files.list.map((file) => (
            <li key={file.id}>
              <FileLink file={file} open={files.open} /> ({sizeText(file.size)}){' '}
              <button
                type="button"
                disabled={busy}
                aria-label={`Remove ${file.name}`}
                onClick={() => void run(`Removing ${file.name}…`, () => files.remove(file.id), `${file.name} removed`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {full ? (
        <p>This answer has all the files it may take; remove one to attach another.</p>
      ) : (
        <label>
          Attach a file{' '}
          <input
            ref={input}
            type="file"
            name={`${name}-file`}
            accept={ACCEPTED}
            disabled={busy}
            onChange={(e) => attach(e.target.files?.[0])}
          />
        </label>
      )}
      <p role="status" data-testid="attach-status">
        {status}
      </p>
      <p role="alert" className={error ? 'error' : undefined}>
        {error}
      </p>
    </div>
  );
}
