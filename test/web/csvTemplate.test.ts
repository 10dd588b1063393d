import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readCsvRecords, type CsvRecord } from '../../functions/src/transfer/csvUpload';
import { OPTIONAL_COLUMNS, parseHeader, REQUIRED_COLUMNS, validateRow } from '../../functions/src/questions/csvRows';
import { DIFFICULTIES, QUESTION_TYPES, TEXT_FORMATS } from '../../functions/src/questions/schemas';
import { csvText } from '../../web/src/csv';
import { CODED_VALUES, COLUMN_NOTES, CSV_COLUMNS, templateRows } from '../../web/src/questionTypes/csvTemplate';

async function records(text: string): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  await readCsvRecords({ filename: 'template.csv', stream: Readable.from([Buffer.from(text)]) }, 5000, (r) =>
    out.push(r),
  );
  return out;
}

describe('web csvTemplate: the import page’s CSV template', () => {
  it('has the columns the service parses, in its order, max_words included', async () => {
    assert.deepEqual(CSV_COLUMNS, [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
    const [header] = await records(csvText(templateRows()));
    assert.deepEqual(header.cells, [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
    assert.ok(header.cells.includes('max_words'));
  });

  // A CSV row has no columns for stems, matches, gaps, variables or an image's areas (a hottext's phrases are in its text):
  // those types are left out of the template, and the service refuses such a row (it names what is missing).
  const NOT_IN_A_ROW = ['matching', 'ordering', 'gap_fill', 'calculated', 'hotspot'];

  it('lists the allowed values of each coded column as the service’s enums, the types a row cannot hold left out', () => {
    assert.deepEqual(
      CODED_VALUES.question_type,
      QUESTION_TYPES.filter((t) => !NOT_IN_A_ROW.includes(t)),
    );
    assert.deepEqual(CODED_VALUES.difficulty, [...DIFFICULTIES]);
    assert.deepEqual(CODED_VALUES.text_format, [...TEXT_FORMATS]);
    assert.deepEqual(CODED_VALUES.case_sensitive, ['true', 'false']);
  });

  it('has one example row of each question type, each valid as the import checks it', async () => {
    const [header, ...rows] = await records(csvText(templateRows()));
    const parsed = parseHeader(header.cells);
    assert.ok('columns' in parsed, JSON.stringify(parsed));
    const types = rows.map((row) => {
      const result = validateRow(row.line, parsed.columns, row.cells);
      assert.ok(result.ok, JSON.stringify(result));
      return result.question.question_type;
    });
    assert.deepEqual(
      types,
      QUESTION_TYPES.filter((t) => !NOT_IN_A_ROW.includes(t)),
    );
  });

  it('names the types a row cannot hold in the question_type column’s note, and the service refuses such a row', async () => {
    assert.match(COLUMN_NOTES.question_type, /Matching, Ordering, Gap fill, Calculated, Hotspot: not in a CSV row/);
    const [header] = await records(csvText(templateRows()));
    const parsed = parseHeader(header.cells);
    assert.ok('columns' in parsed);
    for (const type of ['matching', 'ordering', 'gap_fill']) {
      const cells = header.cells.map((column) =>
        column === 'question_type'
          ? type
          : column === 'question_text'
            ? 'Q [[1]] [[a]]'
            : column === 'marks'
              ? '1'
              : column === 'difficulty'
                ? 'easy'
                : column === 'options'
                  ? 'a|b'
                  : column === 'correct_answer'
                    ? 'a'
                    : '',
      );
      assert.equal(validateRow(2, parsed.columns, cells).ok, false, type);
    }
  });
});
