import { randomUUID } from 'node:crypto';
import { newAttemptId } from '../../../functions/src/attempts/attemptLookup';
import { answerOverBudget, ATTEMPT_BUDGET_BYTES, attemptBytes } from '../../../functions/src/attempts/rules';
import type { StoredAnswer, StoredAttempt } from '../../../functions/src/attempts/documents';
import { hashAttemptToken, newAttemptToken } from '../../../functions/src/attempts/tokens';
import { seatShardCapacities } from '../../../functions/src/exams/seats';
import { generateShareCode } from '../../../functions/src/exams/shareCodeText';
import type { StoredTest, TestVersion } from '../../../functions/src/exams/documents';
import { hashAccessCode } from '../../../functions/src/sittingRules/accessCode';
import type { StoredOverride } from '../../../functions/src/sittings/documents';
import { adminDb } from '../../support/admin';
import { pooledAttempt, pooledEssayTest, versionProblems, type PooledEssayTest } from './grading';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for attempts. A published test with its frozen version, a share code,
// and attempts in progress (with known tokens) are written straight into
// Firestore in the shapes the service stores. The submit seed has an attempt
// of its own: after its first run it answers 409, as a submitted attempt should.
// The answering attempt sits a few hundred bytes under its size budget (long
// answers to a test of 160 questions), so that a hostile answer the schema
// lets through meets the size refusal (413) as well as the save. Its answers
// are fuzzed in both shapes of the body: one answer, and a batch of two, each
// with a client_seq newer than the last.
// The start seed sends the access code its tests require, and takes turns: a
// Guest redeeming a share code (started once, then resumed), and a student
// whose override allows one attempt, already used, so that every run reaches
// the access code's check (right: 409 for the used attempt; wrong: 403).
// Every seed also takes its turn on a test with a pool and an essay
// (seeds/grading.ts): a start draws from the pool; answers go to an essay, 10,000
// characters of 2,000 words (both at their limits), and to the question the
// attempt drew; a submit leaves its essay pending in the grading queue.

/** A class of the organization, written as the classes feature stores it (the class filters' seeds name it). */
export async function fuzzClass(clientId: string): Promise<string> {
  const id = `fuzz-class-${randomUUID().slice(0, 8)}`;
  const now = new Date().toISOString();
  await clientRef(clientId).collection('classes').doc(id).set({ id, client_id: clientId, name: id, code: null, member_count: 0, created_at: now, updated_at: now });
  return id;
}

interface Prepared {
  classId: string;
  starts: number;
  /** The client_seq of the next answer sent: each seed's answers are newer than the last. */
  seq: number;
  spentTestId: string;
  testId: string;
  questionIds: string[];
  code: string;
  answering: { id: string; token: string; questionId: string; otherQuestionId: string; otherAnswer: string };
  submitting: { id: string; token: string };
  /** Turns of the answering and submit seeds: even on the attempts above, odd on the pooled test's. */
  saves: number;
  batches: number;
  submits: number;
  pooled: PooledEssayTest;
  essayAnswering: { id: string; token: string; drawn: string };
  essaySubmitting: { id: string; token: string };
}

/** An essay answer at both of its limits: 10,000 characters, 2,000 words. */
const LONGEST_ESSAY = 'word '.repeat(2_000);

const clientRef = (clientId: string) => adminDb.collection('clients').doc(clientId);

export async function publishedTest(clientId: string, publishedBy: string, count = 2): Promise<{ testId: string; questionIds: string[] }> {
  const now = new Date().toISOString();
  const questions = Array.from({ length: count }, (_, i) => i + 1).map((n) => ({
    id: randomUUID(), question_text: `Fuzz attempt question ${n}`, question_type: 'multiple_choice', options: ['A', 'B'],
    correct_answer: 'A', tolerance: null, marks: 1, difficulty: 'easy',
  }));
  const test: StoredTest = {
    id: randomUUID(), client_id: clientId, test_name: 'Fuzz attempts test', timer: 60, shuffle: 1, allow_review: 1, negative_marking: 0,
    status: 'published', folder_id: null, question_ids: questions.map((q) => q.id), description: null, max_attempts: null,
    negative_mark_ratio: 0.25, created_at: now, updated_at: now, published_at: now, version: 1, assigned_class_ids: [], audience: ['*'],
  };
  const version: TestVersion = {
    version: 1, test_id: test.id, client_id: clientId, published_at: now, published_by: publishedBy,
    test: {
      test_name: test.test_name, timer: test.timer, shuffle: test.shuffle, allow_review: test.allow_review, negative_marking: test.negative_marking,
      description: null, max_attempts: null, negative_mark_ratio: 0.25, question_ids: test.question_ids,
    },
    questions, total_marks: count,
  };
  const testRef = clientRef(clientId).collection('tests').doc(test.id);
  await Promise.all([testRef.set(test), testRef.collection('versions').doc('1').set(version)]);
  return { testId: test.id, questionIds: test.question_ids };
}

