import assert from 'node:assert/strict';
import type { KeyedQuestion, QuestionTypeModule } from '../../functions/src/questionTypes';

// The table every type's marking test is: a question, an answer, what it earns.

/** What an answer earns: full marks (1), a share, wrong, or a share with a wrong share (a type with parts). */
export type Earned = number | 'wrong' | { share: number; wrong?: number };

export type MarkingCase = [title: string, question: Partial<KeyedQuestion>, answer: string, earned: Earned];

/** Each case's marking by `type`, on a question with `key` unless the case says otherwise. */
export function assertMarking(type: QuestionTypeModule, key: Partial<KeyedQuestion>, cases: MarkingCase[]): void {
  for (const [title, over, answer, earned] of cases) {
    it(title, () => {
      const question: KeyedQuestion = {
        question_type: type.name,
        options: [],
        correct_answer: '',
        tolerance: null,
        marks: 2,
        ...key,
        ...over,
      };
      const marking = type.mark(question, answer, 'attempt-1');
      const expected =
        earned === 'wrong' ? { share: 0, wrong: 1 } : typeof earned === 'number' ? { share: earned } : earned;
      assert.deepEqual(marking, expected, `${title}: ${answer}`);
    });
  }
}
