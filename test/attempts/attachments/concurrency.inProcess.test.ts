import assert from 'node:assert/strict';
import { getStorage } from 'firebase-admin/storage';
import { startApiInstances, type ApiInstances } from '../../support/apiInstances';
import { PROJECT_ID } from '../../support/env';
import { createTenant, createUser } from '../../support/fixtures';
import { freshIp, post } from '../../support/http';
import { multipartBody, postBytes } from '../../support/multipart';
import { writeQuestion } from '../../exams/fixtures';
import { png } from '../../media/samples';
import { attemptDoc, publishTest } from '../fixtures';

// Uploads that truly overlap: the real app served by two instances (this process and a child; the
// Functions emulator runs one request at a time per worker, so nothing would race there), each
// upload to the next instance in turn. Only the transaction that records a file holds the essay's
// limit across them; with the record written without it, more than 5 files are kept.

let instances: ApiInstances;
let tenant: Awaited<ReturnType<typeof createTenant>>;

before(async function () {
  this.timeout(60_000);
  instances = await startApiInstances({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => instances.close());

describe('files attached under truly concurrent uploads', function () {
  this.timeout(180_000);

  it('keeps 5 of 50 uploads at once to an essay taking 5: 5 × 201, the others 409, and no bytes left of the refused', async () => {
    const essay = await writeQuestion(tenant.clientId, {
      question_type: 'essay' as any,
      question_text: 'Upload your drawings',
      options: [],
      correct_answer: '',
      attachments: 5,
    } as any);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { questions: [essay] });
    const student = await createUser('student', tenant.clientId);
    const started = await post(
      '/api/attempts',
      { test_id: test.id },
      { token: student.token, ip: freshIp(), baseUrl: instances.nextBaseUrl() },
    );
    assert.equal(started.status, 201, started.text);
    const attemptId: string = started.body.attempt_id;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const body = multipartBody([
          { field: 'file', filename: `drawing-${i}.png`, contentType: 'image/png', content: png(i) },
        ]);
        return postBytes(`/api/attempts/${attemptId}/answers/${essay.id}/attachments`, body.body, body.contentType, {
          token: student.token,
          baseUrl: instances.nextBaseUrl(),
        });
      }),
    );
    const statuses = results.map((r) => r.status).sort((a, b) => a - b);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    // Never more than the essay takes. A request the emulators cannot serve in time under this load is a 503
    // with nothing written (the same check below finds no bytes of it): allowed, but rare.
    assert.equal(count(201), 5, JSON.stringify(statuses));
    assert.equal(count(409) + count(503), 45, JSON.stringify(statuses));
    assert.ok(count(409) >= 40, JSON.stringify(statuses));
    for (const refused of results.filter((r) => r.status === 409))
      assert.match(refused.body.message, /the most this question takes \(5\)/);
    const stored = (await attemptDoc(tenant.clientId, attemptId).get()).get('attachments')[essay.id];
    const accepted = results.filter((r) => r.status === 201).map((r) => r.body.id);
    assert.deepEqual(stored.map((f: { id: string }) => f.id).sort(), [...accepted].sort());
    // The bucket holds the 5 recorded files' bytes and nothing of the 45 refused.
    const bucket = getStorage().bucket(`${PROJECT_ID}.appspot.com`);
    const [objects] = await bucket.getFiles({
      prefix: `clients/${tenant.clientId}/attempts/${attemptId}/attachments/`,
    });
    assert.deepEqual(objects.map((o) => o.name.split('/').pop()).sort(), [...accepted].sort());
  });
});
