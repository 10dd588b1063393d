import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredAttempt } from '../../functions/src/attempts/documents';
import type { VersionForAttempt } from '../../functions/src/attempts/rules';
import {
  decideStart,
  type StartDecision,
  type StartReads,
  type StartRequest,
} from '../../functions/src/attempts/startDecision';
import type { StoredShareCode, StoredTest } from '../../functions/src/exams/documents';
import { ApiError } from '../../functions/src/shared/errors';

// decideStart alone: no emulator, no Firebase. Each start is decided from what
// was read, asking for the rest (on site, the running attempt, the access
// code's match, the paper, a seat) in the order its refusals are owed.

const NOW = Date.parse('2030-01-10T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const test = (fields: Partial<StoredTest> = {}): StoredTest => ({
  id: 't1',
  client_id: 'c1',
  test_name: 'Algebra',
  timer: 30,
  shuffle: 0,
  allow_review: 0,
  negative_marking: 0,
  status: 'published',
  folder_id: null,
  question_ids: ['q1'],
  description: null,
  max_attempts: null,
  negative_mark_ratio: 0,
  created_at: iso(0),
  updated_at: iso(0),
  published_at: iso(0),
  version: 1,
  ...fields,
});

const version: VersionForAttempt = {
  version: 1,
  test_id: 't1',
  total_marks: 1,
  revision: 0,
  test: {
    test_name: 'Algebra',
    timer: 30,
    shuffle: 0,
    allow_review: 0,
    negative_marking: 0,
    description: null,
    max_attempts: null,
    negative_mark_ratio: 0,
    question_ids: ['q1'],
  },
  questions: [
    {
      id: 'q1',
      question_text: '1+1?',
      question_type: 'short_answer',
      options: [],
      correct_answer: '2',
      tolerance: null,
      marks: 1,
      difficulty: 'easy',
    },
  ],
};
const paper = { version, draw: { drawn: [], seen: [] }, paper: version };

const request = (fields: Partial<StartRequest> = {}): StartRequest => ({
  clientId: 'c1',
  testId: 't1',
  studentId: 's1',
  guest: null,
  checkStudentProfile: false,
  checkAssignment: false,
  accessCode: undefined,
  startedBy: 's1',
  tokenIssuedTo: { uid: 's1', role: 'student' },
  seb: undefined,
  readRunning: false,
  attemptId: 'c1.new',
  tokenHash: 'hash',
  ...fields,
});

/** Everything a student's start could ask for, answered: the decision never needs more. */
const reads = (fields: Partial<StartReads> = {}): StartReads => ({
  test: test(),
  slot: undefined,
  override: undefined,
  accommodation: undefined,
  onSite: { refusal: null },
  paper,
  ...fields,
});

const refusal = (decision: StartDecision): { code: string; message: string } => {
  assert.ok('refusal' in decision, `expected a refusal, got ${JSON.stringify(decision)}`);
  assert.ok(decision.refusal instanceof ApiError);
  return { code: decision.refusal.code, message: decision.refusal.message };
};

const running = (expiresAt: string) => ({
  attempt_id: 'c1.old',
  version: 1,
  started_at: iso(NOW - 3_600_000),
  expires_at: expiresAt,
});
const slotWith = (fields: Partial<NonNullable<StartReads['slot']>>): StartReads['slot'] => ({
  test_id: 't1',
  student_id: 's1',
  client_id: 'c1',
  count: 1,
  in_progress: null,
  ...fields,
});

