import assert from 'node:assert/strict';
import { QuestionInput } from '../../functions/src/questionTypes';
import { normalizeQuestion, questionAsInput } from '../../functions/src/questions/schemas';
import type { StoredQuestion } from '../../functions/src/questions/documents';

// Pure: in an html question the options, stems and choices are HTML, sanitized as the text is,
// so an option that is only an image stays an image; the key names them as stored.

const FLAG = (country: string, n: number) =>
  `<img src="/api/media/org-1.0b5e3c1a-1111-4c4c-8888-00000000000${n}" alt="flag">${country === '' ? '' : ` ${country}`}`;
const flags = [FLAG('', 1), FLAG('', 2), FLAG('', 3), FLAG('', 4)];
const stored = (n: number) => `<img src="/api/media/org-1.0b5e3c1a-1111-4c4c-8888-00000000000${n}" alt="flag" />`;

const choice = (over: Record<string, unknown>) => ({
  question_type: 'multiple_choice',
  question_text: '<p>Which is the flag of France?</p>',
  text_format: 'html',
  options: flags,
  correct_answer: flags[1],
  marks: 1,
  difficulty: 'easy',
  ...over,
});

const parsed = (input: unknown) => {
  const result = QuestionInput.safeParse(input);
  assert.ok(result.success, result.error?.message);
  return normalizeQuestion(result.data);
};
const issues = (input: unknown) => {
  const result = QuestionInput.safeParse(input);
  assert.equal(result.success, false);
  return result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('questionTypes: HTML options (text_format html)', () => {
  it('four image options with the same alt text are four options, distinct by their source, the key one of them', () => {
    const q = parsed(choice({}));
    assert.deepEqual(q.options, [stored(1), stored(2), stored(3), stored(4)]);
    assert.equal(q.correct_answer, stored(2));
  });

  it('the key may be written as the option was sent or as it is stored', () => {
    assert.equal(parsed(choice({ correct_answer: stored(2) })).correct_answer, stored(2));
  });

  it('two options alike once sanitized are refused as duplicates', () => {
    assert.deepEqual(issues(choice({ options: [flags[0], `${flags[0]}<script>x()</script>`] })).slice(0, 1), [
      `options.1: Duplicates option 1 ("${stored(1)}")`,
    ]);
  });

  it('an option that shows nothing once sanitized is refused, naming it', () => {
    assert.ok(
      issues(choice({ options: [flags[0], '<script>x()</script>'], correct_answer: flags[0] })).includes(
        'options.1: Shows nothing once sanitized (no text, image or sound is left)',
      ),
    );
  });

  it('text options are HTML: "x < 3" is stored escaped and named by the key either way', () => {
    const q = parsed(choice({ options: ['x < 3', 'x > 3'], correct_answer: 'x < 3' }));
    assert.deepEqual(q.options, ['x &lt; 3', 'x &gt; 3']);
    assert.equal(q.correct_answer, 'x &lt; 3');
  });

  it('TeX in an option becomes MathML; a "|" (which joins options in an answer) is stored as &#124;', () => {
    const q = parsed(choice({ options: ['\\(\\vert x \\vert\\)', '\\(x^2\\)'], correct_answer: '\\(x^2\\)' }));
    assert.match(q.options[0], /^<math><semantics>.*&#124;.*<\/math>$/);
    assert.ok(!q.options[0].includes('|'));
    assert.match(q.correct_answer, /^<math><semantics><msup><mi>x<\/mi><mn>2<\/mn><\/msup>/);
  });

  it('a multiple_select key names its HTML options, joined by "|"', () => {
    const q = parsed(choice({ question_type: 'multiple_select', correct_answer: `${flags[0]}|${flags[2]}` }));
    assert.equal(q.correct_answer, `${stored(1)}|${stored(3)}`);
  });

  it('a plain question keeps its options as written (no HTML)', () => {
    const q = parsed(
      choice({ text_format: 'plain', question_text: 'Which?', options: ['x < 3', 'b'], correct_answer: 'x < 3' }),
    );
    assert.deepEqual(q.options, ['x < 3', 'b']);
  });

  it('matching: stems, options and matches are HTML', () => {
    const q = parsed({
      question_type: 'matching',
      question_text: '<p>Match the flags.</p>',
      text_format: 'html',
      stems: ['France', '<b>Italy</b>'],
      options: [flags[0], flags[1]],
      matches: [flags[0], stored(2)],
      marks: 2,
      difficulty: 'easy',
    });
    assert.deepEqual(q.stems, ['France', '<b>Italy</b>']);
    assert.deepEqual(q.matches, [stored(1), stored(2)]);
    assert.equal(q.correct_answer, JSON.stringify([stored(1), stored(2)]));
  });

  it('ordering: the items are HTML, the key their order as stored', () => {
    const q = parsed({
      question_type: 'ordering',
      question_text: '<p>Order them.</p>',
      text_format: 'html',
      options: ['\\(1\\)', '<i>two</i>'],
      marks: 1,
      difficulty: 'easy',
    });
    assert.match(q.options[0], /^<math>/);
    assert.equal(q.correct_answer, JSON.stringify(q.options));
  });

  it('gap_fill: a drop-down’s choices and the drag chips are HTML, their answers named as stored; typed answers stay text', () => {
    const q = parsed({
      question_type: 'gap_fill',
      question_text: '<p>[[1]] [[2]] [[3]]</p>',
      text_format: 'html',
      gaps: [
        { kind: 'select', options: ['a < b', 'b'], answers: [{ answer: 'a < b', credit: 100 }] },
        { kind: 'drag', answers: [{ answer: flags[0], credit: 100 }] },
        { kind: 'text', answers: [{ answer: 'a < b', credit: 100 }] },
      ],
      drag_options: [flags[0], flags[1]],
      marks: 3,
      difficulty: 'easy',
    });
    assert.deepEqual(q.gaps![0].options, ['a &lt; b', 'b']);
    assert.equal(q.gaps![0].answers[0].answer, 'a &lt; b');
    assert.equal(q.gaps![1].answers[0].answer, stored(1));
    assert.equal(q.gaps![2].answers[0].answer, 'a < b');
    assert.deepEqual(q.drag_options, [stored(1), stored(2)]);
  });

  it('a stored question sent back through the schema (an edit, a regrade) is stored the same', () => {
    const first = parsed(choice({ options: ['x < 3', '\\(x^2\\)', flags[2]], correct_answer: '\\(x^2\\)' }));
    const again = parsed(questionAsInput({ ...first, folder_id: null } as unknown as StoredQuestion));
    assert.deepEqual(again, first);
  });
});
