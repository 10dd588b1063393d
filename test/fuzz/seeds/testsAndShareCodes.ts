import { randomUUID } from 'node:crypto';
import type { StoredClass } from '../../../functions/src/classes/documents';
import type { StoredTest } from '../../../functions/src/exams/documents';
import { writeShareCode } from '../../attempts/fixtures';
import { adminDb } from '../../support/admin';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for tests (exam definitions) and their share codes. Everything is
// written straight into Firestore in the shapes the service stores, one test
// per state a move starts from, so each seed is valid at least on its first run
// (later runs may meet 409 or 404 once the test has moved or gone). Tests are
// created and replaced with a pool, and the draft to publish has one, so that a
// publish freezes it.

interface Prepared {
  questionIds: string[];
  /** A folder of three questions (two easy): the pools' folder. */
  folderId: string;
  draft: string;
  toPublish: string;
  published: string;
  toArchive: string;
  archived: string;
  toDelete: string;
  code: string;
  /** Published, for a new version to be opened. */
  toOpen: string;
  /** Published with a new version being edited: one to edit, one to publish, one to discard. */
  editing: string;
  toRepublish: string;
  toDiscard: string;
  /** A class of the organization: created and replaced tests are assigned to it. */
  classId: string;
}

const clientRef = (clientId: string) => adminDb.collection('clients').doc(clientId);

async function writeQuestion(clientId: string, n: number, folderId: string | null = null, difficulty = 'easy'): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await clientRef(clientId).collection('questions').doc(id).set({
    id, client_id: clientId, folder_id: folderId, question_text: `Fuzz question ${n}`, question_type: 'multiple_choice',
    options: ['A', 'B'], correct_answer: 'A', tolerance: null, max_words: null, marks: 1, difficulty, created_at: now, updated_at: now,
  });
  return id;
}

async function writeFolder(clientId: string): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const name = `Fuzz pool folder ${id.slice(0, 8)}`;
  await clientRef(clientId).collection('folders').doc(id).set({ id, client_id: clientId, name, name_sort: name.toLowerCase(), created_at: now, updated_at: now });
  return id;
}

async function writeTest(
  clientId: string, questionIds: string[], status: StoredTest['status'], pools: StoredTest['pools'] = [], pending = false,
): Promise<string> {
  const now = new Date().toISOString();
  const published = status !== 'draft';
  const test: StoredTest = {
    id: randomUUID(), client_id: clientId, test_name: `Fuzz ${status} test`, timer: 30, shuffle: 0, allow_review: 1, negative_marking: 0,
    status, folder_id: null, question_ids: questionIds, description: null, max_attempts: null, negative_mark_ratio: 0.25,
    created_at: now, updated_at: now, published_at: published ? now : null, version: published ? 1 : null, pools,
    assigned_class_ids: [], audience: ['*'],
  };
  if (pending)
    test.pending_edit = {
      test_name: 'Fuzz next version', timer: 30, shuffle: 0, allow_review: 1, negative_marking: 0, folder_id: null, question_ids: questionIds,
      description: null, max_attempts: null, negative_mark_ratio: 0.25, pools: [], base_version: 1, opened_by: 'fuzz', opened_at: now, updated_at: now,
    };
  await clientRef(clientId).collection('tests').doc(test.id).set(test);
  if (published) {
    // Its version 1, frozen with its first question, so that a bank-changes run compares one.
    const frozen = { id: questionIds[0], question_text: 'Fuzz question 1 as frozen', question_type: 'multiple_choice', options: ['A', 'B'], correct_answer: 'A', tolerance: null, max_words: null, marks: 1, difficulty: 'easy' };
    await clientRef(clientId).collection('tests').doc(test.id).collection('versions').doc('1').set({
      version: 1, test_id: test.id, client_id: clientId, published_at: now, published_by: 'fuzz',
      test: { test_name: test.test_name, timer: 30, shuffle: 0, allow_review: 1, negative_marking: 0, description: null, max_attempts: null, negative_mark_ratio: 0.25, question_ids: [questionIds[0]] },
      questions: [frozen], total_marks: 1, pools: [], pool_freeze_id: null, revision: 0,
    });
  }
  return test.id;
}

/** A class as the classes feature stores it (classes/documents.ts). */
export async function writeClass(clientId: string): Promise<string> {
  const now = new Date().toISOString();
  const cls: StoredClass = { id: randomUUID(), client_id: clientId, name: `Fuzz class ${randomUUID().slice(0, 8)}`, code: null, member_count: 0, created_at: now, updated_at: now };
  await clientRef(clientId).collection('classes').doc(cls.id).set(cls);
  return cls.id;
}

