import assert from 'node:assert/strict';
import { platformPairKey } from '../../functions/src/lti/claims';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { adminDb } from '../support/admin';
import { createRoleMatrix, type RoleMatrix } from '../support/fixtures';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { publishedTestOn } from './fixtures';
import { fragment, idTokenFor, launch } from './flow';
import { INSTRUCTOR, LEARNER, startPlatform, type TestPlatform } from './platform';

// Registrations per organization, the tool's JWKS, and the deep-linking round
// trip (the response JWT verified with the tool's own JWKS, as a platform does).

let server: InProcessApi;
let base: string;
let m: RoleMatrix;
let platform: TestPlatform;

const as = (token: string, body?: unknown) => ({ token, body, ip: freshIp(), baseUrl: base });
const platformsOf = (clientId: string) => `/api/clients/${clientId}/lti/platforms`;

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  base = server.baseUrl;
  m = await createRoleMatrix();
  platform = await startPlatform();
});
after(async () => {
  await platform.close();
  await server.close();
});

describe('POST /api/clients/{clientId}/lti/platforms', () => {
  it('registers a platform and answers it with the tool’s URLs; audited', async () => {
    const res = await api(
      'POST',
      platformsOf(m.tenant.clientId),
      as(m.tenant.admin.token, platform.registration({ name: 'Moodle' })),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.client_id, platform.clientId);
    assert.equal(res.body.instructors_as_admins, false);
    assert.equal(res.body.name, 'Moodle');
    assert.deepEqual(res.body.tool, {
      // The login URL names the registration: a login that leaves client_id out still finds it.
      login_url: `${base}/api/lti/login?registration=${platformPairKey(platform.issuer, platform.clientId)}`,
      launch_url: `${base}/api/lti/launch`,
      jwks_url: `${base}/api/lti/jwks`,
      deep_linking_url: `${base}/api/lti/launch`,
    });
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/lti_platforms/${res.body.id}`).get()).data()!;
    assert.equal(stored.platform_client_id, platform.clientId);
    assert.equal(stored.client_id, m.tenant.clientId);
    const audit = await adminDb
      .collection('audit_logs')
      .where('event_type', '==', 'lti_platform_registered')
      .where('client_id', '==', m.tenant.clientId)
      .get();
    assert.equal(audit.size, 1);
  });

  it('refuses the same (issuer, client_id) twice, in this or another organization (409)', async () => {
    const again = await api(
      'POST',
      platformsOf(m.otherTenant.clientId),
      as(m.otherTenant.admin.token, platform.registration()),
    );
    assert.equal(again.status, 409, again.text);
  });

  it('refuses another organization’s id (403), students and guests (403), a Super Admin on an unknown organization (404)', async () => {
    const body = platform.registration({ client_id: 'x-1' });
    assert.equal((await api('POST', platformsOf(m.otherTenant.clientId), as(m.tenant.admin.token, body))).status, 403);
    assert.equal((await api('POST', platformsOf(m.tenant.clientId), as(m.tenant.student.token, body))).status, 403);
    assert.equal((await api('POST', platformsOf(m.tenant.clientId), as(m.guest.token, body))).status, 403);
    assert.equal((await api('POST', platformsOf('no-such-org'), as(m.superAdmin.token, body))).status, 404);
    assert.equal((await api('GET', platformsOf(m.otherTenant.clientId), as(m.tenant.admin.token))).status, 403);
  });

  it('refuses URLs that are not https or not URLs, and bad deployment lists (400)', async () => {
    for (const bad of [
      { jwks_url: 'http://platform.example/jwks' },
      { auth_login_url: 'not a url' },
      { issuer: 'ftp://x.example' },
      { deployment_ids: [] },
      { deployment_ids: ['a', 'a'] },
      { deployment_ids: Array.from({ length: 21 }, (_, i) => `d${i}`) },
    ]) {
      const res = await api(
        'POST',
        platformsOf(m.tenant.clientId),
        as(m.tenant.admin.token, { ...platform.registration({ client_id: `c-${Math.random()}` }), ...bad }),
      );
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
    }
  });

  it('refuses platform URLs on a private, link-local or unspecified address, even on the emulators (400)', async () => {
    for (const bad of [
      { jwks_url: 'https://169.254.169.254/computeMetadata/v1/' },
      { jwks_url: 'https://10.0.0.1/jwks' },
      { auth_token_url: 'https://0.0.0.0/token' },
      { jwks_url: 'https://[::ffff:a9fe:a9fe]/jwks' },
      { auth_login_url: 'https://192.168.1.1/auth' },
    ]) {
      const res = await api(
        'POST',
        platformsOf(m.tenant.clientId),
        as(m.tenant.admin.token, { ...platform.registration({ client_id: `c-${Math.random()}` }), ...bad }),
      );
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
    }
  });

  it('bounds an organization to 20 platforms (409 beyond), also when the last ones race', async () => {
    const t = m.otherTenant;
    // A transaction that lost to the others too often is answered 503, and its client sends it again, as any
    // client of a 503 would.
    const register = async (i: number): Promise<number[]> => {
      const tries: number[] = [];
      do {
        const res = await api(
          'POST',
          platformsOf(t.clientId),
          as(t.admin.token, platform.registration({ client_id: `bound-${i}-${Math.random()}` })),
        );
        tries.push(res.status);
      } while (tries.at(-1) === 503 && tries.length < 10);
      return tries;
    };
    // 16 one after another, then 6 at once on the one counter: 4 fit. (22 at once held the emulator's locks so
    // long that other files' requests beside it timed out.)
    const first = [];
    for (let i = 0; i < 16; i++) first.push(await register(i));
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => register(16 + i)));
    const tries = [...first, ...racing];
    assert.ok(
      tries.flat().every((s) => s === 201 || s === 409 || s === 503),
      tries.join(' | '),
    );
    assert.deepEqual(
      first.map((statuses) => statuses.at(-1)),
      Array(16).fill(201),
      tries.join(' | '),
    );
    const statuses = racing.map((statusesOfOne) => statusesOfOne.at(-1));
    assert.equal(statuses.filter((s) => s === 201).length, 4, tries.join(' | '));
    assert.equal(statuses.filter((s) => s === 409).length, 2, tries.join(' | '));
    const list = await api('GET', platformsOf(t.clientId), as(t.admin.token));
    assert.equal(list.body.data.length, 20);
  });
});

describe('GET and DELETE /api/clients/{clientId}/lti/platforms', () => {
  it('lists and deletes; the pair may be registered again after; another organization’s platform id is 404 in ours', async () => {
    const p = await startPlatform();
    const created = await api('POST', platformsOf(m.tenant.clientId), as(m.tenant.admin.token, p.registration()));
    const list = await api('GET', platformsOf(m.tenant.clientId), as(m.superAdmin.token));
    assert.ok(list.body.data.some((x: { id: string }) => x.id === created.body.id));
    assert.equal(
      (await api('DELETE', `${platformsOf(m.otherTenant.clientId)}/${created.body.id}`, as(m.otherTenant.admin.token)))
        .status,
      404,
    );
    assert.equal(
      (await api('DELETE', `${platformsOf(m.otherTenant.clientId)}/${created.body.id}`, as(m.tenant.admin.token)))
        .status,
      403,
    );
    assert.equal(
      (await api('DELETE', `${platformsOf(m.tenant.clientId)}/${created.body.id}`, as(m.tenant.admin.token))).status,
      204,
    );
    assert.equal(
      (await api('DELETE', `${platformsOf(m.tenant.clientId)}/${created.body.id}`, as(m.tenant.admin.token))).status,
      404,
    );
    const again = await api(
      'POST',
      platformsOf(m.otherTenant.clientId),
      as(m.otherTenant.admin.token, p.registration()),
    );
    assert.ok([201, 409].includes(again.status));
    await p.close();
  });
});

describe('PATCH /api/clients/{clientId}/lti/platforms/{platformId}', () => {
  /** A login naming `deployment`, its redirect to the platform not followed (the login's answer is what counts). */
  const loginWithDeployment = async (p: TestPlatform, deployment: string) => {
    const query = new URLSearchParams({
      iss: p.issuer,
      login_hint: 'h',
      target_link_uri: `${base}/api/lti/launch`,
      client_id: p.clientId,
      lti_deployment_id: deployment,
    });
    const res = await fetch(`${base}/api/lti/login?${query}`, {
      redirect: 'manual',
      headers: { accept: 'application/json', 'X-Forwarded-For': freshIp() },
    });
    const text = await res.text();
    return { status: res.status, text, body: res.status === 302 ? null : JSON.parse(text) };
  };

  it('changes what was sent, keeps the rest, and the next login takes it; audited naming the fields', async () => {
    const p = await startPlatform();
    const created = await api('POST', platformsOf(m.tenant.clientId), as(m.tenant.admin.token, p.registration()));
    assert.equal(created.status, 201, created.text);
    const path = `${platformsOf(m.tenant.clientId)}/${created.body.id}`;
    const before = await loginWithDeployment(p, 'added-later');
    assert.equal(before.status, 400, before.text);
    assert.equal(before.body.details[0].reason, 'unknown_deployment');

    const res = await api(
      'PATCH',
      path,
      as(m.tenant.admin.token, {
        name: 'Moodle of the school',
        deployment_ids: [p.deploymentId, 'added-later'],
        instructors_as_admins: true,
      }),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'Moodle of the school');
    assert.deepEqual(res.body.deployment_ids, [p.deploymentId, 'added-later']);
    assert.equal(res.body.instructors_as_admins, true);
    assert.equal(res.body.issuer, p.issuer, 'kept');
    assert.equal(res.body.auth_login_url, created.body.auth_login_url, 'kept');
    assert.deepEqual(res.body.tool, created.body.tool, 'the same login URL: the pair is unchanged');
    assert.ok(res.body.updated_at > created.body.updated_at);
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/lti_platforms/${created.body.id}`).get()).data()!;
    assert.equal(stored.name, 'Moodle of the school');
    const after = await loginWithDeployment(p, 'added-later');
    assert.equal(after.status, 302, `the new deployment logs in: ${after.text}`);

    const audit = await adminDb
      .collection('audit_logs')
      .where('event_type', '==', 'lti_platform_updated')
      .where('client_id', '==', m.tenant.clientId)
      .get();
    const record = audit.docs.map((d) => d.data()).find((r) => r.details.platform_id === created.body.id);
    assert.deepEqual(record?.details.fields, ['deployment_ids', 'instructors_as_admins', 'name']);
    await p.close();
  });

  it('refuses the pair (issuer, client_id), nothing to change, and a private URL (400), leaving the registration as it was', async () => {
    const p = await startPlatform();
    const created = await api('POST', platformsOf(m.tenant.clientId), as(m.tenant.admin.token, p.registration()));
    const path = `${platformsOf(m.tenant.clientId)}/${created.body.id}`;
    for (const body of [
      { issuer: 'https://other.example' },
      { client_id: 'another' },
      {},
      { jwks_url: 'https://10.0.0.1/jwks' },
      { jwks_url: 'http://lms.example/jwks' },
      { deployment_ids: [] },
      { deployment_ids: ['a', 'a'] },
      { name: 'ok', auth_token_url: 'not a url' },
    ]) {
      const res = await api('PATCH', path, as(m.tenant.admin.token, body));
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error, 'VALIDATION_ERROR');
    }
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/lti_platforms/${created.body.id}`).get()).data()!;
    assert.equal(stored.updated_at, created.body.updated_at, 'nothing written');
    await p.close();
  });

  it('keeps to its organization: another organization’s path 403, its platform id in ours 404, students 403, an unknown id 404', async () => {
    const p = await startPlatform();
    const created = await api('POST', platformsOf(m.tenant.clientId), as(m.tenant.admin.token, p.registration()));
    const body = { name: 'Taken over' };
    const statusOf = async (clientId: string, token: string, id = created.body.id) =>
      (await api('PATCH', `${platformsOf(clientId)}/${id}`, as(token, body))).status;
    assert.equal(await statusOf(m.otherTenant.clientId, m.tenant.admin.token), 403);
    assert.equal(await statusOf(m.otherTenant.clientId, m.otherTenant.admin.token), 404);
    assert.equal(await statusOf(m.tenant.clientId, m.otherTenant.admin.token), 403);
    assert.equal(await statusOf(m.tenant.clientId, m.tenant.student.token), 403);
    assert.equal(await statusOf(m.tenant.clientId, m.tenant.admin.token, 'no-such-platform'), 404);
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/lti_platforms/${created.body.id}`).get()).data()!;
    assert.notEqual(stored.name, 'Taken over');
    assert.equal(await statusOf(m.tenant.clientId, m.superAdmin.token), 200, 'a Super Admin may');
    await p.close();
  });
});

