import { type AuditMeta, recordTokenRejected, requestMeta } from '../audit';
import { recentAccountFacts } from '../http';
import {
  assertCanFilterByClass,
  assertCanReadAttachments,
  assertCanUseAttempt,
  assertOnSite,
  assertOrganizationActive,
  attemptChecks,
  attemptListScope,
  attemptStarter,
  type AttemptTokenHolder,
  type Principal,
  reviewAccess,
  sebBinds,
  showsIntegrity,
  startChecksAssignment,
  startChecksSeb,
  submitterOf,
  tokenIssuerRefusal,
} from '../auth';
import { classOrganization } from './classFilter';
import { type Client, findClient, requireClient } from '../clients';
import {
  ApiError,
  badRequest,
  type CallContext,
  conflict,
  forbidden,
  isDocumentId,
  notFound,
  type PageRequest,
  sebRefusal,
  serviceUnavailable,
} from '../shared';
import { errorText, isBackendFault, log } from '../platform';
import { canonicalShareCode, findTest, type FrozenPassage, type FrozenQuestion } from '../exams';
import { type NetworkIndex, registeredNetworks } from '../networks';
import { RefusedAccount, refusedCredential, RefusedCredential, TestMissing } from './refusals';
import { isOverdue, listedSummaryOf, organizationOfAttemptId, reviewOf, testDetails } from './rules';
import type { StoredAttempt } from './documents';
import type {
  Attempt,
  AttemptStatus,
  ReviewedAttempt,
  SavedAnswer,
  SavedAnswerBatch,
  SaveAnswersInput,
  SequencedAnswer,
  StartAttemptInput,
  StartedAttempt,
  SubmittedAttempt,
} from './schemas';
import * as answering from './answering';
import { reviewReleased } from '../sittingRules';
import { attemptPath, findAttempt } from './attemptLookup';
import { closeIfOverdue, closeOverdue, type OverdueBatch } from './closing';
import { requirePaper, shareCodeTarget } from './frozenReads';
import * as listing from './listing';
import * as starting from './starting';
import { tokenOpens } from './tokens';
import { summariesOf } from './integrity/store';
import { EVENTS_AFTER_DEADLINE, EVENTS_AFTER_SUBMISSION, summaryView } from './integrity/eventRules';
import { nameFields, namesOf } from '../people';
import { attemptView } from './view';

/** Who is acting on an attempt: a signed-in principal, or whoever holds an attempt token (`?attempt_token=`). */
export type AttemptCaller = { principal: Principal; token?: undefined } | { principal?: Principal; token: string };

/**
 * Runs `work`; a credential it refused (share code, attempt token, access
 * code) is counted first (docs/security.md#rate-limits), which turns it into
 * 429 past the limit.
 */
export async function countingRefusals<T>(call: CallContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RefusedCredential) {
      try {
        await call.countRefusedCredential();
      } catch (countErr) {
        if (countErr instanceof ApiError) throw countErr;
        log.error('Counting a refused credential failed; the refusal stands', { error: errorText(countErr) });
      }
    }
    if (err instanceof RefusedAccount) recordTokenRejected(call, err.reason, err.uid);
    throw err;
  }
}

const subject = (attempt: StoredAttempt) => ({
  id: attempt.id,
  clientId: attempt.client_id,
  studentId: attempt.student_id,
});

/** The policy's caller: a token holder once the token is checked against this attempt's hash. */
function policyCaller(
  caller: AttemptCaller,
  attempt: StoredAttempt,
  call: CallContext,
): Principal | AttemptTokenHolder {
  if (caller.token === undefined) return caller.principal;
  if (!tokenOpens(caller.token, attempt.token_hash))
    throw refusedCredential('FORBIDDEN', 'This attempt token does not open this attempt');
  call.attemptTokenOpened();
  return { attemptTokenFor: attempt.id, issuedTo: attempt.token_issued_to };
}

