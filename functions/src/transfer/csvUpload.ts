import type { Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { ApiError } from '../shared';
import { uploadError } from './upload';

// No Firebase here: a file's bytes streamed into csv-parse, each record handed
// on as soon as it is parsed, the row limit enforced as the rows arrive.

export interface CsvRecord {
  /** The file line the record starts on (the header is line 1), as FileLines counts lines. */
  line: number;
  cells: string[];
}

const [QUOTE, CR, LF] = ['"', '\r', '\n'].map((c) => c.charCodeAt(0));

/** The line a record starts on, from the line it ends on and its raw text (which may begin with skipped blank lines). */
export function recordStartLine(endLine: number, raw: string): number {
  const content = raw.replace(/^\n+/, '').replace(/\n$/, '');
  return endLine - (content.match(/\n/g)?.length ?? 0);
}

/**
 * The file's lines as a teacher finds them, beside csv-parse's count (the
 * parser is fed every line end as "\n" and counts each one). LF and CRLF end a
 * line wherever they are, as an editor and `grep -n` count them (a quoted cell
 * with a line break spans lines). A lone CR ends a line only between records,
 * where a spreadsheet (Excel, LibreOffice, Google Sheets) reads it as a row end
 * (a classic Mac file); inside a quoted cell it is the cell's text, shown in
 * the cell and counted by no line-counting tool but a few editors, so it ends
 * no line (the cell holds it as "\n", as before). Each such CR is noted as the
 * text is fed, and `fileLine` takes those before a line off. Quotes are
 * followed by parity: a quote inside an unquoted cell is refused by the parser.
 */
class FileLines {
  private quoted = false;
  /** Line ends fed to the parser so far. */
  private fed = 0;
  /** The parser's lines that follow a lone CR inside a quoted cell, in file order. */
  private readonly textBreaks: number[] = [];

  /** Notes `text` before it is fed, its line ends as they are in the file (a CR at its end is known lone: no LF follows). */
  note(text: string): void {
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) this.quoted = !this.quoted;
      else if (code === LF) this.fed++;
      else if (code === CR && text.charCodeAt(at + 1) !== LF) {
        this.fed++;
        if (this.quoted) this.textBreaks.push(this.fed + 1);
      }
    }
  }

  /** The file line of the parser's line `parserLine`. */
  fileLine(parserLine: number): number {
    let [low, high] = [0, this.textBreaks.length];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.textBreaks[mid] <= parserLine) low = mid + 1;
      else high = mid;
    }
    return parserLine - low;
  }
}

/** The longest single record csv-parse buffers: far above any valid row, far below the file limit. */
const MAX_RECORD_BYTES = 256 * 1024;

const QUESTION_ROWS = { one: 'question', many: 'questions' };
/** Records parsed ahead of the reader before the file is paused. */
const RECORDS_AHEAD = 256;

/**
 * A file's records as UTF-8 CSV (BOM and CRLF allowed), the header record
 * first, in file order, as the reader asks for them. Throws 400 (not UTF-8,
 * malformed CSV, no rows, too many rows) after the records read before the
 * fault, as soon as that is known; a reader that stops early stops the read.
 * `rowNoun` names a row in the messages.
 */
