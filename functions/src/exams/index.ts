// Front door of exams/: tests (/api/tests): settings, versions, publish, share codes and their seats, audiences.
// What other folders may use; nothing else of this folder is imported from outside.
export { audienceOf } from './audience';
export type {
  FrozenPassage,
  FrozenQuestion,
  StoredClassOverride,
  StoredSeat,
  StoredShareCode,
  StoredTest,
  TestVersion,
} from './documents';
export { freezePools, keyRevisionOf } from './lifecycle';
export {
  DocumentId,
  MAX_ATTEMPTS_LIMIT,
  MAX_POOL_QUESTIONS,
  MAX_TIMER_MINUTES,
  QuestionId,
  ShareCodeText,
  Test,
  TestId,
  TestParams,
} from './schemas';
export { assertHasVersion, authorView, requireTest } from './service';
export { canonicalShareCode } from './shareCodeText';
export { findTest, listTests, patchDelivery, poolCandidates } from './store';
export { provideTestChangeEffects } from './testChangeEffects';
export { rangeText, totalMarksRange, versionPoolMarks, type MarksRange, type PoolMarks } from './totals';
export { MAX_DOCUMENT_BYTES, documentSize, valueSize } from './versionSize';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
