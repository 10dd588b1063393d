import '../support/admin';
import assert from 'node:assert/strict';
import firebaseFunctionsTest from 'firebase-functions-test';
import { provideEffects } from '../../functions/src/app';
import { closeOverdueAttempts as closeOverdue } from '../../functions/src/attempts/service';
import { SCHEDULER_META } from '../../functions/src/audit/trail';
import { closeIfOverdue } from '../../functions/src/attempts/closing';
import { provideSubmissionEffects } from '../../functions/src/attempts/submissionEffects';
import { PROJECT_ID } from '../support/env';
import { auditRecordsFor, createTenant } from '../support/fixtures';
import { post } from '../support/http';
import { as } from '../exams/fixtures';
import { attemptDoc, expire, publishTest, slotDoc, startOk } from './fixtures';

// The scheduled closer: attempts left open past expires_at + 30 s are
// submitted with the answers saved in time. Attempts are started and answered
// over HTTP (the emulators); the function runs here, on the same Firestore.

describe('closeOverdueAttempts (scheduled every 5 minutes)', function () {
  this.timeout(60_000);
  const testEnv = firebaseFunctionsTest({ projectId: PROJECT_ID });
  after(() => testEnv.cleanup());

  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let test: any;
  before(async () => {
    // As the scheduled function does (index.ts): these tests call the closer without the app.
    provideEffects();
    tenant = await createTenant();
    ({ test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 }));
  });

  /** An attempt of a fresh student with one right answer saved in time, then left open `secondsAgo` past expires_at. */
  async function abandoned(secondsAgo: number) {
    const student = tenant.student;
    const started = await startOk(student.token, { test_id: test.id });
    const q = started.test_details.questions[0];
    const saved = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: q.id, student_answer: '4' },
      as(student.token),
    );
    assert.equal(saved.status, 200, saved.text);
    await expire(tenant.clientId, started.attempt_id, secondsAgo);
    return started.attempt_id as string;
  }

  it('is a 2nd-gen scheduled function running every 5 minutes in us-central1', async () => {
    const { closeOverdueAttempts } = await import('../../functions/src/index');
    const endpoint = (closeOverdueAttempts as unknown as { __endpoint: Record<string, any> }).__endpoint;
    assert.equal(endpoint.platform, 'gcfv2');
    assert.equal(endpoint.scheduleTrigger.schedule, 'every 5 minutes');
    assert.deepEqual(endpoint.region, ['us-central1']);
  });

  it('when run, submits an attempt left open past its deadline with the answers saved in time, and frees the slot', async () => {
    const attemptId = await abandoned(45);
    const { closeOverdueAttempts } = await import('../../functions/src/index');
    await testEnv.wrap(closeOverdueAttempts as any)({} as any);
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).data()!;
    assert.equal(stored.status, 'submitted');
    assert.equal(stored.auto_submitted, true);
    assert.equal(stored.score, 2, 'the answer saved in time counts (2 marks)');
    assert.equal(stored.submitted_at, stored.expires_at);
    assert.equal((await slotDoc(tenant.clientId, test.id, tenant.student.uid).get()).get('in_progress'), null);
    const records = await auditRecordsFor(tenant.student.uid, 'attempt_submitted');
    const record = records.find((r) => r.details.attempt_id === attemptId)!;
    assert.equal(record.details.automatic, true);
    assert.equal(record.actor_id, null);
  });

  it('leaves an attempt inside its 30 s grace open', async () => {
    const attemptId = await abandoned(10);
    await closeOverdue(Date.now(), 50);
    assert.equal((await attemptDoc(tenant.clientId, attemptId).get()).get('status'), 'in_progress');
    await post(`/api/attempts/${attemptId}/submit`, undefined, as(tenant.student.token));
  });

  it('closes in bounded batches until none is left', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await abandoned(120));
    // Batches of one: three queries (plus one that finds none) close all three.
    await closeOverdue(Date.now(), 1);
    for (const id of ids) assert.equal((await attemptDoc(tenant.clientId, id).get()).get('status'), 'submitted');
  });

  it('without the composition root’s SubmissionEffects, refuses to close (throws) and leaves the attempt in progress, never submitted without its analytics', async () => {
    const attemptId = await abandoned(45);
    provideSubmissionEffects(undefined);
    try {
      await assert.rejects(closeIfOverdue(attemptId, Date.now(), SCHEDULER_META), /No SubmissionEffects provided/);
    } finally {
      provideEffects();
    }
    assert.equal((await attemptDoc(tenant.clientId, attemptId).get()).get('status'), 'in_progress');
    const records = await auditRecordsFor(tenant.student.uid, 'attempt_submitted');
    assert.equal(records.filter((r) => r.details.attempt_id === attemptId).length, 0);
    // With the effects provided again, the same close goes through.
    assert.equal((await closeIfOverdue(attemptId, Date.now(), SCHEDULER_META)).status, 'submitted');
  });
});
