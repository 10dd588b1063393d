import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { FieldValue } from 'firebase-admin/firestore';
import { foldForSearch } from '../../functions/src/users/searchKeys';
import { adminDb } from '../support/admin';
import { PROJECT_ID } from '../support/env';
import { createTenant } from '../support/fixtures';
import { freshIp, get } from '../support/http';

const run = promisify(execFile);
const script = join(__dirname, '..', '..', 'scripts', 'backfill-user-search.mjs');
const backfill = (...args: string[]) =>
  run(process.execPath, [script, '--project', PROJECT_ID, ...args], { env: process.env });

describe('node scripts/backfill-user-search.mjs (profiles stored before the search)', () => {
  it('folds text as the service does', async () => {
    const { foldForSearch: scriptFold } = (await import(pathToFileURL(script).href)) as {
      foldForSearch: (text: string) => string;
    };
    for (const text of ['Ada LOVELACE', '  Zoë \t Ångström ', 'ﬁona@X.org', '\u0301', 'İstanbul'])
      assert.equal(scriptFold(text), foldForSearch(text), JSON.stringify(text));
  });

  it('gives a profile without search keys its keys, so the search finds it; run twice, it writes nothing more', async function () {
    this.timeout(60_000);
    const tenant = await createTenant();
    const ref = adminDb.collection('clients').doc(tenant.clientId).collection('users').doc(tenant.student.uid);
    await ref.update({ email_lower: FieldValue.delete(), name_lower: FieldValue.delete() });
    const find = async () =>
      (await get('/api/users?q=test%20student', { token: tenant.admin.token, ip: freshIp() })).body.data.map(
        (u: { uid: string }) => u.uid,
      );
    assert.deepEqual(await find(), []);

    const dry = await backfill('--dry-run');
    assert.match(dry.stdout, /need search keys/);
    assert.equal((await ref.get()).get('name_lower'), undefined);

    await backfill();
    const stored = (await ref.get()).data()!;
    assert.equal(stored.name_lower, 'test student');
    assert.equal(stored.email_lower, tenant.student.email.toLowerCase());
    assert.deepEqual(await find(), [tenant.student.uid]);

    // Run again over this organization only: other tests write profiles beside it meanwhile.
    const again = await backfill('--client', tenant.clientId);
    assert.match(again.stdout, / 0 given search keys/);
  });

  it('with --client, reads and writes that organization’s profiles only', async function () {
    this.timeout(60_000);
    const [mine, other] = await Promise.all([createTenant(), createTenant()]);
    const strip = (t: typeof mine) =>
      adminDb
        .collection('clients')
        .doc(t.clientId)
        .collection('users')
        .doc(t.student.uid)
        .update({ email_lower: FieldValue.delete(), name_lower: FieldValue.delete() });
    await Promise.all([strip(mine), strip(other)]);
    const scoped = await backfill('--client', mine.clientId);
    assert.match(scoped.stdout, / 1 given search keys/);
    const lowered = async (t: typeof mine) =>
      (await adminDb.collection('clients').doc(t.clientId).collection('users').doc(t.student.uid).get()).get(
        'name_lower',
      );
    assert.equal(await lowered(mine), 'test student');
    assert.equal(await lowered(other), undefined);
  });

  it('refuses an organization id with a "/" (exit 2, the usage)', async () => {
    await assert.rejects(backfill('--client', 'a/b'), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 2);
      assert.match(err.stderr, /--client takes an organization id/);
      return true;
    });
  });
});