async function attemptInProgress(clientId: string, testId: string, questionIds: string[], studentId: string, fill?: (path: string, attempt: StoredAttempt) => void) {
  // An id as the service makes it (`<clientId>.<random>`): the attempt is found from its id alone.
  const id = newAttemptId(clientId);
  const token = newAttemptToken();
  const started = new Date();
  const expires = new Date(started.getTime() + 60 * 60_000);
  const attempt: StoredAttempt = {
    id, client_id: clientId, test_id: testId, version: 1, student_id: studentId, guest: false, guest_name: null, share_code: null,
    started_by: studentId, status: 'in_progress', started_at: started.toISOString(), expires_at: expires.toISOString(), submitted_at: null,
    auto_submitted: false, answers: {}, question_order: questionIds, token_hash: hashAttemptToken(token), score: null, total_marks: questionIds.length, results: null,
  };
  const ref = clientRef(clientId).collection('attempts').doc(id);
  fill?.(ref.path, attempt);
  await ref.set(attempt);
  return { id, token };
}

/** Answers to every question but the first, as long as the limits allow, until the attempt is `headroom` bytes under its budget. */
const nearBudget = (headroom: number) => (path: string, attempt: StoredAttempt) => {
  const savedAt = new Date().toISOString();
  const longest = '語'.repeat(2000);
  const fits = (questionId: string, answer: StoredAnswer) =>
    !answerOverBudget(path, attempt, questionId, answer) &&
    attemptBytes(path, { ...attempt, answers: { ...attempt.answers, [questionId]: answer } }) <= ATTEMPT_BUDGET_BYTES - headroom;
  for (const questionId of attempt.question_order.slice(1)) {
    let length = longest.length;
    while (length > 0 && !fits(questionId, { answer: longest.slice(0, length), saved_at: savedAt })) length = Math.max(0, length - 50);
    if (length === 0) break;
    attempt.answers[questionId] = { answer: longest.slice(0, length), saved_at: savedAt };
  }
  const size = attemptBytes(path, attempt);
  if (size < ATTEMPT_BUDGET_BYTES - headroom - 300) throw new Error(`the fuzz attempt is ${size} bytes, not near its budget`);
};

async function shareCode(clientId: string, testId: string): Promise<string> {
  const code = generateShareCode();
  const capacities = seatShardCapacities(null);
  const ref = adminDb.collection('share_codes').doc(code);
  const batch = adminDb.batch();
  batch.set(ref, {
    code, client_id: clientId, test_id: testId, expires_at: null, max_uses: null, seat_shards: capacities.length, revoked: false,
    revoked_at: null, created_by: 'fuzz', created_at: new Date().toISOString(),
  });
  capacities.forEach((capacity, k) => batch.set(ref.collection('seats').doc(String(k)), { capacity, used: 0 }));
  await batch.commit();
  return code;
}

const ACCESS_CODE = 'fuzz-room-7';

/** Makes a test require ACCESS_CODE to start a new attempt. */
async function requireAccessCode(clientId: string, testId: string): Promise<void> {
  const access_code_hash = await hashAccessCode(ACCESS_CODE);
  await clientRef(clientId).collection('tests').doc(testId).update({ access_code_hash });
}

