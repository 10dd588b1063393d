// Front door of questionTypes/: the question types, one folder each, and the registry the rest asks.
// What other folders may use; nothing else of this folder is imported from outside.
export { MAX_ESSAY_WORDS } from './essay/schema';
export {
  Alternative,
  DIFFICULTIES,
  FolderIdRef,
  HTML_INPUT_FACTOR,
  MAX_ALTERNATIVES,
  MAX_FEEDBACK,
  MAX_HTML_QUESTION_TEXT,
  MAX_OPTION_FEEDBACK,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_TITLE,
  OPTION_SEPARATOR,
  TEXT_FORMATS,
  comparable,
  storedText,
} from './fields';
export type { Difficulty } from './fields';
/** The bank file formats (GIFT, Aiken, Moodle XML, QTI) with every type's mappings: parsers and writers. */
export const loadBankFormats = () => import('./bankFormats');
export { sanitizeQuestionHtml } from './html';
export { texToMathMl } from './tex';
export type { KeyedQuestion, QuestionTypeModule, TypedField } from './module';
export {
  QUESTION_TYPES,
  QUESTION_TYPE_MODULES,
  QuestionInput,
  isQuestionType,
  questionTypeOf,
  typesTaking,
} from './registry';
export type { QuestionType } from './registry';
export type { QuestionExtras, StoredAlternative, StoredGap, TypedFields } from './stored';
export { GAP_KINDS } from './stored';
export { TAKER_FIELDS } from './takerFields';
export { MAX_HOTTEXTS, MAX_MATCHING_OPTIONS, TYPED_CHANGES, TYPED_REPLY_FIELDS } from './typedFields';