export async function* csvRecords(
  file: { filename: string | undefined; stream: Readable },
  maxRows: number,
  rowNoun: { one: string; many: string } = QUESTION_ROWS,
): AsyncGenerator<CsvRecord, void, undefined> {
  const queue: CsvRecord[] = [];
  let outcome: { error: ApiError } | { end: true } | undefined;
  let wake: (() => void) | undefined;
  const settle = (settled: NonNullable<typeof outcome>) => {
    if (outcome) return;
    outcome = settled;
    wake?.();
  };
  const lines = new FileLines();
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
  const stop = () => {
    csv.destroy();
    file.stream.unpipe();
    file.stream.resume();
  };
  const fail = (error: ApiError) => {
    if (outcome) return;
    stop();
    settle({ error });
  };
  let records = 0;
  csv.on('data', (entry: { record: string[]; info: { lines: number }; raw: string }) => {
    if (outcome) return;
    records++;
    if (records - 1 > maxRows) {
      return fail(uploadError(`The file has more than ${maxRows} ${rowNoun.one} rows; split it into smaller files`));
    }
    queue.push({ line: lines.fileLine(recordStartLine(entry.info.lines, entry.raw)), cells: entry.record });
    if (queue.length >= RECORDS_AHEAD) csv.pause();
    wake?.();
  });
  csv.on('error', (err: Error & { lines?: number; raw?: string }) => {
    // The line the faulty record starts on, as for a record.
    const where = err.lines ? `line ${lines.fileLine(recordStartLine(err.lines, err.raw ?? ''))}: ` : '';
    fail(uploadError(`The file is not valid CSV: ${where}${err.message.replace(/ at line \d+| on line \d+/, '')}`));
  });
  csv.on('end', () => {
    if (outcome) return;
    if (records === 0) return fail(uploadError('The file is empty'));
    if (records === 1) return fail(uploadError(`The file has a header row but no ${rowNoun.many}`));
    settle({ end: true });
  });
  feedCsv(file, csv, lines, () => outcome !== undefined, fail);

  try {
    for (;;) {
      const record = queue.shift();
      if (record) {
        if (queue.length === 0 && csv.isPaused()) csv.resume();
        yield record;
      } else if (!outcome) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      } else if ('error' in outcome) {
        throw outcome.error;
      } else {
        return;
      }
    }
  } finally {
    if (!outcome) fail(uploadError('The read stopped'));
  }
}

/** Bytes → checked UTF-8 text with line ends made "\n" (and noted in `lines`) → csv-parse. */
function feedCsv(
  file: { filename: string | undefined; stream: Readable },
  csv: Parser,
  lines: FileLines,
  stopped: () => boolean,
  fail: (error: ApiError) => void,
): void {
  const notUtf8 = () =>
    uploadError(`The file "${file.filename ?? ''}" is not UTF-8 text (CSV expected)`.replace(' ""', ''));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pendingCR = false;
  const feed = (text: string) => {
    let normalized = (pendingCR ? '\r' : '') + text;
    pendingCR = normalized.endsWith('\r');
    if (pendingCR) normalized = normalized.slice(0, -1);
    lines.note(normalized);
    normalized = normalized.replace(/\r\n?/g, '\n');
    if (normalized.includes('\u0000')) throw new Error('binary');
    if (normalized.length > 0 && !csv.write(normalized)) {
      file.stream.pause();
      csv.once('drain', () => file.stream.resume());
    }
  };
  file.stream.on('data', (chunk: Buffer) => {
    if (stopped()) return;
    try {
      feed(decoder.decode(chunk, { stream: true }));
    } catch {
      fail(notUtf8());
    }
  });
  file.stream.on('end', () => {
    if (stopped()) return;
    try {
      feed(decoder.decode());
      if (pendingCR) {
        lines.note('\r');
        csv.write('\n');
      }
    } catch {
      return fail(notUtf8());
    }
    csv.end();
  });
}

/**
 * Reads a file as csvRecords does, handing the header record and every data
 * record to `onRecord` in file order (its error stops the read). Resolves with
 * the number of data rows.
 */
export async function readCsvRecords(
  file: { filename: string | undefined; stream: Readable },
  maxRows: number,
  onRecord: (record: CsvRecord) => void,
  rowNoun: { one: string; many: string } = QUESTION_ROWS,
): Promise<number> {
  let records = 0;
  for await (const record of csvRecords(file, maxRows, rowNoun)) {
    records++;
    try {
      onRecord(record);
    } catch (err) {
      throw err instanceof ApiError ? err : uploadError((err as Error).message);
    }
  }
  return records - 1;
}
