import { keyAsCorrectAnswer, oneAnswer, WRONG } from '../answers';
import type { QuestionTypeModule } from '../module';
import { EssayInput, essayExtras, normalizeEssay } from './schema';

// Graded by a person. An answered essay earns the marks its grade gives (0 to its marks, never negative)
// and is `pending` until graded; an unanswered one earns 0 and needs no grade. It has no key: nothing to
// compare an answer with, nothing to regrade.

/** Words as an essay's max_words counts them: runs of characters between white space. */
export const wordCount = (text: string): number => text.split(/\s+/u).filter((word) => word.length > 0).length;

export const essay: QuestionTypeModule<'essay', typeof EssayInput> = {
  name: 'essay',
  input: EssayInput,
  options: 'none',
  extras: ['attachments', 'attachments_required'],
  ownFields: ['max_words'],
  numericKey: false,
  normalize: normalizeEssay,
  normalizeExtras: essayExtras,
  derivesKey: false,
  inputWithKey: keyAsCorrectAnswer,
  marking: 'person',
  // Never compared with a key: scoring takes its grade.
  mark: () => WRONG,
  // Its length is the request's (10,000 characters); its words are its own.
  answerProblem: (answer, question) => {
    const limit = question.max_words ?? null;
    const words = wordCount(answer);
    return limit !== null && words > limit
      ? `This essay takes at most ${limit} words; the answer has ${words}`
      : undefined;
  },
  answerParts: oneAnswer,
  partLabels: () => null,
  partOutcomes: () => null,
  shownKey: () => null,
  // A taker must know how many files it may attach (and must), before it tries.
  takerView: (question) => ({
    options: [...question.options],
    max_words: question.max_words ?? null,
    ...(question.attachments
      ? { attachments: question.attachments, attachments_required: question.attachments_required ?? 0 }
      : {}),
  }),
  htmlOptions: null,
  keyFields: ['marks'],
  regradeRefusal: {
    message:
      'An essay has no key: it is graded by a person, and its grades are changed with POST /api/attempts/{attemptId}/grades',
    detail: 'An essay',
  },
};
