import assert from 'node:assert/strict';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { get } from '../support/http';
import { as } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import {
  deleteOverride,
  extendAttempt,
  extendTest,
  patchTest,
  putAccommodation,
  putOverride,
  sittingTest,
} from './httpFixtures';

// The sittings' audit event types in GET /api/audit-logs: each is a filter
// the endpoint accepts (and documents), and finds the records of that type.

const SITTING_EVENTS = [
  'test_settings_changed',
  'override_set',
  'override_deleted',
  'accommodation_set',
  'attempt_extended',
  'test_extended',
];

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  // One of each event, in the tenant, by its Client Admin.
  const admin = m.tenant.admin.token;
  const { test } = await sittingTest(admin, m.tenant.clientId);
  const student = await createUser('student', m.tenant.clientId);
  const started = await startOk(student.token, { test_id: test.id });
  const statuses = [
    (await patchTest(admin, test.id, { attempt_cooldown_minutes: 1 })).status,
    (await putOverride(admin, test.id, student.uid, { timer: 40 })).status,
    (await deleteOverride(admin, test.id, student.uid)).status,
    (await putAccommodation(admin, student.uid, { extra_time_percent: 10, extra_minutes: 0 })).status,
    (await extendAttempt(admin, started.attempt_id, { minutes: 1 })).status,
    (await extendTest(admin, test.id, { minutes: 1 })).status,
  ];
  assert.deepEqual(statuses, [200, 200, 204, 200, 200, 200]);
});

describe('GET /api/audit-logs?event_type= (the sittings events)', () => {
  for (const type of SITTING_EVENTS) {
    it(`filters by ${type}: 200 with the tenant’s ${type} records only, each with its actor`, async () => {
      const res = await get(`/api/audit-logs?event_type=${type}&limit=100`, as(m.tenant.admin.token));
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.length >= 1, res.text);
      for (const record of res.body.data) {
        assert.equal(record.event_type, type);
        assert.equal(record.client_id, m.tenant.clientId);
        assert.equal(record.actor_id, m.tenant.admin.uid);
      }
    });
  }

  it('lists every one of them among the event_type values the OpenAPI document gives the filter', async () => {
    const res = await get('/api/openapi.json');
    const param = res.body.paths['/api/audit-logs'].get.parameters.find((p: any) => p.name === 'event_type');
    for (const type of SITTING_EVENTS) assert.ok(param.schema.enum.includes(type), type);
  });
});
