import assert from 'node:assert/strict';
import { importEntries } from '../../functions/src/questions/bankEntries';
import type { ParsedBank, ParsedItem, QuestionDraft } from '../../functions/src/interchange/model';

// Pure: a bank file's passages through the import's entries (docs/question-types.md, "Passages"):
// a question keeps its link to a description of the file that is imported, and is imported
// without it, warned, when that description is not.

const ok = (path: string, question: QuestionDraft): ParsedItem => ({
  path,
  title: null,
  source_type: 'test',
  status: 'ok',
  message: null,
  warnings: [],
  category: null,
  question,
});
const passage = (key: string, text = 'Read this.'): QuestionDraft => ({
  question_type: 'description',
  question_text: text,
  marks: 0,
  difficulty: 'easy',
  passage_key: key,
});
const asking = (ref?: string): QuestionDraft => ({
  question_type: 'true_false',
  question_text: 'True?',
  correct_answer: 'True',
  marks: 1,
  difficulty: 'easy',
  ...(ref ? { passage_ref: ref } : {}),
});

describe('questions/bankEntries: passages of a bank file', () => {
  const bank: ParsedBank = {
    format: 'qti',
    media: new Map(),
    items: [
      ok('p.xml', passage('p.xml')),
      ok('q1.xml', asking('p.xml')),
      ok('bad.xml', passage('bad.xml', '')),
      ok('q2.xml', asking('bad.xml')),
      ok('q3.xml', asking('nowhere.xml')),
      ok('q4.xml', asking()),
    ],
  };
  const entries = importEntries(bank, new Map());

  it('the description is imported as one, its key kept apart from the question the bank validates', () => {
    assert.equal(entries[0].report.status, 'ok');
    assert.equal(entries[0].passageKey, 'p.xml');
    assert.equal((entries[0].question as Record<string, unknown>).passage_key, undefined);
  });

  it('each question: linked to an imported passage; else imported without it, warned', () => {
    const cases: Array<[number, string | undefined, RegExp | undefined]> = [
      [1, 'p.xml', undefined],
      [3, undefined, /passage "bad\.xml" is not imported/],
      [4, undefined, /passage "nowhere\.xml" is not imported/],
      [5, undefined, undefined],
    ];
    for (const [at, ref, warning] of cases) {
      const entry = entries[at];
      assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
      assert.equal(entry.passageRef, ref, `entry ${at}`);
      if (warning)
        assert.ok(
          entry.report.warnings.some((w) => warning.test(w)),
          entry.report.warnings.join('; '),
        );
      else assert.deepEqual(entry.report.warnings, []);
    }
    assert.equal(entries[2].report.status, 'error', 'a passage with no text is refused');
  });
});
