import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readCsvRecords, type CsvRecord } from '../../functions/src/transfer/csvUpload';
import { OPTIONAL_COLUMNS, parseHeader, REQUIRED_COLUMNS, validateRow } from '../../functions/src/questions/csvRows';
import { DIFFICULTIES, QUESTION_TYPES, TEXT_FORMATS } from '../../functions/src/questions/schemas';
import { CODED_VALUES, CSV_COLUMNS, templateCsv } from '../../web/src/questionTypes/csvTemplate';

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
    const [header] = await records(templateCsv());
    assert.deepEqual(header.cells, [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
    assert.ok(header.cells.includes('max_words'));
  });

  it('lists the allowed values of each coded column as the service’s enums', () => {
    assert.deepEqual(CODED_VALUES.question_type, [...QUESTION_TYPES]);
    assert.deepEqual(CODED_VALUES.difficulty, [...DIFFICULTIES]);
    assert.deepEqual(CODED_VALUES.text_format, [...TEXT_FORMATS]);
    assert.deepEqual(CODED_VALUES.case_sensitive, ['true', 'false']);
  });

  it('has one example row of each question type, each valid as the import checks it', async () => {
    const [header, ...rows] = await records(templateCsv());
    const parsed = parseHeader(header.cells);
    assert.ok('columns' in parsed, JSON.stringify(parsed));
    const types = rows.map((row) => {
      const result = validateRow(row.line, parsed.columns, row.cells);
      assert.ok(result.ok, JSON.stringify(result));
      return result.question.question_type;
    });
    assert.deepEqual(types, [...QUESTION_TYPES]);
  });
});