describe('decideStart: a new attempt', () => {
  it('creates the attempt in progress, its slot (count + 1) and an attempt_started record, expires_at from the timer, its token issued to the caller', () => {
    const decision = decideStart(reads(), request(), NOW);
    assert.ok('start' in decision);
    const { attempt, slot, audits, closeOverdue, seatUsed } = decision.start;
    assert.equal(attempt.id, 'c1.new');
    assert.equal(attempt.status, 'in_progress');
    assert.equal(attempt.started_at, iso(NOW));
    assert.equal(attempt.expires_at, iso(NOW + 30 * 60_000));
    assert.equal(attempt.token_hash, 'hash');
    assert.deepEqual(attempt.token_issued_to, { uid: 's1', role: 'student' });
    assert.deepEqual(slot.in_progress, {
      attempt_id: 'c1.new',
      version: 1,
      started_at: iso(NOW),
      expires_at: attempt.expires_at,
    });
    assert.equal(slot.count, 1);
    assert.deepEqual(
      audits.map((a) => a.type),
      ['attempt_started'],
    );
    assert.equal(closeOverdue, false);
    assert.equal(seatUsed, null);
  });

  it('ends at the test closes_at when that comes before the timer', () => {
    const closesAt = iso(NOW + 10 * 60_000);
    const decision = decideStart(reads({ test: test({ closes_at: closesAt }) }), request(), NOW);
    assert.ok('start' in decision);
    assert.equal(decision.start.attempt.expires_at, closesAt);
  });

  it('for a Guest takes a seat (used + 1) and also records share_code_redeemed', () => {
    const code = { code: 'ABC', revoked: false, expires_at: null } as unknown as StoredShareCode;
    const guest = request({ guest: { code: 'ABC', name: 'Ada' } });
    assert.deepEqual(decideStart(reads({ shareCode: code }), guest, NOW), { need: 'seat' });
    const decision = decideStart(reads({ shareCode: code, seat: { used: 4 } }), guest, NOW);
    assert.ok('start' in decision);
    assert.equal(decision.start.seatUsed, 5);
    assert.equal(decision.start.attempt.guest_name, 'Ada');
    assert.deepEqual(
      decision.start.audits.map((a) => a.type),
      ['attempt_started', 'share_code_redeemed'],
    );
  });
});

