import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../functions/src/auth/principal';
import { db } from '../../functions/src/firestore/db';
import { createFolder, deleteFolder } from '../../functions/src/folders/service';
import { ApiError } from '../../functions/src/shared/errors';
import { LEASE_MS, recoverStaleImports } from '../../functions/src/questions/importStore';
import { isContention } from '../../functions/src/platform';
import { createQuestion } from '../../functions/src/questions/service';
import { adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';
import { api } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { importCsv } from '../support/multipart';

// The real app served from this process against the emulators: requests truly
// overlap here (the Functions emulator runs one at a time), Firestore can be
// made to fail underneath, and the request body is a stream, not req.rawBody.

const HEADER = 'question_text,question_type,options,correct_answer,marks,difficulty';
const csvOf = (rows: number) =>
  `${HEADER}\n${Array.from({ length: rows }, (_, i) => `Question ${i} ${randomUUID()}?,short_answer,,a,1,easy`).join('\n')}\n`;

const questionCount = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/questions`).count().get()).data().count;
const importDocs = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/question_imports`).get()).docs.map((d) => d.data());
const asAdmin = (user: { uid: string; clientId: string | null }): Principal => ({
  uid: user.uid,
  email: null,
  role: 'client_admin',
  clientId: user.clientId,
  guest: false,
  authTime: 0,
});

/**
 * Makes commits touching a path that matches fail, from the `from`-th such commit on, `times` times:
 * the function "dies" part-way through an import.
 */
function failCommits(paths: RegExp, from: number, times = Infinity): () => void {
  const proto = Object.getPrototypeOf(db.batch());
  const original = proto._commit;
  let seen = 0;
  proto._commit = function (this: { _ops: Array<{ docPath: string }> }, ...args: unknown[]) {
    if (this._ops.some((op) => paths.test(op.docPath))) {
      const n = seen++;
      if (n >= from && n < from + times)
        return Promise.reject(Object.assign(new Error('14 UNAVAILABLE: injected'), { code: 14 }));
    }
    return original.apply(this, args);
  };
  return () => {
    proto._commit = original;
  };
}

let server: InProcessApi;
before(async () => {
  server = await startInProcessApi();
});
after(async () => {
  await server.close();
});

