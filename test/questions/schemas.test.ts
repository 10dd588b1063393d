import assert from 'node:assert/strict';
import {
  adminQuestion,
  AdminQuestion,
  applyChanges,
  MAX_ESSAY_WORDS,
  normalizeQuestion,
  PublicQuestion,
  QuestionInput,
  questionAsInput,
} from '../../functions/src/questions/schemas';
import type { StoredQuestion } from '../../functions/src/questions/documents';

// Pure: the question schemas, no emulator needed.

const parse = (body: unknown) => QuestionInput.parse(body);
const base = { question_text: 'Q?', marks: 1, difficulty: 'easy' } as const;

describe('questions/schemas normalizeQuestion', () => {
  it('spells answers as the options are spelled, and multiple_select answers in option order', () => {
    assert.equal(
      normalizeQuestion(
        parse({ ...base, question_type: 'multiple_choice', options: ['Paris', 'Rome'], correct_answer: ' PARIS ' }),
      ).correct_answer,
      'Paris',
    );
    assert.equal(
      normalizeQuestion(
        parse({ ...base, question_type: 'multiple_select', options: ['a', 'b', 'c'], correct_answer: 'C|a' }),
      ).correct_answer,
      'a|c',
    );
    const tf = normalizeQuestion(parse({ ...base, question_type: 'true_false', correct_answer: 'false' }));
    assert.deepEqual([tf.options, tf.correct_answer], [['True', 'False'], 'False']);
  });

  it('stores no options and no tolerance for types without them', () => {
    const short = normalizeQuestion(
      parse({ ...base, question_type: 'short_answer', correct_answer: 'x', options: [] }),
    );
    assert.deepEqual([short.options, short.tolerance], [[], null]);
    const numeric = normalizeQuestion(parse({ ...base, question_type: 'numeric', correct_answer: ' -2.5 ' }));
    assert.deepEqual([numeric.correct_answer, numeric.tolerance, numeric.max_words], ['-2.5', null, null]);
  });

  it('stores an essay with no options, an empty answer key and its max_words (null when absent)', () => {
    const essay = normalizeQuestion(parse({ ...base, question_type: 'essay', max_words: 300 }));
    assert.deepEqual(essay, {
      ...base,
      question_type: 'essay',
      options: [],
      correct_answer: '',
      tolerance: null,
      max_words: 300,
    });
    assert.equal(
      normalizeQuestion(parse({ ...base, question_type: 'essay', options: [], correct_answer: '' })).max_words,
      null,
    );
    assert.equal(normalizeQuestion(parse({ ...base, question_type: 'essay', max_words: null })).max_words, null);
  });

  it('refuses numbers that are not plain finite numbers', () => {
    for (const answer of ['NaN', 'Infinity', '1e400', '0x10', '1,5', '']) {
      assert.ok(
        !QuestionInput.safeParse({ ...base, question_type: 'numeric', correct_answer: answer }).success,
        answer,
      );
    }
  });
});

describe('questions/schemas essays', () => {
  const essay = { ...base, question_type: 'essay' } as const;
  const issues = (body: unknown) => {
    const result = QuestionInput.safeParse(body);
    assert.ok(!result.success, `${JSON.stringify(body)} should be refused`);
    return result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };

  it('takes an essay with or without max_words, with options absent or empty and correct_answer absent or empty', () => {
    for (const body of [
      essay,
      { ...essay, max_words: 1 },
      { ...essay, max_words: MAX_ESSAY_WORDS },
      { ...essay, max_words: null },
      { ...essay, options: [], correct_answer: '' },
    ]) {
      assert.ok(QuestionInput.safeParse(body).success, JSON.stringify(body));
    }
  });

  it('refuses an answer key, saying an essay is graded by a person', () => {
    assert.deepEqual(issues({ ...essay, correct_answer: 'Anything' }), [
      { path: 'correct_answer', message: 'An essay has no correct_answer; it is graded by a person' },
    ]);
  });

  it('refuses options', () => {
    assert.deepEqual(
      issues({ ...essay, options: ['a', 'b'] }).map((i) => i.path),
      ['options'],
    );
  });

  it('refuses max_words out of 1..10000 or not a whole number', () => {
    for (const max_words of [0, -1, MAX_ESSAY_WORDS + 1, 2.5, '100']) {
      assert.deepEqual(
        issues({ ...essay, max_words }).map((i) => i.path),
        ['max_words'],
        String(max_words),
      );
    }
  });

  it('refuses max_words on every other type as an unknown key, naming essays, and tolerance on an essay', () => {
    const others = [
      { ...base, question_type: 'multiple_choice', options: ['a', 'b'], correct_answer: 'a' },
      { ...base, question_type: 'multiple_select', options: ['a', 'b'], correct_answer: 'a' },
      { ...base, question_type: 'true_false', correct_answer: 'True' },
      { ...base, question_type: 'short_answer', correct_answer: 'a' },
      { ...base, question_type: 'numeric', correct_answer: '1' },
    ];
    for (const q of others) {
      assert.ok(QuestionInput.safeParse(q).success, q.question_type);
      const refused = QuestionInput.safeParse({ ...q, max_words: 100 });
      assert.ok(!refused.success, q.question_type);
      assert.deepEqual(
        refused.error.issues.map((i) => [i.code, i.message]),
        [['unrecognized_keys', 'max_words is allowed only for essays']],
        q.question_type,
      );
    }
    assert.deepEqual(
      issues({ ...essay, tolerance: 1 }).map((i) => i.message),
      ['tolerance is allowed only for numeric questions'],
    );
  });
});

