import assert from 'node:assert/strict';
import type { FrozenQuestion } from '../../functions/src/exams/documents';
import { correctQuestion, sameKey, withCorrection, type Correction } from '../../functions/src/regrading/correction';

// Pure: a correction of a frozen question, validated as the bank validates a
// question of its type, and a paper with the corrected question in it. No emulator needed.

const frozen = (
  over: Partial<FrozenQuestion> & Pick<FrozenQuestion, 'question_type' | 'correct_answer'>,
): FrozenQuestion => ({
  id: 'q1',
  question_text: 'Which?',
  options: [],
  tolerance: null,
  marks: 2,
  difficulty: 'medium',
  ...over,
});
const choice = frozen({ question_type: 'multiple_choice', options: ['Paris', 'Rome', 'Oslo'], correct_answer: 'Rome' });
const select = frozen({ question_type: 'multiple_select', options: ['2', '3', '4', '5'], correct_answer: '2|4' });
const trueFalse = frozen({ question_type: 'true_false', options: ['True', 'False'], correct_answer: 'False' });
const short = frozen({ question_type: 'short_answer', correct_answer: 'colour' });
const numeric = frozen({ question_type: 'numeric', correct_answer: '3.14', tolerance: 0.01 });
const essay = frozen({ question_type: 'essay', correct_answer: '', marks: 10, max_words: 200 });

/** The corrected question, failing the test when the correction is refused. */
const ok = (question: FrozenQuestion, correction: Correction): FrozenQuestion => {
  const result = correctQuestion(question, correction);
  assert.ok(result.ok, result.ok ? '' : `${result.message} ${JSON.stringify(result.details)}`);
  return result.question;
};
/** Why the correction is refused, failing the test when it is taken. */
const refused = (question: FrozenQuestion, correction: Correction) => {
  const result = correctQuestion(question, correction);
  assert.ok(!result.ok, `taken: ${JSON.stringify(result)}`);
  return result;
};

describe('regrading/correction correctQuestion: what a correction changes', () => {
  it('changes only the key, tolerance and marks: id, text, type, options and difficulty stay as frozen', () => {
    const corrected = ok(choice, { correct_answer: 'Paris', marks: 3 });
    assert.deepEqual(corrected, { ...choice, correct_answer: 'Paris', marks: 3 });
  });

  it('keeps what the correction does not name', () => {
    assert.deepEqual(ok(numeric, { marks: 5 }), { ...numeric, marks: 5 });
    assert.deepEqual(ok(numeric, { correct_answer: '3.1416' }), { ...numeric, correct_answer: '3.1416' });
  });

  it('spells the corrected key as the bank stores it: an option as written, a multiple_select key in option order, True/False capitalized', () => {
    assert.equal(ok(choice, { correct_answer: '  paris ' }).correct_answer, 'Paris');
    assert.equal(ok(select, { correct_answer: '5| 3' }).correct_answer, '3|5');
    assert.equal(ok(trueFalse, { correct_answer: 'true' }).correct_answer, 'True');
    assert.equal(ok(numeric, { correct_answer: ' 2.5 ' }).correct_answer, '2.5');
  });

  it('keeps a frozen question’s max_words and other fields the bank schema does not take (an essay aside, never corrected)', () => {
    const withExtra = { ...short, max_words: null };
    assert.deepEqual(ok(withExtra, { correct_answer: 'color' }), { ...withExtra, correct_answer: 'color' });
  });
});

describe('regrading/correction correctQuestion: tolerance', () => {
  it('sets, changes and clears (null) a numeric question’s tolerance', () => {
    assert.equal(ok(numeric, { tolerance: 0.5 }).tolerance, 0.5);
    assert.equal(ok(frozen({ question_type: 'numeric', correct_answer: '1' }), { tolerance: 0.1 }).tolerance, 0.1);
    assert.equal(ok(numeric, { tolerance: null }).tolerance, null);
  });

  it('refuses a tolerance on a question that is not numeric, naming body.tolerance', () => {
    for (const question of [choice, select, trueFalse, short]) {
      const result = refused(question, { tolerance: 0.1 });
      assert.deepEqual(
        result.details,
        [{ path: 'body.tolerance', message: 'Numeric and calculated questions only' }],
        question.question_type,
      );
    }
  });

  it('takes tolerance null on a question that is not numeric (nothing to clear)', () => {
    assert.equal(ok(short, { tolerance: null, correct_answer: 'color' }).tolerance, null);
  });

  it('refuses a negative tolerance or one past the bank’s limit, naming body.tolerance', () => {
    for (const tolerance of [-0.1, 1e10]) {
      const result = refused(numeric, { tolerance });
      assert.deepEqual(
        result.details.map((d) => d.path),
        ['body.tolerance'],
        String(tolerance),
      );
    }
  });
});

