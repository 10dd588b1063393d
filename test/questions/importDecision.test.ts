import assert from 'node:assert/strict';
import type { ImportEntry } from '../../functions/src/questions/bankEntries';
import type { ImportRecord } from '../../functions/src/questions/documents';
import {
  bankSizeRefusal,
  decideImport,
  earlierImportRefusal,
  type ImportCase,
  type ImportDecision,
} from '../../functions/src/questions/importDecision';
import { MAX_IMPORT_ROWS, type RowError } from '../../functions/src/questions/importSchemas';
import type { QuestionInput } from '../../functions/src/questions/schemas';
import { ApiError } from '../../functions/src/shared/errors';

// decideImport alone: no emulator, no Firebase. What an upload writes (nothing,
// every question, the valid ones only) and what it answers (400 with the
// report, 409 for a file imported before, the dry run's report) from the
// entries its file was read into, the mode and the dry run.

const question = { question_type: 'true_false', question_text: 'Is it?' } as unknown as QuestionInput;

const ok = (index: number): ImportEntry => ({
  report: {
    index,
    line: index + 1,
    title: null,
    question_type: 'true_false',
    status: 'ok',
    message: null,
    warnings: [],
  },
  question,
  folderName: null,
  errors: [],
});

const rowError = (line: number): RowError => ({
  path: `row ${line}.question_text`,
  row: line,
  field: 'question_text',
  message: 'Required',
});

const bad = (index: number, status: 'error' | 'unsupported' = 'error'): ImportEntry => ({
  report: {
    index,
    line: index + 1,
    title: null,
    question_type: null,
    status,
    message: 'question_text: Required',
    warnings: [],
  },
  folderName: null,
  errors: [rowError(index + 1)],
});

const record = (status: ImportRecord['status']): ImportRecord => ({
  id: 'sha',
  client_id: 'c1',
  status,
  claim: 'claim',
  question_ids: ['q1', 'q2'],
  pending_folder_ids: [],
  chunk_count: 1,
  imported: 2,
  failed: 0,
  created_by: 'u1',
  created_at: '2030-01-01T00:00:00.000Z',
  lease_expires_at: null,
  completed_at: status === 'complete' ? '2030-01-01T00:01:00.000Z' : null,
});

const given = (fields: Partial<ImportCase> = {}): ImportCase => ({
  csv: true,
  mode: 'all_or_nothing',
  dryRun: false,
  earlier: undefined,
  ...fields,
});

/** The decision in a form a table can compare: what is written, or the answer given instead. */
function outcome(decision: ImportDecision) {
  if ('refusal' in decision) {
    const { status, message, details, extra } = decision.refusal;
    return { refused: { status, message, details, questions: extra?.questions } };
  }
  if ('dryRun' in decision) return { dryRun: decision.dryRun };
  const { valid, failed, errors, report } = decision.write;
  return { writes: valid.map((e) => e.report.index), failed, errors, report };
}

const reports = (entries: ImportEntry[]) => entries.map((e) => e.report);

