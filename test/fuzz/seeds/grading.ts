import { randomUUID } from 'node:crypto';
import { newAttemptId } from '../../../functions/src/attempts/attemptLookup';
import type { StoredAttempt } from '../../../functions/src/attempts/documents';
import { gradingItems, paperOf, scoredFields, type VersionForAttempt } from '../../../functions/src/attempts/rules';
import { hashAttemptToken, newAttemptToken } from '../../../functions/src/attempts/tokens';
import { addSums, emptySums, sameSums, type VersionSums } from '../../../functions/src/analytics/statistics';
import { contributionOf, STATS_SHARDS } from '../../../functions/src/analytics/store';
import type { FrozenQuestion, StoredTest, TestVersion } from '../../../functions/src/exams/documents';
import { adminDb } from '../../support/admin';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for grading essays and regrading a published version: a published test
// with pools and an essay, and its attempts, written straight into Firestore in
// the shapes the service stores (the submit's grading queue items and
// analytics sums included). A grade may be changed again, so the grade seed is
// valid on every run; the regrade seed takes turns: a dry run, and corrections
// applied to a fixed question and to a pool's, back and forth.
//
// After the fuzz, a correction and a grade of each attempt are sent as a client
// would (afterRuns); then its problems (versionProblems) check what no request may leave half done:
// every submitted attempt scored on the version as it stands (its corrections
// and its grades), the queue holding exactly the essays still to grade, the
// version's revision on the test, and the analytics sums equal to a
// recomputation from the attempts.

const clientRef = (clientId: string) => adminDb.collection('clients').doc(clientId);
const testRef = (clientId: string, testId: string) => clientRef(clientId).collection('tests').doc(testId);

export interface PooledEssayTest {
  testId: string;
  folderId: string;
  choiceId: string;
  essayId: string;
  /** The pool's frozen questions: a multiple_choice and a numeric one. */
  poolIds: [string, string];
  version: TestVersion;
  /** The frozen pool questions by id. */
  frozen: Map<string, FrozenQuestion>;
}

/**
 * A published test of a multiple_choice question (2 marks, key A), an essay (5
 * marks, at most `maxWords` words) and a pool drawing 1 of two questions (a
 * multiple_choice, key A, and a numeric, 3.14 ± 0.01), frozen into version 1 as a publish freezes it.
 */