/**
 * The organization, read beside a transaction that awaits it. Firestore failing
 * there is 503 at once: thrown as it is, the transaction would retry it five
 * times as if it were contention.
 */
function organizationBeside(clientId: string): Promise<Client | undefined> {
  const read = findClient(clientId).catch((err) => {
    if (!isBackendFault(err)) throw err;
    log.error('Backend unavailable', { error: errorText(err) });
    throw serviceUnavailable();
  });
  read.catch(() => undefined); // awaited by the transaction; never an unhandled rejection
  return read;
}

/**
 * Starts, beside the attempt's own read, what the caller's credential left
 * unchecked (policy: attemptChecks): the organization's status, read on every
 * request as bearer requests read theirs (the attempt id names it). The
 * function returned finishes them once the attempt is read and the caller
 * allowed onto it: the taker's account (Auth, at most ACCOUNT_RECHECK_MS old)
 * and the organization; a refused account wins, as it does on the bearer path.
 */
function startChecks(caller: AttemptCaller, attemptId: string): (attempt: StoredAttempt) => Promise<void> {
  const needs = attemptChecks(caller.token !== undefined ? { attemptTokenFor: attemptId } : caller.principal);
  const organization = needs.organization ? organizationBeside(organizationOfAttemptId(attemptId) ?? '') : undefined;
  return async (attempt) => {
    // A token speaks for whom it was issued to: the taker, or the administrator who started the attempt (its role over the attempt's organization rechecked too).
    const issuer = attempt.token_issued_to ?? { uid: attempt.student_id, role: null };
    const [client, account] = await Promise.all([
      organization,
      needs.takerAccount ? recentAccountFacts(issuer.uid) : undefined,
    ]);
    const refusal = account && tokenIssuerRefusal(account, issuer, subject(attempt));
    if (refusal) throw new RefusedAccount(refusal, issuer.uid);
    if (needs.organization) assertOrganizationActive(client, 'attempt’s');
  };
}

/**
 * on_site_only (policy: assertOnSite): the caller's address must be inside the
 * organization's registered networks. They are answered from the instance's
 * memory (the rate limiter has read them before any route runs), so this adds
 * no round trip. Should they never have been read on this instance, the
 * sitting is refused with 503, failing closed; a sitting not on site only
 * never asks.
 */
async function assertTakenOnSite(sitting: { onSiteOnly: boolean; clientId: string }, call: CallContext): Promise<void> {
  if (!sitting.onSiteOnly) return;
  let networks: NetworkIndex;
  try {
    networks = await registeredNetworks();
  } catch (err) {
    log.error('Registered networks unreadable: an on-site-only sitting is refused', {
      client_id: sitting.clientId,
      error: errorText(err),
    });
    throw serviceUnavailable();
  }
  assertOnSite(sitting, () => networks.onNetworkOf(sitting.clientId, call.ip));
}

/**
 * Who may use the attempt, then what their credential left unchecked (see
 * startChecks), then where from: an attempt of an on-site-only sitting (as it
 * stood at the attempt's start, kept on the attempt, so nothing more is read)
 * is answered and submitted from the organization's networks only.
 */
export function authorizer(
  caller: AttemptCaller,
  attemptId: string,
  call: CallContext,
): (attempt: StoredAttempt) => Promise<void> {
  const checks = startChecks(caller, attemptId);
  return async (attempt) => {
    const policy = policyCaller(caller, attempt, call);
    assertCanUseAttempt(policy, subject(attempt));
    await checks(attempt);
    await assertTakenOnSite({ onSiteOnly: attempt.on_site_only === 1, clientId: attempt.client_id }, call);
    // Safe Exam Browser, with the keys the attempt started with: the taker's browser, not a proctor's.
    if (sebBinds(policy)) {
      const refusal = sebRefusal(attempt.seb, call.seb, { attemptId });
      if (refusal) throw refusal;
    }
  };
}

// ---------------------------------------------------------------- start

