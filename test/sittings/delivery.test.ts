import assert from 'node:assert/strict';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { api, get, post } from '../support/http';
import { as, draftWithQuestions, validTest, writeQuestion } from '../exams/fixtures';
import { slotDoc, startOk } from '../attempts/fixtures';
import {
  auditOf,
  backdate,
  fromNow,
  MIN,
  msBetween,
  patchTest,
  saveAnswer,
  sittingTest,
  storedAttempt,
  storedTest,
} from './httpFixtures';

// A test's delivery settings over HTTP: given on create and replace, changed
// by PATCH at any time, the access code read back by admins only.

const CODE = 'Hall-B-2030';
const DELIVERY_REPLY_FIELDS = [
  'access_code_required',
  'attempt_cooldown_minutes',
  'closes_at',
  'on_site_only',
  'opens_at',
  'review_opens_at',
  'seb_required',
];

let m: RoleMatrix;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

/** A taker's reply: it names neither the code nor an access_code field (access_code_required aside). */
function assertNoCode(text: string, code = CODE): void {
  assert.ok(!text.includes(code), `the code is not in the reply: ${text}`);
  assert.ok(!/"access_code"/.test(text), `no access_code field: ${text}`);
  assert.ok(!/access_code_hash|"salt"|"hash"/.test(text), `nothing of the stored hash: ${text}`);
}

describe('POST /api/tests (delivery settings)', () => {
  it('creates a draft with every delivery setting: 201, instants in UTC, access_code_required true and the code for its admin', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const body = {
      ...validTest([q.id]),
      opens_at: '2030-05-01T10:00:00+02:00',
      closes_at: '2030-05-01T12:00:00+02:00',
      access_code: CODE,
      attempt_cooldown_minutes: 60,
      review_opens_at: '2030-05-02T00:00:00Z',
    };
    const res = await post('/api/tests', body, as(m.tenant.admin.token));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.opens_at, '2030-05-01T08:00:00.000Z');
    assert.equal(res.body.closes_at, '2030-05-01T10:00:00.000Z');
    assert.equal(res.body.review_opens_at, '2030-05-02T00:00:00.000Z');
    assert.equal(res.body.attempt_cooldown_minutes, 60);
    assert.equal(res.body.access_code_required, true);
    assert.equal(res.body.access_code, CODE);
    const stored = await storedTest(m.tenant.clientId, res.body.id);
    assert.equal(stored.access_code, CODE);
    assert.equal(stored.access_code_hash, null, 'no hash beside the readable code');
  });

  it('takes on_site_only 1 on create and shows it; a replace without it keeps it, with 0 turns it off', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const created = await post('/api/tests', { ...validTest([q.id]), on_site_only: 1 }, as(m.tenant.admin.token));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.on_site_only, 1);
    const replaced = await api('PUT', `/api/tests/${created.body.id}`, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id]),
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.on_site_only, 1);
    const off = await api('PUT', `/api/tests/${created.body.id}`, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { on_site_only: 0 }),
    });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.on_site_only, 0);
  });

  it('defaults the delivery settings when none is sent: open, no code, no cooldown, review on submission', async () => {
    const res = await post('/api/tests', validTest([]), as(m.tenant.admin.token));
    assert.equal(res.status, 201, res.text);
    const delivery = Object.fromEntries(DELIVERY_REPLY_FIELDS.map((k) => [k, res.body[k]]));
    assert.deepEqual(delivery, {
      access_code_required: false,
      attempt_cooldown_minutes: 0,
      closes_at: null,
      on_site_only: 0,
      opens_at: null,
      review_opens_at: null,
      seb_required: false,
    });
  });

  it('answers 400 naming body.closes_at when closes_at is not after opens_at in the same body (before or equal)', async () => {
    for (const closes of ['2030-05-01T09:00:00Z', '2030-05-01T10:00:00Z']) {
      const res = await post(
        '/api/tests',
        { ...validTest([]), opens_at: '2030-05-01T10:00:00Z', closes_at: closes },
        as(m.tenant.admin.token),
      );
      expectValidation(res, ['body.closes_at']);
    }
  });

  it('answers 400 naming the field for a cooldown of -1, 10081 or 1.5, an access code of 3 or 65 characters and a window closing as it opens, on POST and on PUT', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const draft = await post('/api/tests', validTest([q.id]), as(m.tenant.admin.token));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ attempt_cooldown_minutes: -1 }, 'body.attempt_cooldown_minutes'],
      [{ attempt_cooldown_minutes: 10081 }, 'body.attempt_cooldown_minutes'],
      [{ attempt_cooldown_minutes: 1.5 }, 'body.attempt_cooldown_minutes'],
      [{ access_code: 'abc' }, 'body.access_code'],
      [{ access_code: 'x'.repeat(65) }, 'body.access_code'],
      [{ opens_at: '2030-05-01T10:00:00Z', closes_at: '2030-05-01T10:00:00Z' }, 'body.closes_at'],
    ];
    for (const [extra, path] of cases) {
      expectValidation(await post('/api/tests', validTest([q.id], extra), as(m.tenant.admin.token)), [path]);
      expectValidation(
        await api('PUT', `/api/tests/${draft.body.id}`, {
          ...as(m.tenant.admin.token),
          body: validTest([q.id], extra),
        }),
        [path],
      );
    }
  });

  it('answers 400 naming body.opens_at for an instant whose UTC year falls outside 0000 to 9999, and takes back what it answered for one just inside', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    for (const opens of ['9999-12-31T23:30:00-01:00', '0000-01-01T00:30:00+01:00']) {
      expectValidation(
        await post('/api/tests', validTest([q.id], { opens_at: opens }), as(m.tenant.admin.token)),
        ['body.opens_at'],
        ['0000 to 9999'],
      );
    }
    const inside = await post(
      '/api/tests',
      validTest([q.id], { opens_at: '0000-01-01T00:30:00-01:00', closes_at: '9999-12-31T23:30:00+01:00' }),
      as(m.tenant.admin.token),
    );
    assert.equal(inside.status, 201, inside.text);
    assert.equal(inside.body.opens_at, '0000-01-01T01:30:00.000Z');
    assert.equal(inside.body.closes_at, '9999-12-31T22:30:00.000Z');
    // The API takes back what it answered.
    const again = await api('PUT', `/api/tests/${inside.body.id}`, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { opens_at: inside.body.opens_at, closes_at: inside.body.closes_at }),
    });
    assert.equal(again.status, 200, again.text);
  });
});

