// Front door of questions/: the question bank: questions, their schemas and HTML, the import.
// What other folders may use; nothing else of this folder is imported from outside.
export { isPassageType } from './passages';
export { questionQuerySpec } from './questionQuery';
export { EXTRA_FIELDS, normalizeQuestion } from './schemas';
export type { QuestionFilters } from './schemas';
export { toStoredQuestion } from './store';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadService = () => import('./service');
