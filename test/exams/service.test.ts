import assert from 'node:assert/strict';
import { provideEffects } from '../../functions/src/app';
import type { Principal } from '../../functions/src/auth/principal';
import { ApiError } from '../../functions/src/shared/errors';
import { createShareCode, moveTest, publishTest, revokeShareCode } from '../../functions/src/exams/service';
import { provideTestChangeEffects } from '../../functions/src/exams/testChangeEffects';
import { adminDb } from '../support/admin';
import { createTenant } from '../support/fixtures';
import { draftWithQuestions, publishedTest, testDoc } from './fixtures';

// The real service against the real Firestore emulator, called in-process:
// through HTTP the Functions emulator runs one request at a time, so two moves
// never overlap there. Here both read the test before either writes.

const asAdmin = (user: { uid: string; clientId: string | null }): Principal => ({
  uid: user.uid,
  email: null,
  role: 'client_admin',
  clientId: user.clientId,
  guest: false,
  authTime: 0,
});

const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((r) =>
    r.status === 'fulfilled' ? 'ok' : r.reason instanceof ApiError ? r.reason.code : String(r.reason),
  );

describe('tests service: two publishes of one draft at the same moment', () => {
  it('publishes once: one succeeds, the other gets CONFLICT, and exactly one version is written', async function () {
    // The emulator makes the losing transaction wait for the winner's lock: a few seconds a round.
    this.timeout(90_000);
    const tenant = await createTenant();
    for (let round = 0; round < 3; round++) {
      const { test } = await draftWithQuestions(tenant.admin.token, tenant.clientId, 2);
      const results = await Promise.allSettled([
        publishTest(asAdmin(tenant.admin), test.id),
        publishTest(asAdmin(tenant.admin), test.id),
      ]);
      assert.deepEqual(outcomes(results).sort(), ['CONFLICT', 'ok'], `round ${round}`);
      const versions = await testDoc(tenant.clientId, test.id).collection('versions').get();
      assert.deepEqual(
        versions.docs.map((d) => d.id),
        ['1'],
      );
      assert.equal((await testDoc(tenant.clientId, test.id).get()).get('version'), 1);
    }
  });
});

describe('tests service: a share code issued while the test is archived', () => {
  // What an archive does to the test's attempts is wired by the composition root, as in the app.
  before(() => provideEffects());

  it('either issues the code before the archive or refuses it with CONFLICT, never a code for an archived test', async () => {
    const tenant = await createTenant();
    const { test } = await publishedTest(tenant.admin.token, tenant.clientId, 1);
    const results = await Promise.allSettled([
      createShareCode(asAdmin(tenant.admin), test.id, {}),
      moveTest(asAdmin(tenant.admin), test.id, 'archive'),
    ]);
    const [issued, archived] = outcomes(results);
    assert.equal(archived, 'ok');
    assert.ok(['ok', 'CONFLICT'].includes(issued), issued);
    const codes = await adminDb.collection('share_codes').where('test_id', '==', test.id).get();
    assert.equal(codes.size, issued === 'ok' ? 1 : 0);
  });
});

describe('tests service: without the composition root’s TestChangeEffects', () => {
  it('refuses an archive and a share code’s revocation (throws) before writing either: the test stays published, the code unrevoked', async () => {
    const tenant = await createTenant();
    const { test } = await publishedTest(tenant.admin.token, tenant.clientId, 1);
    provideEffects();
    const code = await createShareCode(asAdmin(tenant.admin), test.id, {});
    provideTestChangeEffects(undefined);
    try {
      await assert.rejects(moveTest(asAdmin(tenant.admin), test.id, 'archive'), /No TestChangeEffects provided/);
      assert.equal((await testDoc(tenant.clientId, test.id).get()).get('status'), 'published');
      await assert.rejects(revokeShareCode(asAdmin(tenant.admin), test.id, code.code), /No TestChangeEffects provided/);
      assert.equal((await adminDb.collection('share_codes').doc(code.code).get()).get('revoked'), false);
    } finally {
      provideEffects();
    }
  });
});