describe('decideImport', () => {
  const cases: Array<{ name: string; entries: ImportEntry[]; given: ImportCase; expect: ReturnType<typeof outcome> }> =
    [
      {
        name: 'every row valid, all or nothing: writes them all',
        entries: [ok(1), ok(2)],
        given: given(),
        expect: { writes: [1, 2], failed: 0, errors: [], report: reports([ok(1), ok(2)]) },
      },
      {
        name: 'every row valid, partial: writes them all',
        entries: [ok(1), ok(2)],
        given: given({ mode: 'partial' }),
        expect: { writes: [1, 2], failed: 0, errors: [], report: reports([ok(1), ok(2)]) },
      },
      {
        name: 'a row invalid, all or nothing: 400 naming the rows, with the whole report; nothing written',
        entries: [ok(1), bad(2), bad(3)],
        given: given(),
        expect: {
          refused: {
            status: 400,
            message: '2 of 3 rows are invalid; nothing was imported (send ?mode=partial to import the valid rows)',
            details: [rowError(3), rowError(4)],
            questions: reports([ok(1), bad(2), bad(3)]),
          },
        },
      },
      {
        name: 'a bank question unsupported, all or nothing: 400 in the words of questions',
        entries: [bad(1, 'unsupported'), ok(2)],
        given: given({ csv: false }),
        expect: {
          refused: {
            status: 400,
            message:
              '1 of 2 questions cannot be imported; nothing was imported (send ?mode=partial to import the others)',
            details: [rowError(2)],
            questions: reports([bad(1, 'unsupported'), ok(2)]),
          },
        },
      },
      {
        name: 'a row invalid, partial: writes the valid ones, reports the others',
        entries: [bad(1), ok(2), ok(3)],
        given: given({ mode: 'partial' }),
        expect: { writes: [2, 3], failed: 1, errors: [rowError(2)], report: reports([bad(1), ok(2), ok(3)]) },
      },
      {
        name: 'no row valid, partial: 400, nothing written',
        entries: [bad(1), bad(2)],
        given: given({ mode: 'partial' }),
        expect: {
          refused: {
            status: 400,
            message: 'None of the 2 rows is valid; nothing was imported',
            details: [rowError(2), rowError(3)],
            questions: reports([bad(1), bad(2)]),
          },
        },
      },
      {
        name: 'no bank question importable, partial: 400 in the words of questions',
        entries: [bad(1, 'unsupported')],
        given: given({ mode: 'partial', csv: false }),
        expect: {
          refused: {
            status: 400,
            message: 'None of the 1 questions can be imported; nothing was imported',
            details: [rowError(2)],
            questions: reports([bad(1, 'unsupported')]),
          },
        },
      },
      {
        name: 'a dry run, partial: what would be written, nothing written',
        entries: [ok(1), bad(2)],
        given: given({ mode: 'partial', dryRun: true }),
        expect: {
          dryRun: {
            import_id: null,
            dry_run: true,
            imported: 1,
            failed: 1,
            errors: [rowError(3)],
            question_ids: [],
            questions: reports([ok(1), bad(2)]),
          },
        },
      },
      {
        name: 'a dry run, all or nothing, a row invalid: the same 400 as the import',
        entries: [ok(1), bad(2)],
        given: given({ dryRun: true, earlier: record('complete') }),
        expect: {
          refused: {
            status: 400,
            message: '1 of 2 rows are invalid; nothing was imported (send ?mode=partial to import the valid rows)',
            details: [rowError(3)],
            questions: reports([ok(1), bad(2)]),
          },
        },
      },
      {
        name: 'a dry run of a file imported before: 409 naming the import',
        entries: [ok(1)],
        given: given({ dryRun: true, earlier: record('complete') }),
        expect: {
          refused: {
            status: 409,
            message:
              'This file was already imported (import sha, 2 questions, 2030-01-01T00:01:00.000Z); change the file to import its questions again',
            details: undefined,
            questions: undefined,
          },
        },
      },
      {
        name: 'a dry run of a file being imported: 409, retry later',
        entries: [ok(1)],
        given: given({ dryRun: true, earlier: record('staging') }),
        expect: {
          refused: {
            status: 409,
            message: 'An import of this file is in progress (import sha); retry in a few minutes',
            details: undefined,
            questions: undefined,
          },
        },
      },
      {
        name: 'a real import is not refused by an earlier record here: its claim checks that in a transaction',
        entries: [ok(1)],
        given: given({ earlier: record('complete') }),
        expect: { writes: [1], failed: 0, errors: [], report: reports([ok(1)]) },
      },
    ];
  for (const c of cases) {
    it(c.name, () => {
      const decision = decideImport(c.entries, c.given);
      if ('refusal' in decision) assert.ok(decision.refusal instanceof ApiError);
      assert.deepEqual(outcome(decision), c.expect);
    });
  }
});

describe('bankSizeRefusal', () => {
  const cases: Array<[string, number, string | undefined]> = [
    ['no questions: 400', 0, 'The file holds no questions'],
    ['one question: taken', 1, undefined],
    ['the bound itself: taken', MAX_IMPORT_ROWS, undefined],
    [
      'past the bound: 400',
      MAX_IMPORT_ROWS + 1,
      `The file has ${MAX_IMPORT_ROWS + 1} questions, more than ${MAX_IMPORT_ROWS}; split it into smaller files`,
    ],
  ];
  for (const [name, questions, message] of cases) {
    it(name, () => {
      const refusal = bankSizeRefusal(questions);
      assert.equal(refusal?.message, message);
      if (refusal) assert.deepEqual([refusal.status, refusal.details], [400, [{ path: 'file', message }]]);
    });
  }
});

describe('earlierImportRefusal', () => {
  it('no record: no refusal', () => assert.equal(earlierImportRefusal(undefined), undefined));
  it('a committed record is still in progress: 409', () =>
    assert.equal(earlierImportRefusal(record('committed'))?.status, 409));
});
