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
  withoutExtras,
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
      ['tolerance is allowed only for numeric and calculated questions'],
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

describe('questions/schemas optional fields (title, HTML, feedback, credits, alternatives, case)', () => {
  const choice = { ...base, question_type: 'multiple_choice', options: ['A', 'B', 'C'], correct_answer: 'A' } as const;
  const select = {
    ...base,
    question_type: 'multiple_select',
    options: ['A', 'B', 'C'],
    correct_answer: 'A|B',
  } as const;
  const short = { ...base, question_type: 'short_answer', correct_answer: 'colour' } as const;
  const numeric = { ...base, question_type: 'numeric', correct_answer: '3.14', tolerance: 0.01 } as const;
  const messages = (body: unknown): Array<{ path: string; message: string }> => {
    const result = QuestionInput.safeParse(body);
    assert.ok(!result.success, `${JSON.stringify(body)} should be refused`);
    return result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };
  const refusedAt = (body: unknown, path: string, message?: RegExp) => {
    const found = messages(body);
    const at = found.find((m) => m.path === path || (path === '' && m.path === ''));
    assert.ok(at, `${path}: ${JSON.stringify(found)}`);
    if (message) assert.match(at.message, message);
  };

  it('stores nothing new for a question without them: the normalized fields are exactly the old ones', () => {
    assert.deepEqual(Object.keys(normalizeQuestion(parse(choice))).sort(), [
      'correct_answer',
      'difficulty',
      'marks',
      'max_words',
      'options',
      'question_text',
      'question_type',
      'tolerance',
    ]);
  });

  it('title: trimmed, at most 255 characters, "" or null is none; a number is refused by name', () => {
    assert.equal(normalizeQuestion(parse({ ...choice, title: '  Capitals  ' })).title, 'Capitals');
    assert.ok(!('title' in normalizeQuestion(parse({ ...choice, title: '  ' }))));
    assert.ok(!('title' in normalizeQuestion(parse({ ...choice, title: null }))));
    refusedAt({ ...choice, title: 'x'.repeat(256) }, 'title');
    refusedAt({ ...choice, title: 5 }, 'title', /string/);
  });

  it('text_format: plain (stored as nothing) or html; anything else is refused by name', () => {
    assert.ok(!('text_format' in normalizeQuestion(parse({ ...choice, text_format: 'plain' }))));
    assert.equal(normalizeQuestion(parse({ ...choice, text_format: 'html' })).text_format, 'html');
    refusedAt({ ...choice, text_format: 'markdown' }, 'text_format');
  });

  it('html question_text is stored sanitized, up to 20,000 characters; plain text stays at 2,000 and unsanitized', () => {
    const q = normalizeQuestion(
      parse({
        ...choice,
        text_format: 'html',
        question_text: '<p onclick="x()">Pick <b>A</b></p><script>bad()</script>',
      }),
    );
    assert.equal(q.question_text, '<p>Pick <b>A</b></p>');
    const plain = normalizeQuestion(parse({ ...choice, question_text: '<script>shown as text</script>' }));
    assert.equal(plain.question_text, '<script>shown as text</script>');
    refusedAt({ ...choice, question_text: 'x'.repeat(2001) }, 'question_text', /2000/);
    assert.ok(QuestionInput.safeParse({ ...choice, text_format: 'html', question_text: 'x'.repeat(20_000) }).success);
    refusedAt({ ...choice, text_format: 'html', question_text: 'x'.repeat(20_001) }, 'question_text', /20000/);
  });

  it('html that shows nothing once sanitized, or still refers to @@PLUGINFILE@@, is refused', () => {
    refusedAt({ ...choice, text_format: 'html', question_text: '<script>x()</script>' }, 'question_text', /nothing/);
    refusedAt(
      { ...choice, text_format: 'html', question_text: '<p>See <img src="@@PLUGINFILE@@/map.png"></p>' },
      'question_text',
      /@@PLUGINFILE@@\/map\.png/,
    );
  });

  it('feedback: every type, at most 5,000, sanitized when html; a wrong type is refused by name', () => {
    for (const body of [choice, select, short, numeric, { ...base, question_type: 'essay' }]) {
      assert.equal(normalizeQuestion(parse({ ...body, feedback: ' Well done ' })).feedback, 'Well done');
    }
    assert.equal(
      normalizeQuestion(parse({ ...choice, text_format: 'html', feedback: '<p>ok<img src=x onerror=alert(1)></p>' }))
        .feedback,
      '<p>ok</p>',
    );
    refusedAt({ ...choice, feedback: 'x'.repeat(5001) }, 'feedback', /5000/);
    refusedAt({ ...choice, feedback: ['a'] }, 'feedback', /string/);
  });

  it('option_feedback: one per option ("" for none), each at most 1,000; only for types with options', () => {
    const q = normalizeQuestion(parse({ ...choice, option_feedback: ['Yes', '', 'No'] }));
    assert.deepEqual(q.option_feedback, ['Yes', '', 'No']);
    assert.ok(!('option_feedback' in normalizeQuestion(parse({ ...choice, option_feedback: ['', '', ''] }))));
    const tf = normalizeQuestion(
      parse({ ...base, question_type: 'true_false', correct_answer: 'true', option_feedback: ['Right', 'Wrong'] }),
    );
    assert.deepEqual(tf.option_feedback, ['Right', 'Wrong']);
    refusedAt({ ...choice, option_feedback: ['a', 'b'] }, 'option_feedback', /one entry per option \(3\)/);
    refusedAt({ ...choice, option_feedback: ['a', 'b', 'x'.repeat(1001)] }, 'option_feedback.2', /1000/);
    refusedAt({ ...choice, option_feedback: 'a|b|c' }, 'option_feedback', /array/);
    refusedAt({ ...short, option_feedback: ['a'] }, '', /option_feedback is allowed only for questions with options/);
  });

  it('option_credits: multiple_select only, one per option, −100..100, up to 5 decimals, one positive at least', () => {
    const q = normalizeQuestion(parse({ ...select, option_credits: [50, 50, -33.33333] }));
    assert.deepEqual(q.option_credits, [50, 50, -33.33333]);
    refusedAt({ ...select, option_credits: [50, 50] }, 'option_credits', /one credit per option \(3\)/);
    refusedAt({ ...select, option_credits: [50, 50, 101] }, 'option_credits.2');
    refusedAt({ ...select, option_credits: [50, 50, -101] }, 'option_credits.2');
    refusedAt({ ...select, option_credits: [50, 50, 0.123456] }, 'option_credits.2', /5 decimals/);
    refusedAt({ ...select, correct_answer: 'A', option_credits: [-10, 0, -50] }, 'option_credits', /positive credit/);
    refusedAt({ ...select, option_credits: ['50', 50, 0] }, 'option_credits.0', /number/);
    refusedAt({ ...choice, option_credits: [100, 0, 0] }, '', /option_credits is allowed only for multiple_select/);
  });

  it('option_credits: correct_answer must name exactly the options with a positive credit', () => {
    refusedAt(
      { ...select, option_credits: [100, 0, 0] },
      'correct_answer',
      /exactly the options with a positive credit: "A"/,
    );
    assert.ok(QuestionInput.safeParse({ ...select, correct_answer: 'b|a', option_credits: [50, 50, -100] }).success);
  });

  it('alternatives: short_answer and numeric only, at most 20, credit 0..100, tolerance numeric only', () => {
    const s = normalizeQuestion(parse({ ...short, alternatives: [{ answer: ' color ', credit: 100 }] }));
    assert.deepEqual(s.alternatives, [{ answer: 'color', credit: 100 }]);
    const n = normalizeQuestion(
      parse({
        ...numeric,
        alternatives: [
          { answer: '3', credit: 50, tolerance: 0.2 },
          { answer: '3.1', credit: 25, tolerance: 0 },
        ],
      }),
    );
    assert.deepEqual(n.alternatives, [
      { answer: '3', credit: 50, tolerance: 0.2 },
      { answer: '3.1', credit: 25 },
    ]);
    refusedAt({ ...short, alternatives: [{ answer: 'c', credit: 101 }] }, 'alternatives.0.credit');
    refusedAt({ ...short, alternatives: [{ answer: 'c', credit: -1 }] }, 'alternatives.0.credit');
    refusedAt({ ...short, alternatives: [{ answer: '', credit: 50 }] }, 'alternatives.0.answer');
    refusedAt(
      { ...short, alternatives: [{ answer: 'c', credit: 50, tolerance: 1 }] },
      'alternatives.0.tolerance',
      /numeric/,
    );
    refusedAt({ ...numeric, alternatives: [{ answer: 'pi', credit: 50 }] }, 'alternatives.0.answer', /number/);
    refusedAt({ ...short, alternatives: [{ answer: 'c', credit: 5, extra: 1 }] }, 'alternatives.0');
    refusedAt(
      { ...short, alternatives: Array.from({ length: 21 }, (_, i) => ({ answer: `a${i}`, credit: 1 })) },
      'alternatives',
    );
    refusedAt({ ...short, alternatives: 'color:100' }, 'alternatives', /array/);
    refusedAt({ ...choice, alternatives: [] }, '', /alternatives is allowed only for short_answer and numeric/);
  });

  it('case_sensitive: short_answer only, a boolean, stored only when true', () => {
    assert.equal(normalizeQuestion(parse({ ...short, case_sensitive: true })).case_sensitive, true);
    assert.ok(!('case_sensitive' in normalizeQuestion(parse({ ...short, case_sensitive: false }))));
    refusedAt({ ...short, case_sensitive: 'yes' }, 'case_sensitive', /boolean/);
    refusedAt({ ...numeric, case_sensitive: true }, '', /case_sensitive is allowed only for short_answer/);
  });

  it('the public view carries title and text_format, never feedback, credits, alternatives or case sensitivity', () => {
    const stored: StoredQuestion = {
      id: 'q',
      client_id: 'c',
      folder_id: null,
      created_at: '',
      updated_at: '',
      ...normalizeQuestion(
        parse({
          ...select,
          title: 'T',
          text_format: 'html',
          feedback: 'F',
          option_feedback: ['a', 'b', 'c'],
          option_credits: [50, 50, -100],
        }),
      ),
    };
    const view = PublicQuestion.parse(stored) as Record<string, unknown>;
    assert.deepEqual([view.title, view.text_format], ['T', 'html']);
    for (const field of [
      'feedback',
      'option_feedback',
      'option_credits',
      'alternatives',
      'case_sensitive',
      'correct_answer',
    ])
      assert.ok(!(field in view), field);
    assert.deepEqual(AdminQuestion.parse(adminQuestion(stored)), stored);
  });

  it('questionAsInput and applyChanges keep the fields across a PATCH, clear them with null, and drop what a new type cannot have', () => {
    const stored: StoredQuestion = {
      id: 'q',
      client_id: 'c',
      folder_id: null,
      created_at: '',
      updated_at: '',
      ...normalizeQuestion(
        parse({ ...select, title: 'T', option_feedback: ['a', 'b', 'c'], option_credits: [50, 50, -100] }),
      ),
    };
    const kept = normalizeQuestion(parse(applyChanges(stored, { marks: 3 })));
    assert.deepEqual([kept.title, kept.option_credits, kept.option_feedback], ['T', [50, 50, -100], ['a', 'b', 'c']]);
    const cleared = normalizeQuestion(parse(applyChanges(stored, { title: null, option_credits: null })));
    assert.ok(!('title' in cleared) && !('option_credits' in cleared));
    const asChoice = applyChanges(stored, { question_type: 'multiple_choice', correct_answer: 'A' });
    assert.ok(!('option_credits' in asChoice));
    assert.deepEqual(asChoice.option_feedback, ['a', 'b', 'c']);
    assert.ok(QuestionInput.safeParse(asChoice).success);
    const asTrueFalse = applyChanges(stored, { question_type: 'true_false', correct_answer: 'true' });
    assert.ok(!('option_feedback' in asTrueFalse) && QuestionInput.safeParse(asTrueFalse).success);
    assert.equal(questionAsInput(stored).title, 'T');
    assert.ok(!('title' in withoutExtras(stored)));
  });
});
