import type { AuditEventType } from '../audit';
import { keyRevisionOf, type StoredShareCode, type StoredTest } from '../exams';
import { testOpenToStudent } from '../auth';
import {
  type Accommodation,
  classOverridesFor,
  cooldownEnds,
  effective,
  effectiveOverride,
  expiresAtMs,
  hasAccessCode,
  type OverrideValues,
  startWindow,
  windowRefusal,
} from '../sittingRules';
import {
  badRequest,
  conflict,
  notFound,
  type SebKeys,
  sebKeysOf,
  sebRefusal,
  type SebRequest,
  sebRequired,
} from '../shared';
import type { Draw } from './draw';
import type { AttemptSlot, StoredAttempt } from './documents';
import { refusedCredential, TestMissing } from './refusals';
import { isOverdue, questionOrder, type VersionForAttempt } from './rules';

// Pure: whether a start resumes, is refused or creates an attempt, and what it
// writes. No Firebase import: starting.ts reads and writes, this decides.

/** A share code refused (expired, revoked, used up): counted against the caller's address as a refused credential. */
const refusedShareCode = (code: 'FORBIDDEN' | 'CONFLICT', message: string) => refusedCredential(code, message);

/** What the start asks for, as the taker (or the administrator starting for a student) sent it, with what was drawn fresh for it. */
export interface StartRequest {
  clientId: string;
  testId: string;
  studentId: string;
  /** Set for a Guest: the code it redeems and the name it gave. */
  guest: { code: string; name: string | null } | null;
  /** An administrator starts for a student: the student's profile must be a student's. */
  checkStudentProfile: boolean;
  /**
   * A student starting for itself (policy: startChecksAssignment): a new attempt of a test
   * not open to its classes is refused as a missing test; resuming its attempt in progress is not.
   */
  checkAssignment: boolean;
  /** The access code sent; null when an administrator starts for a student (the proctor is no stranger). */
  accessCode: string | undefined | null;
  startedBy: string;
  /** The slot's attempt in progress is read before a resume (its document was found gone once). */
  readRunning: boolean;
  /** The id a new attempt gets. */
  attemptId: string;
  /** The hash of the token the start answers with (a resume's new token too). */
  tokenHash: string;
  /** Whom that token goes to (kept beside its hash): the caller, taker or administrator. */
  tokenIssuedTo: NonNullable<StoredAttempt['token_issued_to']>;
  /**
   * The start's URL and Safe Exam Browser headers, checked when the test has SEB keys; null when an
   * administrator starts for a student (policy: startChecksSeb): the proctor's browser is not the taker's.
   */
  seb: SebRequest | undefined | null;
}

/**
 * What the start read. The first round trip's documents are always there;
 * the facts below them are read only when the decision gets to them, which it
 * asks for by answering `{ need }` (so a refused start reads no version, and
 * hashes no access code, past the check that refused it).
 */
export interface StartReads {
  test: StoredTest | undefined;
  slot: AttemptSlot | undefined;
  /**
   * The student's profile (read for every start but a Guest's): its role and its classes,
   * or undefined when there is no profile.
   */
  profile?: { role: unknown; class_ids?: unknown } | undefined;
  override: OverrideValues | undefined;
  accommodation: Accommodation | undefined;
  /** A Guest's share code (undefined: no such code). */
  shareCode?: StoredShareCode | undefined;
  /** need 'onSite': what the on-site check threw, null when it passed. */
  onSite?: { refusal: unknown };
  /** need 'running': the attempt the slot names in progress; null when its document is gone. */
  running?: StoredAttempt | null;
  /** need 'accessCode': whether the access code sent matches the test's. */
  accessCodeMatches?: boolean;
  /** need 'paper': the test's current version (at its key revision), the draw from its pools, and the paper they make. */
  paper?: { version: VersionForAttempt; draw: Draw; paper: VersionForAttempt };
  /** need 'seat': a seat of the Guest's share code with room, null when none is left. */
  seat?: { used: number } | null;
}

export type StartNeed = 'onSite' | 'running' | 'accessCode' | 'paper' | 'seat';

export interface StartAudit {
  type: AuditEventType;
  userId: string;
  clientId: string;
  actorId: string | null;
  details: Record<string, unknown>;
}

/** The same attempt, a new token: the attempt's token hash and on_site_only are updated. */
export interface ResumeWrites {
  attemptId: string;
  startedAt: string;
  expiresAt: string;
  update: {
    token_hash: string;
    token_issued_to: NonNullable<StoredAttempt['token_issued_to']>;
    on_site_only: 0 | 1;
    seb: SebKeys | null;
  };
  audits: StartAudit[];
  /** Whose paper the reply shows: the running attempt's own. */
  paperOf: { client_id: string; test_id: string; version: number; drawn: string[] | undefined; key_revision: number };
}