/** The test's organization for a Super Admin (found by id), else the caller's own. */
async function organizationOfTest(clientId: string | undefined, testId: string): Promise<string> {
  if (clientId) return clientId;
  const test = await starting.testExistsElsewhere(testId);
  if (!test) throw notFound('Test not found');
  return test.client_id;
}

export async function startAttempt(
  principal: Principal,
  input: StartAttemptInput,
  call: CallContext,
): Promise<{ created: boolean; body: StartedAttempt }> {
  const starter = attemptStarter(principal, input);
  const meta = requestMeta(call);
  return countingRefusals(call, async () => {
    let plan: starting.StartPlan;
    if (starter.kind === 'guest') {
      const canonical = canonicalShareCode(input.share_code!);
      const target = canonical === undefined ? undefined : await shareCodeTarget(canonical);
      if (!target) throw refusedCredential('NOT_FOUND', 'No such share code');
      // A Guest has no organization claim: the code's organization must be active, read in the start's transaction.
      plan = {
        checkOrganization: attemptChecks(principal).organization
          ? (client) => assertOrganizationActive(client, 'share code’s')
          : undefined,
        clientId: target.client_id,
        testId: target.test_id,
        studentId: starter.studentId,
        guest: { target, name: input.guest_name ?? null },
        checkStudentProfile: false,
        checkAssignment: startChecksAssignment(starter),
        accessCode: input.access_code,
        checkOnSite: (sitting) => assertTakenOnSite(sitting, call),
        startedBy: principal.uid,
        seb: startChecksSeb(starter) ? call.seb : null,
        tokenIssuedTo: { uid: principal.uid, role: principal.role },
        meta,
      };
    } else {
      const testId = input.test_id!;
      if (!isDocumentId(starter.studentId)) throw notFound('No such student in this organization');
      plan = {
        clientId: starter.kind === 'self' ? starter.clientId : await organizationOfTest(starter.clientId, testId),
        testId,
        studentId: starter.studentId,
        guest: null,
        checkStudentProfile: starter.kind === 'for_student',
        checkAssignment: startChecksAssignment(starter),
        accessCode: starter.kind === 'for_student' ? null : input.access_code,
        checkOnSite: (sitting) => assertTakenOnSite(sitting, call),
        startedBy: principal.uid,
        seb: startChecksSeb(starter) ? call.seb : null,
        tokenIssuedTo: { uid: principal.uid, role: principal.role },
        meta,
      };
    }
    let outcome: starting.StartOutcome;
    try {
      outcome = await starting.startAttempt(plan);
    } catch (err) {
      // Not in this organization: another's test is 403, none at all 404.
      if (err instanceof TestMissing) {
        const elsewhere = await starting.testExistsElsewhere(plan.testId);
        if (elsewhere && elsewhere.client_id !== plan.clientId)
          throw forbidden('This test belongs to another organization');
        throw notFound('Test not found');
      }
      throw err;
    }
    return {
      created: !outcome.resumed,
      body: {
        attempt_id: outcome.attemptId,
        attempt_token: outcome.token,
        status: 'in_progress',
        started_at: outcome.startedAt,
        expires_at: outcome.expiresAt,
        resumed: outcome.resumed,
        test_details: testDetails(outcome.attemptId, outcome.version),
      },
    };
  });
}

// ---------------------------------------------------------------- read

/**
 * An overdue attempt closed, or, when it cannot be (too large to score, its
 * version missing), as it stands, in progress: the failure is logged with its
 * path and the scheduled closer tries again. A backend fault is thrown (503)
 * when asked to; a list shows the row as it stands whatever failed.
 */
async function closedOrAsItStands(
  attempt: StoredAttempt,
  nowMs: number,
  meta: AuditMeta,
  { backendFaults }: { backendFaults: 'throw' | 'keep' },
): Promise<StoredAttempt> {
  try {
    return await closeIfOverdue(attempt.id, nowMs, meta);
  } catch (err) {
    if (backendFaults === 'throw' && isBackendFault(err)) throw err;
    log.error('Closing an overdue attempt failed; it is answered as it stands', {
      path: attemptPath(attempt),
      error: errorText(err),
    });
    return attempt;
  }
}

