import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { get, post, api } from '../support/http';
import { startOk } from '../attempts/fixtures';
import { as, createTestAs, validTest, versionDoc, writeFolder, writeQuestion } from '../exams/fixtures';

// Totals with pools over HTTP: a pool drawn from questions of different marks gives attempts
// different totals, and the analytics say the range the version can give, never a total below
// the highest score; each attempt's percentage is over its own total.

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('analytics totals of a version whose pool mixes marks', function () {
  this.timeout(120_000);

  it('says total_marks_min–max from what the version can hold, keeps each attempt’s percentage over its own total', async () => {
    const { clientId } = m.tenant;
    const token = m.tenant.admin.token;
    const folder = await writeFolder(clientId, `Mixed ${randomUUID()}`);
    // Drawing 1 of a 1-mark and a 2-mark question, beside 7 fixed marks: totals of 8 or 9.
    const pool = await Promise.all(
      [1, 2].map((marks) => writeQuestion(clientId, { folder_id: folder.id, question_text: `Worth ${marks}`, marks })),
    );
    const fixed = await writeQuestion(clientId, { question_text: 'Fixed seven', marks: 7 });
    const draft = await createTestAs(
      token,
      validTest([fixed.id], { shuffle: 0, max_attempts: 10, pools: [{ folder_id: folder.id, draw: 1 }] }),
    );
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(token))).status, 200);
    const version = (await versionDoc(clientId, draft.id, 1).get()).data()!;
    const marksById = new Map(pool.map((q) => [q.id, q.marks]));
    assert.deepEqual(
      version.pools[0].question_marks,
      version.pools[0].question_ids.map((id: string) => marksById.get(id)),
      'the version keeps its pool questions’ marks beside their ids',
    );

    // Students answer every question right until both totals were drawn.
    const totals = new Map<number, { score: number; percentage: number }>();
    for (let i = 0; i < 8 && totals.size < 2; i++) {
      const student = await createUser('student', clientId);
      const started = await startOk(student.token, { test_id: draft.id });
      for (const q of started.test_details.questions as Array<{ id: string }>)
        await post(
          `/api/attempts/${started.attempt_id}/answers`,
          { question_id: q.id, student_answer: '4' },
          as(student.token),
        );
      const done = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(done.status, 200, done.text);
      const attempt = (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body;
      totals.set(done.body.total_marks, { score: done.body.score, percentage: attempt.percentage ?? 100 });
    }
    assert.deepEqual([...totals.keys()].sort(), [8, 9], 'both draws happened');

    const analytics = await get(`/api/analytics/tests/${draft.id}`, as(token));
    assert.equal(analytics.status, 200, analytics.text);
    const a = analytics.body;
    assert.deepEqual([a.total_marks_min, a.total_marks_max, a.total_marks], [8, 9, 9]);
    assert.equal(a.highest_score, 9);
    assert.ok(a.highest_score <= a.total_marks, 'no score above the total shown');
    assert.equal(a.average_percentage, 100, 'each attempt over its own total: every one full marks');
  });

  it('a regrade changing a pool question’s marks moves the version’s range with it', async () => {
    const { clientId } = m.tenant;
    const token = m.tenant.admin.token;
    const folder = await writeFolder(clientId, `Regraded ${randomUUID()}`);
    const [one] = await Promise.all(
      [1, 1].map((marks) => writeQuestion(clientId, { folder_id: folder.id, question_text: 'Pool', marks })),
    );
    const fixed = await writeQuestion(clientId, { question_text: 'Fixed', marks: 2 });
    const draft = await createTestAs(
      token,
      validTest([fixed.id], { shuffle: 0, pools: [{ folder_id: folder.id, draw: 1 }] }),
    );
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(token))).status, 200);
    let a = (await get(`/api/analytics/tests/${draft.id}`, as(token))).body;
    assert.deepEqual([a.total_marks_min, a.total_marks_max], [3, 3]);
    const regrade = await api('POST', `/api/tests/${draft.id}/versions/1/regrade`, {
      ...as(token),
      body: { question_id: one.id, marks: 4 },
    });
    assert.equal(regrade.status, 200, regrade.text);
    a = (await get(`/api/analytics/tests/${draft.id}`, as(token))).body;
    assert.deepEqual([a.total_marks_min, a.total_marks_max], [3, 6]);
  });
});

describe('the organization’s time zone', function () {
  this.timeout(60_000);

  it('is set by its Client Admin as an IANA name, checked; anything else is 400', async () => {
    const { clientId } = m.tenant;
    const patch = (body: unknown, token = m.tenant.admin.token) =>
      api('PATCH', `/api/clients/${clientId}`, { ...as(token), body });
    const set = await patch({ time_zone: 'Europe/Paris' });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.time_zone, 'Europe/Paris');
    for (const bad of ['Mars/Olympus', '', 'UTC+2; DROP', 'x'.repeat(100)]) {
      const refused = await patch({ time_zone: bad });
      assert.equal(refused.status, 400, `${bad}: ${refused.text}`);
      assert.equal(refused.body.error, 'VALIDATION_ERROR');
    }
    const other = await patch({ time_zone: 'Asia/Tokyo' }, m.otherTenant.admin.token);
    assert.equal(other.status, 403, 'another organization’s admin');
    assert.equal((await patch({ time_zone: 'UTC' })).status, 200);
  });
});

describe('a student’s candidate number', function () {
  this.timeout(60_000);

  it('is set and cleared by the organization’s admin, short text; a student cannot set its own', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const patch = (body: unknown, token = m.tenant.admin.token) =>
      api('PATCH', `/api/users/${student.uid}`, { ...as(token), body });
    const set = await patch({ candidate_number: ' C-017 ' });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.candidate_number, 'C-017');
    assert.equal((await get(`/api/users/${student.uid}`, as(m.tenant.admin.token))).body.candidate_number, 'C-017');
    assert.equal((await patch({ candidate_number: '=1+1' })).status, 400);
    assert.equal((await patch({ candidate_number: 'x'.repeat(33) })).status, 400);
    assert.equal((await patch({ candidate_number: 'C-1' }, student.token)).status, 403);
    const cleared = await patch({ candidate_number: null });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.candidate_number, undefined);
  });
});
