import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { adminAuth, adminDb } from '../support/admin';
import { PROJECT_ID } from '../support/env';
import { createTenant, signIn } from '../support/fixtures';
import { get } from '../support/http';

const run = promisify(execFile);
const script = join(__dirname, '..', '..', 'scripts', 'make-super-admin.mjs');
const makeSuperAdmin = (...args: string[]) =>
  run(process.execPath, [script, '--project', PROJECT_ID, ...args], { env: process.env });

describe('npm run make-super-admin (the documented way to make the first Super Admin)', () => {
  it('creates an account whose token carries super_admin, with its profile and an audit record', async () => {
    const email = `ops-${randomUUID().slice(0, 8)}@test.example`;
    await makeSuperAdmin('--email', email, '--password', 'a long enough password');
    const token = await signIn(email, 'a long enough password');
    const me = await get('/api/me', { token });
    assert.equal(me.body.role, 'super_admin');
    assert.equal((await get('/api/clients', { token })).status, 200, 'it can do what only a Super Admin can');
    const { uid } = await adminAuth.getUserByEmail(email);
    assert.equal((await adminDb.collection('super_admins').doc(uid).get()).data()?.email, email);
    const created = await adminDb
      .collection('audit_logs')
      .where('user_id', '==', uid)
      .where('event_type', '==', 'user_created')
      .get();
    assert.equal(created.size, 1);
    assert.equal(created.docs[0].get('details').role, 'super_admin');
  });

  it('promotes an existing account, revoking the tokens of its old role', async () => {
    const tenant = await createTenant();
    await makeSuperAdmin('--email', tenant.admin.email);
    assert.deepEqual((await adminAuth.getUser(tenant.admin.uid)).customClaims, { role: 'super_admin' });
    const fresh = await signIn(tenant.admin.email, tenant.admin.password);
    assert.equal((await get('/api/me', { token: fresh })).body.role, 'super_admin');
  });

  it('refuses to run without an email, exiting 2 with its usage', async () => {
    await assert.rejects(
      makeSuperAdmin(),
      (err: { code?: number; stderr?: string }) => err.code === 2 && /Usage/.test(err.stderr ?? ''),
    );
  });
});
