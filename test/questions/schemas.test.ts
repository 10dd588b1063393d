import assert from 'node:assert/strict';
import { AdminQuestion, applyChanges, normalizeQuestion, PublicQuestion, QuestionInput } from '../../functions/src/questions/schemas';
import type { StoredQuestion } from '../../functions/src/questions/documents';

// Pure: the question schemas, no emulator needed.

const parse = (body: unknown) => QuestionInput.parse(body);
const base = { question_text: 'Q?', marks: 1, difficulty: 'easy' } as const;

describe('questions/schemas normalizeQuestion', () => {
  it('spells answers as the options are spelled, and multiple_select answers in option order', () => {
    assert.equal(normalizeQuestion(parse({ ...base, question_type: 'multiple_choice', options: ['Paris', 'Rome'], correct_answer: ' PARIS ' })).correct_answer, 'Paris');
    assert.equal(normalizeQuestion(parse({ ...base, question_type: 'multiple_select', options: ['a', 'b', 'c'], correct_answer: 'C|a' })).correct_answer, 'a|c');
    const tf = normalizeQuestion(parse({ ...base, question_type: 'true_false', correct_answer: 'false' }));
    assert.deepEqual([tf.options, tf.correct_answer], [['True', 'False'], 'False']);
  });

  it('stores no options and no tolerance for types without them', () => {
    const short = normalizeQuestion(parse({ ...base, question_type: 'short_answer', correct_answer: 'x', options: [] }));
    assert.deepEqual([short.options, short.tolerance], [[], null]);
    const numeric = normalizeQuestion(parse({ ...base, question_type: 'numeric', correct_answer: ' -2.5 ' }));
    assert.deepEqual([numeric.correct_answer, numeric.tolerance], ['-2.5', null]);
  });

  it('refuses numbers that are not plain finite numbers', () => {
    for (const answer of ['NaN', 'Infinity', '1e400', '0x10', '1,5', '']) {
      assert.ok(!QuestionInput.safeParse({ ...base, question_type: 'numeric', correct_answer: answer }).success, answer);
    }
  });
});

describe('questions/schemas replies', () => {
  const stored: StoredQuestion = {
    id: 'q', client_id: 'c', folder_id: null, question_text: 'Q?', question_type: 'numeric', options: [], correct_answer: '3',
    tolerance: 0.5, marks: 1, difficulty: 'easy', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
  };

  it('the public view cannot carry an answer key, the admin view carries it', () => {
    const view = PublicQuestion.parse(stored);
    assert.ok(!('correct_answer' in view) && !('tolerance' in view));
    assert.deepEqual(AdminQuestion.parse(stored), stored);
  });
});

describe('questions/schemas applyChanges', () => {
  const stored: StoredQuestion = {
    id: 'q', client_id: 'c', folder_id: 'f', question_text: 'Q?', question_type: 'numeric', options: [], correct_answer: '3',
    tolerance: 0.5, marks: 1, difficulty: 'easy', created_at: '', updated_at: '',
  };

  it('keeps what is not sent, drops tolerance and options that a new type cannot have, and clears nulls', () => {
    assert.deepEqual(applyChanges(stored, { marks: 2 }), { question_type: 'numeric', question_text: 'Q?', options: [], correct_answer: '3', marks: 2, difficulty: 'easy', folder_id: 'f', tolerance: 0.5 });
    const changed = applyChanges(stored, { question_type: 'short_answer', correct_answer: 'x', folder_id: null });
    assert.ok(!('tolerance' in changed) && !('options' in changed));
    assert.equal(changed.folder_id, null);
    assert.ok(QuestionInput.safeParse(changed).success);
    assert.ok(!('tolerance' in applyChanges(stored, { tolerance: null })));
  });
});
