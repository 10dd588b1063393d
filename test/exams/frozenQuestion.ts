import type { FrozenQuestion } from '../../functions/src/exams/documents';

/** A question as a version freezes it: a true/false of 1 mark, its id in its text, `over` on top. */
export const frozenQuestion = (id: string, over: Partial<FrozenQuestion> = {}): FrozenQuestion => ({
  id,
  question_text: `Text of ${id}`,
  question_type: 'true_false',
  options: ['True', 'False'],
  correct_answer: 'True',
  tolerance: null,
  marks: 1,
  difficulty: 'easy',
  ...over,
});
