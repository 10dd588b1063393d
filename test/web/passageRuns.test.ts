import assert from 'node:assert/strict';
import type { Schemas } from '../../web/src/api';
import { passageRuns } from '../../web/src/taker/passages';

// Pure: the taker's questions in runs beside their passages (docs/web.md, "Passages").

const q = (id: string, passage_id?: string): Schemas['AttemptQuestion'] => ({
  id,
  question_text: id,
  question_type: 'true_false',
  options: [],
  marks: 1,
  ...(passage_id ? { passage_id } : {}),
});
const P = { id: 'P', question_text: 'Read this' };
const R = { id: 'R', question_text: 'And this' };

describe('web taker/passages passageRuns', () => {
  const cases: Array<[string, Array<Schemas['AttemptQuestion']>, Array<typeof P>, string]> = [
    ['no passage: a run per question', [q('a'), q('b')], [], '-:a -:b'],
    [
      'a passage: its consecutive questions in one run with it',
      [q('a'), q('b', 'P'), q('c', 'P'), q('d')],
      [P],
      '-:a P:b+c -:d',
    ],
    ['two passages one after the other', [q('a', 'P'), q('b', 'R'), q('c', 'R')], [P, R], 'P:a R:b+c'],
    ['a passage the reply does not carry: the question alone', [q('a', 'GONE'), q('b', 'GONE')], [P], '-:a -:b'],
  ];
  for (const [what, questions, passages, expected] of cases)
    it(what, () => {
      const runs = passageRuns(questions, passages);
      assert.equal(
        runs.map((r) => `${r.passage?.id ?? '-'}:${r.questions.map((x) => x.id).join('+')}`).join(' '),
        expected,
      );
    });
  it('a reply without passages (a version frozen before them)', () => {
    assert.equal(passageRuns([q('a', 'P')], undefined)[0].passage, null);
  });
});
