import { randomUUID } from 'node:crypto';
import { adminDb } from '../support/admin';
import { freshIp, post, type RequestOptions } from '../support/http';

// Questions and folders are written straight through the Admin SDK in the
// shapes their feature stores, so these tests do not depend on its endpoints.

export const clientDoc = (clientId: string) => adminDb.collection('clients').doc(clientId);
export const testDoc = (clientId: string, testId: string) => clientDoc(clientId).collection('tests').doc(testId);
export const versionDoc = (clientId: string, testId: string, version: number) =>
  testDoc(clientId, testId).collection('versions').doc(String(version));
export const shareCodeDoc = (code: string) => adminDb.collection('share_codes').doc(code);

export interface QuestionFixture {
  id: string;
  client_id: string;
  folder_id: string | null;
  /** The bank's name for it (optional): never shown to takers. */
  title?: string;
  question_text: string;
  question_type: 'multiple_choice' | 'multiple_select' | 'true_false' | 'short_answer' | 'numeric';
  options: string[];
  correct_answer: string;
  tolerance: number | null;
  marks: number;
  difficulty: 'easy' | 'medium' | 'hard';
  created_at: string;
  updated_at: string;
}

export async function writeQuestion(
  clientId: string,
  overrides: Partial<QuestionFixture> = {},
): Promise<QuestionFixture> {
  const now = new Date().toISOString();
  const question: QuestionFixture = {
    id: randomUUID(),
    client_id: clientId,
    folder_id: null,
    question_text: 'What is 2 + 2?',
    question_type: 'multiple_choice',
    options: ['3', '4', '5'],
    correct_answer: '4',
    tolerance: null,
    marks: 2,
    difficulty: 'easy',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await clientDoc(clientId).collection('questions').doc(question.id).set(question);
  return question;
}

export async function writeFolder(
  clientId: string,
  name = 'Algebra',
): Promise<{ id: string; client_id: string; name: string }> {
  const now = new Date().toISOString();
  const folder = { id: randomUUID(), client_id: clientId, name, created_at: now, updated_at: now };
  await clientDoc(clientId).collection('folders').doc(folder.id).set(folder);
  return folder;
}

/** Each request from an address of its own, so the per-IP limit never interferes with what a test checks. */
export const as = (token?: string): RequestOptions => ({ token, ip: freshIp() });

export const validTest = (questionIds: string[], extra: Record<string, unknown> = {}) => ({
  test_name: 'Algebra midterm',
  timer: 45,
  shuffle: 1,
  allow_review: 1,
  negative_marking: 0,
  status: 'draft',
  question_ids: questionIds,
  ...extra,
});

export async function createTestAs(token: string, body: Record<string, unknown>, o: RequestOptions = {}): Promise<any> {
  const res = await post('/api/tests', body, { ...as(token), ...o });
  if (res.status !== 201) throw new Error(`creating a test failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A draft with `questions` questions (written directly), created through the API. */
export async function draftWithQuestions(
  token: string,
  clientId: string,
  questions = 2,
  extra: Record<string, unknown> = {},
) {
  const written = await Promise.all(
    Array.from({ length: questions }, (_, i) => writeQuestion(clientId, { question_text: `Question ${i + 1}` })),
  );
  const test = await createTestAs(
    token,
    validTest(
      written.map((q) => q.id),
      extra,
    ),
  );
  return { test, questions: written };
}

export async function publishedTest(token: string, clientId: string, questions = 2) {
  const draft = await draftWithQuestions(token, clientId, questions);
  const res = await post(`/api/tests/${draft.test.id}/publish`, undefined, as(token));
  if (res.status !== 200) throw new Error(`publishing failed: ${res.status} ${res.text}`);
  return { test: res.body, questions: draft.questions };
}

/** An attempt on the test, as the attempts feature will store it (only test_id matters here). */
export async function writeAttempt(clientId: string, testId: string): Promise<string> {
  const id = randomUUID();
  await clientDoc(clientId)
    .collection('attempts')
    .doc(id)
    .set({ id, test_id: testId, client_id: clientId, status: 'in_progress' });
  return id;
}