export async function readAttempt(
  caller: AttemptCaller,
  attemptId: string,
  call: CallContext,
): Promise<Attempt | ReviewedAttempt> {
  return countingRefusals(call, async () => {
    const checks = startChecks(caller, attemptId);
    const found = await findAttempt(attemptId);
    if (!found) throw notFound('Attempt not found');
    const policy = policyCaller(caller, found.attempt, call);
    assertCanUseAttempt(policy, subject(found.attempt));
    await checks(found.attempt);
    const nowMs = Date.now();
    const attempt = isOverdue(found.attempt, nowMs)
      ? await closedOrAsItStands(found.attempt, nowMs, requestMeta(call), { backendFaults: 'throw' })
      : found.attempt;
    const version = await requirePaper(attempt);
    const view: Attempt = attemptView(attempt, version);
    const access = reviewAccess(policy, {
      submitted: attempt.status === 'submitted',
      allowReview: version.test.allow_review === 1,
    });
    // The release date is a delivery setting (the test's, not the version's): read only when it decides.
    if (
      access === 'never' ||
      (access === 'when_released' &&
        !reviewReleased((await findTest(attempt.client_id, attempt.test_id))?.review_opens_at, Date.now()))
    ) {
      return view;
    }
    return { ...view, review: reviewOf(attempt, version) };
  });
}

// ---------------------------------------------------------------- answer and submit

const TIME_IS_UP =
  'Time is up: the attempt passed its deadline (expires_at + 30 s) and was submitted with the answers saved in time';

/**
 * One answer, or a batch. A single answer without client_seq answers exactly
 * as saves always did (SavedAnswer); with one, it also says whether it was
 * stale, showing the answer that stays (SequencedAnswer). A batch answers what
 * was applied and what was stale (SavedAnswerBatch).
 */
export async function saveAnswers(
  caller: AttemptCaller,
  attemptId: string,
  input: SaveAnswersInput,
  call: CallContext,
): Promise<SavedAnswer | SequencedAnswer | SavedAnswerBatch> {
  return countingRefusals(call, async () => {
    const batch = 'answers' in input;
    const items = batch ? input.answers : [input];
    const pathOf: answering.DetailPath = batch
      ? (i, field) => `body.answers.${i}.${field}`
      : (_, field) => `body.${field}`;
    const outcome = await answering.saveAnswers(
      attemptId,
      authorizer(caller, attemptId, call),
      items,
      pathOf,
      requestMeta(call),
    );
    if (outcome.closed) throw conflict(TIME_IS_UP);
    if (batch) {
      return {
        saved: outcome.judged.flatMap((j) =>
          j.applied ? [{ question_id: j.questionId, saved_at: j.answer.saved_at }] : [],
        ),
        stale: outcome.judged.flatMap((j) => (j.applied ? [] : [j.questionId])),
      };
    }
    const [judged] = outcome.judged;
    if (input.client_seq === undefined)
      return { question_id: input.question_id, student_answer: input.student_answer, saved_at: outcome.savedAt };
    const now = judged.applied ? judged.answer : judged.stored;
    return {
      question_id: input.question_id,
      student_answer: now.answer,
      saved_at: now.saved_at,
      client_seq: now.client_seq!,
      stale: !judged.applied,
    };
  });
}

export async function submitAttempt(
  caller: AttemptCaller,
  attemptId: string,
  call: CallContext,
): Promise<SubmittedAttempt> {
  return countingRefusals(call, async () => {
    // Who submits is read from the attempt: a token is its issuer's (policyCaller, once the token opened it).
    const actorOf = (attempt: StoredAttempt) => submitterOf(policyCaller(caller, attempt, call), subject(attempt));
    const attempt = await answering.submitAttempt(
      attemptId,
      authorizer(caller, attemptId, call),
      actorOf,
      requestMeta(call),
    );
    return {
      status: 'submitted',
      score: attempt.score ?? 0,
      total_marks: attempt.total_marks,
      submitted_at: attempt.submitted_at!,
      grading: attempt.grading ?? null,
      pending_marks: attempt.pending_marks ?? 0,
    };
  });
}