/** The student has used the one attempt its override allows on the test (none in progress). */
async function attemptsSpent(clientId: string, testId: string, studentId: string): Promise<void> {
  const now = new Date().toISOString();
  const override: StoredOverride = { test_id: testId, student_id: studentId, client_id: clientId, max_attempts: 1, set_by: 'fuzz', updated_at: now };
  const testRef = clientRef(clientId).collection('tests').doc(testId);
  await Promise.all([
    testRef.collection('overrides').doc(studentId).set(override),
    testRef.collection('sitting_counts').doc('overrides').set({ count: 1 }),
    testRef.collection('attempt_slots').doc(studentId).set({ test_id: testId, student_id: studentId, client_id: clientId, count: 1, in_progress: null, last_submitted_at: null }),
  ]);
}

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const { testId, questionIds } = await publishedTest(clientId, world.tenant.admin.uid);
    const other = await publishedTest(clientId, world.tenant.admin.uid);
    const many = await publishedTest(clientId, world.tenant.admin.uid, 160);
    const spent = await publishedTest(clientId, world.tenant.admin.uid);
    const [code, answering, submitting] = await Promise.all([
      shareCode(clientId, testId),
      attemptInProgress(clientId, many.testId, many.questionIds, world.tenant.student.uid, nearBudget(400)),
      attemptInProgress(clientId, other.testId, other.questionIds, world.tenant.student.uid),
      requireAccessCode(clientId, testId),
      requireAccessCode(clientId, spent.testId),
      attemptsSpent(clientId, spent.testId, world.tenant.student.uid),
    ]);
    const stored = (await clientRef(clientId).collection('attempts').doc(answering.id).get()).data() as StoredAttempt;
    const pooled = await pooledEssayTest(clientId, world.tenant.admin.uid, 2_000);
    const [poolChoice, poolNumber] = pooled.poolIds;
    const essayAnswering = await pooledAttempt(pooled, clientId, world.tenant.student.uid, poolChoice, {}, 'in_progress');
    const essaySubmitting = await pooledAttempt(
      pooled, clientId, world.tenant.student.uid, poolNumber, { [pooled.choiceId]: 'A', [pooled.essayId]: 'An essay to grade.', [poolNumber]: '3.14' }, 'in_progress',
    );
    return {
      classId: await fuzzClass(clientId),
      saves: 0,
      batches: 0,
      submits: 0,
      pooled,
      essayAnswering: { ...essayAnswering, drawn: poolChoice },
      essaySubmitting,
      starts: 0,
      seq: 0,
      spentTestId: spent.testId,
      testId,
      questionIds,
      code,
      answering: { ...answering, questionId: many.questionIds[0], otherQuestionId: many.questionIds[1], otherAnswer: stored.answers[many.questionIds[1]].answer },
      submitting,
    };
  },
  seeds: [
    {
      operation: 'post /api/attempts',
      request: (w, p: Prepared) =>
        [
          { token: w.guest.token, body: { share_code: p.code, guest_name: 'Fuzz guest', access_code: ACCESS_CODE } },
          { token: w.tenant.student.token, body: { test_id: p.spentTestId, access_code: ACCESS_CODE } },
          // The pooled test: drawn at the first start, resumed after.
          { token: w.tenant.student.token, body: { test_id: p.pooled.testId } },
        ][p.starts++ % 3],
    },
    {
      operation: 'get /api/attempts',
      request: (w, p: Prepared) => ({
        token: w.superAdmin.token,
        query: { client_id: w.tenant.clientId, test_id: p.testId, student_id: w.tenant.student.uid, status: 'in_progress', class_id: p.classId, page: '1', limit: '5' },
      }),
    },
    {
      operation: 'get /api/attempts/{attemptId}',
      request: (w, p: Prepared) => ({ token: w.tenant.student.token, params: { attemptId: p.answering.id }, query: { attempt_token: p.answering.token } }),
    },
    {
      operation: 'post /api/attempts/{attemptId}/answers',
      shape: 'SaveAnswer',
      request: (w, p: Prepared) =>
        p.saves++ % 2 === 0
          ? {
              token: w.tenant.student.token,
              params: { attemptId: p.answering.id },
              query: { attempt_token: p.answering.token },
              body: { question_id: p.answering.questionId, student_answer: 'A', client_seq: (p.seq += 1) },
            }
          : {
              token: w.tenant.student.token,
              params: { attemptId: p.essayAnswering.id },
              query: { attempt_token: p.essayAnswering.token },
              body: { question_id: p.pooled.essayId, student_answer: LONGEST_ESSAY, client_seq: (p.seq += 1) },
            },
    },
    {
      // Two items: one to the unanswered question, one sending the long answer stored again (the attempt stays near its budget).
      operation: 'post /api/attempts/{attemptId}/answers',
      shape: 'SaveAnswerBatch',
      request: (w, p: Prepared) =>
        p.batches++ % 2 === 0
          ? {
              token: w.tenant.student.token,
              params: { attemptId: p.answering.id },
              query: { attempt_token: p.answering.token },
              body: {
                answers: [
                  { question_id: p.answering.questionId, student_answer: 'A', client_seq: (p.seq += 1) },
                  { question_id: p.answering.otherQuestionId, student_answer: p.answering.otherAnswer },
                ],
              },
            }
          : {
              // The essay at its limits, and the question the attempt drew from the pool.
              token: w.tenant.student.token,
              params: { attemptId: p.essayAnswering.id },
              query: { attempt_token: p.essayAnswering.token },
              body: {
                answers: [
                  { question_id: p.pooled.essayId, student_answer: LONGEST_ESSAY, client_seq: (p.seq += 1) },
                  { question_id: p.essayAnswering.drawn, student_answer: 'B' },
                ],
              },
            },
    },
    {
      operation: 'post /api/attempts/{attemptId}/submit',
      request: (w, p: Prepared) => {
        const attempt = p.submits++ % 2 === 0 ? p.submitting : p.essaySubmitting;
        return { token: w.tenant.student.token, params: { attemptId: attempt.id }, query: { attempt_token: attempt.token } };
      },
    },
  ],
  // The pooled test's submit and its answers: scored, queued and counted in its analytics as a recomputation would.
  problems: (world: FuzzWorld, p: Prepared) => versionProblems(world.tenant.clientId, p.pooled.testId),
};
