import assert from 'node:assert/strict';
import { adminDb } from '../support/admin';
import { forgetDemoAcademy, seedDemo as seed } from '../support/demoSeed';
import { expectError } from '../support/assertions';
import { signIn } from '../support/fixtures';
import { api, freshIp, get, post } from '../support/http';

const testDoc = (testId: string) => adminDb.collection('clients').doc('demo-academy').collection('tests').doc(testId);
const DAY_MS = 24 * 60 * 60_000;

const attemptsOfDemoAcademy = async () =>
  (await adminDb.collection('clients').doc('demo-academy').collection('attempts').count().get()).data().count;

describe('the demo seed (npm start)', function () {
  // The takers' ~150 requests share one address: the seed waits out the rate limit (100 a minute) once.
  this.timeout(300_000);
  // npm start seeds empty emulators: so does this, whatever another test (the walkthroughs) left.
  before(() => forgetDemoAcademy());

  it('seeds a published test with shuffle and review on, questions of every type in a folder, and a usable share code', async () => {
    const [test] = JSON.parse((await seed()).stdout);
    const stored = (
      await adminDb.collection('clients').doc('demo-academy').collection('tests').doc(test.id).get()
    ).data()!;
    assert.equal(stored.status, 'published');
    assert.equal(stored.shuffle, 1);
    assert.equal(stored.allow_review, 1);
    assert.ok(stored.question_ids.length >= 8, `${stored.question_ids.length} questions`);
    const questions = await adminDb.getAll(
      ...stored.question_ids.map((id: string) =>
        adminDb.collection('clients').doc('demo-academy').collection('questions').doc(id),
      ),
    );
    const types = new Set(questions.map((q) => q.get('question_type')));
    assert.deepEqual([...types].sort(), [
      'multiple_choice',
      'multiple_select',
      'numeric',
      'short_answer',
      'true_false',
    ]);
    assert.ok(questions.every((q) => q.get('folder_id') === test.folder));
    const code = (await adminDb.collection('share_codes').doc(test.share_code).get()).data()!;
    assert.equal(code.test_id, test.id);
    assert.equal(code.client_id, 'demo-academy');
  });

  it('is idempotent: a second run finds the same test, questions and share code and adds nothing', async () => {
    const [first, firstSitting, firstPooled] = JSON.parse((await seed()).stdout);
    const questionsBefore = (
      await adminDb.collection('clients').doc('demo-academy').collection('questions').count().get()
    ).data().count;
    const attemptsBefore = await attemptsOfDemoAcademy();
    const [second, secondSitting, secondPooled] = JSON.parse((await seed()).stdout);
    assert.deepEqual(second, first);
    assert.deepEqual(secondPooled, firstPooled, 'the pool-and-essay test is found, not made again');
    assert.deepEqual(secondSitting, firstSitting, 'the sitting keeps its window, codes and accommodation');
    const questionsAfter = (
      await adminDb.collection('clients').doc('demo-academy').collection('questions').count().get()
    ).data().count;
    assert.equal(questionsAfter, questionsBefore);
    assert.equal(await attemptsOfDemoAcademy(), attemptsBefore, 'no taker sits the test twice');
  });

  it('seeds submitted attempts on the demo test through the API, so that its analytics show every measure', async () => {
    const [test] = JSON.parse((await seed()).stdout);
    assert.ok(test.submitted_attempts >= 12, `${test.submitted_attempts} submitted attempts`);
    const token = await signIn('admin@demo-academy.example', 'demo-pass-1234');
    const res = await get(`/api/analytics/tests/${test.id}`, { token, ip: freshIp() });
    assert.equal(res.status, 200, res.text);
    const analytics = res.body;
    assert.equal(analytics.completed, test.submitted_attempts);
    assert.equal(analytics.in_progress, 0);
    assert.notEqual(analytics.cronbach_alpha, null);
    assert.ok(analytics.cronbach_alpha > 0, `alpha ${analytics.cronbach_alpha}`);
    assert.notEqual(analytics.standard_deviation, null);
    assert.ok(analytics.highest_score > analytics.lowest_score);
    const bands = analytics.score_distribution.filter((band: { count: number }) => band.count > 0).length;
    assert.ok(bands >= 5, `${bands} distribution bands in use`);
    // Every question but the one everybody gets right (no variance: null) has a discrimination index.
    const everyoneRight = analytics.questions.find((q: any) => q.question_text === 'The Earth orbits the Sun.');
    assert.equal(everyoneRight.facility_index, 1);
    assert.equal(everyoneRight.discrimination_index, null);
    const others = analytics.questions.filter((q: any) => q !== everyoneRight);
    assert.ok(
      others.every((q: any) => typeof q.discrimination_index === 'number'),
      JSON.stringify(others.map((q: any) => q.discrimination_index)),
    );
    for (const q of analytics.questions.filter((q: any) => q.option_counts !== null)) {
      const chosen = q.option_counts.reduce((sum: number, o: { count: number }) => sum + o.count, 0) + q.other_choices;
      assert.ok(chosen >= q.times_answered, `${q.question_text}: ${chosen} choices for ${q.times_answered} answers`);
    }
    assert.ok(
      analytics.questions.some((q: any) => q.other_choices > 0),
      'an answer matching none of the options',
    );
    // Student One sat it too: its own analytics have a row.
    const student = await get('/api/analytics/students/demo-student-1', { token, ip: freshIp() });
    assert.equal(student.status, 200, student.text);
    assert.equal(student.body.completed, 1);
    assert.equal(student.body.data[0].test_id, test.id);
  });

  it('seeds a test that draws three questions from the Demo Folder per attempt and ends with an essay waiting in the grading queue', async () => {
    const [demo, , pooled] = JSON.parse((await seed()).stdout);
    const stored = (await testDoc(pooled.id).get()).data()!;
    assert.equal(stored.status, 'published');
    assert.deepEqual(stored.pools, [{ folder_id: demo.folder, difficulty: null, draw: 3 }]);
    assert.equal(pooled.questions, 4);
    const essay = (
      await adminDb.collection('clients').doc('demo-academy').collection('questions').doc(stored.question_ids[0]).get()
    ).data()!;
    assert.equal(essay.question_type, 'essay');
    assert.equal(pooled.essays_to_grade, 1);
  });

  it('seeds a sitting: a window opening two minutes after the seed (when none is open) for a day, an access code, reviews from its close, a share code, and Student Two’s standing +50%', async () => {
    const [, sitting] = JSON.parse((await seed()).stdout);
    // Put the sitting's settings and the accommodation out of line, as an administrator might: the next seed puts them back.
    await testDoc(sitting.id).update({
      opens_at: new Date(Date.now() - 2 * DAY_MS).toISOString(),
      closes_at: new Date(Date.now() - DAY_MS).toISOString(),
    });
    const admin = await signIn('admin@demo-academy.example', 'demo-pass-1234');
    const removed = await api('PUT', '/api/users/demo-student-2/accommodations', {
      token: admin,
      ip: freshIp(),
      body: { extra_time_percent: 0, extra_minutes: 0 },
    });
    assert.equal(removed.status, 200, removed.text);
    const before = Date.now();
    const [, seeded] = JSON.parse((await seed()).stdout);
    const after = Date.now();

    assert.equal(seeded.id, sitting.id, 'the same test, found by name');
    assert.equal(seeded.status, 'published');
    const opensAt = Date.parse(seeded.opens_at);
    assert.ok(
      opensAt >= before + 120_000 && opensAt <= after + 121_000,
      `opens_at ${seeded.opens_at} is two minutes after the seed`,
    );
    assert.equal(Date.parse(seeded.closes_at) - opensAt, DAY_MS);
    assert.equal(seeded.review_opens_at, seeded.closes_at);
    assert.equal(seeded.timer, 10);
    assert.equal(seeded.access_code, 'BLUE-OWL-42');
    const stored = (await testDoc(seeded.id).get()).data()!;
    assert.equal(stored.access_code, 'BLUE-OWL-42', 'stored readable for the admins');
    assert.equal(stored.access_code_hash ?? null, null, 'no hash beside it');
    const code = (await adminDb.collection('share_codes').doc(seeded.share_code).get()).data()!;
    assert.equal(code.test_id, seeded.id);
    assert.deepEqual(seeded.accommodation, { student_id: 'demo-student-2', extra_time_percent: 50, extra_minutes: 0 });

    const student = await signIn('student2@demo-academy.example', 'demo-pass-1234');
    const me = await get('/api/me', { token: student, ip: freshIp() });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.accommodation, { extra_time_percent: 50, extra_minutes: 0 });
    const early = await post(
      '/api/attempts',
      { test_id: seeded.id, access_code: seeded.access_code },
      { token: student, ip: freshIp() },
    );
    expectError(early, 409, 'CONFLICT');
    assert.equal(early.body.message, `This test opens at ${seeded.opens_at}`);
  });

  it('seeds two classes with a student each; the demo quiz and the pool-and-essay test are assigned to Year 9 only, so Student Two does not see them', async () => {
    const [demo, sitting, pooled, classes] = JSON.parse((await seed()).stdout);
    assert.deepEqual(
      classes.map((c: { name: string; code: string; members: string[] }) => [c.name, c.code, c.members]),
      [
        ['Year 9 Science', '9S', ['demo-student-1']],
        ['Year 11 Science', '11S', ['demo-student-2']],
      ],
    );
    const [year9, year11] = classes;
    for (const test of [demo, pooled])
      assert.deepEqual((await testDoc(test.id).get()).get('assigned_class_ids'), [year9.id]);
    assert.deepEqual((await testDoc(sitting.id).get()).get('assigned_class_ids'), []);
    const profile = (uid: string) =>
      adminDb.collection('clients').doc('demo-academy').collection('users').doc(uid).get();
    assert.deepEqual((await profile('demo-student-1')).get('class_ids'), [year9.id]);
    assert.deepEqual((await profile('demo-student-2')).get('class_ids'), [year11.id]);

    const listed = async (email: string) => {
      const token = await signIn(email, 'demo-pass-1234');
      const res = await get('/api/tests?limit=100', { token, ip: freshIp() });
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((t: { id: string }) => t.id).sort();
    };
    assert.deepEqual(await listed('student1@demo-academy.example'), [demo.id, sitting.id, pooled.id].sort());
    assert.deepEqual(await listed('student2@demo-academy.example'), [sitting.id]);
    const hidden = await get(`/api/tests/${demo.id}`, {
      token: await signIn('student2@demo-academy.example', 'demo-pass-1234'),
      ip: freshIp(),
    });
    expectError(hidden, 404, 'NOT_FOUND');
  });
});