/** A new attempt: the overdue one closed first (when there is one), a seat taken (a Guest), the attempt created and the slot rewritten. */
export interface StartWrites {
  closeOverdue: boolean;
  /** The seat's new `used`, for a Guest. */
  seatUsed: number | null;
  attempt: StoredAttempt;
  slot: AttemptSlot;
  audits: StartAudit[];
  paper: VersionForAttempt;
}

/** The classes a profile lists (none when there is no profile, or no list). */
const classIdsOf = (profile: StartReads['profile']): string[] =>
  Array.isArray(profile?.class_ids) ? (profile.class_ids as unknown[]).filter((id) => typeof id === 'string') : [];

export type StartDecision =
  { refusal: unknown } | { need: StartNeed } | { resume: ResumeWrites } | { start: StartWrites };

/**
 * The start's decision, in the order its refusals are owed: the share code,
 * the test (there, published), on site, the student's profile; a resume of
 * the attempt in progress; then for a new attempt the window, the cooldown,
 * the access code, max_attempts and a seat.
 */
export function decideStart(reads: StartReads, request: StartRequest, nowMs: number): StartDecision {
  if (request.guest) {
    const code = reads.shareCode;
    if (!code) return { refusal: refusedShareCode('FORBIDDEN', 'This share code is not valid') };
    if (code.revoked) return { refusal: refusedShareCode('FORBIDDEN', 'This share code has been revoked') };
    if (code.expires_at !== null && Date.parse(code.expires_at) <= nowMs)
      return { refusal: refusedShareCode('FORBIDDEN', 'This share code has expired') };
  }
  const test = reads.test;
  if (!test) return { refusal: new TestMissing('NOT_FOUND', 'Test not found') };
  // The student's classes at this start (a Guest's: none): whom the test is open to, whose class overrides apply.
  const classIds = request.guest ? [] : classIdsOf(reads.profile);
  // Not open to the student: the same 404 as no test, before anything tells the test apart from none,
  // unless it has an attempt in progress to resume (it was removed from the class meanwhile).
  const open = !request.checkAssignment || testOpenToStudent(test, classIds);
  if (!open && !reads.slot?.in_progress) return { refusal: new TestMissing('NOT_FOUND', 'Test not found') };
  if (test.status !== 'published' || test.version === null)
    return { refusal: conflict(`Attempts are taken on published tests only; this test is ${test.status}`) };
  // Resuming is starting too: an on-site-only test is started and resumed on site only.
  const onSiteOnly = test.on_site_only ?? 0;
  if (!reads.onSite) return { need: 'onSite' };
  if (reads.onSite.refusal) return { refusal: reads.onSite.refusal };
  // So is Safe Exam Browser: a resume is a start, from the taker's browser.
  const sebKeys = sebKeysOf(test);
  const sebRefused = request.seb === null ? null : sebRefusal(sebKeys, request.seb, { start: true });
  if (sebRefused) return { refusal: sebRefused };
  const attemptSeb = sebRequired(sebKeys) ? sebKeys : null;
  if (request.checkStudentProfile) {
    if (!reads.profile) return { refusal: notFound('No such student in this organization') };
    if (reads.profile.role !== 'student')
      return {
        refusal: badRequest('student_id must name a student', [{ path: 'body.student_id', message: 'Not a student' }]),
      };
  }
  const slot: AttemptSlot = reads.slot ?? {
    test_id: request.testId,
    student_id: request.studentId,
    client_id: request.clientId,
    count: 0,
    in_progress: null,
  };

  const running = slot.in_progress;
  if (running) {
    if (request.readRunning && reads.running === undefined) return { need: 'running' };
    const gone = request.readRunning && reads.running === null;
    if (!gone && !isOverdue({ status: 'in_progress', expires_at: running.expires_at }, nowMs)) {
      return {
        resume: {
          attemptId: running.attempt_id,
          startedAt: running.started_at,
          expiresAt: running.expires_at,
          // The test's on_site_only as it stands now: a resume brings the attempt in line with a change made since its start.
          update: {
            token_hash: request.tokenHash,
            token_issued_to: request.tokenIssuedTo,
            on_site_only: onSiteOnly,
            seb: attemptSeb,
          },
          audits: [
            {
              type: 'attempt_resumed',
              userId: request.studentId,
              clientId: request.clientId,
              actorId: request.startedBy,
              details: { attempt_id: running.attempt_id, test_id: request.testId, guest: request.guest !== null },
            },
          ],
          paperOf: {
            client_id: request.clientId,
            test_id: request.testId,
            version: running.version,
            drawn: running.drawn,
            key_revision: keyRevisionOf(test, running.version),
          },
        },
      };
    }
    if (reads.running === undefined) return { need: 'running' };
  }
  // Left open past its deadline: it closes first, with the answers saved in time.
  const overdue = running && reads.running?.status === 'in_progress' ? reads.running : undefined;

  // A new attempt: open to the student, inside its window, past its cooldown, with the access code, within its attempts.
  if (!open) return { refusal: new TestMissing('NOT_FOUND', 'Test not found') };
  // The student's own override, and for the fields it leaves, its classes' most generous.
  const override = effectiveOverride(reads.override, classOverridesFor(test.class_overrides, classIds));
  const refusal = windowRefusal(startWindow(test, override), nowMs);
  if (refusal) return { refusal: conflict(refusal) };
  const lastSubmittedAt = overdue ? overdue.expires_at : slot.last_submitted_at;
  const cooldownEnd = cooldownEnds(lastSubmittedAt, test.attempt_cooldown_minutes ?? 0, nowMs);
  if (cooldownEnd)
    return {
      refusal: conflict(
        `The next attempt on this test can start at ${cooldownEnd}, once the cooldown after the last one is over`,
      ),
    };
  if (hasAccessCode(test) && request.accessCode !== null) {
    if (request.accessCode === undefined)
      return { refusal: refusedCredential('FORBIDDEN', 'This test requires its access code: send access_code') };
    if (reads.accessCodeMatches === undefined) return { need: 'accessCode' };
    if (!reads.accessCodeMatches)
      return { refusal: refusedCredential('FORBIDDEN', 'This access code is not valid for this test') };
  }
  if (!reads.paper) return { need: 'paper' };
  const { version, draw, paper } = reads.paper;
  const maxAttempts = effective(override, 'max_attempts', version.test.max_attempts ?? null);
  if (maxAttempts !== null && maxAttempts !== undefined && slot.count >= maxAttempts) {
    return { refusal: conflict(`All ${maxAttempts} attempts allowed on this test have been used`) };
  }
  let seatUsed: number | null = null;
  if (request.guest) {
    if (reads.seat === undefined) return { need: 'seat' };
    if (reads.seat === null)
      return { refusal: refusedShareCode('CONFLICT', 'This share code has been used as many times as it allows') };
    seatUsed = reads.seat.used + 1;
  }

  const attemptId = request.attemptId;
  const startedAt = new Date(nowMs).toISOString();
  const attempt: StoredAttempt = {
    id: attemptId,
    client_id: request.clientId,
    test_id: request.testId,
    test_name: version.test.test_name,
    version: version.version,
    student_id: request.studentId,
    class_ids: classIds,
    guest: request.guest !== null,
    guest_name: request.guest?.name ?? null,
    share_code: request.guest?.code ?? null,
    started_by: request.startedBy,
    status: 'in_progress',
    started_at: startedAt,
    expires_at: new Date(
      expiresAtMs({
        startedAtMs: nowMs,
        versionTimer: version.test.timer ?? 0,
        testClosesAt: test.closes_at ?? null,
        override,
        accommodation: reads.accommodation,
        extensionMinutes: 0,
      }),
    ).toISOString(),
    submitted_at: null,
    auto_submitted: false,
    answers: {},
    question_order: questionOrder(attemptId, paper),
    token_hash: request.tokenHash,
    token_issued_to: request.tokenIssuedTo,
    on_site_only: onSiteOnly,
    ...(attemptSeb ? { seb: attemptSeb } : {}),
    submitted_by: null,
    score: null,
    total_marks: paper.total_marks,
    results: null,
    ...(draw.drawn.length > 0 ? { drawn: draw.drawn } : {}),
    key_revision: version.revision ?? 0,
  };
  const nextSlot: AttemptSlot = {
    ...slot,
    count: slot.count + 1,
    last_submitted_at: lastSubmittedAt ?? null,
    in_progress: {
      attempt_id: attemptId,
      version: version.version,
      started_at: startedAt,
      expires_at: attempt.expires_at,
      ...(draw.drawn.length > 0 ? { drawn: draw.drawn } : {}),
    },
    ...((version.pools ?? []).length > 0 ? { seen: draw.seen } : {}),
  };
  const details = {
    attempt_id: attemptId,
    test_id: request.testId,
    version: version.version,
    guest: request.guest !== null,
    expires_at: attempt.expires_at,
  };
  const audits: StartAudit[] = [
    {
      type: 'attempt_started',
      userId: request.studentId,
      clientId: request.clientId,
      actorId: request.startedBy,
      details,
    },
  ];
  if (request.guest) {
    audits.push({
      type: 'share_code_redeemed',
      userId: request.studentId,
      clientId: request.clientId,
      actorId: request.startedBy,
      details: { ...details, share_code: request.guest.code, guest_name: attempt.guest_name },
    });
  }
  return { start: { closeOverdue: overdue !== undefined, seatUsed, attempt, slot: nextSlot, audits, paper } };
}
