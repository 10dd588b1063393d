import { paperWith, scoredFields, type StoredAttempt, type VersionForAttempt } from '../attempts';
import { requestMeta } from '../audit';
import { assertCanRegrade, type Principal } from '../auth';
import { assertHasVersion, requireTest, type TestVersion } from '../exams';
import { badRequest, type CallContext, notFound, percentageOf } from '../shared';
import { correctQuestion, withCorrection, type Correction } from './correction';
import type { RegradedAttempt, RegradeInput, RegradeReply } from './schemas';
import * as store from './store';

// Regrading a published version after a key fix: a dry run lists the attempts
// whose score would change; applying corrects the frozen question, stamps the
// attempts in progress, and rescores the submitted ones page by page. Sent
// again (after a crash half way), it finds the question corrected and
// finishes the rescoring; attempts already rescored come out the same and are
// not written again.

const figures = (attempt: Pick<StoredAttempt, 'score' | 'total_marks' | 'percentage'>) => ({
  score: attempt.score ?? 0,
  total_marks: attempt.total_marks,
  // An attempt waiting for an essay grade keeps no percentage (it is not final): figured from its score so far.
  percentage: attempt.percentage ?? percentageOf(attempt.score ?? 0, attempt.total_marks),
});

const regraded = (
  before: StoredAttempt,
  after: Pick<StoredAttempt, 'score' | 'total_marks' | 'percentage'>,
): RegradedAttempt => ({
  attempt_id: before.id,
  student_id: before.student_id,
  guest_name: before.guest_name,
  before: figures(before),
  after: figures(after),
});

/** The correction as the bank would take it, or 400 naming what is wrong. */
function corrected(current: Parameters<typeof correctQuestion>[0], correction: Correction) {
  const result = correctQuestion(current, correction);
  if (!result.ok) throw badRequest(result.message, result.details);
  return result.question;
}

export async function regrade(
  principal: Principal,
  testId: string,
  versionNumber: number,
  input: RegradeInput,
  call: CallContext,
): Promise<RegradeReply> {
  const test = await requireTest(principal, testId);
  assertCanRegrade(principal, { clientId: test.client_id });
  assertHasVersion(test, versionNumber);
  const clientId = test.client_id;
  const stored = await store.readVersion(clientId, testId, versionNumber);
  if (!stored) throw notFound('Test version not found');
  const frozen = await store.readFrozenQuestion(clientId, testId, stored, input.question_id);
  if (!frozen)
    throw notFound(
      `No question ${input.question_id} in version ${versionNumber} of this test (neither fixed nor in a pool)`,
    );
  const correction: Correction = {
    correct_answer: input.correct_answer,
    tolerance: input.tolerance,
    marks: input.marks,
    option_credits: input.option_credits,
    alternatives: input.alternatives,
    case_sensitive: input.case_sensitive,
  };
  const preview = corrected(frozen, correction);
  const meta = requestMeta(call);

  let version: TestVersion = stored;
  let changedNow = false;
  if (!input.dry_run) {
    const applied = await store.applyCorrection(
      clientId,
      testId,
      versionNumber,
      input.question_id,
      (current) => corrected(current, correction),
      {
        meta,
        actorId: principal.uid,
      },
    );
    version = applied.version;
    changedNow = applied.changed;
    await store.stampInProgress(clientId, testId, versionNumber, version.revision ?? 0);
  }

  // Each attempt's paper on the version as corrected: applied, the stored version is; a dry run lays the correction over it.
  const paperFor = async (attempt: StoredAttempt): Promise<VersionForAttempt> => {
    const paper = await paperWith(version, clientId, attempt.drawn ?? []);
    return input.dry_run ? { ...paper, ...withCorrection(paper.questions, preview) } : paper;
  };

  const changed: RegradedAttempt[] = [];
  let checked = 0;
  let after: string | undefined;
  for (;;) {
    const ids = await store.submittedPage(clientId, testId, versionNumber, after);
    if (ids.length === 0) break;
    if (input.dry_run) {
      for (const attempt of await store.readAttempts(clientId, ids)) {
        if (attempt.status !== 'submitted') continue;
        const fields = scoredFields(attempt, await paperFor(attempt));
        if (fields.score !== attempt.score || fields.total_marks !== attempt.total_marks)
          changed.push(regraded(attempt, fields));
      }
    } else {
      const rescored = await store.rescorePage(clientId, testId, versionNumber, ids, paperFor, {
        meta,
        actorId: principal.uid,
        questionId: input.question_id,
        revision: version.revision ?? 0,
      });
      for (const { before, after: now } of rescored)
        if (before.score !== now.score || before.total_marks !== now.total_marks) changed.push(regraded(before, now));
    }
    checked += ids.length;
    after = ids[ids.length - 1];
    if (ids.length < store.REGRADE_PAGE) break;
  }
  return {
    test_id: testId,
    version: versionNumber,
    question_id: input.question_id,
    dry_run: input.dry_run,
    revision: version.revision ?? 0,
    corrected: changedNow,
    attempts_checked: checked,
    changed,
  };
}