// ---------------------------------------------------------------- integrity events

/**
 * The attempt a taker's page sends integrity events for, with every check a save makes (who, the
 * token and its issuer's account, the organization, on site, Safe Exam Browser; a refused token
 * counted), but no transaction on the attempt: one read, so events never contend with saves.
 * Submitted, or past expires_at + 30 s → 409 (the attempt is not closed here: a save or the closer does).
 */
export async function attemptTakingEvents(
  caller: AttemptCaller,
  attemptId: string,
  call: CallContext,
): Promise<StoredAttempt> {
  return countingRefusals(call, async () => {
    const authorize = authorizer(caller, attemptId, call);
    const found = await findAttempt(attemptId);
    if (!found) throw notFound('Attempt not found');
    await authorize(found.attempt);
    // Refused here without a transaction when already closed; the events' own transaction decides the race (integrity/store.ts).
    if (found.attempt.status !== 'in_progress') throw conflict(EVENTS_AFTER_SUBMISSION);
    if (isOverdue(found.attempt, Date.now())) throw conflict(EVENTS_AFTER_DEADLINE);
    return found.attempt;
  });
}

// ---------------------------------------------------------------- list

/** The live view of one class: a test's attempts (test_id is needed), by a class of the listed organization. */
async function checkClassFilter(
  principal: Principal,
  clientId: string,
  query: { test_id?: string; class_id?: string },
): Promise<void> {
  const classId = query.class_id!;
  if (query.test_id === undefined)
    throw badRequest('class_id filters the attempts of one test: send test_id too', [
      { path: 'query.test_id', message: 'Required with class_id' },
    ]);
  assertCanFilterByClass(principal, { clientId, classId, classClientId: await classOrganization(clientId, classId) });
}

export async function listAttempts(
  principal: Principal,
  query: { client_id?: string; test_id?: string; student_id?: string; status?: AttemptStatus; class_id?: string },
  page: PageRequest,
  call: CallContext,
) {
  const scope = attemptListScope(principal, query);
  if (scope.scope === 'tenant' && principal.role === 'super_admin') await requireClient(scope.clientId);
  if (query.class_id !== undefined && scope.scope === 'tenant')
    await checkClassFilter(principal, scope.clientId, query);
  const filters = {
    test_id: query.test_id,
    student_id: scope.studentId,
    status: query.status,
    class_id: query.class_id,
  };
  const target: listing.ListTarget =
    scope.scope === 'tenant' ? { scope: 'tenant', clientId: scope.clientId } : { scope: 'guest' };
  const { data, pagination } = await listing.listAttempts(target, filters, page);
  // Reading an overdue attempt closes it first, in lists too; one that cannot be closed is listed as it stands.
  const nowMs = Date.now();
  const meta = requestMeta(call);
  // The live view of a test (an administrator's list with test_id): each attempt's integrity events counted, one read round trip.
  // An administrator's list names its students: one batched read of the page's profiles, beside the rest.
  const named = scope.scope === 'tenant' && showsIntegrity(principal);
  const [current, integrity, names] = await Promise.all([
    Promise.all(
      data.map((a) => (isOverdue(a, nowMs) ? closedOrAsItStands(a, nowMs, meta, { backendFaults: 'keep' }) : a)),
    ),
    named && query.test_id !== undefined
      ? summariesOf(
          scope.clientId,
          data.map((a) => a.id),
        )
      : undefined,
    named
      ? namesOf(
          scope.clientId,
          data.filter((a) => !a.guest).map((a) => a.student_id),
        )
      : undefined,
  ]);
  return {
    data: current.map((a) => ({
      ...listedSummaryOf(a),
      ...(names ? nameFields('student', names, a.guest ? null : a.student_id) : {}),
      ...(integrity ? { integrity: summaryView(integrity.get(a.id)) } : {}),
    })),
    pagination,
  };
}

