import { seatShardCapacities } from '../../functions/src/exams/seats';
import { generateShareCode } from '../../functions/src/exams/shareCodeText';
import type { StoredShareCode } from '../../functions/src/exams/documents';
import { adminDb } from '../support/admin';
import { post, type ApiResponse, type RequestOptions } from '../support/http';
import { as, clientDoc, createTestAs, validTest, writeQuestion, type QuestionFixture } from '../exams/fixtures';

// Published tests, share codes and attempts for the attempts tests. Questions
// and share codes are written straight into Firestore in their features'
// shapes; tests are created and published through the API.

export const attemptDoc = (clientId: string, attemptId: string) =>
  clientDoc(clientId).collection('attempts').doc(attemptId);
export const slotDoc = (clientId: string, testId: string, studentId: string) =>
  clientDoc(clientId).collection('tests').doc(testId).collection('attempt_slots').doc(studentId);

/** One question of each type, with known keys: 1 + 2 + 1 + 1 + 1 = 6 marks. */
export async function mixedQuestions(clientId: string): Promise<QuestionFixture[]> {
  return Promise.all([
    writeQuestion(clientId, {
      question_text: 'Capital of France?',
      question_type: 'multiple_choice',
      options: ['Paris', 'Rome', 'Oslo'],
      correct_answer: 'Paris',
      marks: 1,
    }),
    writeQuestion(clientId, {
      question_text: 'Primes?',
      question_type: 'multiple_select',
      options: ['2', '3', '4'],
      correct_answer: '2|3',
      marks: 2,
    }),
    writeQuestion(clientId, {
      question_text: 'Water is wet',
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: 'True',
      marks: 1,
    }),
    writeQuestion(clientId, {
      question_text: 'Spell cat',
      question_type: 'short_answer',
      options: [],
      correct_answer: 'cat',
      marks: 1,
    }),
    writeQuestion(clientId, {
      question_text: 'Pi to 2 places',
      question_type: 'numeric',
      options: [],
      correct_answer: '3.14',
      tolerance: 0.01,
      marks: 1,
    }),
  ]);
}

/** The right answer to each of `mixedQuestions`, by question text. */
export const RIGHT: Record<string, string> = {
  'Capital of France?': 'Paris',
  'Primes?': '3|2',
  'Water is wet': 'true',
  'Spell cat': '  CAT ',
  'Pi to 2 places': '3.141',
};

/** A published test of the tenant (through the API), with its questions. */
export async function publishTest(
  adminToken: string,
  clientId: string,
  opts: { questions?: QuestionFixture[]; count?: number; extra?: Record<string, unknown>; baseUrl?: string } = {},
): Promise<{ test: any; questions: QuestionFixture[] }> {
  const questions =
    opts.questions ??
    (await Promise.all(
      Array.from({ length: opts.count ?? 3 }, (_, i) =>
        writeQuestion(clientId, { question_text: `Question ${i + 1}` }),
      ),
    ));
  const draft = await createTestAs(
    adminToken,
    validTest(
      questions.map((q) => q.id),
      { shuffle: 0, ...opts.extra },
    ),
    { baseUrl: opts.baseUrl },
  );
  const res = await post(`/api/tests/${draft.id}/publish`, undefined, { ...as(adminToken), baseUrl: opts.baseUrl });
  if (res.status !== 200) throw new Error(`publishing failed: ${res.status} ${res.text}`);
  return { test: res.body, questions };
}

/** A share code written as the tests feature stores it (with its seat shards). */
export async function writeShareCode(
  clientId: string,
  testId: string,
  opts: { max_uses?: number | null; expires_at?: string | null; revoked?: boolean } = {},
): Promise<string> {
  const max = opts.max_uses === undefined ? null : opts.max_uses;
  const capacities = seatShardCapacities(max);
  const code: StoredShareCode = {
    code: generateShareCode(),
    client_id: clientId,
    test_id: testId,
    expires_at: opts.expires_at ?? null,
    max_uses: max,
    seat_shards: capacities.length,
    revoked: opts.revoked ?? false,
    revoked_at: opts.revoked ? new Date().toISOString() : null,
    created_by: 'fixture',
    created_at: new Date().toISOString(),
  };
  const batch = adminDb.batch();
  const ref = adminDb.collection('share_codes').doc(code.code);
  batch.set(ref, code);
  capacities.forEach((capacity, k) => batch.set(ref.collection('seats').doc(String(k)), { capacity, used: 0 }));
  await batch.commit();
  return code.code;
}

/** Seats taken on a code: the sum over its shards. */
export async function seatsUsed(code: string): Promise<number> {
  const snap = await adminDb.collection('share_codes').doc(code).collection('seats').get();
  return snap.docs.reduce((sum, d) => sum + (d.get('used') as number), 0);
}

export const start = (token: string, body: Record<string, unknown>, o: RequestOptions = {}): Promise<ApiResponse> =>
  post('/api/attempts', body, { ...as(token), ...o });

export async function startOk(token: string, body: Record<string, unknown>, o: RequestOptions = {}): Promise<any> {
  const res = await start(token, body, o);
  if (res.status !== 201 && res.status !== 200) throw new Error(`starting failed: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * Moves an attempt back in time, as if its time had run out `secondsAgo`
 * seconds ago: its start, deadline and every saved answer's saved_at shift
 * together, so answers saved so far stay saved in time.
 */
export async function expire(clientId: string, attemptId: string, secondsAgo = 60): Promise<void> {
  const ref = attemptDoc(clientId, attemptId);
  const attempt = (await ref.get()).data()!;
  const shiftMs = Date.parse(attempt.expires_at) - (Date.now() - secondsAgo * 1000);
  const back = (iso: string) => new Date(Date.parse(iso) - shiftMs).toISOString();
  const answers = Object.fromEntries(
    Object.entries<any>(attempt.answers ?? {}).map(([id, a]) => [id, { ...a, saved_at: back(a.saved_at) }]),
  );
  await ref.update({ started_at: back(attempt.started_at), expires_at: back(attempt.expires_at), answers });
  const slot = slotDoc(clientId, attempt.test_id, attempt.student_id);
  const slotData = (await slot.get()).data();
  if (slotData?.in_progress?.attempt_id === attemptId) {
    await slot.update({
      'in_progress.started_at': back(attempt.started_at),
      'in_progress.expires_at': back(attempt.expires_at),
    });
  }
}

export const tokenQuery = (token: string) => `?attempt_token=${encodeURIComponent(token)}`;