describe('PATCH /api/tests/{testId}', () => {
  // PATCH is a sensitive operation (a strict limit per user): each test acts as an administrator of its own.
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeEach(async () => {
    admin = await createUser('client_admin', m.tenant.clientId);
  });

  it('changes the delivery settings of a draft: 200 with the test, its content untouched', async () => {
    const { test } = await draftWithQuestions(admin.token, m.tenant.clientId, 1);
    const opens = fromNow(60 * MIN);
    const res = await patchTest(admin.token, test.id, { opens_at: opens, attempt_cooldown_minutes: 15 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'draft');
    assert.equal(res.body.opens_at, opens);
    assert.equal(res.body.attempt_cooldown_minutes, 15);
    assert.deepEqual(res.body.question_ids, test.question_ids);
    assert.equal(res.body.timer, test.timer);
    assert.match(res.body.updated_at, ISO_UTC);
  });

  it('changes the delivery settings of a published test: 200, still published, same version', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const closes = fromNow(24 * 60 * MIN);
    const res = await patchTest(admin.token, test.id, { closes_at: closes, access_code: CODE });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'published');
    assert.equal(res.body.version, test.version);
    assert.equal(res.body.closes_at, closes);
    assert.equal(res.body.access_code_required, true);
    assert.equal(res.body.access_code, CODE);
  });

  it('leaves every field absent from the body as it was', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const first = {
      opens_at: fromNow(-60 * MIN),
      closes_at: fromNow(60 * MIN),
      access_code: CODE,
      attempt_cooldown_minutes: 5,
      review_opens_at: fromNow(120 * MIN),
    };
    assert.equal((await patchTest(admin.token, test.id, first)).status, 200);
    const res = await patchTest(admin.token, test.id, { attempt_cooldown_minutes: 10 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.opens_at, first.opens_at);
    assert.equal(res.body.closes_at, first.closes_at);
    assert.equal(res.body.review_opens_at, first.review_opens_at);
    assert.equal(res.body.access_code_required, true);
    assert.equal(res.body.attempt_cooldown_minutes, 10);
  });

  it('sets and clears on_site_only (0 or 1) on a published test, audited; anything else is 400 naming body.on_site_only', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    assert.equal(test.on_site_only, 0);
    const on = await patchTest(admin.token, test.id, { on_site_only: 1 });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.on_site_only, 1);
    assert.equal((await storedTest(m.tenant.clientId, test.id)).on_site_only, 1);
    const student = await get(`/api/tests/${test.id}`, as(m.tenant.student.token));
    assert.equal(student.body.on_site_only, 1, 'a student sees it too');
    const [record] = (await auditOf(m.tenant.clientId, 'test_settings_changed')).filter(
      (r: any) => r.details.test_id === test.id,
    );
    assert.deepEqual(record.details.on_site_only, { from: 0, to: 1 });
    for (const value of [2, -1, true, '1', null])
      expectValidation(await patchTest(admin.token, test.id, { on_site_only: value }), ['body.on_site_only']);
    const off = await patchTest(admin.token, test.id, { on_site_only: 0 });
    assert.equal(off.body.on_site_only, 0);
  });

  it('clears opens_at, closes_at, review_opens_at and the access code with null', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    await patchTest(admin.token, test.id, {
      opens_at: fromNow(-MIN),
      closes_at: fromNow(MIN * 90),
      review_opens_at: fromNow(MIN),
      access_code: CODE,
    });
    const res = await patchTest(admin.token, test.id, {
      opens_at: null,
      closes_at: null,
      review_opens_at: null,
      access_code: null,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.opens_at, null);
    assert.equal(res.body.closes_at, null);
    assert.equal(res.body.review_opens_at, null);
    assert.equal(res.body.access_code_required, false);
    assert.equal(res.body.access_code, null);
    assert.equal((await storedTest(m.tenant.clientId, test.id)).access_code, null);
  });

  it('answers the access code to the admins only: PATCH and GET for them, never GET nor the list for a student', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const patched = await patchTest(admin.token, test.id, { access_code: CODE });
    assert.equal(patched.body.access_code, CODE);
    for (const token of [admin.token, m.superAdmin.token]) {
      const read = await get(`/api/tests/${test.id}`, as(token));
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.access_code, CODE);
    }
    const read = await get(`/api/tests/${test.id}`, as(m.tenant.student.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.access_code_required, true);
    assertNoCode(read.text);
    const list = await get('/api/tests?limit=100', as(m.tenant.student.token));
    assert.equal(list.status, 200, list.text);
    assertNoCode(list.text);
  });

  it('answers 400 naming body.closes_at for closes_at not after opens_at in one body', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const opens = fromNow(60 * MIN);
    expectValidation(await patchTest(admin.token, test.id, { opens_at: opens, closes_at: fromNow(30 * MIN) }), [
      'body.closes_at',
    ]);
    expectValidation(await patchTest(admin.token, test.id, { opens_at: opens, closes_at: opens }), ['body.closes_at']);
  });

  it('answers 400 naming the field sent when, merged with the stored values, the window would close before it opens; nothing changes', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const opens = fromNow(60 * MIN);
    const closes = fromNow(120 * MIN);
    assert.equal((await patchTest(admin.token, test.id, { opens_at: opens, closes_at: closes })).status, 200);
    expectValidation(await patchTest(admin.token, test.id, { closes_at: fromNow(30 * MIN) }), ['body.closes_at']);
    expectValidation(await patchTest(admin.token, test.id, { opens_at: fromNow(180 * MIN) }), ['body.opens_at']);
    const stored = await storedTest(m.tenant.clientId, test.id);
    assert.equal(stored.opens_at, opens);
    assert.equal(stored.closes_at, closes);
  });

  it('answers 400 naming body.attempt_cooldown_minutes for -1, 10081 and 1.5', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    for (const value of [-1, 10081, 1.5]) {
      expectValidation(await patchTest(admin.token, test.id, { attempt_cooldown_minutes: value }), [
        'body.attempt_cooldown_minutes',
      ]);
    }
    assert.equal(
      (await patchTest(admin.token, test.id, { attempt_cooldown_minutes: 10080 })).status,
      200,
      'the bound itself is accepted',
    );
  });

  it('answers 400 naming body.access_code for a code of 3 or 65 characters; 4 and 64 are accepted', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    for (const code of ['abc', 'x'.repeat(65)])
      expectValidation(await patchTest(admin.token, test.id, { access_code: code }), ['body.access_code']);
    for (const code of ['abcd', 'y'.repeat(64)])
      assert.equal((await patchTest(admin.token, test.id, { access_code: code })).status, 200);
  });

  it('answers 400 for a field that is not a delivery setting (content, or unknown), naming it', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    expectValidation(await patchTest(admin.token, test.id, { surprise: 1 }), ['body'], ['surprise']);
    expectValidation(await patchTest(admin.token, test.id, { timer: 10 }), ['body'], ['timer']);
  });

  it('answers 400 to an empty body', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    expectValidation(await patchTest(admin.token, test.id, {}), ['body']);
  });

  it('answers 403 to a Student, a Guest and another organization’s Client Admin, changing nothing', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    for (const token of [m.tenant.student.token, m.guest.token, m.otherTenant.admin.token]) {
      expectError(await patchTest(token, test.id, { attempt_cooldown_minutes: 99 }), 403, 'FORBIDDEN');
    }
    assert.equal((await storedTest(m.tenant.clientId, test.id)).attempt_cooldown_minutes, 0);
  });

  it('answers 404 for a test that does not exist', async () => {
    expectError(await patchTest(admin.token, 'no-such-test', { attempt_cooldown_minutes: 1 }), 404, 'NOT_FOUND');
  });

  it('lets a Super Admin change any organization’s test: 200', async () => {
    const { test } = await sittingTest(m.otherTenant.admin.token, m.otherTenant.clientId);
    const res = await patchTest(m.superAdmin.token, test.id, { attempt_cooldown_minutes: 7 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.attempt_cooldown_minutes, 7);
  });

  it('records test_settings_changed with the actor and what changed (the access code only as set or cleared)', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const closes = fromNow(300 * MIN);
    assert.equal((await patchTest(admin.token, test.id, { closes_at: closes, access_code: CODE })).status, 200);
    const record = (await auditOf(m.tenant.clientId, 'test_settings_changed')).find(
      (r) => r.details.test_id === test.id,
    )!;
    assert.ok(record, 'a record for this test');
    assert.equal(record.actor_id, admin.uid);
    assert.equal(record.user_id, admin.uid);
    assert.equal(record.client_id, m.tenant.clientId);
    assert.deepEqual(record.details.closes_at, { from: null, to: closes });
    assert.equal(record.details.access_code, 'set');
    assert.equal(record.details.opens_at, undefined, 'unchanged fields are not listed');
    assert.ok(!JSON.stringify(record).includes(CODE));
    assert.equal((await patchTest(admin.token, test.id, { access_code: null })).status, 200);
    const cleared = (await auditOf(m.tenant.clientId, 'test_settings_changed')).filter(
      (r) => r.details.test_id === test.id,
    );
    assert.equal(cleared.length, 2);
    assert.equal(cleared[0].details.access_code, 'cleared');
  });

  it('recomputes the deadline of an attempt in progress when closes_at moves before it', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(msBetween(started.started_at, started.expires_at), 30 * MIN);
    const closes = fromNow(10 * MIN);
    assert.equal((await patchTest(admin.token, test.id, { closes_at: closes })).status, 200);
    assert.equal((await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at, closes);
    assert.equal(
      (await slotDoc(m.tenant.clientId, test.id, student.uid).get()).get('in_progress.expires_at'),
      closes,
      'the slot keeps the deadline a resume decides on',
    );
    const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.equal(read.body.expires_at, closes);
  });

  it('gives an attempt cut short by closes_at its timer back when closes_at moves later or is cleared', async () => {
    const closes = fromNow(10 * MIN);
    const { test } = await sittingTest(admin.token, m.tenant.clientId, { closes_at: closes });
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    assert.equal(started.expires_at, closes);
    assert.equal((await patchTest(admin.token, test.id, { closes_at: fromNow(20 * MIN) })).status, 200);
    assert.ok(
      msBetween(started.started_at, (await storedAttempt(m.tenant.clientId, started.attempt_id)).expires_at) < 30 * MIN,
    );
    assert.equal((await patchTest(admin.token, test.id, { closes_at: null })).status, 200);
    const stored = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(msBetween(stored.started_at, stored.expires_at), 30 * MIN);
  });

  it('closes an attempt in progress at once when closes_at moves before now, with its saved answers counted (submitted_by deadline)', async () => {
    const { test } = await sittingTest(admin.token, m.tenant.clientId);
    const student = await createUser('student', m.tenant.clientId);
    const started = await startOk(student.token, { test_id: test.id });
    const [q] = started.test_details.questions;
    assert.equal((await saveAnswer(student.token, started.attempt_id, q.id, '4')).status, 200);
    await backdate(m.tenant.clientId, started.attempt_id, 20 * MIN);
    // The window now ended a minute ago: the attempt, started 20 minutes back, is past it.
    const res = await patchTest(admin.token, test.id, { closes_at: fromNow(-MIN) });
    assert.equal(res.status, 200, res.text);
    const stored = await storedAttempt(m.tenant.clientId, started.attempt_id);
    assert.equal(stored.status, 'submitted');
    assert.equal(stored.submitted_by, 'deadline');
    assert.equal(stored.score, 2, 'the answer saved before the change counts');
  });
});

