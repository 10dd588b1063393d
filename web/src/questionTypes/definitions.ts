import type { QuestionType, QuestionTypeDefinition } from './module';
import { essay } from './essay/definition';
import { multipleChoice } from './multipleChoice/definition';
import { multipleSelect } from './multipleSelect/definition';
import { numeric } from './numeric/definition';
import { shortAnswer } from './shortAnswer/definition';
import { trueFalse } from './trueFalse/definition';

// Pure: every type's definition, loadable without React or a browser (the CSV template, node tests).
// Keyed by the API's union: a type the service adds that is missing here is a type error.

/** The definitions in the order the pages list the types (the first is a new question's). */
export const DEFINITIONS: { readonly [T in QuestionType]: QuestionTypeDefinition } = {
  multiple_choice: multipleChoice,
  multiple_select: multipleSelect,
  true_false: trueFalse,
  short_answer: shortAnswer,
  numeric,
  essay,
};

/** The API's names of the types, in the pages' order. */
export const TYPE_NAMES = Object.keys(DEFINITIONS) as QuestionType[];