describe('regrading/correction correctQuestion: validated as the bank validates its type', () => {
  it('refuses a multiple_choice key that is not one of the options, naming body.correct_answer', () => {
    const result = refused(choice, { correct_answer: 'Berlin' });
    assert.deepEqual(
      result.details.map((d) => d.path),
      ['body.correct_answer'],
    );
    assert.match(result.message, /not valid: Must be one of the options/);
  });

  it('refuses a multiple_select key naming an option twice or one that does not exist', () => {
    assert.match(refused(select, { correct_answer: '2|2' }).message, /named twice/);
    assert.match(refused(select, { correct_answer: '2|9' }).message, /"9" is not one of the options/);
  });

  it('refuses a true_false key other than True or False', () => {
    assert.deepEqual(
      refused(trueFalse, { correct_answer: 'maybe' }).details.map((d) => d.path),
      ['body.correct_answer'],
    );
  });

  it('refuses a numeric key that is no finite number', () => {
    for (const key of ['pi', '1e400', '1,5', '']) {
      const paths = refused(numeric, { correct_answer: key }).details.map((d) => d.path);
      assert.ok(
        paths.length > 0 && paths.every((path) => path === 'body.correct_answer'),
        `${key}: ${paths.join(', ')}`,
      );
    }
  });

  it('refuses an empty or blank key for a short answer', () => {
    for (const key of ['', '   ']) refused(short, { correct_answer: key });
  });

  it('refuses marks of 0, below 0 or past the bank’s maximum, naming body.marks', () => {
    for (const marks of [0, -1, 1001])
      assert.deepEqual(
        refused(choice, { marks }).details.map((d) => d.path),
        ['body.marks'],
        String(marks),
      );
  });

  it('refuses every correction of an essay: it is graded, not regraded (pointing to the grades endpoint)', () => {
    for (const correction of [{ marks: 5 }, { correct_answer: 'x' }, { tolerance: null }]) {
      const result = refused(essay, correction);
      assert.match(result.message, /POST \/api\/attempts\/\{attemptId\}\/grades/);
      assert.deepEqual(
        result.details.map((d) => d.path),
        ['body.question_id'],
      );
    }
  });

  it('never changes the frozen question it is given', () => {
    const before = structuredClone(choice);
    correctQuestion(choice, { correct_answer: 'Paris', marks: 9 });
    correctQuestion(choice, { correct_answer: 'Berlin' });
    assert.deepEqual(choice, before);
  });
});

describe('regrading/correction sameKey', () => {
  it('is true for the same key, tolerance and marks (a regrade sent again changes nothing)', () => {
    assert.ok(sameKey(choice, { ...choice }));
    assert.ok(sameKey(numeric, ok(numeric, { correct_answer: '3.14', tolerance: 0.01, marks: 2 })));
  });

  it('is false when the key, the tolerance or the marks differ', () => {
    assert.ok(!sameKey(choice, { ...choice, correct_answer: 'Paris' }));
    assert.ok(!sameKey(numeric, { ...numeric, tolerance: 0.02 }));
    assert.ok(!sameKey(choice, { ...choice, marks: 3 }));
  });

  it('takes an absent tolerance for null', () => {
    const { tolerance: _absent, ...without } = short;
    assert.ok(sameKey(short, without as FrozenQuestion));
    assert.ok(!sameKey(numeric, { ...numeric, tolerance: undefined as unknown as null }));
  });

  it('ignores what a correction never changes (text, options)', () => {
    assert.ok(sameKey(choice, { ...choice, question_text: 'Other', options: ['x'] }));
  });
});