export async function pooledEssayTest(clientId: string, publishedBy: string, maxWords: number | null = 50): Promise<PooledEssayTest> {
  const now = new Date().toISOString();
  const folderId = randomUUID();
  const folderName = `Fuzz pool ${folderId.slice(0, 8)}`;
  await clientRef(clientId).collection('folders').doc(folderId).set({ id: folderId, client_id: clientId, name: folderName, name_sort: folderName.toLowerCase(), created_at: now, updated_at: now });
  const question = (over: Partial<FrozenQuestion>): FrozenQuestion => ({
    id: randomUUID(), question_text: 'Fuzz pooled question', question_type: 'multiple_choice', options: ['A', 'B'], correct_answer: 'A', tolerance: null, marks: 1, difficulty: 'easy', ...over,
  });
  const choice = question({ question_text: 'Fuzz fixed choice', marks: 2 });
  const essay = question({ question_text: 'Fuzz essay', question_type: 'essay', options: [], correct_answer: '', marks: 5, max_words: maxWords });
  const poolChoice = question({ question_text: 'Fuzz pool choice' });
  const poolNumber = question({ question_text: 'Fuzz pool number', question_type: 'numeric', options: [], correct_answer: '3.14', tolerance: 0.01 });
  const poolIds = [poolChoice.id, poolNumber.id].sort() as [string, string];
  // The bank's questions in the pool's folder (what a publish reads), and their frozen copies.
  await Promise.all(
    [poolChoice, poolNumber].map((q) =>
      clientRef(clientId).collection('questions').doc(q.id).set({ ...q, client_id: clientId, folder_id: folderId, max_words: null, created_at: now, updated_at: now }),
    ),
  );
  const freezeId = randomUUID();
  const test: StoredTest = {
    id: randomUUID(), client_id: clientId, test_name: 'Fuzz pools and essays', timer: 60, shuffle: 1, allow_review: 1, negative_marking: 1,
    status: 'published', folder_id: null, question_ids: [choice.id, essay.id], description: null, max_attempts: null,
    negative_mark_ratio: 0.25, created_at: now, updated_at: now, published_at: now, version: 1,
    pools: [{ folder_id: folderId, difficulty: null, draw: 1 }],
  };
  const version: TestVersion = {
    version: 1, test_id: test.id, client_id: clientId, published_at: now, published_by: publishedBy,
    test: {
      test_name: test.test_name, timer: test.timer, shuffle: test.shuffle, allow_review: test.allow_review, negative_marking: test.negative_marking,
      description: null, max_attempts: null, negative_mark_ratio: 0.25, question_ids: test.question_ids,
    },
    questions: [choice, essay], total_marks: 7,
    pools: [{ folder_id: folderId, difficulty: null, draw: 1, question_ids: poolIds }],
    pool_freeze_id: freezeId,
  };
  const ref = testRef(clientId, test.id);
  await Promise.all([
    ref.set(test),
    ref.collection('versions').doc('1').set(version),
    ...[poolChoice, poolNumber].map((q) => ref.collection('pool_freezes').doc(freezeId).collection('questions').doc(q.id).set(q)),
  ]);
  return { testId: test.id, folderId, choiceId: choice.id, essayId: essay.id, poolIds, version, frozen: new Map([poolChoice, poolNumber].map((q) => [q.id, q])) };
}

/**
 * An attempt of the pooled test that drew `drawn`, with `answers` saved, written
 * as the service leaves it: in progress, or submitted with its score, its
 * grading queue items and its share of the analytics (on stats shard 0).
 */
export async function pooledAttempt(
  t: PooledEssayTest,
  clientId: string,
  studentId: string,
  drawn: string,
  answers: Record<string, string>,
  status: 'in_progress' | 'submitted',
): Promise<{ id: string; token: string }> {
  const id = newAttemptId(clientId);
  const token = newAttemptToken();
  const started = new Date();
  const savedAt = started.toISOString();
  const paper = paperOf(t.version, [t.frozen.get(drawn)!]);
  const attempt: StoredAttempt = {
    id, client_id: clientId, test_id: t.testId, test_name: t.version.test.test_name, version: 1, student_id: studentId, guest: false, guest_name: null,
    share_code: null, started_by: studentId, status: 'in_progress', started_at: savedAt, expires_at: new Date(started.getTime() + 60 * 60_000).toISOString(),
    submitted_at: null, auto_submitted: false, submitted_by: null,
    answers: Object.fromEntries(Object.entries(answers).map(([qid, answer]) => [qid, { answer, saved_at: savedAt }])),
    question_order: paper.questions.map((q) => q.id), token_hash: hashAttemptToken(token), score: null, total_marks: paper.total_marks, results: null,
    drawn: [drawn], key_revision: 0,
  };
  const ref = clientRef(clientId).collection('attempts').doc(id);
  if (status === 'in_progress') {
    await ref.set(attempt);
    return { id, token };
  }
  const fields = scoredFields(attempt, paper);
  const submitted: StoredAttempt = { ...attempt, status: 'submitted', submitted_at: savedAt, submitted_by: 'taker', ...fields };
  const shard = testRef(clientId, t.testId).collection('versions').doc('1').collection('stats_shards').doc('0');
  await adminDb.runTransaction(async (tx) => {
    const sums = ((await tx.get(shard)).data() as VersionSums | undefined) ?? emptySums();
    tx.set(ref, submitted);
    tx.set(shard, addSums({ ...emptySums(), ...sums }, contributionOf(submitted, paper)));
    for (const item of gradingItems(submitted, paper)) {
      tx.set(testRef(clientId, t.testId).collection('grading_queue').doc(`${item.attempt_id}~${item.question_id}`), item);
    }
  });
  return { id, token };
}