describe('POST /api/questions/import, in-process', () => {
  it('streams the request body itself when there is no req.rawBody', async () => {
    const tenant = await createTenant();
    const res = await importCsv(csvOf(3), { token: tenant.admin.token, baseUrl: server.baseUrl });
    assert.equal(res.status, 201, res.text);
    assert.equal(await questionCount(tenant.clientId), 3);
  });

  it('two uploads of the same file at the same moment: one imports, the other gets 409, and the bank holds the file once', async () => {
    const tenant = await createTenant();
    const other = await createUser('client_admin', tenant.clientId);
    const csv = csvOf(600);
    const results = await Promise.all([
      importCsv(csv, { token: tenant.admin.token, baseUrl: server.baseUrl }),
      importCsv(csv, { token: other.token, baseUrl: server.baseUrl }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status).sort(),
      [201, 409],
      results.map((r) => r.text.slice(0, 300)).join('\n'),
    );
    assert.equal(await questionCount(tenant.clientId), 600);
  });

  it('imports more than 500 rows in batches, and a failure before the commit point leaves nothing behind', async () => {
    const tenant = await createTenant();
    const csv = csvOf(1200);
    const heal = failCommits(new RegExp(`^clients/${tenant.clientId}/question_imports/[^/]+/chunks/`), 0, 1);
    let res;
    try {
      res = await importCsv(csv, { token: tenant.admin.token, baseUrl: server.baseUrl });
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    assert.equal(await questionCount(tenant.clientId), 0);
    assert.deepEqual(
      await importDocs(tenant.clientId),
      [],
      'the import record is removed, so the file can be sent again',
    );
    const again = await importCsv(csv, { token: tenant.admin.token, baseUrl: server.baseUrl });
    assert.equal(again.status, 201, again.text);
    assert.equal(await questionCount(tenant.clientId), 1200);
  });

  it('an import that dies while publishing is finished from its staged rows once its lease runs out', async () => {
    const tenant = await createTenant();
    const heal = failCommits(new RegExp(`^clients/${tenant.clientId}/questions/`), 1);
    let res;
    try {
      res = await importCsv(csvOf(1200), { token: tenant.admin.token, baseUrl: server.baseUrl });
    } finally {
      heal();
    }
    assert.equal(res.status, 503, res.text);
    const [record] = await importDocs(tenant.clientId);
    assert.equal(record.status, 'committed');
    assert.equal(await recoverStaleImports(tenant.clientId, Date.now()), 0, 'a live lease is left alone');
    assert.equal(await recoverStaleImports(tenant.clientId, Date.now() + LEASE_MS + 1000), 1);
    assert.equal(await questionCount(tenant.clientId), 1200);
    const [completed] = await importDocs(tenant.clientId);
    assert.equal(completed.status, 'complete');
    const stored = await adminDb.getAll(
      ...completed.question_ids.map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
    );
    assert.ok(
      stored.every((s) => s.exists),
      'every question the record names exists',
    );
    assert.equal(
      (await adminDb.collection(`clients/${tenant.clientId}/question_imports/${completed.id}/chunks`).get()).size,
      0,
      'staged chunks are removed',
    );
  });
  /** An import of `rows` rows whose worker dies after its first publishing batch; its lease is then made to have run out. */
  async function crashedImport(tenant: Awaited<ReturnType<typeof createTenant>>, rows: number) {
    const heal = failCommits(new RegExp(`^clients/${tenant.clientId}/questions/`), 1);
    try {
      const res = await importCsv(csvOf(rows), { token: tenant.admin.token, baseUrl: server.baseUrl });
      assert.equal(res.status, 503, res.text);
    } finally {
      heal();
    }
    const [record] = await importDocs(tenant.clientId);
    await adminDb
      .doc(`clients/${tenant.clientId}/question_imports/${record.id}`)
      .update({ lease_expires_at: new Date(Date.now() - 1000).toISOString() });
    return record;
  }

  it('a roll forward writes only the batches the dead import had not written: a question deleted meanwhile stays deleted', async () => {
    const tenant = await createTenant();
    const record = await crashedImport(tenant, 1200);
    const written = (
      await adminDb.getAll(
        ...record.question_ids.map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
      )
    ).filter((s) => s.exists);
    assert.equal(written.length, 499, 'the first batch was written before the crash');
    await written[0].ref.delete(); // an admin removes one of them meanwhile
    assert.equal(await recoverStaleImports(tenant.clientId, Date.now()), 1);
    assert.equal(
      await questionCount(tenant.clientId),
      1199,
      'everything else is there, the deleted question is not back',
    );
    assert.equal((await written[0].ref.get()).exists, false);
  });

  it('listing the questions finishes an import whose worker died, and shows it whole', async () => {
    const tenant = await createTenant();
    await crashedImport(tenant, 700);
    const res = await api('GET', '/api/questions?limit=1', { token: tenant.admin.token, baseUrl: server.baseUrl });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.pagination.total, 700);
    const [record] = await importDocs(tenant.clientId);
    assert.equal(record.status, 'complete');
  });
});

describe('folders service: a delete and a question filed into the folder at the same moment', () => {
  it('never both succeed: the folder is deleted and no question names it, or the question exists and the delete answers 409', async () => {
    const tenant = await createTenant();
    const admin = asAdmin(tenant.admin);
    for (let round = 0; round < 8; round++) {
      const folder = await createFolder(admin, { name: `Race ${round} ${randomUUID()}` });
      const [created, deleted] = await Promise.allSettled([
        createQuestion(admin, {
          question_type: 'short_answer',
          question_text: 'Q?',
          correct_answer: 'a',
          marks: 1,
          difficulty: 'easy',
          folder_id: folder.id,
        }),
        deleteFolder(admin, folder.id),
      ]);
      assert.ok(
        !(created.status === 'fulfilled' && deleted.status === 'fulfilled'),
        `round ${round}: both the question and the delete succeeded`,
      );
      const refused = [created, deleted].find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      // Or a transaction the emulator closed under contention, which the API answers 503 and which wrote nothing.
      assert.ok(
        (refused.reason instanceof ApiError && ['CONFLICT', 'NOT_FOUND'].includes(refused.reason.code)) ||
          isContention(refused.reason),
        String(refused.reason),
      );
      const orphans = await adminDb
        .collection(`clients/${tenant.clientId}/questions`)
        .where('folder_id', '==', folder.id)
        .get();
      const folderExists = (await adminDb.doc(`clients/${tenant.clientId}/folders/${folder.id}`).get()).exists;
      assert.ok(folderExists || orphans.empty, `round ${round}: a question names a deleted folder`);
    }
  });
});