describe('regrading/correction withCorrection', () => {
  const questions = [
    frozen({ id: 'a', question_type: 'short_answer', correct_answer: 'x', marks: 1 }),
    frozen({ id: 'b', question_type: 'short_answer', correct_answer: 'y', marks: 2 }),
  ];

  it('puts the corrected question in place of the one with its id, and totals the marks again', () => {
    const corrected = { ...questions[1], correct_answer: 'z', marks: 4 };
    const paper = withCorrection(questions, corrected);
    assert.deepEqual(paper.questions, [questions[0], corrected]);
    assert.equal(paper.total_marks, 5);
  });

  it('leaves a paper without that question as it is (an attempt that did not draw it)', () => {
    const paper = withCorrection(
      questions,
      frozen({ id: 'elsewhere', question_type: 'short_answer', correct_answer: 'q', marks: 9 }),
    );
    assert.deepEqual(paper.questions, questions);
    assert.equal(paper.total_marks, 3);
  });

  it('rounds the total to 4 decimals, and does not change the list it is given', () => {
    const before = structuredClone(questions);
    assert.equal(withCorrection(questions, { ...questions[0], marks: 0.1 }).total_marks, 2.1);
    assert.equal(
      withCorrection(
        [
          { id: 'a', marks: 0.1 },
          { id: 'b', marks: 0.2 },
        ],
        { id: 'b', marks: 0.2 },
      ).total_marks,
      0.3,
    );
    assert.deepEqual(questions, before);
  });
});

describe('regrading/correction correctQuestion: option credits, alternatives, case sensitivity', () => {
  it('sets option_credits on a multiple_select question, validated as the bank does (the key naming the positive ones)', () => {
    const corrected = ok(select, { option_credits: [50, 0, 50, -100] });
    assert.deepEqual([corrected.option_credits, corrected.correct_answer], [[50, 0, 50, -100], '2|4']);
    const result = refused(select, { option_credits: [100, 0, 0, 0] });
    assert.ok(result.details.some((d) => d.path === 'body.correct_answer'));
    assert.ok(refused(select, { option_credits: [50, 50] }).details.some((d) => d.path === 'body.option_credits'));
  });

  it('clears option_credits with null (all or nothing again), leaving the field absent, not undefined', () => {
    const withCredits = { ...select, option_credits: [50, 0, 50, -100] };
    const corrected = ok(withCredits, { option_credits: null });
    assert.ok(!('option_credits' in corrected));
  });

  it('sets and clears alternatives of short_answer and numeric questions, and case_sensitive of short_answer', () => {
    const alt = ok(short, { alternatives: [{ answer: 'color', credit: 100 }], case_sensitive: true });
    assert.deepEqual([alt.alternatives, alt.case_sensitive], [[{ answer: 'color', credit: 100 }], true]);
    const back = ok(alt, { alternatives: null, case_sensitive: false });
    assert.ok(!('alternatives' in back) && !('case_sensitive' in back));
    const num = ok(numeric, { alternatives: [{ answer: '3', credit: 50, tolerance: 0.5 }] });
    assert.deepEqual(num.alternatives, [{ answer: '3', credit: 50, tolerance: 0.5 }]);
    assert.ok(refused(numeric, { alternatives: [{ answer: 'pi', credit: 50 }] }).details.length > 0);
  });

  it('refuses each on a type that cannot have it, naming the field', () => {
    assert.equal(refused(choice, { option_credits: [100, 0, 0] }).details[0].path, 'body.option_credits');
    assert.equal(refused(choice, { alternatives: [] }).details[0].path, 'body.alternatives');
    assert.equal(refused(numeric, { case_sensitive: true }).details[0].path, 'body.case_sensitive');
  });

  it('keeps the frozen question’s title, HTML text and feedback as they are', () => {
    const html = {
      ...short,
      title: 'T',
      text_format: 'html' as const,
      question_text: '<p>Spell <b>colour</b></p>',
      feedback: '<p>British spelling</p>',
    };
    const corrected = ok(html, { alternatives: [{ answer: 'color', credit: 50 }] });
    assert.deepEqual(
      [corrected.title, corrected.text_format, corrected.question_text, corrected.feedback],
      ['T', 'html', '<p>Spell <b>colour</b></p>', '<p>British spelling</p>'],
    );
  });

  it('sameKey sees a change of credits, alternatives or case sensitivity, and none when they are equal', () => {
    const withCredits = { ...select, option_credits: [50, 0, 50, -100] };
    assert.equal(sameKey(select, withCredits), false);
    assert.equal(sameKey(withCredits, { ...withCredits, option_credits: [50, 0, 50, -100] }), true);
    assert.equal(sameKey(short, { ...short, case_sensitive: true }), false);
    assert.equal(sameKey(short, { ...short, alternatives: [{ answer: 'a', credit: 1 }] }), false);
  });
});
