import { newAttemptId } from '../../../functions/src/attempts/attemptLookup';
import type { AttemptSlot, StoredAttempt } from '../../../functions/src/attempts/documents';
import { hashAttemptToken, newAttemptToken } from '../../../functions/src/attempts/tokens';
import { emptyCounts } from '../../../functions/src/attempts/integrity/eventRules';
import type { StoredIntegritySummary } from '../../../functions/src/attempts/integrity/documents';
import { adminDb } from '../../support/admin';
import { publishedTest } from './attempts';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for integrity events. Attempts in progress written straight into
// Firestore, taking turns: one taking events (each run's client_seq new; the
// slot of its test and student names it in progress, as a start writes it), one
// whose summary already holds 2,000 events (409, or duplicates), one submitted
// (409), and one that requires Safe Exam Browser, sent SEB headers that are
// absent, too short, not hex, or well-formed but wrong (400 or 403).

const SEB_KEY = 'f'.repeat(64);
const SEB_HEADERS: Array<Record<string, string>> = [
  {},
  { 'X-SafeExamBrowser-ConfigKeyHash': 'abc' },
  { 'X-SafeExamBrowser-RequestHash': 'z'.repeat(64) },
  { 'X-SafeExamBrowser-ConfigKeyHash': 'A'.repeat(64), 'X-SafeExamBrowser-RequestHash': '0'.repeat(65) },
  { 'X-SafeExamBrowser-ConfigKeyHash': '0'.repeat(64) },
];

interface Taking {
  id: string;
  token: string;
  stored: StoredAttempt;
}

interface Prepared {
  taking: Taking;
  full: Taking;
  submitted: Taking;
  seb: Taking;
  turns: number;
  seq: number;
}

async function attempt(
  clientId: string,
  testId: string,
  questionIds: string[],
  studentId: string,
  fields: Partial<StoredAttempt> = {},
): Promise<Taking> {
  const id = newAttemptId(clientId);
  const token = newAttemptToken();
  const now = Date.now();
  const stored: StoredAttempt = {
    id, client_id: clientId, test_id: testId, version: 1, student_id: studentId, guest: false, guest_name: null, share_code: null,
    started_by: studentId, status: 'in_progress', started_at: new Date(now).toISOString(), expires_at: new Date(now + 3_600_000).toISOString(),
    submitted_at: null, auto_submitted: false, answers: {}, question_order: questionIds, token_hash: hashAttemptToken(token), score: null,
    total_marks: questionIds.length, results: null, ...fields,
  };
  await adminDb.collection('clients').doc(clientId).collection('attempts').doc(id).set(stored);
  return { id, token, stored };
}

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const student = world.tenant.student.uid;
    const { testId, questionIds } = await publishedTest(clientId, world.tenant.admin.uid);
    const [taking, full, submitted, seb] = await Promise.all([
      attempt(clientId, testId, questionIds, student),
      attempt(clientId, testId, questionIds, student),
      attempt(clientId, testId, questionIds, student, { status: 'submitted', submitted_at: new Date().toISOString(), score: 0 }),
      attempt(clientId, testId, questionIds, student, { seb: { config_keys: [SEB_KEY], browser_exam_keys: [SEB_KEY] } }),
    ]);
    const summary: StoredIntegritySummary = {
      attempt_id: full.id, total: 2_000, counts: { ...emptyCounts(), focus_lost: 2_000 }, last_event: null, updated_at: new Date().toISOString(),
    };
    await adminDb.collection('clients').doc(clientId).collection('attempts').doc(full.id).collection('integrity_summary').doc('summary').set(summary);
    const slot: AttemptSlot = {
      test_id: testId, student_id: student, client_id: clientId, count: 4,
      in_progress: { attempt_id: taking.id, version: 1, started_at: taking.stored.started_at, expires_at: taking.stored.expires_at },
    };
    await adminDb.collection('clients').doc(clientId).collection('tests').doc(testId).collection('attempt_slots').doc(student).set(slot);
    return { taking, full, submitted, seb, turns: 0, seq: 0 };
  },
  seeds: [
    {
      operation: 'post /api/attempts/{attemptId}/events',
      request: (w, p: Prepared) => {
        const turn = p.turns++;
        const target = [p.taking, p.full, p.submitted, p.seb][turn % 4];
        return {
          token: w.tenant.student.token,
          params: { attemptId: target.id },
          query: { attempt_token: target.token },
          headers: target === p.seb ? SEB_HEADERS[Math.floor(turn / 4) % SEB_HEADERS.length] : undefined,
          body: {
            events: [
              { type: 'focus_lost', at: new Date().toISOString(), client_seq: (p.seq += 1) },
              { type: 'paste', at: new Date(Date.now() - 1_000).toISOString(), client_seq: (p.seq += 1) },
            ],
          },
        };
      },
    },
    {
      operation: 'get /api/attempts/{attemptId}/events',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { attemptId: p.taking.id },
        query: { page: '1', limit: '5' },
      }),
    },
  ],
};
