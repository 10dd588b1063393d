import assert from 'node:assert/strict';
import { auditRecordsFor, createTenant } from '../support/fixtures';
import { api } from '../support/http';
import { as } from '../exams/fixtures';
import { publishTest } from '../attempts/fixtures';

// An override sent with some of its fields only (the others are the test's
// own): stored and audited with the fields sent, nothing else.

describe('PUT /api/tests/{testId}/overrides/{studentId}: some fields sent', function () {
  this.timeout(60_000);

  it('answers 200 and records override_set with the fields sent, the absent ones left out', async () => {
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const res = await api('PUT', `/api/tests/${test.id}/overrides/${tenant.student.uid}`, {
      ...as(tenant.admin.token),
      body: { timer: 90, max_attempts: null },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.timer, 90);
    assert.equal(res.body.max_attempts, null);
    assert.ok(!('opens_at' in res.body) && !('closes_at' in res.body), res.text);
    const [record] = await auditRecordsFor(tenant.student.uid, 'override_set');
    assert.deepEqual(record.details, { test_id: test.id, override: { timer: 90, max_attempts: null } });
    assert.equal(record.actor_id, tenant.admin.uid);
  });
});