// With every delivery setting, so that a valid run hashes an access code and checks a window, and a pool (its folder checked).
const testBody = (p: Prepared) => ({
  test_name: 'Fuzz test', timer: 20, shuffle: 1, allow_review: 0, negative_marking: 1, status: 'draft',
  question_ids: p.questionIds, description: 'Written by the fuzzer', max_attempts: 3, negative_mark_ratio: 0.5, folder_id: null,
  pools: [{ folder_id: p.folderId, difficulty: 'easy', draw: 2 }],
  opens_at: '2030-01-01T09:00:00+02:00', closes_at: '2030-01-01T11:00:00Z', access_code: 'fuzz-room-1',
  attempt_cooldown_minutes: 60, review_opens_at: '2030-01-02T00:00:00Z', assigned_class_ids: [p.classId],
});

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const questionIds = await Promise.all([1, 2].map((n) => writeQuestion(clientId, n)));
    const folderId = await writeFolder(clientId);
    await Promise.all([writeQuestion(clientId, 3, folderId), writeQuestion(clientId, 4, folderId), writeQuestion(clientId, 5, folderId, 'hard')]);
    const [draft, toPublish, published, toArchive, archived, toDelete] = await Promise.all([
      writeTest(clientId, questionIds, 'draft'),
      // Published with a pool of the folder: the publish freezes it.
      writeTest(clientId, questionIds, 'draft', [{ folder_id: folderId, difficulty: null, draw: 2 }]),
      writeTest(clientId, questionIds, 'published'),
      writeTest(clientId, questionIds, 'published'),
      writeTest(clientId, questionIds, 'archived'),
      writeTest(clientId, questionIds, 'draft'),
    ]);
    const [toOpen, editing, toRepublish, toDiscard] = await Promise.all([
      writeTest(clientId, questionIds, 'published'),
      writeTest(clientId, questionIds, 'published', [], true),
      writeTest(clientId, questionIds, 'published', [], true),
      writeTest(clientId, questionIds, 'published', [], true),
    ]);
    const [code, classId] = await Promise.all([writeShareCode(clientId, published, { max_uses: 50 }), writeClass(clientId)]);
    return { questionIds, folderId, draft, toPublish, published, toArchive, archived, toDelete, code, classId, toOpen, editing, toRepublish, toDiscard };
  },
  seeds: [
    {
      operation: 'get /api/tests',
      request: (w) => ({ token: w.superAdmin.token, query: { client_id: w.tenant.clientId, status: 'published', folder_id: 'none', page: '1', limit: '5' } }),
    },
    { operation: 'post /api/tests', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, body: testBody(p) }) },
    { operation: 'get /api/tests/{testId}', request: (w, p: Prepared) => ({ token: w.tenant.student.token, params: { testId: p.published } }) },
    { operation: 'get /api/tests/{testId}/export', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { testId: p.published }, query: { format: 'qti' } }) },
    { operation: 'put /api/tests/{testId}', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.draft }, body: testBody(p) }) },
    { operation: 'delete /api/tests/{testId}', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toDelete } }) },
    { operation: 'post /api/tests/{testId}/publish', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toPublish } }) },
    { operation: 'post /api/tests/{testId}/archive', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toArchive } }) },
    { operation: 'post /api/tests/{testId}/restore', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.archived } }) },
    { operation: 'post /api/tests/{testId}/new-version', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toOpen } }) },
    {
      operation: 'put /api/tests/{testId}/new-version',
      request: (w, p: Prepared) => {
        const { status: _status, opens_at: _o, closes_at: _c, access_code: _a, attempt_cooldown_minutes: _m, review_opens_at: _r, assigned_class_ids: _k, ...content } = testBody(p);
        return { token: w.tenant.admin.token, params: { testId: p.editing }, body: content };
      },
    },
    { operation: 'delete /api/tests/{testId}/new-version', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toDiscard } }) },
    { operation: 'post /api/tests/{testId}/new-version/publish', request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.toRepublish } }) },
    {
      operation: 'get /api/tests/{testId}/versions/{version}/bank-changes',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.published, version: '1' } }),
    },
    {
      operation: 'post /api/tests/{testId}/share-codes',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { testId: p.published },
        body: { expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), max_uses: 30 },
      }),
    },
    {
      operation: 'get /api/tests/{testId}/share-codes',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.published }, query: { page: '1', limit: '5' } }),
    },
    {
      operation: 'delete /api/tests/{testId}/share-codes/{code}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { testId: p.published, code: p.code } }),
    },
  ],
};
