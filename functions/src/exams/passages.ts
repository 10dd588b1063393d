import { isPassageType } from '../questions';
import type { FrozenPassage, FrozenQuestion } from './documents';

// Pure: the passages a version freezes beside its questions. A question names its passage (a
// description of the bank) by passage_id; the version keeps each named passage once, as it stood
// at the publish, so an edit of the passage later changes no sitting, and a taker's read of the
// version has it without another read.

/** The passages `questions` name, each once, in the order they are first named. */
export const namedPassageIds = (questions: ReadonlyArray<{ passage_id?: string }>): string[] => [
  ...new Set(questions.flatMap((q) => (q.passage_id ? [q.passage_id] : []))),
];

/** The passage as a version keeps it (what a taker is shown), or undefined when the bank's question by that id is none or no passage. */
export function frozenPassage(question: FrozenQuestion | undefined): FrozenPassage | undefined {
  if (!question || !isPassageType(question.question_type)) return undefined;
  return {
    id: question.id,
    question_text: question.question_text,
    ...(question.text_format === 'html' ? { text_format: 'html' as const } : {}),
  };
}