describe('questions/schemas replies', () => {
  const stored: StoredQuestion = {
    id: 'q',
    client_id: 'c',
    folder_id: null,
    question_text: 'Q?',
    question_type: 'numeric',
    options: [],
    correct_answer: '3',
    tolerance: 0.5,
    max_words: null,
    marks: 1,
    difficulty: 'easy',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };

  it('the public view cannot carry an answer key, the admin view carries it', () => {
    const view = PublicQuestion.parse(stored);
    assert.ok(!('correct_answer' in view) && !('tolerance' in view));
    assert.equal(view.max_words, null);
    assert.deepEqual(AdminQuestion.parse(adminQuestion(stored)), stored);
  });

  it('an essay’s reply says correct_answer null and carries max_words', () => {
    const essay: StoredQuestion = {
      ...stored,
      question_type: 'essay',
      correct_answer: '',
      tolerance: null,
      max_words: 250,
    };
    assert.deepEqual(AdminQuestion.parse(adminQuestion(essay)), { ...essay, correct_answer: null });
    assert.equal(PublicQuestion.parse(essay).max_words, 250);
  });
});

describe('questions/schemas applyChanges', () => {
  const stored: StoredQuestion = {
    id: 'q',
    client_id: 'c',
    folder_id: 'f',
    question_text: 'Q?',
    question_type: 'numeric',
    options: [],
    correct_answer: '3',
    tolerance: 0.5,
    max_words: null,
    marks: 1,
    difficulty: 'easy',
    created_at: '',
    updated_at: '',
  };
  const essay: StoredQuestion = {
    ...stored,
    question_type: 'essay',
    correct_answer: '',
    tolerance: null,
    max_words: 300,
  };

  it('keeps what is not sent, drops tolerance and options that a new type cannot have, and clears nulls', () => {
    assert.deepEqual(applyChanges(stored, { marks: 2 }), {
      question_type: 'numeric',
      question_text: 'Q?',
      options: [],
      correct_answer: '3',
      marks: 2,
      difficulty: 'easy',
      folder_id: 'f',
      tolerance: 0.5,
    });
    const changed = applyChanges(stored, { question_type: 'short_answer', correct_answer: 'x', folder_id: null });
    assert.ok(!('tolerance' in changed) && !('options' in changed));
    assert.equal(changed.folder_id, null);
    assert.ok(QuestionInput.safeParse(changed).success);
    assert.ok(!('tolerance' in applyChanges(stored, { tolerance: null })));
  });

  it('gives back an essay as its author wrote it, and changes or clears its max_words', () => {
    assert.deepEqual(questionAsInput(essay), {
      question_type: 'essay',
      question_text: 'Q?',
      options: [],
      correct_answer: '',
      marks: 1,
      difficulty: 'easy',
      folder_id: 'f',
      max_words: 300,
    });
    assert.ok(!('max_words' in questionAsInput({ ...essay, max_words: null })));
    assert.equal(normalizeQuestion(parse(applyChanges(essay, { max_words: 50 }))).max_words, 50);
    assert.equal(normalizeQuestion(parse(applyChanges(essay, { max_words: null }))).max_words, null);
    assert.equal(normalizeQuestion(parse(applyChanges(essay, { marks: 4 }))).max_words, 300);
  });

  it('makes a question an essay dropping its answer key, options and tolerance, and an essay another type dropping max_words', () => {
    const made = applyChanges(stored, { question_type: 'essay' });
    assert.ok(!('correct_answer' in made) && !('tolerance' in made) && !('options' in made), JSON.stringify(made));
    assert.deepEqual(normalizeQuestion(parse(made)), {
      ...base,
      question_type: 'essay',
      options: [],
      correct_answer: '',
      tolerance: null,
      max_words: null,
    });
    const choice: StoredQuestion = {
      ...stored,
      question_type: 'multiple_choice',
      options: ['a', 'b'],
      correct_answer: 'a',
      tolerance: null,
    };
    assert.ok(QuestionInput.safeParse(applyChanges(choice, { question_type: 'essay' })).success);
    assert.ok(
      !QuestionInput.safeParse(applyChanges(choice, { question_type: 'essay', correct_answer: 'a' })).success,
      'an answer key sent with it is refused',
    );
    const unmade = applyChanges(essay, { question_type: 'short_answer', correct_answer: 'x' });
    assert.ok(!('max_words' in unmade));
    assert.equal(normalizeQuestion(parse(unmade)).max_words, null);
    const noKey = QuestionInput.safeParse(applyChanges(essay, { question_type: 'short_answer' }));
    assert.ok(
      !noKey.success && noKey.error.issues.some((i) => i.path[0] === 'correct_answer'),
      'a new type needs its answer key',
    );
    assert.ok(
      !QuestionInput.safeParse(
        applyChanges(essay, { question_type: 'short_answer', correct_answer: 'x', max_words: 10 }),
      ).success,
    );
  });
});