describe('PUT /api/tests/{testId} (delivery settings)', () => {
  it('keeps the stored access code when the body has no access_code', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const created = await post(
      '/api/tests',
      { ...validTest([q.id]), access_code: CODE, attempt_cooldown_minutes: 30 },
      as(m.tenant.admin.token),
    );
    assert.equal(created.status, 201, created.text);
    const res = await api('PUT', `/api/tests/${created.body.id}`, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { test_name: 'Renamed' }),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.test_name, 'Renamed');
    assert.equal(res.body.access_code_required, true);
    assert.equal(res.body.attempt_cooldown_minutes, 30, 'absent from a replace: kept');
    assert.equal(res.body.access_code, CODE);
    assert.equal((await storedTest(m.tenant.clientId, created.body.id)).access_code, CODE);
  });

  it('keeps every delivery setting it is not sent, as stored, while replacing the content', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const settings = {
      opens_at: '2030-05-01T10:00:00Z',
      closes_at: '2030-05-01T12:00:30Z',
      attempt_cooldown_minutes: 45,
      review_opens_at: '2030-05-02T00:00:00Z',
      on_site_only: 1,
    };
    const created = await post('/api/tests', { ...validTest([q.id]), ...settings }, as(m.tenant.admin.token));
    assert.equal(created.status, 201, created.text);
    const before = await storedTest(m.tenant.clientId, created.body.id);
    const res = await api('PUT', `/api/tests/${created.body.id}`, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { test_name: 'Content only', timer: 50 }),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.test_name, 'Content only');
    assert.equal(res.body.timer, 50);
    assert.deepEqual(Object.fromEntries(DELIVERY_REPLY_FIELDS.map((k) => [k, res.body[k]])), {
      ...Object.fromEntries(DELIVERY_REPLY_FIELDS.map((k) => [k, created.body[k]])),
      closes_at: '2030-05-01T12:00:30.000Z',
    });
    const after = await storedTest(m.tenant.clientId, created.body.id);
    for (const key of [...Object.keys(settings), 'assigned_class_ids', 'seb_config_keys', 'seb_browser_exam_keys'])
      assert.deepEqual(after[key], before[key], key);
    const audit = (await auditOf(m.tenant.clientId, 'test_settings_changed')).filter(
      (r: any) => r.details.test_id === created.body.id,
    );
    assert.deepEqual(audit, [], 'no delivery setting changed, so none is audited');
  });

  it('clears a kept setting only when sent null or 0, and checks the window as it would stand', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const created = await post(
      '/api/tests',
      { ...validTest([q.id]), opens_at: '2030-05-01T10:00:00Z', closes_at: '2030-05-01T12:00:00Z' },
      as(m.tenant.admin.token),
    );
    const path = `/api/tests/${created.body.id}`;
    const cleared = await api('PUT', path, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { opens_at: null }),
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.opens_at, null);
    assert.equal(cleared.body.closes_at, '2030-05-01T12:00:00.000Z');
    // The stored closes_at, kept, is before this opens_at: the field sent is named.
    expectValidation(
      await api('PUT', path, {
        ...as(m.tenant.admin.token),
        body: validTest([q.id], { opens_at: '2030-06-01T00:00:00Z' }),
      }),
      ['body.opens_at'],
    );
    assert.equal((await storedTest(m.tenant.clientId, created.body.id)).opens_at, null, 'the refused replace left it');
  });

  it('replaces the access code when sent, and clears it with null', async () => {
    const q = await writeQuestion(m.tenant.clientId);
    const created = await post('/api/tests', { ...validTest([q.id]), access_code: CODE }, as(m.tenant.admin.token));
    const path = `/api/tests/${created.body.id}`;
    const replaced = await api('PUT', path, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { access_code: 'another-code' }),
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.access_code_required, true);
    assert.equal(replaced.body.access_code, 'another-code');
    assert.equal((await storedTest(m.tenant.clientId, created.body.id)).access_code, 'another-code');
    const cleared = await api('PUT', path, {
      ...as(m.tenant.admin.token),
      body: validTest([q.id], { access_code: null }),
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.access_code_required, false);
    assert.equal(cleared.body.access_code, null);
  });
});