describe('decideStart: refusals, in the order they are owed', () => {
  it('refuses a missing test with NOT_FOUND and an unpublished one with CONFLICT', () => {
    assert.equal(refusal(decideStart(reads({ test: undefined }), request(), NOW)).code, 'NOT_FOUND');
    assert.equal(
      refusal(decideStart(reads({ test: test({ status: 'draft', version: null }) }), request(), NOW)).code,
      'CONFLICT',
    );
  });

  it('refuses a Guest whose share code is missing, revoked or expired before looking at the test', () => {
    const guest = request({ guest: { code: 'ABC', name: null } });
    assert.equal(refusal(decideStart(reads({ test: undefined }), guest, NOW)).message, 'This share code is not valid');
    const revoked = { code: 'ABC', revoked: true, expires_at: null } as unknown as StoredShareCode;
    assert.equal(
      refusal(decideStart(reads({ shareCode: revoked }), guest, NOW)).message,
      'This share code has been revoked',
    );
    const expired = { code: 'ABC', revoked: false, expires_at: iso(NOW) } as unknown as StoredShareCode;
    assert.equal(
      refusal(decideStart(reads({ shareCode: expired }), guest, NOW)).message,
      'This share code has expired',
    );
  });

  it('asks for the on-site check after the test is found published, and answers what it threw', () => {
    assert.deepEqual(decideStart(reads({ onSite: undefined }), request(), NOW), { need: 'onSite' });
    const offSite = new ApiError('FORBIDDEN', 'off site');
    assert.deepEqual(decideStart(reads({ onSite: { refusal: offSite } }), request(), NOW), { refusal: offSite });
  });

  it('refuses an administrator start for a missing profile (NOT_FOUND) or one that is not a student (VALIDATION_ERROR)', () => {
    const forStudent = request({ checkStudentProfile: true, accessCode: null, startedBy: 'admin' });
    assert.equal(refusal(decideStart(reads({ profile: undefined }), forStudent, NOW)).code, 'NOT_FOUND');
    assert.equal(
      refusal(decideStart(reads({ profile: { role: 'client_admin' } }), forStudent, NOW)).code,
      'VALIDATION_ERROR',
    );
    assert.ok('start' in decideStart(reads({ profile: { role: 'student' } }), forStudent, NOW));
  });

  it('refuses outside the window, then during the cooldown, with CONFLICT', () => {
    assert.match(
      refusal(decideStart(reads({ test: test({ opens_at: iso(NOW + 60_000) }) }), request(), NOW)).message,
      /opens/i,
    );
    const cooling = reads({
      test: test({ attempt_cooldown_minutes: 10 }),
      slot: slotWith({ last_submitted_at: iso(NOW - 60_000) }),
    });
    assert.match(refusal(decideStart(cooling, request(), NOW)).message, /cooldown/);
  });

  it('asks for the access code to be checked only when one was sent for a test that has one, and refuses a missing or wrong one', () => {
    const locked = test({ access_code_hash: { salt: 's', hash: 'h' } as unknown as StoredTest['access_code_hash'] });
    assert.equal(
      refusal(decideStart(reads({ test: locked }), request({ accessCode: undefined }), NOW)).message,
      'This test requires its access code: send access_code',
    );
    assert.deepEqual(decideStart(reads({ test: locked }), request({ accessCode: 'nope' }), NOW), {
      need: 'accessCode',
    });
    assert.equal(
      refusal(decideStart(reads({ test: locked, accessCodeMatches: false }), request({ accessCode: 'nope' }), NOW))
        .code,
      'FORBIDDEN',
    );
    assert.ok(
      'start' in decideStart(reads({ test: locked, accessCodeMatches: true }), request({ accessCode: 'open' }), NOW),
    );
    // A readable code asks the same way.
    assert.deepEqual(
      decideStart(reads({ test: test({ access_code: 'Room-12' }) }), request({ accessCode: 'x' }), NOW),
      {
        need: 'accessCode',
      },
    );
    // An administrator starting for a student is not asked for it.
    assert.ok('start' in decideStart(reads({ test: locked }), request({ accessCode: null }), NOW));
  });

  it('asks for the paper only past those checks, then refuses once max_attempts are used', () => {
    const closed = reads({ test: test({ closes_at: iso(NOW - 1) }), paper: undefined });
    assert.equal(refusal(decideStart(closed, request(), NOW)).code, 'CONFLICT');
    assert.deepEqual(decideStart(reads({ paper: undefined }), request(), NOW), { need: 'paper' });
    const capped = { ...paper, version: { ...version, test: { ...version.test, max_attempts: 1 } } };
    assert.match(
      refusal(decideStart(reads({ paper: capped, slot: slotWith({ count: 1 }) }), request(), NOW)).message,
      /All 1 attempts/,
    );
    // An override raises it for one student.
    assert.ok(
      'start' in
        decideStart(
          reads({ paper: capped, slot: slotWith({ count: 1 }), override: { max_attempts: 2 } }),
          request(),
          NOW,
        ),
    );
  });

  it('refuses a Guest when no seat of its code has room', () => {
    const code = { code: 'ABC', revoked: false, expires_at: null } as unknown as StoredShareCode;
    const decision = decideStart(
      reads({ shareCode: code, seat: null }),
      request({ guest: { code: 'ABC', name: null } }),
      NOW,
    );
    assert.deepEqual(refusal(decision), {
      code: 'CONFLICT',
      message: 'This share code has been used as many times as it allows',
    });
  });
});

