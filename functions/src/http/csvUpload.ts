import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ApiError } from '../shared/errors';
import { uploadError } from './upload';

// No Firebase here: a file's bytes streamed into csv-parse, each record handed
// on as soon as it is parsed, the row limit enforced as the rows arrive.

export interface CsvRecord {
  /** The file line the record starts on (the header is line 1). */
  line: number;
  cells: string[];
}

/** The line a record starts on, from the line it ends on and its raw text (which may begin with skipped blank lines). */
export function recordStartLine(endLine: number, raw: string): number {
  const content = raw.replace(/^\n+/, '').replace(/\n$/, '');
  return endLine - (content.match(/\n/g)?.length ?? 0);
}

/** The longest single record csv-parse buffers: far above any valid row, far below the file limit. */
const MAX_RECORD_BYTES = 256 * 1024;

/**
 * Reads a file as UTF-8 CSV (BOM and CRLF allowed). The header record and
 * every data record go to `onRecord` in file order. Rejects with 400
 * (not UTF-8, malformed CSV, no rows, too many rows) as soon as that is known.
 * Resolves with the number of data rows. `rowNoun` names a row in the messages.
 */
export function readCsvRecords(
  file: { filename: string | undefined; stream: Readable },
  maxRows: number,
  onRecord: (record: CsvRecord) => void,
  rowNoun: { one: string; many: string } = { one: 'question', many: 'questions' },
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    let records = 0;
    const fail = (err: ApiError) => {
      if (settled) return;
      settled = true;
      csv.destroy();
      file.stream.unpipe();
      file.stream.resume();
      reject(err);
    };
    const csv = parse({
      bom: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true, // a spreadsheet's blank rows export as ",,,,,"
      relax_column_count: false,
      record_delimiter: '\n',
      info: true,
      raw: true,
      max_record_size: MAX_RECORD_BYTES,
    });
    csv.on('data', (entry: { record: string[]; info: { lines: number }; raw: string }) => {
      if (settled) return;
      records++;
      if (records - 1 > maxRows) {
        return fail(uploadError(`The file has more than ${maxRows} ${rowNoun.one} rows; split it into smaller files`));
      }
      try {
        onRecord({ line: recordStartLine(entry.info.lines, entry.raw), cells: entry.record });
      } catch (err) {
        fail(err instanceof ApiError ? err : uploadError((err as Error).message));
      }
    });
    csv.on('error', (err: Error & { lines?: number }) => {
      const where = err.lines ? `line ${err.lines}: ` : '';
      fail(uploadError(`The file is not valid CSV: ${where}${err.message.replace(/ at line \d+| on line \d+/, '')}`));
    });
    csv.on('end', () => {
      if (settled) return;
      if (records === 0) return fail(uploadError('The file is empty'));
      if (records === 1) return fail(uploadError(`The file has a header row but no ${rowNoun.many}`));
      settled = true;
      resolve(records - 1);
    });

    // Bytes → checked UTF-8 text with line ends made "\n" → csv-parse.
    const notUtf8 = () =>
      uploadError(`The file "${file.filename ?? ''}" is not UTF-8 text (CSV expected)`.replace(' ""', ''));
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let pendingCR = false;
    const feed = (text: string) => {
      let normalized = (pendingCR ? '\r' : '') + text;
      pendingCR = normalized.endsWith('\r');
      if (pendingCR) normalized = normalized.slice(0, -1);
      normalized = normalized.replace(/\r\n?/g, '\n');
      if (normalized.includes('\u0000')) throw new Error('binary');
      if (normalized.length > 0 && !csv.write(normalized)) {
        file.stream.pause();
        csv.once('drain', () => file.stream.resume());
      }
    };
    file.stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        feed(decoder.decode(chunk, { stream: true }));
      } catch {
        fail(notUtf8());
      }
    });
    file.stream.on('end', () => {
      if (settled) return;
      try {
        feed(decoder.decode());
        if (pendingCR) csv.write('\n');
      } catch {
        return fail(notUtf8());
      }
      csv.end();
    });
  });
}
