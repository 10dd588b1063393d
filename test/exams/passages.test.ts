import assert from 'node:assert/strict';
import { frozenPassage, namedPassageIds } from '../../functions/src/exams/passages';
import { frozenQuestion as question } from './frozenQuestion';

// Pure: the passages a version freezes beside its questions (docs/question-types.md, "Passages").

describe('exams/passages', () => {
  it('namedPassageIds: each passage once, in the order first named; questions with none name none', () => {
    const cases: Array<[Array<{ passage_id?: string }>, string[]]> = [
      [[], []],
      [[{}, {}], []],
      [
        [{ passage_id: 'b' }, {}, { passage_id: 'a' }, { passage_id: 'b' }],
        ['b', 'a'],
      ],
    ];
    for (const [questions, ids] of cases) assert.deepEqual(namedPassageIds(questions), ids);
  });

  describe('frozenPassage', () => {
    it('a description: its id and text, and its format when HTML (no title: a taker never sees one)', () => {
      const plain = question('p1', { question_type: 'description', options: [], correct_answer: '', marks: 0 });
      assert.deepEqual(frozenPassage(plain), { id: 'p1', question_text: 'Text of p1' });
      const html = { ...plain, question_text: '<p>Read</p>', text_format: 'html' as const, title: 'Secret name' };
      assert.deepEqual(frozenPassage(html), { id: 'p1', question_text: '<p>Read</p>', text_format: 'html' });
    });
    it('gone, or a question that asks something: no passage', () => {
      assert.equal(frozenPassage(undefined), undefined);
      assert.equal(frozenPassage(question('q1')), undefined);
    });
  });
});