/** The version as stored now, and each attempt's paper on it (read straight from Firestore, past every instance cache). */
async function storedPapers(clientId: string, testId: string) {
  const version = (await testRef(clientId, testId).collection('versions').doc('1').get()).data() as TestVersion;
  const freezes = testRef(clientId, testId).collection('pool_freezes').doc(version.pool_freeze_id!).collection('questions');
  const frozen = new Map((await freezes.get()).docs.map((d) => [d.id, d.data() as FrozenQuestion]));
  const paperFor = (attempt: StoredAttempt): VersionForAttempt => paperOf(version, (attempt.drawn ?? []).map((id) => frozen.get(id)!));
  return { version, paperFor };
}

/**
 * What a request may have left half done on the pooled test: each problem as a
 * sentence (an empty list when everything agrees).
 */
export async function versionProblems(clientId: string, testId: string): Promise<string[]> {
  const problems: string[] = [];
  const { version, paperFor } = await storedPapers(clientId, testId);
  const test = (await testRef(clientId, testId).get()).data() as StoredTest;
  if ((test.key_revisions?.['1'] ?? 0) !== (version.revision ?? 0)) {
    problems.push(`the test's key_revisions[1] is ${test.key_revisions?.['1']}, the version's revision ${version.revision}`);
  }
  const attempts = (await clientRef(clientId).collection('attempts').where('test_id', '==', testId).get()).docs.map((d) => d.data() as StoredAttempt);
  const expectedQueue = new Set<string>();
  let recomputed = emptySums();
  for (const attempt of attempts) {
    const paper = paperFor(attempt);
    if (attempt.status === 'in_progress' && (attempt.key_revision ?? 0) < (version.revision ?? 0)) {
      problems.push(`attempt ${attempt.id} in progress has key_revision ${attempt.key_revision}, the version ${version.revision}`);
    }
    if (attempt.status !== 'submitted') continue;
    const now = scoredFields(attempt, paper);
    const stored = { score: attempt.score, total_marks: attempt.total_marks, grading: attempt.grading, pending_marks: attempt.pending_marks, results: attempt.results };
    const expected = { score: now.score, total_marks: now.total_marks, grading: now.grading, pending_marks: now.pending_marks, results: now.results };
    if (JSON.stringify(stored) !== JSON.stringify(expected)) {
      problems.push(`attempt ${attempt.id} holds ${JSON.stringify(stored)}; scored on the version as it stands (revision ${version.revision ?? 0}) it is ${JSON.stringify(expected)}`);
    }
    for (const item of gradingItems(attempt, paper)) expectedQueue.add(`${item.attempt_id}~${item.question_id}`);
    recomputed = addSums(recomputed, contributionOf(attempt, paper));
  }
  const queue = new Set((await testRef(clientId, testId).collection('grading_queue').get()).docs.map((d) => d.id));
  const missing = [...expectedQueue].filter((id) => !queue.has(id));
  const extra = [...queue].filter((id) => !expectedQueue.has(id));
  if (missing.length > 0 || extra.length > 0) problems.push(`grading queue: missing ${missing.join(', ') || 'none'}; not pending ${extra.join(', ') || 'none'}`);
  const shards = await adminDb.getAll(...Array.from({ length: STATS_SHARDS }, (_, k) => testRef(clientId, testId).collection('versions').doc('1').collection('stats_shards').doc(String(k))));
  const sums = shards.reduce((all, snap) => (snap.exists ? addSums(all, snap.data() as VersionSums) : all), emptySums());
  if (!sameSums(sums, recomputed)) problems.push(`analytics sums ${JSON.stringify(sums)} differ from a recomputation ${JSON.stringify(recomputed)}`);
  return problems;
}

interface Prepared {
  test: PooledEssayTest;
  grades: number;
  regrades: number;
  /** Submitted attempts with an answered essay: graded in turns. */
  graded: string[];
}

