import { adminDb } from '../support/admin';
import { api, get, patch, post } from '../support/http';
import { as, clientDoc, testDoc } from '../exams/fixtures';
import { attemptDoc, publishTest, slotDoc } from '../attempts/fixtures';

// The sittings endpoints as a client calls them, and the few documents the
// HTTP tests set up directly (a start moved back in time, a slot's last
// submission), in the shapes the attempts feature stores.

export const MIN = 60_000;
/** An instant `ms` from now, ISO 8601 UTC. */
export const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();
export const msBetween = (from: string, to: string) => Date.parse(to) - Date.parse(from);

/** A published test of 2 questions (known key "4", 2 marks each), no shuffle, timer 30 unless `extra` says otherwise. */
export async function sittingTest(adminToken: string, clientId: string, extra: Record<string, unknown> = {}) {
  return publishTest(adminToken, clientId, { count: 2, extra: { timer: 30, ...extra } });
}

export const patchTest = (token: string, testId: string, body: unknown) =>
  patch(`/api/tests/${testId}`, body, as(token));

export const putOverride = (token: string, testId: string, studentId: string, body: unknown) =>
  api('PUT', `/api/tests/${testId}/overrides/${studentId}`, { ...as(token), body });
export const deleteOverride = (token: string, testId: string, studentId: string) =>
  api('DELETE', `/api/tests/${testId}/overrides/${studentId}`, as(token));
export const listOverrides = (token: string, testId: string, query = '') =>
  get(`/api/tests/${testId}/overrides${query}`, as(token));

export const getAccommodation = (token: string, uid: string) => get(`/api/users/${uid}/accommodations`, as(token));
export const putAccommodation = (token: string, uid: string, body: unknown) =>
  api('PUT', `/api/users/${uid}/accommodations`, { ...as(token), body });

export const extendAttempt = (token: string, attemptId: string, body: unknown) =>
  post(`/api/attempts/${attemptId}/extend`, body, as(token));
export const extendTest = (token: string, testId: string, body: unknown) =>
  post(`/api/tests/${testId}/extend`, body, as(token));

export const submit = (token: string, attemptId: string) =>
  post(`/api/attempts/${attemptId}/submit`, undefined, as(token));
export const saveAnswer = (token: string, attemptId: string, questionId: string, answer: string) =>
  post(`/api/attempts/${attemptId}/answers`, { question_id: questionId, student_answer: answer }, as(token));

export const storedAttempt = async (clientId: string, attemptId: string) =>
  (await attemptDoc(clientId, attemptId).get()).data()!;
export const storedTest = async (clientId: string, testId: string) => (await testDoc(clientId, testId).get()).data()!;

/**
 * Moves an attempt's start (and its deadline, its saved answers and its slot's
 * copy) `ms` into the past, as if it had been started that long before: the
 * time left is unchanged, but a new deadline computed from started_at moves.
 */
export async function backdate(clientId: string, attemptId: string, ms: number): Promise<void> {
  const ref = attemptDoc(clientId, attemptId);
  const attempt = (await ref.get()).data()!;
  const back = (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
  const answers = Object.fromEntries(
    Object.entries<any>(attempt.answers ?? {}).map(([id, a]) => [id, { ...a, saved_at: back(a.saved_at) }]),
  );
  await ref.update({ started_at: back(attempt.started_at), expires_at: back(attempt.expires_at), answers });
  const slot = slotDoc(clientId, attempt.test_id, attempt.student_id);
  if ((await slot.get()).get('in_progress.attempt_id') === attemptId) {
    await slot.update({
      'in_progress.started_at': back(attempt.started_at),
      'in_progress.expires_at': back(attempt.expires_at),
    });
  }
}

/** Sets when the student's last attempt of the test was submitted (the cooldown counts from it). */
export const setLastSubmitted = (clientId: string, testId: string, studentId: string, at: string) =>
  slotDoc(clientId, testId, studentId).update({ last_submitted_at: at });

/** Audit records of one type in an organization, newest first, read straight from Firestore. */
export async function auditOf(clientId: string, eventType: string) {
  const snap = await adminDb
    .collection('audit_logs')
    .where('client_id', '==', clientId)
    .where('event_type', '==', eventType)
    .get();
  return snap.docs.map((d) => d.data()).sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
}

/** The test's override document for a student, as stored. */
export const storedOverride = async (clientId: string, testId: string, studentId: string) =>
  (await clientDoc(clientId).collection('tests').doc(testId).collection('overrides').doc(studentId).get()).data();
