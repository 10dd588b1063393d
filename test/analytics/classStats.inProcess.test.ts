import assert from 'node:assert/strict';
import { createTenant, createUser, type TestUser } from '../support/fixtures';
import { failWrites } from '../support/faults';
import { freshIp, get, post, type RequestOptions } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { attemptDoc, expire, publishTest } from '../attempts/fixtures';
import { clientDoc, writeQuestion } from '../exams/fixtures';
import { essayQuestion } from '../grading/fixtures';
import { writeClass } from './classFixtures';

// The sums of each class (versions/{v}/class_stats) are moved by the same
// transactions as the version's: submits, automatic submits, essay grades and
// regrades, for the classes in the attempt's class_ids. Here, with the real
// app in-process so that requests overlap: after a random mix of all of
// them, each class's figures equal those recomputed from its attempts, a
// class holding every taker equals the unfiltered figures, and the counts
// and average agree with the attempts as stored.

let server: InProcessApi;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: server.baseUrl });

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => server.close());

/** A small seeded generator, so a failing mix can be replayed (CLASS_STATS_SEED). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Ending = 'submit' | 'automatic' | 'left open';

interface Taker {
  student: TestUser;
  classes: string[];
  ending: Ending;
  attemptId?: string;
  essayAnswered?: boolean;
}

async function classFigures(testId: string, classId: string) {
  const res = await get(`/api/analytics/tests/${testId}?class_id=${classId}`, at(tenant.admin.token));
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('analytics per class kept by the submit, grade and regrade transactions', function () {
  this.timeout(300_000);

  it('equal, class by class, the figures recomputed from the class’s attempts after a random mix of submits, grades and a regrade', async () => {
    const seed = Number(process.env.CLASS_STATS_SEED ?? Date.now() % 1_000_000);
    const rand = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
    const clientId = tenant.clientId;
    // The first question's key is published wrong ("5"): the regrade corrects it to "4".
    const wrong = await writeQuestion(clientId, {
      question_text: 'What is 2 + 2?',
      options: ['3', '4', '5'],
      correct_answer: '5',
      marks: 2,
    });
    const capital = await writeQuestion(clientId, {
      question_text: 'Capital of France?',
      options: ['Paris', 'Rome', 'Oslo'],
      correct_answer: 'Paris',
      marks: 1,
    });
    const essay = await essayQuestion(clientId, { marks: 10 });
    const { test } = await publishTest(tenant.admin.token, clientId, { questions: [wrong, capital, essay] });
    const [everyone, a, b, c] = await Promise.all([0, 1, 2, 3].map(() => writeClass(clientId)));
    const students = await Promise.all(Array.from({ length: 14 }, () => createUser('student', clientId)));
    const takers: Taker[] = students.map((student) => ({
      student,
      // Every taker is in `everyone`; each of a, b and c holds about half of them.
      classes: [everyone, ...[a, b, c].filter(() => rand() < 0.5)],
      ending: pick<Ending>(['submit', 'submit', 'automatic', 'left open']),
    }));
    const context = `seed ${seed}, ${JSON.stringify(takers.map((t) => [t.ending, t.classes.length]))}`;

    // Everyone at once: starts, saves and endings overlap.
    await Promise.all(
      takers.map(async (taker) => {
        const started = await post('/api/attempts', { test_id: test.id }, at(taker.student.token));
        assert.equal(started.status, 201, started.text);
        taker.attemptId = started.body.attempt_id;
        // The start records the student's classes; here they are written on the attempt directly.
        await attemptDoc(clientId, taker.attemptId!).update({ class_ids: taker.classes });
        taker.essayAnswered = rand() < 0.7;
        const answers = [
          { question_id: wrong.id, student_answer: pick(['3', '4', '5', '4']) },
          { question_id: capital.id, student_answer: pick(['Paris', 'Rome', 'paris']) },
          ...(taker.essayAnswered ? [{ question_id: essay.id, student_answer: 'Light becomes sugar' }] : []),
        ];
        const saved = await post(`/api/attempts/${taker.attemptId}/answers`, { answers }, at(taker.student.token));
        assert.equal(saved.status, 200, saved.text);
        if (taker.ending === 'submit') {
          const done = await post(`/api/attempts/${taker.attemptId}/submit`, undefined, at(taker.student.token));
          assert.equal(done.status, 200, done.text);
        } else if (taker.ending === 'automatic') {
          await expire(clientId, taker.attemptId!);
          const read = await get(`/api/attempts/${taker.attemptId}`, at(taker.student.token));
          assert.equal(read.body.status, 'submitted', read.text);
        }
      }),
    );

    // Grades and the regrade overlap: some essays graded before the corrected key, the rest after.
    const graded = takers.filter((t) => t.ending !== 'left open' && t.essayAnswered);
    const grade = (taker: Taker) =>
      post(
        `/api/attempts/${taker.attemptId}/grades`,
        { question_id: essay.id, marks: Math.floor(rand() * 11) },
        at(tenant.admin.token),
      );
    const early = graded.filter(() => rand() < 0.5);
    const [regraded, ...earlyGrades] = await Promise.all([
      post(
        `/api/tests/${test.id}/versions/1/regrade`,
        { question_id: wrong.id, correct_answer: '4' },
        at(tenant.admin.token),
      ),
      ...early.map(grade),
    ]);
    assert.equal(regraded.status, 200, regraded.text);
    for (const res of earlyGrades) assert.equal(res.status, 200, res.text);
    const late = graded.filter((t) => !early.includes(t) && rand() < 0.6);
    for (const res of await Promise.all(late.map(grade))) assert.equal(res.status, 200, res.text);

    const classes = [everyone, a, b, c];
    const kept = await Promise.all(classes.map((k) => classFigures(test.id, k)));
    const whole = await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token));
    const repaired = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, at(tenant.admin.token));
    assert.equal(repaired.status, 200, repaired.text);
    assert.equal(repaired.body.changed, false, `the kept sums had drifted (${context})`);
    const recomputed = await Promise.all(classes.map((k) => classFigures(test.id, k)));
    assert.deepEqual(recomputed, kept, context);

    // A class holding every taker has the test's own figures.
    const { class_id, ...everyoneFigures } = kept[0];
    assert.equal(class_id, everyone);
    assert.deepEqual(everyoneFigures, whole.body, context);

    // Each class's counts and average agree with its attempts as stored.
    const stored = await Promise.all(takers.map(async (t) => (await attemptDoc(clientId, t.attemptId!).get()).data()!));
    classes.forEach((classId, i) => {
      const mine = stored.filter((s) => (s.class_ids as string[]).includes(classId));
      const complete = mine.filter((s) => s.status === 'submitted' && s.grading !== 'pending');
      assert.equal(kept[i].total_attempts, mine.length, context);
      assert.equal(kept[i].in_progress, mine.filter((s) => s.status === 'in_progress').length, context);
      assert.equal(kept[i].completed, complete.length, context);
      assert.equal(kept[i].pending_grading, mine.filter((s) => s.grading === 'pending').length, context);
      if (complete.length > 0) {
        const average = complete.reduce((sum, s) => sum + s.score, 0) / complete.length;
        assert.ok(
          Math.abs(kept[i].average_score - average) < 1e-3,
          `${kept[i].average_score} vs ${average} (${context})`,
        );
        assert.equal(kept[i].highest_score, Math.max(...complete.map((s) => s.final_score)), context);
        assert.equal(kept[i].lowest_score, Math.min(...complete.map((s) => s.final_score)), context);
      }
    });
  });

  it('rebuilds a class’s lost or corrupted sums, and removes those of a class no attempt counts in', async () => {
    const clientId = tenant.clientId;
    const { test } = await publishTest(tenant.admin.token, clientId, { count: 2 });
    const classId = await writeClass(clientId);
    const student = await createUser('student', clientId);
    const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
    await attemptDoc(clientId, started.body.attempt_id).update({ class_ids: [classId] });
    assert.equal(
      (await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token))).status,
      200,
    );
    const before = await classFigures(test.id, classId);
    assert.equal(before.completed, 1);

    const stats = clientDoc(clientId).collection('tests').doc(test.id).collection('versions').doc('1');
    const shards = await stats.collection('class_stats').get();
    assert.ok(shards.docs.every((d) => d.id.startsWith(`${classId}~`)));
    await Promise.all(shards.docs.map((d) => d.ref.delete()));
    await stats
      .collection('class_stats')
      .doc(`${classId}~3`)
      .set({ n: 7, score: { s: 100, ss: 1 } });
    await stats.collection('class_stats').doc('kgone~0').set({ n: 2 });
    assert.equal((await classFigures(test.id, classId)).completed, 7);

    const repaired = await post(`/api/analytics/tests/${test.id}/recompute`, undefined, at(tenant.admin.token));
    assert.equal(repaired.status, 200, repaired.text);
    assert.equal(repaired.body.changed, true);
    assert.deepEqual(await classFigures(test.id, classId), before);
    const left = await stats.collection('class_stats').get();
    assert.deepEqual(
      left.docs.map((d) => d.id),
      [`${classId}~0`],
    );
  });

  it('fails the submit whole (503) when a class’s sums cannot be written: nothing is counted anywhere', async () => {
    const clientId = tenant.clientId;
    const { test } = await publishTest(tenant.admin.token, clientId, { count: 2 });
    const classId = await writeClass(clientId);
    const student = await createUser('student', clientId);
    const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
    await attemptDoc(clientId, started.body.attempt_id).update({ class_ids: [classId] });
    const heal = failWrites(/\/class_stats\//);
    let refused;
    try {
      refused = await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token));
    } finally {
      heal();
    }
    assert.equal(refused.status, 503, refused.text);
    assert.equal((await get(`/api/analytics/tests/${test.id}`, at(tenant.admin.token))).body.completed, 0);
    assert.equal((await classFigures(test.id, classId)).completed, 0);
    assert.equal(
      (await post(`/api/attempts/${started.body.attempt_id}/submit`, undefined, at(student.token))).status,
      200,
    );
    assert.equal((await classFigures(test.id, classId)).completed, 1);
  });
});
