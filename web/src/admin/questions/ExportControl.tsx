import { useState } from 'react';
import { authorizedFetch } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, useAction } from '../../ui';

export type ExportFormat = 'moodle_xml' | 'gift' | 'qti';

export const EXPORT_FORMATS: Array<{ value: ExportFormat; label: string; extension: string }> = [
  { value: 'moodle_xml', label: 'Moodle XML', extension: 'xml' },
  { value: 'gift', label: 'GIFT', extension: 'gift' },
  { value: 'qti', label: 'QTI 3.0 package (zip)', extension: 'zip' },
];

/** The file name the service gives (Content-Disposition), else `fallback`. */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed name: the fallback below.
    }
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? fallback;
}

/** Hands a file to the browser's downloads: an <a download> cannot send the bearer token, a blob URL needs none. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has had time to start the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * "Export as…": the questions of `path` (the bank with its filters, or a test) in one of
 * the interchange formats, downloaded as a file.
 */
export function ExportControl({
  path,
  query = {},
  baseName,
}: {
  path: string;
  query?: Record<string, string | undefined>;
  baseName: string;
}) {
  const { auth } = useSession();
  const [format, setFormat] = useState<ExportFormat>('moodle_xml');
  const [done, setDone] = useState('');
  const action = useAction();
  const run = () =>
    action.run(async () => {
      setDone('');
      const params = new URLSearchParams({ format });
      for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
      const response = await authorizedFetch(auth, `${path}?${params}`);
      const extension = EXPORT_FORMATS.find((f) => f.value === format)!.extension;
      const name = fileNameOf(response, `${baseName}.${extension}`);
      saveFile(await response.blob(), name);
      setDone(`Downloaded ${name}.`);
    });
  return (
    <div className="export">
      <div className="row">
        <Field label="Export as">
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            {EXPORT_FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </Field>
        <button type="button" className="secondary" disabled={action.busy} onClick={() => void run()}>
          {action.busy ? 'Exporting…' : 'Export'}
        </button>
      </div>
      {done && (
        <p role="status" className="note">
          {done}
        </p>
      )}
      <ErrorMessage error={action.error} />
    </div>
  );
}
