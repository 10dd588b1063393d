// Front door of questionTypes/: the registry of question types, one module per type (its folder), which
// the taker's page, the question form, the bank, the import, the review, grading and regrading ask
// instead of naming a type. What other folders may use; nothing else of this folder is imported from outside.
import { createElement, type ComponentType } from 'react';
import { TYPE_NAMES } from './definitions';
import { calculatedModule } from './calculated/views';
import { descriptionModule } from './description/views';
import { essayModule } from './essay/views';
import { gapFillModule } from './gapFill/views';
import { hotspotModule } from './hotspot/views';
import { hottextModule } from './hottext/views';
import { matchingModule } from './matching/views';
import type { QuestionType, QuestionTypeModule, ReviewProps, TakerInputLoader, TakerInputProps } from './module';
import { multipleChoiceModule } from './multipleChoice/views';
import { multipleSelectModule } from './multipleSelect/views';
import { numericModule } from './numeric/views';
import { orderingModule } from './ordering/views';
import { MarkedReview, StoredAnswerReview } from './review';
import { shortAnswerModule } from './shortAnswer/views';
import { trueFalseModule } from './trueFalse/views';
import { TextLineInput } from './typedAnswer';

export { CODED_VALUES, COLUMN_NOTES, CSV_COLUMNS, REQUIRED_COLUMNS, templateRows } from './csvTemplate';
export { EMPTY_KEY_DRAFT, typeLabel } from './definitions';
export { AttachmentLinks } from './essay/attachedFiles';
export { wordCount } from './essay/wordCount';
export type { AnswerFiles, KeyDraft, QuestionType, QuestionTypeModule } from './module';

const MODULES: { readonly [T in QuestionType]: QuestionTypeModule } = {
  multiple_choice: multipleChoiceModule,
  multiple_select: multipleSelectModule,
  true_false: trueFalseModule,
  short_answer: shortAnswerModule,
  numeric: numericModule,
  essay: essayModule,
  matching: matchingModule,
  ordering: orderingModule,
  gap_fill: gapFillModule,
  hottext: hottextModule,
  calculated: calculatedModule,
  hotspot: hotspotModule,
  description: descriptionModule,
};

/** Every type, in the order the pages list them; the first is a new question's. */
export const QUESTION_TYPES: readonly QuestionTypeModule[] = TYPE_NAMES.map((type) => MODULES[type]);

/** The module of a type the API names. */
export const questionTypeOf = (type: QuestionType): QuestionTypeModule => MODULES[type];

/** The module of a type named by a reply that types it as any text (analytics, an import's report); undefined when unknown. */
export const findQuestionType = (type: string | null | undefined): QuestionTypeModule | undefined =>
  QUESTION_TYPES.find((questionType) => questionType.type === type);

/** Whether a question of this type takes an answer (a description does not); a type this app does not know does. */
export const takesAnswer = (type: string | undefined): boolean => findQuestionType(type)?.takesAnswer ?? true;

/** The types that take no answer: a question of one may be another's passage (its text shown beside it). */
export const PASSAGE_TYPES: readonly QuestionType[] = QUESTION_TYPES.filter((m) => !m.takesAnswer).map((m) => m.type);

/** The types whose answers a person marks: the grading queue's. */
export const TYPES_MARKED_BY_PERSON: readonly QuestionType[] = QUESTION_TYPES.filter((m) => m.markedByPerson).map(
  (m) => m.type,
);

type TakerInput = ComponentType<TakerInputProps>;
const isLoader = (input: TakerInput | TakerInputLoader): input is TakerInputLoader => 'load' in input;

/** The taker inputs loaded so far of the types whose taker code loads only when a test holds them. */
const LOADED = new Map<string, TakerInput>();

/**
 * Loads the taker inputs of these types whose code loads only when a test holds them, awaited with
 * the attempt before its questions are first shown (offline, from the service worker's precache).
 */
export async function loadTakerInputs(types: readonly string[]): Promise<void> {
  const loading = [...new Set(types)].map(async (type) => {
    const input = findQuestionType(type)?.views.TakerInput;
    if (input && isLoader(input) && !LOADED.has(type)) LOADED.set(type, await input.load());
  });
  await Promise.all(loading);
}

/** What stands for an input not loaded yet: never seen, the attempt's page awaiting `loadTakerInputs` first. */
const NotLoaded = () => createElement('p', null, 'Loading…');

/** How a taker answers a question: by its type's input, or, for a type this app does not know, a line of text. */
export function takerPartsOf(type: string): {
  legendNote: string | null;
  textInAnswer: boolean;
  TakerInput: ComponentType<TakerInputProps>;
} {
  const questionType = findQuestionType(type);
  return questionType
    ? {
        legendNote: questionType.legendNote,
        textInAnswer: questionType.textInAnswer,
        TakerInput: isLoader(questionType.views.TakerInput)
          ? (LOADED.get(type) ?? NotLoaded)
          : questionType.views.TakerInput,
      }
    : { legendNote: null, textInAnswer: false, TakerInput: TextLineInput };
}

/**
 * How a released review shows an answer: by its type's view, and whether it is judged right or
 * wrong by a key. An answer with no key was marked by a person, whatever its type; one of a type
 * this app does not know is shown as stored; a question that takes no answer is judged by nothing.
 */
export function reviewOf(
  type: string | undefined,
  item: ReviewProps['item'],
): { keyed: boolean; Review: ComponentType<ReviewProps> } {
  const questionType = findQuestionType(type);
  if (questionType && (questionType.markedByPerson || !questionType.takesAnswer))
    return { keyed: false, Review: questionType.views.Review };
  if (item.correct_answer === null) return { keyed: false, Review: MarkedReview };
  return { keyed: true, Review: questionType?.views.Review ?? StoredAnswerReview };
}

/** The options an answer chose, for their feedback in the review; an answer of a type this app does not know is one. */
export const chosenOptions = (type: string | undefined, answer: string): string[] =>
  findQuestionType(type)?.chosenOptions(answer) ?? [answer];
