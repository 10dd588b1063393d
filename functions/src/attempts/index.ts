// Front door of attempts/: taking a test: starts and resumes, saves, submit and scoring, the attempt token, integrity events.
// What other folders may use; nothing else of this folder is imported from outside.
export { oneAttemptAtATime } from './attemptGate';
export { findAttempt, requireAttemptInTransaction } from './attemptLookup';
export type { FoundAttempt } from './attemptLookup';
export { PENDING_SWEEPS_QUERY, inClass, openAttemptsOfSpec } from './attemptQuery';
export { classOrganization } from './classFilter';
export { closeInTransaction } from './closing';
export type { AttemptSlot, StoredAttempt, StoredGradingItem } from './documents';
export { paperWith, poolQuestions, requirePaper, requireVersion, versionMissing, versionOf } from './frozenReads';
export { EVENT_TYPES } from './integrity/documents';
export type { StoredIntegritySummary } from './integrity/documents';
export { integrityRoutes } from './integrity/routes';
export { summariesOf } from './integrity/store';
export { attachmentRoutes } from './attachments/routes';
export { attachmentView } from './attachments/rules';
export { attemptRoutes } from './routes';
export {
  answersInTime,
  fitsInOneDocument,
  isOverdue,
  paperOf,
  savedAnswers,
  scoredFields,
  summaryOf,
  testDetails,
  universePositions,
} from './rules';
export type { VersionForAttempt } from './rules';
export { Attachment } from './schemas';
export { Attempt, AttemptId, AttemptParams } from './schemas';
export { attemptShown } from './service';
export { attemptView } from './view';
export { stopOpenAttempts } from './stopStore';
export { provideSubmissionEffects, submissionEffects } from './submissionEffects';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadService = () => import('./service');