describe('decideStart: an attempt already in progress', () => {
  it('is resumed while its time runs: a new token hash issued to the caller, the test on_site_only, an attempt_resumed record, nothing created', () => {
    const slot = slotWith({ in_progress: running(iso(NOW + 60_000)) });
    const admin = { uid: 'a1', role: 'client_admin' as const };
    const decision = decideStart(
      reads({ slot, test: test({ on_site_only: 1 }) }),
      request({ startedBy: 'a1', tokenIssuedTo: admin }),
      NOW,
    );
    assert.ok('resume' in decision);
    assert.equal(decision.resume.attemptId, 'c1.old');
    assert.deepEqual(decision.resume.update, {
      token_hash: 'hash',
      token_issued_to: admin,
      on_site_only: 1,
      seb: null,
    });
    assert.deepEqual(
      decision.resume.audits.map((a) => a.type),
      ['attempt_resumed'],
    );
  });

  it('is resumed without the window, cooldown or max_attempts being asked again', () => {
    const slot = slotWith({ count: 3, in_progress: running(iso(NOW + 60_000)) });
    const shut = test({ closes_at: iso(NOW - 1), max_attempts: 1 });
    assert.ok('resume' in decideStart(reads({ slot, test: shut, paper: undefined }), request(), NOW));
  });

  it('past its deadline and grace is read, closed first, and a new attempt started; the cooldown counts from its expires_at', () => {
    const expiresAt = iso(NOW - 60_000);
    const slot = slotWith({ in_progress: running(expiresAt) });
    assert.deepEqual(decideStart(reads({ slot }), request(), NOW), { need: 'running' });
    const overdue = { id: 'c1.old', status: 'in_progress', expires_at: expiresAt } as StoredAttempt;
    const decision = decideStart(reads({ slot, running: overdue }), request(), NOW);
    assert.ok('start' in decision);
    assert.equal(decision.start.closeOverdue, true);
    assert.equal(decision.start.slot.last_submitted_at, expiresAt);
    assert.equal(decision.start.slot.count, 2);
  });

  it('whose document is gone (read, because a resume failed) is started afresh, nothing closed', () => {
    const slot = slotWith({ in_progress: running(iso(NOW + 60_000)) });
    assert.deepEqual(decideStart(reads({ slot }), request({ readRunning: true }), NOW), { need: 'running' });
    const decision = decideStart(reads({ slot, running: null }), request({ readRunning: true }), NOW);
    assert.ok('start' in decision);
    assert.equal(decision.start.closeOverdue, false);
  });
});

describe('decideStart: assignment to classes', () => {
  const assigned = test({ assigned_class_ids: ['class-a'] });
  const inClass = (classIds: string[]) => ({ role: 'student', class_ids: classIds });
  const self = request({ checkAssignment: true });

  it('refuses a student outside the assigned classes with the very refusal of a missing test', () => {
    const missing = decideStart(reads({ test: undefined }), self, NOW);
    const unassigned = decideStart(reads({ test: assigned, profile: inClass(['class-b']) }), self, NOW);
    assert.deepEqual(refusal(unassigned), refusal(missing));
    assert.equal(refusal(unassigned).code, 'NOT_FOUND');
  });

  it('refuses it before telling a draft apart (no 409 that would show the test exists)', () => {
    const draft = test({ assigned_class_ids: ['class-a'], status: 'draft', version: null });
    assert.equal(refusal(decideStart(reads({ test: draft, profile: inClass([]) }), self, NOW)).code, 'NOT_FOUND');
  });

  it('starts a student of an assigned class, and anyone on a test assigned to none (or stored before assignments)', () => {
    assert.ok('start' in decideStart(reads({ test: assigned, profile: inClass(['class-b', 'class-a']) }), self, NOW));
    assert.ok(
      'start' in decideStart(reads({ test: test({ assigned_class_ids: [] }), profile: inClass([]) }), self, NOW),
    );
    assert.ok('start' in decideStart(reads({ test: test(), profile: undefined }), self, NOW));
  });

  it('lets a student removed from the class resume its attempt in progress, but not start a new one once it is over', () => {
    const slot = slotWith({ in_progress: running(iso(NOW + 60_000)) });
    assert.ok('resume' in decideStart(reads({ test: assigned, slot, profile: inClass([]) }), self, NOW));
    const over = slotWith({ in_progress: running(iso(NOW - 60_000)) });
    const overdue = { id: 'c1.old', status: 'in_progress', expires_at: iso(NOW - 60_000) } as StoredAttempt;
    const decision = decideStart(
      reads({ test: assigned, slot: over, running: overdue, profile: inClass([]) }),
      self,
      NOW,
    );
    assert.equal(refusal(decision).code, 'NOT_FOUND');
  });

  it('does not bind an administrator starting for a student, nor a Guest with a share code', () => {
    const forStudent = request({ checkStudentProfile: true, checkAssignment: false, startedBy: 'admin' });
    assert.ok('start' in decideStart(reads({ test: assigned, profile: inClass([]) }), forStudent, NOW));
    const guest = request({ guest: { code: 'CODE', name: null } });
    const code = { code: 'CODE', revoked: false, expires_at: null } as StoredShareCode;
    assert.ok('start' in decideStart(reads({ test: assigned, shareCode: code, seat: { used: 0 } }), guest, NOW));
  });

  it('keeps the student’s classes on the attempt (a Guest’s: none)', () => {
    const decision = decideStart(reads({ test: assigned, profile: inClass(['class-a', 'class-b']) }), self, NOW);
    assert.ok('start' in decision);
    assert.deepEqual(decision.start.attempt.class_ids, ['class-a', 'class-b']);
    const noProfile = decideStart(reads({ profile: undefined }), request(), NOW);
    assert.ok('start' in noProfile);
    assert.deepEqual(noProfile.start.attempt.class_ids, []);
  });
});

