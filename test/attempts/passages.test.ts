import assert from 'node:assert/strict';
import { orderForAttempt, passageBlocks } from '../../functions/src/attempts/shuffle';
import { shuffled } from '../../functions/src/shared/shuffle';
import { questionOrder, testDetails, type VersionForAttempt } from '../../functions/src/attempts/rules';
import { frozenQuestion } from '../exams/frozenQuestion';

// Pure: an attempt's questions that share a passage stay together, shuffled or not, and the
// passage reaches the taker once (docs/question-types.md, "Passages").

type Q = { id: string; options: string[]; passage_id?: string };
const q = (id: string, passage_id?: string): Q => ({ id, options: [], ...(passage_id ? { passage_id } : {}) });
const ids = (blocks: Q[][]) => blocks.map((b) => b.map((x) => x.id).join('+')).join(' ');

describe('attempts/shuffle passageBlocks', () => {
  const cases: Array<[string, Q[], string]> = [
    ['no passage: one block per question', [q('a'), q('b'), q('c')], 'a b c'],
    ['a passage: its questions in one block where the first stands', [q('a', 'P'), q('b'), q('c', 'P')], 'a+c b'],
    [
      'two passages and loose questions',
      [q('a'), q('b', 'P'), q('c', 'R'), q('d', 'P'), q('e'), q('f', 'R')],
      'a b+d c+f e',
    ],
    ['nothing', [], ''],
  ];
  for (const [what, questions, expected] of cases)
    it(what, () => assert.equal(ids(passageBlocks(questions)), expected));
});

describe('attempts/shuffle orderForAttempt with passages', () => {
  const loose = Array.from({ length: 12 }, (_, i) => q(`q${i}`));

  it('with no passage, the order is the one questions had before passages (blocks of one shuffle alike)', () => {
    // The same seeds, the same orders: an attempt started before passages shows what it showed.
    for (const seed of ['s1', 's2', 's3']) {
      const before = shuffled(loose, `questions:${seed}`).map((x) => x.id);
      assert.deepEqual(
        orderForAttempt(seed, loose).map((x) => x.id),
        before,
      );
    }
  });

  it('questions sharing a passage stand together, in their authored order, for every seed', () => {
    const questions = [...loose, q('p1', 'P'), q('p2', 'P'), q('p3', 'P')];
    const authored = [
      ...loose.slice(0, 3),
      questions[12],
      ...loose.slice(3, 8),
      questions[13],
      ...loose.slice(8),
      questions[14],
    ];
    for (let seed = 0; seed < 50; seed++) {
      const order = orderForAttempt(`seed-${seed}`, authored).map((x) => x.id);
      const at = order.indexOf('p1');
      assert.deepEqual(order.slice(at, at + 3), ['p1', 'p2', 'p3'], `seed-${seed}: ${order.join(',')}`);
    }
  });
});

describe('attempts/rules: the taker is given each passage once', () => {
  const frozen = frozenQuestion;
  const version = (shuffle: 0 | 1, passages: VersionForAttempt['passages']): VersionForAttempt => ({
    version: 1,
    test_id: 't1',
    test: {
      test_name: 'T',
      timer: 10,
      shuffle,
      allow_review: 0,
      negative_marking: 0,
      description: null,
      max_attempts: null,
      negative_mark_ratio: 0,
      question_ids: [],
    },
    questions: [
      frozen('a', { passage_id: 'P' }),
      frozen('b'),
      frozen('c', { passage_id: 'P' }),
      frozen('d', { passage_id: 'GONE' }),
    ],
    total_marks: 4,
    passages,
  });
  const passage = { id: 'P', question_text: '<p>Once upon a time</p>', text_format: 'html' as const };

  it('the passages named, once, and each question its passage_id (one not frozen is not named)', () => {
    const details = testDetails('attempt-1', version(0, [passage]));
    assert.deepEqual(details.passages, [passage]);
    assert.deepEqual(
      details.questions.map((x) => [x.id, x.passage_id ?? null]),
      [
        ['a', 'P'],
        ['c', 'P'],
        ['b', null],
        ['d', null],
      ],
    );
  });

  it('a version frozen before passages: none, and the questions as they were', () => {
    const details = testDetails('attempt-1', version(0, undefined));
    assert.deepEqual(details.passages, []);
    assert.ok(details.questions.every((x) => x.passage_id === undefined));
  });

  it('shuffled, the order stored at the start is the one shown, the passage’s questions together', () => {
    for (const seed of ['x', 'y', 'z', 'w']) {
      const paper = version(1, [passage]);
      const shown = testDetails(seed, paper).questions.map((x) => x.id);
      assert.deepEqual(questionOrder(seed, paper), shown);
      const at = shown.indexOf('a');
      assert.equal(shown[at + 1], 'c');
    }
  });
});
