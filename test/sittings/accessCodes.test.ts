import assert from 'node:assert/strict';
import { expectError } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { as, testDoc } from '../exams/fixtures';
import { start, startOk, tokenQuery, writeShareCode } from '../attempts/fixtures';
import { hashAccessCode } from '../../functions/src/sittingRules/accessCode';
import { patchTest, sittingTest, storedTest } from './httpFixtures';

// A test's access code as teachers use it: the organization's admins read it
// back, takers never receive it, and a taker's typing is forgiven its case
// and surrounding spaces. A code stored as a hash before still works.

const CODE = 'Hall-B-2030';

let m: RoleMatrix;
const newStudent = () => createUser('student', m.tenant.clientId);

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

/** A taker's reply: neither the code nor an access_code field (access_code_required aside), nor anything of a hash. */
function assertNoCode(text: string, code = CODE): void {
  assert.ok(!text.toLowerCase().includes(code.toLowerCase()), `the code is not in the reply: ${text}`);
  assert.ok(!/"access_code"/.test(text), `no access_code field: ${text}`);
  assert.ok(!/access_code_hash|"salt"/.test(text), `nothing of a stored hash: ${text}`);
}

describe('GET /api/tests/{testId} and GET /api/tests: the access code', () => {
  it('answers the code to the organization’s Client Admin and to a Super Admin, in the test and in the list', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    for (const token of [m.tenant.admin.token, m.superAdmin.token]) {
      const read = await get(`/api/tests/${test.id}`, as(token));
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.access_code, CODE);
      assert.equal(read.body.access_code_required, true);
    }
    const list = await get(`/api/tests?client_id=${m.tenant.clientId}&limit=100`, as(m.superAdmin.token));
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data.find((t: any) => t.id === test.id).access_code, CODE);
  });

  it('never answers it to a student: not in the test, nor in the list', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    const read = await get(`/api/tests/${test.id}`, as(m.tenant.student.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.access_code_required, true);
    assertNoCode(read.text);
    const list = await get('/api/tests?limit=100', as(m.tenant.student.token));
    assert.equal(list.status, 200, list.text);
    assert.ok(
      list.body.data.some((t: any) => t.id === test.id),
      'the test is listed',
    );
    assertNoCode(list.text);
  });

  it('refuses another organization’s admin the test (403), code and all', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    const read = await get(`/api/tests/${test.id}`, as(m.otherTenant.admin.token));
    expectError(read, 403, 'FORBIDDEN');
    assertNoCode(read.text);
  });

  it('stores the code without its surrounding spaces, and answers it so', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const res = await patchTest(m.tenant.admin.token, test.id, { access_code: `  ${CODE}  ` });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.access_code, CODE);
    assert.equal((await storedTest(m.tenant.clientId, test.id)).access_code, CODE);
  });
});

describe('POST /api/attempts: the access code compared as typed in a room', () => {
  it('starts a student who types it in another case with spaces around it, and refuses another code', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    const refused = await start(
      (await newStudent()).token,
      { test_id: test.id, access_code: 'Hall-B-2031' },
      {
        ip: freshIp(),
      },
    );
    expectError(refused, 403, 'FORBIDDEN');
    const started = await start((await newStudent()).token, { test_id: test.id, access_code: '  hall-b-2030 ' });
    assert.equal(started.status, 201, started.text);
  });

  it('never answers the code to a taker: the start, the attempt and the attempts list of a student', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    const student = await newStudent();
    const started = await start(student.token, { test_id: test.id, access_code: CODE });
    assert.equal(started.status, 201, started.text);
    assertNoCode(started.text);
    const attempt = await get(`/api/attempts/${started.body.attempt_id}`, as(student.token));
    assert.equal(attempt.status, 200, attempt.text);
    assertNoCode(attempt.text);
    const attempts = await get('/api/attempts', as(student.token));
    assert.equal(attempts.status, 200, attempts.text);
    assertNoCode(attempts.text);
  });

  it('never answers the code to a guest redeeming a share code (the code in capitals), nor in its attempt', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE });
    const shareCode = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const started = await start(guest.token, {
      share_code: shareCode,
      access_code: CODE.toUpperCase(),
      guest_name: 'Ada',
    });
    assert.equal(started.status, 201, started.text);
    assertNoCode(started.text);
    const attempt = await get(`/api/attempts/${started.body.attempt_id}${tokenQuery(started.body.attempt_token)}`);
    assert.equal(attempt.status, 200, attempt.text);
    assertNoCode(attempt.text);
  });
});

describe('A code stored as a hash before codes were readable', () => {
  /** A published test whose code is stored the old way: a salted hash only. */
  async function legacyTest(code: string) {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    await testDoc(m.tenant.clientId, test.id).update({
      access_code: null,
      access_code_hash: await hashAccessCode(code),
    });
    return test;
  }

  it('still requires and compares the code: as typed, or with spaces around it; its case still counts', async () => {
    const test = await legacyTest(CODE);
    expectError(await start((await newStudent()).token, { test_id: test.id }, { ip: freshIp() }), 403, 'FORBIDDEN');
    expectError(
      await start((await newStudent()).token, { test_id: test.id, access_code: CODE.toLowerCase() }, { ip: freshIp() }),
      403,
      'FORBIDDEN',
    );
    await startOk((await newStudent()).token, { test_id: test.id, access_code: CODE });
    await startOk((await newStudent()).token, { test_id: test.id, access_code: ` ${CODE} ` });
  });

  it('reads as null with access_code_required true for an admin; set again, it is readable and forgives case', async () => {
    const test = await legacyTest(CODE);
    const read = await get(`/api/tests/${test.id}`, as(m.tenant.admin.token));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.access_code, null);
    assert.equal(read.body.access_code_required, true);
    const student = await get(`/api/tests/${test.id}`, as(m.tenant.student.token));
    assertNoCode(student.text);

    const again = await patchTest(m.tenant.admin.token, test.id, { access_code: CODE });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.access_code, CODE);
    const stored = await storedTest(m.tenant.clientId, test.id);
    assert.equal(stored.access_code_hash, null, 'the hash goes when the code is set again');
    await startOk((await newStudent()).token, { test_id: test.id, access_code: CODE.toLowerCase() });
  });

  it('is kept by a PATCH of another setting, and removed by clearing the code', async () => {
    const test = await legacyTest(CODE);
    const other = await patchTest(m.tenant.admin.token, test.id, { attempt_cooldown_minutes: 3 });
    assert.equal(other.status, 200, other.text);
    assert.equal(other.body.access_code_required, true);
    assert.ok((await storedTest(m.tenant.clientId, test.id)).access_code_hash, 'the hash is kept');
    const cleared = await patchTest(m.tenant.admin.token, test.id, { access_code: null });
    assert.equal(cleared.body.access_code_required, false);
    assert.equal((await storedTest(m.tenant.clientId, test.id)).access_code_hash, null);
    await startOk((await newStudent()).token, { test_id: test.id });
  });
});
