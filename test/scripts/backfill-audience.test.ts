import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FieldValue } from 'firebase-admin/firestore';
import { PROJECT_ID } from '../support/env';
import { createTenant } from '../support/fixtures';
import { get } from '../support/http';
import { as, testDoc } from '../exams/fixtures';
import { publishTest } from '../attempts/fixtures';

const run = promisify(execFile);
const script = join(__dirname, '..', '..', 'scripts', 'backfill-audience.mjs');
const backfill = (...args: string[]) =>
  run(process.execPath, [script, '--project', PROJECT_ID, ...args], { env: process.env });

describe('node scripts/backfill-audience.mjs (tests stored before assignments)', () => {
  it('gives a test without an audience none assigned and the organization’s, so students list it again; run twice, it writes nothing more', async function () {
    this.timeout(60_000);
    const tenant = await createTenant();
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    const { test: assigned } = await publishTest(tenant.admin.token, tenant.clientId, { count: 1 });
    await Promise.all([
      testDoc(tenant.clientId, test.id).update({
        assigned_class_ids: FieldValue.delete(),
        audience: FieldValue.delete(),
      }),
      // An assignment whose audience was lost: derived again from it.
      testDoc(tenant.clientId, assigned.id).update({ assigned_class_ids: ['class-x'], audience: FieldValue.delete() }),
    ]);
    const listed = async () =>
      (await get('/api/tests?limit=100', as(tenant.student.token))).body.data.map((t: any) => t.id);
    assert.ok(!(await listed()).includes(test.id));

    const dry = await backfill('--dry-run');
    assert.match(dry.stdout, /need an audience/);
    assert.equal((await testDoc(tenant.clientId, test.id).get()).get('audience'), undefined);

    await backfill();
    const stored = (await testDoc(tenant.clientId, test.id).get()).data()!;
    assert.deepEqual(stored.assigned_class_ids, []);
    assert.deepEqual(stored.audience, ['*']);
    assert.deepEqual((await testDoc(tenant.clientId, assigned.id).get()).get('audience'), ['class-x']);
    assert.ok((await listed()).includes(test.id));

    // Run again over this organization only: other tests write tests beside it meanwhile.
    const again = await backfill('--client', tenant.clientId);
    assert.match(again.stdout, / 0 given an audience/);
  });
});
