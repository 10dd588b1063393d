import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { adminDb } from '../support/admin';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createClientDoc, createTenant, createUser, type TestUser } from '../support/fixtures';
import { api, freshIp, get, post } from '../support/http';
import { publishTest, startOk } from '../attempts/fixtures';
import { as } from '../exams/fixtures';
import { startReceiver, type Receiver } from './receiver';

// Webhook endpoints over real HTTP against the emulators; deliveries made by the
// real Firestore trigger in the Functions emulator, received by a local server
// that verifies them with the standardwebhooks library.
// Registration is sensitive (10 per minute per user): each test acts as an admin of its own.

const hooks = (clientId: string) => `/api/clients/${clientId}/webhooks`;
const register = (clientId: string, token: string, body: unknown) => post(hooks(clientId), body, as(token));

async function adminOf(clientId: string): Promise<TestUser> {
  return createUser('client_admin', clientId);
}

describe('POST /api/clients/{clientId}/webhooks', () => {
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  before(async () => {
    tenant = await createTenant();
  });

  it('registers an endpoint and shows its secret once (whsec_ + 32 bytes), audited as webhook_created', async () => {
    const admin = await adminOf(tenant.clientId);
    const res = await register(tenant.clientId, admin.token, {
      url: 'https://hooks.example.com/in',
      events: ['attempt.submitted', 'test.published'],
      description: 'LMS bridge',
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(res.body.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(
      { ...res.body, id: undefined, secret: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        secret: undefined,
        created_at: undefined,
        updated_at: undefined,
        client_id: tenant.clientId,
        url: 'https://hooks.example.com/in',
        events: ['attempt.submitted', 'test.published'],
        description: 'LMS bridge',
        active: true,
        disabled_reason: null,
      },
    );
    const list = await get(hooks(tenant.clientId), as(admin.token));
    assert.equal(list.status, 200);
    const listed = list.body.data.find((w: { id: string }) => w.id === res.body.id);
    assert.ok(listed);
    assert.equal(listed.secret, undefined, 'the list never shows a secret');
    assert.equal((await auditRecordsFor(admin.uid, 'webhook_created')).length, 1);
  });

  for (const [name, body, path] of [
    ['a URL that is not https', { url: 'http://hooks.example.com/in', events: ['attempt.submitted'] }, 'body.url'],
    ['a string that is not a URL', { url: 'not a url', events: ['attempt.submitted'] }, 'body.url'],
    ['a private address', { url: 'https://10.1.2.3/in', events: ['attempt.submitted'] }, 'body.url'],
    ['the metadata server', { url: 'https://169.254.169.254/latest', events: ['attempt.submitted'] }, 'body.url'],
    ['an unknown event', { url: 'https://hooks.example.com/in', events: ['attempt.deleted'] }, 'body.events.0'],
    ['no events', { url: 'https://hooks.example.com/in', events: [] }, 'body.events'],
    [
      'an event twice',
      { url: 'https://hooks.example.com/in', events: ['test.published', 'test.published'] },
      'body.events',
    ],
    [
      'a description over 200',
      { url: 'https://hooks.example.com/in', events: ['test.published'], description: 'x'.repeat(201) },
      'body.description',
    ],
  ] as const) {
    it(`refuses ${name} with 400 and writes nothing`, async () => {
      const client = await createClientDoc();
      const admin = await adminOf(client.id);
      const res = await register(client.id, admin.token, body);
      expectValidation(res, [path]);
      assert.equal((await adminDb.collection(`clients/${client.id}/webhooks`).get()).size, 0);
    });
  }

  it('bounds an organization to 20 endpoints: the 21st is 409 and writes nothing', async () => {
    const client = await createClientDoc();
    const admin = await adminOf(client.id);
    const batch = adminDb.batch();
    for (let i = 0; i < 19; i += 1)
      batch.set(adminDb.doc(`clients/${client.id}/webhooks/w${i}`), {
        id: `w${i}`,
        client_id: client.id,
        url: 'https://hooks.example.com/in',
        events: ['test.published'],
        description: null,
        active: true,
        disabled_reason: null,
        secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expires_at: null }],
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        created_by: 'fixture',
      });
    await batch.commit();
    const body = { url: 'https://hooks.example.com/20', events: ['test.published'] };
    assert.equal((await register(client.id, admin.token, body)).status, 201);
    expectError(await register(client.id, admin.token, body), 409, 'CONFLICT');
    assert.equal((await adminDb.collection(`clients/${client.id}/webhooks`).get()).size, 20);
  });

  it('keeps organizations apart: another organization → 403, its endpoint id under one’s own → 404', async () => {
    const [mine, theirs] = await Promise.all([createTenant(), createTenant()]);
    const theirAdmin = await adminOf(theirs.clientId);
    const created = await register(theirs.clientId, theirAdmin.token, {
      url: 'https://hooks.example.com/theirs',
      events: ['test.published'],
    });
    assert.equal(created.status, 201);
    const myAdmin = await adminOf(mine.clientId);
    expectError(await get(hooks(theirs.clientId), as(myAdmin.token)), 403, 'FORBIDDEN');
    expectError(
      await register(theirs.clientId, myAdmin.token, {
        url: 'https://hooks.example.com/x',
        events: ['test.published'],
      }),
      403,
      'FORBIDDEN',
    );
    const foreign = `${hooks(mine.clientId)}/${created.body.id}`;
    expectError(await api('DELETE', foreign, as(myAdmin.token)), 404, 'NOT_FOUND');
    expectError(await post(`${foreign}/rotate-secret`, undefined, as(myAdmin.token)), 404, 'NOT_FOUND');
    expectError(await get(`${foreign}/deliveries`, as(myAdmin.token)), 404, 'NOT_FOUND');
    expectError(await get(hooks(mine.clientId), as(mine.student.token)), 403, 'FORBIDDEN');
    // Ids that cannot name a document name nothing.
    expectError(await get(`${hooks(mine.clientId)}/__x__/deliveries`, as(myAdmin.token)), 404, 'NOT_FOUND');
    expectError(
      await post(
        `${hooks(theirs.clientId)}/${created.body.id}/deliveries/a%2Fb/resend`,
        undefined,
        as(theirAdmin.token),
      ),
      404,
      'NOT_FOUND',
    );
    assert.ok((await adminDb.doc(`clients/${theirs.clientId}/webhooks/${created.body.id}`).get()).exists);
  });
});

describe('webhook delivery through the Firestore trigger', () => {
  let receiver: Receiver;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let admin: TestUser;
  let webhookId: string;
  before(async () => {
    receiver = await startReceiver(() => 204);
    tenant = await createTenant();
    admin = await adminOf(tenant.clientId);
    const res = await register(tenant.clientId, admin.token, {
      url: receiver.url,
      events: ['test.published', 'attempt.submitted'],
    });
    assert.equal(res.status, 201, res.text);
    receiver.secrets.push(res.body.secret);
    webhookId = res.body.id;
  });
  after(() => receiver.close());

  it('delivers test.published and attempt.submitted signed, with the attempt as an admin sees it (no keys) and its revision', async function () {
    this.timeout(150_000);
    const { test } = await publishTest(tenant.admin.token, tenant.clientId);
    const [published] = await receiver.waitFor(1, 60_000);
    assert.ok(published, 'the trigger delivered test.published');
    assert.deepEqual(published.verifiedWith, [0]);
    const publishedBody = JSON.parse(published.body);
    assert.equal(publishedBody.type, 'test.published');
    assert.equal(publishedBody.data.id, test.id);
    assert.equal(publishedBody.data.access_code_hash, undefined);
    assert.equal(publishedBody.data.access_code, undefined, 'the room’s code stays out of integrations');

    const started = await startOk(tenant.student.token, { test_id: test.id });
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(tenant.student.token));
    assert.equal(submitted.status, 200, submitted.text);
    const [, attemptMessage] = await receiver.waitFor(2, 60_000);
    assert.ok(attemptMessage, 'the trigger delivered attempt.submitted');
    assert.deepEqual(attemptMessage.verifiedWith, [0]);
    const body = JSON.parse(attemptMessage.body);
    assert.equal(body.type, 'attempt.submitted');
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(body.data.attempt_id, started.attempt_id);
    assert.equal(body.data.status, 'submitted');
    assert.equal(body.data.revision, 1);
    assert.deepEqual(body.data.attachments, [], 'the files attached, as the attempt shows them (none here)');
    assert.equal(body.data.review, undefined, 'no review, so no answer keys');
    assert.ok(!/correct_answer|"answer_key"|"correct"/.test(attemptMessage.body), 'no key anywhere in the body');

    const page = await get(`${hooks(tenant.clientId)}/${webhookId}/deliveries?page_size=10`, as(admin.token));
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.data.length, 2);
    assert.deepEqual(
      page.body.data.map((d: { event_type: string; status: string; tries: number; last_code: number }) => [
        d.event_type,
        d.status,
        d.tries,
        d.last_code,
      ]),
      [
        ['attempt.submitted', 'delivered', 1, 204],
        ['test.published', 'delivered', 1, 204],
      ],
    );
    assert.equal(page.body.data[0].message_id, attemptMessage.id);
  });

  it('resends a delivery: pending again with the same message id, audited', async () => {
    const page = await get(`${hooks(tenant.clientId)}/${webhookId}/deliveries`, as(admin.token));
    const [first] = page.body.data;
    const res = await post(
      `${hooks(tenant.clientId)}/${webhookId}/deliveries/${encodeURIComponent(first.id)}/resend`,
      undefined,
      as(admin.token),
    );
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.message_id, first.message_id);
    assert.equal((await auditRecordsFor(admin.uid, 'webhook_delivery_resent')).length, 1);
    expectError(
      await post(`${hooks(tenant.clientId)}/${webhookId}/deliveries/nope/resend`, undefined, as(admin.token)),
      404,
      'NOT_FOUND',
    );
  });

  it('rotates the secret: both the new and the old one verify for 24 h; deleting stops deliveries', async () => {
    const rotated = await post(`${hooks(tenant.clientId)}/${webhookId}/rotate-secret`, undefined, as(admin.token));
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, receiver.secrets[0]);
    receiver.secrets.push(rotated.body.secret);
    const before = receiver.received.length;
    await publishTest(tenant.admin.token, tenant.clientId);
    const all = await receiver.waitFor(before + 1);
    const message = all[before];
    assert.ok(message);
    assert.equal(message.signature.split(' ').length, 2, 'two signatures while the old secret still signs');
    assert.deepEqual(message.verifiedWith, [0, 1], 'the old and the new secret each verify it');
    for (const secret of receiver.secrets)
      new Webhook(secret).verify(message.body, {
        'webhook-id': message.id,
        'webhook-timestamp': message.timestamp,
        'webhook-signature': message.signature,
      });
    assert.equal((await auditRecordsFor(admin.uid, 'webhook_secret_rotated')).length, 1);

    const deleted = await api('DELETE', `${hooks(tenant.clientId)}/${webhookId}`, as(admin.token));
    assert.equal(deleted.status, 204);
    assert.equal((await auditRecordsFor(admin.uid, 'webhook_deleted')).length, 1);
    expectError(
      await api('DELETE', `${hooks(tenant.clientId)}/${webhookId}`, { ...as(admin.token), ip: freshIp() }),
      404,
      'NOT_FOUND',
    );
  });
});