// ---------------------------------------------------------------- scheduled

/**
 * Closes attempts left open past their deadline, in batches of at most
 * `maxCount` per query, until none is left or `maxBatches` ran. The scheduled
 * function calls this; each close scores the answers saved in time. Each
 * batch starts after the previous one's last attempt: attempts that failed to
 * close (logged) are tried once per run, and never starve those behind them.
 */
export async function closeOverdueAttempts(
  nowMs: number,
  maxCount: number,
  maxBatches = 20,
): Promise<{ closed: number; failed: number }> {
  let closed = 0;
  let failed = 0;
  let after: OverdueBatch['last'];
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await closeOverdue(nowMs, maxCount, after);
    closed += result.closed;
    failed += result.failed;
    if (result.found < maxCount) break;
    after = result.last;
  }
  return { closed, failed };
}

// ---------------------------------------------------------------- what an attempt shows (question media)

/** An attempt's questions as its caller may see them now; see attemptShown. */
export interface ShownAttempt {
  clientId: string;
  /** The paper's questions (the version's fixed ones and those the attempt drew), and the passages they name. */
  questions: Array<FrozenQuestion | FrozenPassage>;
  /** In progress and before its deadline. */
  taking: boolean;
  /** Submitted, and its review open to this caller (as GET /attempts/{id} decides showing `review`). */
  reviewOpen: boolean;
}

/**
 * For a feature that shows part of an attempt's questions (their media): the
 * checks of reading the attempt (who, the token, the organization, the taker's
 * account; a refused token counted). Unlike a read it closes nothing: an
 * attempt past its deadline is simply no longer being taken.
 */
export async function attemptShown(caller: AttemptCaller, attemptId: string, call: CallContext): Promise<ShownAttempt> {
  return countingRefusals(call, async () => {
    const checks = startChecks(caller, attemptId);
    const found = await findAttempt(attemptId);
    if (!found) throw notFound('Attempt not found');
    const attempt = found.attempt;
    const policy = policyCaller(caller, attempt, call);
    assertCanUseAttempt(policy, subject(attempt));
    await checks(attempt);
    const paper = await requirePaper(attempt);
    const access = reviewAccess(policy, {
      submitted: attempt.status === 'submitted',
      allowReview: paper.test.allow_review === 1,
    });
    const reviewOpen =
      access === 'always' ||
      (access === 'when_released' &&
        reviewReleased((await findTest(attempt.client_id, attempt.test_id))?.review_opens_at, Date.now()));
    return {
      clientId: attempt.client_id,
      // A passage's media is shown as its questions' are.
      questions: [...paper.questions, ...(paper.passages ?? [])],
      taking: attempt.status === 'in_progress' && !isOverdue(attempt, Date.now()),
      reviewOpen,
    };
  });
}

// ---------------------------------------------------------------- what an attempt holds (attached files)

/**
 * The attempt, for a reader of its attached files: the checks of reading it (who, the token, the
 * organization, the taker's account; a refused token counted), its taker or its organization's
 * administrators only, anyone else 404 (policy: assertCanReadAttachments). Closes nothing.
 */
export async function attemptForReading(
  caller: AttemptCaller,
  attemptId: string,
  call: CallContext,
): Promise<StoredAttempt> {
  return countingRefusals(call, async () => {
    const checks = startChecks(caller, attemptId);
    const found = await findAttempt(attemptId);
    if (!found) throw notFound('Attachment not found');
    assertCanReadAttachments(policyCaller(caller, found.attempt, call), subject(found.attempt));
    await checks(found.attempt);
    return found.attempt;
  });
}