describe('GET /api/lti/jwks', () => {
  it('publishes RS256 public keys only', async () => {
    const res = await api('GET', '/api/lti/jwks', { baseUrl: base, ip: freshIp() });
    assert.equal(res.status, 200);
    assert.ok(res.body.keys.length >= 1);
    for (const key of res.body.keys) {
      assert.equal(key.kty, 'RSA');
      assert.equal(key.alg, 'RS256');
      assert.equal(key.d, undefined);
      assert.equal(key.p, undefined);
    }
  });
});

describe('Deep linking', () => {
  it('opens a picker session, lists the published tests, and answers a response JWT the platform verifies with the tool’s JWKS', async () => {
    const p = await startPlatform();
    const t = await createRoleMatrix();
    const reg = await api(
      'POST',
      platformsOf(t.tenant.clientId),
      as(t.tenant.admin.token, p.registration({ instructors_as_admins: true })),
    );
    assert.equal(reg.status, 201);
    const test = await publishedTestOn(base, t.tenant.admin.token, t.tenant.clientId);
    const res = await launch(base, p, (nonce) =>
      p.sign(
        p.deepLinking({
          user: { sub: 'teacher-1', name: 'Teacher', roles: [INSTRUCTOR] },
          course: { id: 'course-dl', title: 'Deep course' },
          nonce,
          data: 'opaque-123',
        }),
      ),
    );
    assert.equal(res.status, 302, res.text);
    assert.ok(res.location!.startsWith('/lti/deep-linking#'));
    const f = fragment(res.location);
    const token = await idTokenFor(f.token);
    const list = await api('GET', `/api/lti/deep-linking/${f.session}/tests`, as(token));
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.data.some((x: { id: string }) => x.id === test.id));

    // Another user (of the same organization) cannot use the session.
    assert.equal((await api('GET', `/api/lti/deep-linking/${f.session}/tests`, as(t.tenant.admin.token))).status, 403);
    assert.equal((await api('GET', `/api/lti/deep-linking/nope/tests`, as(token))).status, 404);

    const chosen = await api('POST', `/api/lti/deep-linking/${f.session}`, as(token, { test_id: test.id }));
    assert.equal(chosen.status, 200, chosen.text);
    assert.equal(chosen.body.return_url, `${p.baseUrl}/deep-link-return`);
    const jwks = createRemoteJWKSet(new URL(`${base}/api/lti/jwks`));
    const { payload, protectedHeader } = await jwtVerify(chosen.body.jwt, jwks, {
      issuer: p.clientId,
      audience: p.issuer,
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(payload['https://purl.imsglobal.org/spec/lti/claim/message_type'], 'LtiDeepLinkingResponse');
    assert.equal(payload['https://purl.imsglobal.org/spec/lti/claim/version'], '1.3.0');
    assert.equal(payload['https://purl.imsglobal.org/spec/lti/claim/deployment_id'], p.deploymentId);
    assert.equal(payload['https://purl.imsglobal.org/spec/lti-dl/claim/data'], 'opaque-123');
    const [item] = payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Array<Record<string, any>>;
    assert.equal(item.type, 'ltiResourceLink');
    assert.equal(item.title, test.test_name);
    assert.deepEqual(item.custom, { test_id: test.id });
    assert.ok(item.lineItem.scoreMaximum > 0);
    // The test is assigned to the course's class.
    const stored = (await adminDb.doc(`clients/${t.tenant.clientId}/tests/${test.id}`).get()).data()!;
    assert.equal(stored.assigned_class_ids.length, 1);

    // Another organization's test cannot be linked.
    const foreign = await publishedTestOn(base, t.otherTenant.admin.token, t.otherTenant.clientId);
    assert.equal(
      (await api('POST', `/api/lti/deep-linking/${f.session}`, as(token, { test_id: foreign.id }))).status,
      404,
    );
    await p.close();
  });

  it('refuses a Learner’s deep-linking request (403 deep_linking_role, as a page to a browser): no session, no picker', async () => {
    const p = await startPlatform();
    const t = await createRoleMatrix();
    const reg = await api('POST', platformsOf(t.tenant.clientId), as(t.tenant.admin.token, p.registration()));
    assert.equal(reg.status, 201);
    const sub = `learner-${Date.now()}`;
    const asLearner = (accept?: string) =>
      launch(
        base,
        p,
        (nonce) =>
          p.sign(
            p.deepLinking({
              user: { sub, name: 'Learner', roles: [LEARNER] },
              course: { id: 'course-dl-learner', title: 'Deep course' },
              nonce,
            }),
          ),
        { accept },
      );
    const res = await asLearner();
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error, 'FORBIDDEN');
    assert.equal(res.body.details[0].reason, 'deep_linking_role');
    const page = await asLearner('text/html');
    assert.equal(page.status, 403);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.text, /deep_linking_role/);
    const sessions = await adminDb.collection('lti_deep_links').where('client_id', '==', t.tenant.clientId).get();
    assert.equal(sessions.size, 0);
    await p.close();
  });
});
