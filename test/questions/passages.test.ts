import assert from 'node:assert/strict';
import { isPassageType, namedPassageRefusal, passageRefusal } from '../../functions/src/questions/passages';
import { applyChanges } from '../../functions/src/questions/schemas';
import type { StoredQuestion } from '../../functions/src/questions/documents';
import { QuestionInput } from '../../functions/src/questionTypes';

// Pure: which question may be a passage, what naming one refuses, and when a passage may stop
// being one (docs/question-types.md, "Passages").

describe('questions/passages', () => {
  describe('isPassageType: a question that asks nothing is a passage', () => {
    const cases: Array<[string, boolean]> = [
      ['description', true],
      ['multiple_choice', false],
      ['essay', false],
      ['gap_fill', false],
    ];
    for (const [type, expected] of cases) it(`${type}: ${expected}`, () => assert.equal(isPassageType(type), expected));
  });

  describe('passageRefusal: the passage named, as the organization holds it', () => {
    const cases: Array<[string, Parameters<typeof passageRefusal>[0], string | undefined, RegExp | undefined]> = [
      ['a description of the organization', { id: 'p1', question_type: 'description' }, 'q1', undefined],
      [
        'a description, on a new question (no id yet)',
        { id: 'p1', question_type: 'description' },
        undefined,
        undefined,
      ],
      ['none by that id (missing, or another organization’s)', undefined, 'q1', /no question of this organization/],
      [
        'a question that asks something',
        { id: 'p1', question_type: 'multiple_choice' },
        'q1',
        /description.*multiple_choice/,
      ],
      ['the question itself', { id: 'q1', question_type: 'description' }, 'q1', /its own passage/],
    ];
    for (const [what, passage, questionId, refusal] of cases)
      it(`${what}: ${refusal ? 'refused' : 'taken'}`, () => {
        const found = passageRefusal(passage, questionId);
        if (refusal) assert.match(found ?? '', refusal);
        else assert.equal(found, undefined);
      });
  });

  describe('namedPassageRefusal: a passage other questions name is neither deleted nor retyped', () => {
    it('no question names it: nothing refused', () => {
      assert.equal(namedPassageRefusal([], 'delete'), undefined);
      assert.equal(namedPassageRefusal([], 'retype'), undefined);
    });
    it('named: refused, naming the questions (at most three) and how to detach them', () => {
      assert.match(namedPassageRefusal(['a', 'b'], 'delete')!, /\(a, b\).*deleted.*passage_id null/);
      assert.match(namedPassageRefusal(['a', 'b', 'c', 'd'], 'retype')!, /\(a, b, c, …\).*asks something/);
    });
  });

  describe('the schema', () => {
    const base = { question_text: 'Read this.', difficulty: 'easy' } as const;
    it('any question that asks something may name a passage; null clears it', () => {
      const ok = QuestionInput.safeParse({
        ...base,
        question_type: 'true_false',
        correct_answer: 'True',
        marks: 1,
        passage_id: 'p1',
      });
      assert.ok(ok.success);
      assert.equal(ok.data.passage_id, 'p1');
    });
    it('a description names no passage: 400 at passage_id', () => {
      const refused = QuestionInput.safeParse({ ...base, question_type: 'description', passage_id: 'p1' });
      assert.ok(!refused.success);
      assert.deepEqual(refused.error.issues[0].path, ['passage_id']);
      assert.match(refused.error.issues[0].message, /itself a passage/);
      assert.ok(QuestionInput.safeParse({ ...base, question_type: 'description', passage_id: null }).success);
    });
  });

  describe('applyChanges', () => {
    const stored: StoredQuestion = {
      id: 'q1',
      client_id: 'c1',
      folder_id: null,
      question_text: 'Is it?',
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: 'True',
      tolerance: null,
      max_words: null,
      marks: 1,
      difficulty: 'easy',
      passage_id: 'p1',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    it('keeps the passage through an edit of other fields, and clears it on null', () => {
      assert.equal(applyChanges(stored, { marks: 2 }).passage_id, 'p1');
      assert.equal(applyChanges(stored, { passage_id: null }).passage_id, undefined);
    });
    it('a question made a description drops its passage (it is one now) unless one is sent', () => {
      assert.equal(applyChanges(stored, { question_type: 'description' }).passage_id, undefined);
      assert.equal(applyChanges(stored, { question_type: 'description', passage_id: 'p2' }).passage_id, 'p2');
    });
  });
});
