// Front door of questions/: the question bank: questions, their schemas and HTML, the import.
// What other folders may use; nothing else of this folder is imported from outside.
export type { QuestionExtras, StoredAlternative } from './documents';
export { questionQuerySpec } from './questionQuery';
export {
  DIFFICULTIES,
  EXTRA_FIELDS,
  FolderIdRef,
  MAX_ALTERNATIVES,
  MAX_OPTIONS,
  MAX_OPTION_LENGTH,
  OPTION_SEPARATOR,
  QUESTION_TYPES,
  QuestionInput,
  comparable,
  exactComparable,
  normalizeQuestion,
} from './schemas';
export type { Difficulty, QuestionFilters } from './schemas';
export { toStoredQuestion } from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadService = () => import('./service');