describe('decideStart: class overrides', () => {
  const withClassOverrides = (fields: Partial<StoredTest> = {}) =>
    test({
      class_overrides: {
        'class-a': { timer: 60, max_attempts: 1, set_by: 'admin', updated_at: iso(0) },
        'class-b': { timer: 90, closes_at: iso(NOW + 3_600_000), set_by: 'admin', updated_at: iso(0) },
      },
      ...fields,
    });
  const inClass = (classIds: string[]) => ({ role: 'student', class_ids: classIds });

  it('gives a student its classes’ most generous timer', () => {
    const decision = decideStart(
      reads({ test: withClassOverrides(), profile: inClass(['class-a', 'class-b']) }),
      request(),
      NOW,
    );
    assert.ok('start' in decision);
    // class-b: 90 minutes, but its closes_at (60 minutes away) comes first.
    assert.equal(decision.start.attempt.expires_at, iso(NOW + 3_600_000));
    const onlyA = decideStart(reads({ test: withClassOverrides(), profile: inClass(['class-a']) }), request(), NOW);
    assert.ok('start' in onlyA);
    assert.equal(onlyA.start.attempt.expires_at, iso(NOW + 60 * 60_000));
  });

  it('lets the student’s own override win field by field', () => {
    const decision = decideStart(
      reads({ test: withClassOverrides(), profile: inClass(['class-a']), override: { timer: 20 } }),
      request(),
      NOW,
    );
    assert.ok('start' in decision);
    assert.equal(decision.start.attempt.expires_at, iso(NOW + 20 * 60_000));
  });

  it('applies a class’s max_attempts and window to new attempts', () => {
    const used = slotWith({ count: 1 });
    const refused = decideStart(
      reads({ test: withClassOverrides(), profile: inClass(['class-a']), slot: used }),
      request(),
      NOW,
    );
    assert.equal(refusal(refused).code, 'CONFLICT');
    const shut = withClassOverrides({ closes_at: iso(NOW - 1000) });
    assert.equal(
      refusal(decideStart(reads({ test: shut, profile: inClass(['class-a']) }), request(), NOW)).code,
      'CONFLICT',
    );
    assert.ok('start' in decideStart(reads({ test: shut, profile: inClass(['class-b']) }), request(), NOW));
  });

  it('gives a Guest none of them', () => {
    const guest = request({ guest: { code: 'CODE', name: null } });
    const code = { code: 'CODE', revoked: false, expires_at: null } as StoredShareCode;
    const decision = decideStart(
      reads({ test: withClassOverrides(), profile: inClass(['class-a']), shareCode: code, seat: { used: 0 } }),
      guest,
      NOW,
    );
    assert.ok('start' in decision);
    assert.equal(decision.start.attempt.expires_at, iso(NOW + 30 * 60_000));
    assert.deepEqual(decision.start.attempt.class_ids, []);
  });
});

describe('startDecision.ts', () => {
  it('imports nothing of Firebase', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'functions', 'src', 'attempts', 'startDecision.ts'), 'utf8');
    assert.doesNotMatch(text, /from\s+['"](firebase|@google-cloud|\.\.\/firestore|\.\/frozenReads|\.\/starting)/);
  });
});
