import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { csvRecords, recordStartLine, type CsvRecord } from '../../functions/src/transfer/csvUpload';
import { ApiError } from '../../functions/src/shared/errors';

// Pure: where a CSV record starts in the file; the records as a reader pulls them.

describe('csvUpload.recordStartLine', () => {
  it('finds where a record starts from where it ends, past blank lines before it and line breaks inside it', () => {
    assert.equal(recordStartLine(5, '\n4,5,6\n'), 5);
    assert.equal(recordStartLine(9, '\n7,8,"9\n\n10"\n'), 7);
    assert.equal(recordStartLine(2, 'a,b\n'), 2);
  });
});

const fileOf = (text: string) => ({ filename: 'bank.csv', stream: Readable.from([Buffer.from(text)]) });

async function pulled(text: string, maxRows = 10): Promise<{ records: CsvRecord[]; error?: string }> {
  const records: CsvRecord[] = [];
  try {
    for await (const record of csvRecords(fileOf(text), maxRows)) records.push(record);
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return { records, error: `${err.status} ${err.message}` };
  }
  return { records };
}

describe('csvUpload.csvRecords', () => {
  it('gives the header and each row in file order, with the line each starts on', async () => {
    assert.deepEqual(await pulled('a,b\r\n\r\n1,"2\n3"\n4,5\n'), {
      records: [
        { line: 1, cells: ['a', 'b'] },
        { line: 3, cells: ['1', '2\n3'] },
        { line: 5, cells: ['4', '5'] },
      ],
    });
  });

  // A spreadsheet (Excel, LibreOffice, Google Sheets) ends a row at LF, CRLF or a lone CR (a classic Mac
  // file); a lone CR inside a quoted cell is the cell's own text, as an LF there is a line of the file.
  it('counts a lone CR inside a quoted cell as no line end, before a record and before a fault, which names its record’s first line', async () => {
    assert.deepEqual(await pulled('a,b\n1,"2\r3"\n4,5\r6,"7\r8"\r\n9\n'), {
      records: [
        { line: 1, cells: ['a', 'b'] },
        { line: 2, cells: ['1', '2\n3'] },
        { line: 3, cells: ['4', '5'] },
        { line: 4, cells: ['6', '7\n8'] },
      ],
      error: '400 The file is not valid CSV: line 5: Invalid Record Length: expect 2, got 1',
    });
    // A fault names the line its record starts on, as a record does.
    assert.equal(
      (await pulled('a,b\n1,"2\r\n3",4\n')).error,
      '400 The file is not valid CSV: line 2: Invalid Record Length: expect 2, got 3',
    );
    // Split across chunks: a CR at a chunk's end is known lone only when the next one starts.
    const rows = ['a,b\n', '1,"x\r', 'y"\r', '2,3\n'];
    const records: CsvRecord[] = [];
    for await (const record of csvRecords(
      { filename: 'r.csv', stream: Readable.from(rows.map((r) => Buffer.from(r))) },
      10,
    ))
      records.push(record);
    assert.deepEqual(
      records.map((r) => r.line),
      [1, 2, 3],
    );
  });

  it('gives the records before a fault, then the fault', async () => {
    assert.deepEqual(await pulled('a,b\n1,2\n3,"4\n'), {
      records: [
        { line: 1, cells: ['a', 'b'] },
        { line: 2, cells: ['1', '2'] },
      ],
      error: '400 The file is not valid CSV: line 3: Quote Not Closed: the parsing is finished with an opening quote',
    });
  });

  it('refuses the row past the limit, an empty file and a header alone', async () => {
    const past = await pulled('a\n1\n2\n3\n', 2);
    assert.deepEqual(
      [past.records.length, past.error],
      [3, '400 The file has more than 2 question rows; split it into smaller files'],
    );
    assert.deepEqual(await pulled(''), { records: [], error: '400 The file is empty' });
    assert.equal((await pulled('a,b\n')).error, '400 The file has a header row but no questions');
  });

  it('a reader that stops early leaves the rest of the file drained, not held back', async () => {
    // Far more than the records parsed ahead of a reader: held back, the file would never end.
    const rows = Array.from({ length: 50_000 }, (_, i) => Buffer.from(`${i},${i}\n`));
    const stream = Readable.from([Buffer.from('a,b\n'), ...rows]);
    const ended = new Promise((resolve) => stream.once('end', resolve));
    for await (const record of csvRecords({ filename: undefined, stream }, 5000)) {
      assert.deepEqual(record.cells, ['a', 'b']);
      break;
    }
    await ended;
    assert.equal(stream.readableEnded, true);
  });
});
