import { attachmentViews } from './attachments/rules';
import type { StoredAttempt } from './documents';
import { savedAnswers, summaryOf, testDetails, type VersionForAttempt } from './rules';
import type { Attempt } from './schemas';

/**
 * An attempt as GET /api/attempts/{id} shows it before any review: its summary, its saved answers,
 * its attached files and its questions. One home for the reply and for the webhooks that send it.
 */
export const attemptView = (attempt: StoredAttempt, version: VersionForAttempt): Attempt => ({
  ...summaryOf(attempt),
  answers: savedAnswers(attempt),
  attachments: attachmentViews(attempt),
  test_details: testDetails(attempt.id, version),
});
