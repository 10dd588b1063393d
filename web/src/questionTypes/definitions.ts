import type { KeyDraft, QuestionType, QuestionTypeDefinition } from './module';
import { calculated } from './calculated/definition';
import { description } from './description/definition';
import { essay } from './essay/definition';
import { gapFill } from './gapFill/definition';
import { hotspot } from './hotspot/definition';
import { hottext } from './hottext/definition';
import { matching } from './matching/definition';
import { multipleChoice } from './multipleChoice/definition';
import { multipleSelect } from './multipleSelect/definition';
import { numeric } from './numeric/definition';
import { ordering } from './ordering/definition';
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
  matching,
  ordering,
  gap_fill: gapFill,
  hottext,
  calculated,
  hotspot,
  description,
};

/** The API's names of the types, in the pages' order. */
export const TYPE_NAMES = Object.keys(DEFINITIONS) as QuestionType[];

/** The words a page shows for a type ("True/false", "Multiple choice"); a type this app does not know, its name with spaces. */
export const typeLabel = (type: string | null | undefined): string =>
  type && Object.hasOwn(DEFINITIONS, type) ? DEFINITIONS[type as QuestionType].label : (type ?? '').replace(/_/g, ' ');

/** A new question's key, whatever its type: the draft every type reads what fits it from. */
export const EMPTY_KEY_DRAFT: KeyDraft = {
  options: '',
  correct_choice: '',
  correct_choices: [],
  correct_text: '',
  truth: 'True',
  tolerance: '',
  max_words: '',
  attachments: '',
  attachments_required: '',
  question_text: '',
  matches: [],
  ordering_score: 'all_or_nothing',
  gaps: [],
  drag_options: '',
  drag_reusable: false,
  max_choices: '',
  variables: [],
  formula: '',
  tolerance_type: 'absolute',
  calculated_choices: [],
  image: { src: '', width: '', height: '', alt: '' },
  areas: [],
  select: 'areas',
  max_points: '',
};