export const seeds: FuzzSeedGroup = {
  async prepare(world: FuzzWorld): Promise<Prepared> {
    const clientId = world.tenant.clientId;
    const student = world.tenant.student.uid;
    const test = await pooledEssayTest(clientId, world.tenant.admin.uid);
    const [choicePool, numberPool] = test.poolIds;
    const pick = (id: string) => (id === choicePool ? 'A' : '3.14');
    // Sequentially: each submitted attempt adds its share to the one stats shard.
    const graded: string[] = [];
    for (const [drawn, choice, essay] of [
      [choicePool, 'A', 'A first essay, to be graded.'],
      [numberPool, 'B', 'A second essay, to be graded.'],
      [numberPool, 'A', 'x'.repeat(9_000)],
    ] as const) {
      graded.push((await pooledAttempt(test, clientId, student, drawn, { [test.choiceId]: choice, [test.essayId]: essay, [drawn]: pick(drawn) }, 'submitted')).id);
    }
    // One without its essay (complete at submit, nothing to grade), and one in progress (a regrade stamps it).
    await pooledAttempt(test, clientId, student, choicePool, { [test.choiceId]: 'B', [choicePool]: 'B' }, 'submitted');
    await pooledAttempt(test, clientId, student, numberPool, { [test.choiceId]: 'A' }, 'in_progress');
    return { test, grades: 0, regrades: 0, graded };
  },
  // A correction that makes the fixed question's key B, then grades: each grade rescores its attempt on the version as corrected.
  afterRuns: (w: FuzzWorld, p: Prepared) => [
    {
      operation: 'post /api/tests/{testId}/versions/{version}/regrade',
      request: { token: w.tenant.admin.token, params: { testId: p.test.testId, version: '1' }, body: { question_id: p.test.choiceId, correct_answer: 'B', marks: 2, dry_run: false } },
    },
    ...p.graded.map((attemptId) => ({
      operation: 'post /api/attempts/{attemptId}/grades',
      request: { token: w.tenant.admin.token, params: { attemptId }, body: { question_id: p.test.essayId, marks: 4 } },
    })),
  ],
  problems: (world: FuzzWorld, p: Prepared) => versionProblems(world.tenant.clientId, p.test.testId),
  seeds: [
    {
      operation: 'get /api/tests/{testId}/grading',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { testId: p.test.testId },
        query: { question_id: p.test.essayId, blind: 'true', page: '1', limit: '5' },
      }),
    },
    {
      // In turns over the attempts, with marks that change each time: a grade given, then changed.
      operation: 'post /api/attempts/{attemptId}/grades',
      request: (w, p: Prepared) => {
        const turn = p.grades++;
        return {
          token: w.tenant.admin.token,
          params: { attemptId: p.graded[turn % p.graded.length] },
          body: { question_id: p.test.essayId, marks: [3.5, 5, 0][turn % 3], feedback: 'Well argued; cite your sources.' },
        };
      },
    },
    {
      // A dry run, then corrections applied: the fixed question's key and marks, the pool's numeric tolerance and marks, and back.
      operation: 'post /api/tests/{testId}/versions/{version}/regrade',
      request: (w, p: Prepared) => {
        const [, numberPool] = p.test.poolIds;
        const bodies = [
          { question_id: p.test.choiceId, correct_answer: 'B', dry_run: true },
          { question_id: p.test.choiceId, correct_answer: 'B', marks: 3, dry_run: false },
          { question_id: numberPool, correct_answer: '3.1', tolerance: 0.05, marks: 2, dry_run: false },
          { question_id: p.test.choiceId, correct_answer: 'A', marks: 2, dry_run: false },
          { question_id: numberPool, correct_answer: '3.14', tolerance: 0.01, marks: 1, dry_run: false },
        ];
        return { token: w.tenant.admin.token, params: { testId: p.test.testId, version: '1' }, body: bodies[p.regrades++ % bodies.length] };
      },
    },
  ],
};
