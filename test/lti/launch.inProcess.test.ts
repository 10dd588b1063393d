import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { forgetKeySets } from '../../functions/src/lti/keySets';
import { ltiUid } from '../../functions/src/lti/claims';
import { adminAuth, adminDb } from '../support/admin';
import { failReads } from '../support/faults';
import { createTenant, createUser } from '../support/fixtures';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { publishedTestOn } from './fixtures';
import { claimsOf, fragment, idTokenFor, launch, login, postLaunch } from './flow';
import { INSTRUCTOR, LEARNER, startPlatform, type TestPlatform } from './platform';

// The launch against a platform written with jose: every check refused with its
// reason (JSON to an API client, a page to a browser), then the mapping of the
// platform's user and course onto the organization's user, class and test.

let server: InProcessApi;
let base: string;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let platform: TestPlatform;
let platformId: string;
let testId: string;

const as = (token: string) => ({ token, ip: freshIp(), baseUrl: base });
const register = async (t: typeof tenant, p: TestPlatform, extra: Record<string, unknown> = {}) => {
  const res = await api('POST', `/api/clients/${t.clientId}/lti/platforms`, {
    ...as(t.admin.token),
    body: p.registration(extra),
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
};
const learner = (over: Partial<{ sub: string; name: string; email: string; roles: string[] }> = {}) => ({
  sub: `user-${randomUUID()}`,
  name: 'Ada Learner',
  email: `ada-${randomUUID().slice(0, 8)}@school.example`,
  roles: [LEARNER],
  ...over,
});
const course = () => ({ id: `course-${randomUUID()}`, title: 'Physics 101' });
const refused = async (res: { status: number; body: any; text: string }, status: number, reason: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.details?.[0]?.reason, reason, res.text);
};
const linkLaunch = (
  p: TestPlatform,
  o: {
    user?: ReturnType<typeof learner>;
    course?: ReturnType<typeof course> | null;
    testId?: string | null;
    lineitem?: string;
    membershipsUrl?: string;
  } = {},
) =>
  launch(base, p, (nonce) =>
    p.sign(
      p.resourceLink({
        user: o.user ?? learner(),
        course: o.course === undefined ? course() : o.course,
        testId: o.testId === undefined ? testId : o.testId,
        nonce,
        lineitem: o.lineitem,
        membershipsUrl: o.membershipsUrl,
      }),
    ),
  );

before(async function () {
  this.timeout(60_000);
  server = await startInProcessApi({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  base = server.baseUrl;
  tenant = await createTenant();
  platform = await startPlatform();
  platformId = await register(tenant, platform);
  testId = (await publishedTestOn(base, tenant.admin.token, tenant.clientId)).id;
});
after(async () => {
  await platform.close();
  await server.close();
});
afterEach(function () {
  if (this.currentTest?.state === 'failed')
    for (const e of server.logs.filter((l) => l.message === 'Unhandled error').slice(0, 5))
      console.log(JSON.stringify(e.data).slice(0, 2000));
  server.logs.length = 0;
  platform.jwksMode = 'ok';
});

describe('GET /api/lti/login', () => {
  it('redirects to the platform’s authorization endpoint with every OIDC parameter and a state and nonce kept server side', async () => {
    const { location, state, nonce } = await login(base, platform);
    assert.equal(`${location.origin}${location.pathname}`, platform.authLoginUrl);
    const q = location.searchParams;
    assert.equal(q.get('scope'), 'openid');
    assert.equal(q.get('response_type'), 'id_token');
    assert.equal(q.get('response_mode'), 'form_post');
    assert.equal(q.get('prompt'), 'none');
    assert.equal(q.get('client_id'), platform.clientId);
    assert.equal(q.get('redirect_uri'), `${base}/api/lti/launch`);
    assert.equal(q.get('login_hint'), 'hint-1');
    assert.equal(q.get('lti_message_hint'), 'message-hint-1');
    const stored = (await adminDb.doc(`lti_states/${state}`).get()).data();
    assert.equal(stored?.nonce, nonce);
    assert.equal(stored?.client_id, tenant.clientId);
    assert.ok(stored?.expires_at_ms > Date.now());
  });

  it('takes a form post too', async () => {
    const res = await fetch(`${base}/api/lti/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': freshIp() },
      body: new URLSearchParams({
        iss: platform.issuer,
        login_hint: 'h',
        target_link_uri: 'x',
        client_id: platform.clientId,
      }),
    });
    assert.equal(res.status, 302);
  });

  it('answers 404 for an unknown issuer and 400 for an unregistered deployment, as a page to a browser', async () => {
    const unknown = await fetch(`${base}/api/lti/login?iss=https://nobody.example&login_hint=h&target_link_uri=x`, {
      headers: { Accept: 'text/html', 'X-Forwarded-For': freshIp() },
      redirect: 'manual',
    });
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
    const deployment = await api(
      'GET',
      `/api/lti/login?${new URLSearchParams({ iss: platform.issuer, login_hint: 'h', target_link_uri: 'x', client_id: platform.clientId, lti_deployment_id: 'nope' })}`,
      { baseUrl: base, ip: freshIp() },
    );
    assert.equal(deployment.status, 400);
    assert.equal(deployment.body.details[0].reason, 'unknown_deployment');
  });

  it('finds its own registration through the login URL the registration gave, when another organization registers the same issuer and the login leaves client_id out', async () => {
    const other = await createTenant();
    await register(other, platform, { client_id: `squatter-${randomUUID().slice(0, 8)}` });
    const listed = await api('GET', `/api/clients/${tenant.clientId}/lti/platforms`, as(tenant.admin.token));
    const loginUrl = new URL(listed.body.data.find((p: { id: string }) => p.id === platformId).tool.login_url);
    assert.ok(loginUrl.searchParams.get('registration'));
    const withoutClientId = { iss: platform.issuer, login_hint: 'h', target_link_uri: 'x' };

    // The bare login URL cannot tell the two apart: 400, asking for client_id.
    const bare = await api('GET', `/api/lti/login?${new URLSearchParams(withoutClientId)}`, {
      baseUrl: base,
      ip: freshIp(),
    });
    assert.equal(bare.status, 400, bare.text);

    // The registration's own login URL finds this organization's registration.
    loginUrl.search = new URLSearchParams({
      ...withoutClientId,
      registration: loginUrl.searchParams.get('registration')!,
    }).toString();
    const own = await fetch(`${base}${loginUrl.pathname}${loginUrl.search}`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-For': freshIp() },
    });
    assert.equal(own.status, 302);
    const location = new URL(own.headers.get('location')!);
    assert.equal(location.searchParams.get('client_id'), platform.clientId);
    const stored = (await adminDb.doc(`lti_states/${location.searchParams.get('state')}`).get()).data();
    assert.equal(stored?.client_id, tenant.clientId);

    // A registration of another issuer is no registration for this one.
    const foreign = await api(
      'GET',
      `/api/lti/login?${new URLSearchParams({ iss: 'https://elsewhere.example', login_hint: 'h', target_link_uri: 'x', registration: loginUrl.searchParams.get('registration')! })}`,
      { baseUrl: base, ip: freshIp() },
    );
    assert.equal(foreign.status, 404, foreign.text);
  });
});

describe('POST /api/lti/launch: every check', () => {
  it('refuses a bad signature (another key)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const res = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), { key: privateKey }),
    );
    await refused(res, 401, 'bad_signature');
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const res = await launch(base, platform, async (nonce) => {
      const [h, , s] = (await platform.sign(platform.resourceLink({ user: learner(), testId, nonce }))).split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...platform.resourceLink({ user: learner({ sub: 'admin' }), testId, nonce }), exp: 9e9 }),
      ).toString('base64url');
      return `${h}.${forged}.${s}`;
    });
    await refused(res, 401, 'bad_signature');
  });

  it('refuses a wrong iss', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign({ ...platform.resourceLink({ user: learner(), testId, nonce }), iss: 'https://evil.example' }),
    );
    await refused(res, 401, 'wrong_issuer');
  });

  it('refuses a wrong aud', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign({ ...platform.resourceLink({ user: learner(), testId, nonce }), aud: 'another-tool' }),
    );
    await refused(res, 401, 'wrong_audience');
  });

  it('refuses several audiences without azp naming the tool, and takes them with it', async () => {
    const multi = (azp?: string) => (nonce: string) =>
      platform.sign({
        ...platform.resourceLink({ user: learner(), testId, nonce }),
        aud: [platform.clientId, 'other'],
        ...(azp ? { azp } : {}),
      });
    await refused(await launch(base, platform, multi()), 401, 'wrong_audience');
    await refused(await launch(base, platform, multi('other')), 401, 'wrong_audience');
    assert.equal((await launch(base, platform, multi(platform.clientId))).status, 302);
  });

  it('refuses an expired token', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), {
        expiresIn: Math.floor(Date.now() / 1000) - 120,
      }),
    );
    await refused(res, 401, 'expired');
  });

  it('refuses a token issued in the future (iat beyond a minute of clock skew), whatever its exp', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const res = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), {
        issuedAt: nowS + 365 * 86_400,
        expiresIn: nowS + 400 * 86_400,
      }),
    );
    await refused(res, 401, 'issued_in_future');
    const slightlyAhead = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), {
        issuedAt: nowS + 30,
        expiresIn: nowS + 330,
      }),
    );
    assert.equal(slightlyAhead.status, 302, slightlyAhead.text);
  });

  it('refuses a token that lives longer than an hour (exp − iat), and takes one of exactly an hour', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const res = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), {
        issuedAt: nowS - 10,
        expiresIn: nowS + 400 * 86_400,
      }),
    );
    await refused(res, 401, 'lifetime_too_long');
    const anHour = await launch(base, platform, (nonce) =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce }), {
        issuedAt: nowS - 10,
        expiresIn: nowS - 10 + 3600,
      }),
    );
    assert.equal(anHour.status, 302, anHour.text);
  });

  it('refuses a nonce that is not the login’s', async () => {
    const res = await launch(base, platform, () =>
      platform.sign(platform.resourceLink({ user: learner(), testId, nonce: 'made-up' })),
    );
    await refused(res, 401, 'nonce_mismatch');
  });

  it('refuses a launch replayed (the nonce and state used once)', async () => {
    const { state, nonce, cookie } = await login(base, platform);
    const idToken = await platform.sign(platform.resourceLink({ user: learner(), course: null, testId, nonce }));
    assert.equal((await postLaunch(base, { id_token: idToken, state }, { cookie })).status, 302);
    await refused(await postLaunch(base, { id_token: idToken, state }, { cookie }), 401, 'state_mismatch');
  });

  it('refuses a nonce used twice even under a new state', async () => {
    const first = await login(base, platform);
    const idToken = await platform.sign(
      platform.resourceLink({ user: learner(), course: null, testId, nonce: first.nonce }),
    );
    assert.equal((await postLaunch(base, { id_token: idToken, state: first.state }, first)).status, 302);
    // A second login whose stored nonce is made the same as the first's: only the nonce record stops it.
    const second = await login(base, platform);
    await adminDb.doc(`lti_states/${second.state}`).update({ nonce: first.nonce });
    await refused(await postLaunch(base, { id_token: idToken, state: second.state }, second), 401, 'nonce_reused');
  });

  it('refuses a state that does not match a login', async () => {
    const res = await launch(
      base,
      platform,
      (nonce) => platform.sign(platform.resourceLink({ user: learner(), testId, nonce })),
      {
        state: () => 'not-a-state',
      },
    );
    await refused(res, 401, 'state_mismatch');
  });

  it('refuses an expired state', async () => {
    const { state, nonce, cookie } = await login(base, platform);
    await adminDb.doc(`lti_states/${state}`).update({ expires_at_ms: Date.now() - 1 });
    const idToken = await platform.sign(platform.resourceLink({ user: learner(), testId, nonce }));
    await refused(await postLaunch(base, { id_token: idToken, state }, { cookie }), 401, 'state_expired');
  });

  it('refuses a launch that comes back without the login’s browser cookie (cookie_missing, a page saying to open a new window) or with another browser’s (cookie_mismatch); the login’s own browser then launches', async () => {
    const victim = await login(base, platform);
    const attacker = await login(base, platform);
    const idToken = await platform.sign(platform.resourceLink({ user: learner(), testId, nonce: attacker.nonce }));
    const form = { id_token: idToken, state: attacker.state };
    await refused(await postLaunch(base, form), 401, 'cookie_missing');
    const page = await postLaunch(base, form, { accept: 'text/html' });
    assert.equal(page.status, 401);
    assert.match(page.text, /cookie_missing/);
    assert.match(page.text, /new window/);
    await refused(await postLaunch(base, form, { cookie: victim.cookie }), 401, 'cookie_mismatch');
    await refused(await postLaunch(base, form, { cookie: '__session=not-ours' }), 401, 'cookie_missing');
    // Nothing was consumed: the browser that logged in launches.
    assert.equal((await postLaunch(base, form, { cookie: attacker.cookie })).status, 302);
  });

  it('sets the binding as an HttpOnly __session cookie on the LTI paths, keeps only its hash, and reuses a browser’s key so two launches at once both stand', async () => {
    const first = await login(base, platform);
    assert.match(first.setCookie ?? '', /^__session=[A-Za-z0-9_-]{43}; /);
    assert.match(first.setCookie!, /; Path=\/api\/lti\/;/);
    assert.match(first.setCookie!, /; HttpOnly/);
    assert.match(first.setCookie!, /; Max-Age=600/);
    // Plain http (the emulators): no Secure, and the platform is on the same site.
    assert.match(first.setCookie!, /; SameSite=Lax/);
    // Private, or Firebase Hosting drops the cookie on its way to the browser.
    assert.match(first.cacheControl ?? '', /private/);
    const stored = JSON.stringify((await adminDb.doc(`lti_states/${first.state}`).get()).data());
    assert.ok(!stored.includes(first.cookie.split('=')[1]), 'the key itself is not stored');
    const second = await login(base, platform, {}, first.cookie);
    assert.equal(second.cookie, first.cookie);
    for (const l of [first, second]) {
      const idToken = await platform.sign(platform.resourceLink({ user: learner(), testId, nonce: l.nonce }));
      assert.equal((await postLaunch(base, { id_token: idToken, state: l.state }, l)).status, 302);
    }
  });

  it('refuses an unknown deployment', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign({
        ...platform.resourceLink({ user: learner(), testId, nonce }),
        'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'unknown',
      }),
    );
    await refused(res, 400, 'unknown_deployment');
  });

  it('refuses a wrong LTI version', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign({
        ...platform.resourceLink({ user: learner(), testId, nonce }),
        'https://purl.imsglobal.org/spec/lti/claim/version': '1.1',
      }),
    );
    await refused(res, 400, 'wrong_version');
  });

  it('refuses a missing sub', async () => {
    const res = await launch(base, platform, (nonce) => {
      const payload = platform.resourceLink({ user: learner(), testId, nonce });
      delete payload.sub;
      return platform.sign(payload);
    });
    await refused(res, 400, 'missing_sub');
  });

  it('refuses an unknown message type', async () => {
    const res = await launch(base, platform, (nonce) =>
      platform.sign({
        ...platform.resourceLink({ user: learner(), testId, nonce }),
        'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiSubmissionReviewRequest',
      }),
    );
    await refused(res, 400, 'unknown_message_type');
  });

  it('refuses a link without a test, and a test that is not this organization’s published test', async () => {
    await refused(await linkLaunch(platform, { testId: null }), 400, 'missing_test');
    const other = await createTenant();
    const foreign = (await publishedTestOn(base, other.admin.token, other.clientId)).id;
    const res = await linkLaunch(platform, { testId: foreign });
    assert.equal(res.status, 404, res.text);
  });

  it('answers each refusal as a page to a browser', async () => {
    const res = await launch(
      base,
      platform,
      (nonce) => platform.sign({ ...platform.resourceLink({ user: learner(), testId, nonce }), aud: 'x' }),
      {
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      },
    );
    assert.equal(res.status, 401);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.text, /could not be verified/);
    assert.match(res.text, /wrong_audience/);
    assert.doesNotMatch(res.text, /<script|<link|src=/);
  });
});

describe('POST /api/lti/launch: bad input', () => {
  it('answers 400 to a malformed id_token and to an oversized one, writing nothing', async () => {
    const { state, cookie } = await login(base, platform);
    for (const idToken of ['not-a-jwt', 'a.b.c', 'x'.repeat(20_000)]) {
      const res = await postLaunch(base, { id_token: idToken, state }, { cookie });
      assert.equal(res.status, 400, res.text);
    }
    assert.ok((await adminDb.doc(`lti_states/${state}`).get()).exists, 'the state is still there');
  });

  it('answers 4xx when the JWKS answers HTML', async () => {
    forgetKeySets();
    platform.jwksMode = 'html';
    const res = await linkLaunch(platform);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.details[0].reason, 'jwks_invalid');
  });

  it('answers 503 with Retry-After when the JWKS is down, and the launch works once it is back', async () => {
    forgetKeySets();
    platform.jwksMode = 'down';
    const res = await linkLaunch(platform);
    assert.equal(res.status, 503, res.text);
    assert.ok(res.headers.get('retry-after'));
    forgetKeySets();
    platform.jwksMode = 'hang';
    assert.equal((await linkLaunch(platform)).status, 503);
    forgetKeySets();
    platform.jwksMode = 'ok';
    assert.equal((await linkLaunch(platform)).status, 302);
  });

  it('refuses a JWKS body over 64 KB (400 jwks_too_large), reading no more of it', async () => {
    forgetKeySets();
    platform.jwksMode = 'huge';
    const res = await linkLaunch(platform);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.details[0].reason, 'jwks_too_large');
    assert.match(res.body.message, /64 KB/);
    forgetKeySets();
  });

  it('cuts a JWKS that trickles its body past 5 s (503), however soon its first byte came', async function () {
    this.timeout(20_000);
    forgetKeySets();
    platform.jwksMode = 'trickle';
    const started = Date.now();
    const res = await linkLaunch(platform);
    const ms = Date.now() - started;
    assert.equal(res.status, 503, res.text);
    assert.ok(res.headers.get('retry-after'));
    assert.ok(ms < 7_500, `answered after ${ms} ms`);
    forgetKeySets();
  });

  it('follows the platform’s key rotation: an unknown kid reads the JWKS again, at most once per 30 s', async () => {
    const p = await startPlatform();
    const t = await createTenant();
    await register(t, p);
    const test = await publishedTestOn(base, t.admin.token, t.clientId);
    const go = () =>
      launch(base, p, (nonce) => p.sign(p.resourceLink({ user: learner(), course: null, testId: test.id, nonce })));
    assert.equal((await go()).status, 302);
    assert.equal((await go()).status, 302);
    assert.equal(p.jwksReads, 1, 'the key set is kept');
    await p.rotateKeys();
    const rotated = await go();
    assert.equal(rotated.status, 302, rotated.text);
    assert.equal(p.jwksReads, 2, 'read again for the new kid');
    // Another unknown kid within the cooldown is not fetched for: the platform is not hammered by made-up kids.
    await p.rotateKeys();
    await refused(await go(), 401, 'bad_signature');
    assert.equal(p.jwksReads, 2);
    await p.close();
  });

  it('answers 503 when Firestore fails, and nothing was launched', async () => {
    const { state, nonce, cookie } = await login(base, platform);
    const idToken = await platform.sign(platform.resourceLink({ user: learner(), testId, nonce }));
    const heal = failReads(/lti_states/);
    try {
      const res = await postLaunch(base, { id_token: idToken, state }, { cookie });
      assert.equal(res.status, 503, res.text);
    } finally {
      heal();
    }
    assert.equal((await postLaunch(base, { id_token: idToken, state }, { cookie })).status, 302);
  });
});

describe('POST /api/lti/launch: users, courses and tests', () => {
  it('makes a Student on the first launch and finds it on the next', async () => {
    const user = learner();
    const c = course();
    const first = await linkLaunch(platform, { user, course: c });
    assert.equal(first.status, 302, first.text);
    assert.ok(first.location!.startsWith('/lti#'));
    const f = fragment(first.location);
    assert.equal(f.test_id, testId);
    const uid = ltiUid(tenant.clientId, platform.issuer, user.sub);
    assert.deepEqual(await claimsOf(uid), { role: 'student', client_id: tenant.clientId });
    const profile = (await adminDb.doc(`clients/${tenant.clientId}/users/${uid}`).get()).data()!;
    assert.equal(profile.display_name, 'Ada Learner');
    assert.equal(profile.email, user.email);
    const idToken = await idTokenFor(f.token);
    const me = await api('GET', `/api/tests/${testId}`, as(idToken));
    assert.equal(me.status, 200, me.text);

    const second = await linkLaunch(platform, { user, course: c });
    assert.equal(second.status, 302);
    const users = await adminDb.collection(`clients/${tenant.clientId}/users`).where('email', '==', user.email).get();
    assert.equal(users.size, 1, 'one account');
  });

  it('makes the account without its email when the email claim is not an address (302, not 500)', async () => {
    const user = learner({ email: 'not an email' });
    const res = await linkLaunch(platform, { user });
    assert.equal(res.status, 302, res.text);
    const uid = ltiUid(tenant.clientId, platform.issuer, user.sub);
    assert.equal((await adminAuth.getUser(uid)).email, undefined);
  });

  it('keeps the platform’s email claim apart when another account holds the address: neither account nor profile has it, lms_email shows it, a search by it finds nothing', async () => {
    const taken = `superadmin-${randomUUID().slice(0, 8)}@demo.example`;
    await adminAuth.createUser({ email: taken, password: 'correct-horse-battery' });
    const user = learner({ email: taken });
    const res = await linkLaunch(platform, { user });
    assert.equal(res.status, 302, res.text);
    const uid = ltiUid(tenant.clientId, platform.issuer, user.sub);
    assert.equal((await adminAuth.getUser(uid)).email, undefined);
    const profile = (await adminDb.doc(`clients/${tenant.clientId}/users/${uid}`).get()).data()!;
    assert.equal(profile.email, '');
    assert.equal(profile.email_lower, '');
    assert.equal(profile.lms_email, taken);

    const shown = await api('GET', `/api/users/${uid}`, as(tenant.admin.token));
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.email, null, 'the account’s email: none');
    assert.equal(shown.body.lms_email, taken);
    const search = await api('GET', `/api/users?${new URLSearchParams({ q: taken })}`, as(tenant.admin.token));
    assert.equal(search.status, 200, search.text);
    assert.ok(!search.body.data.some((u: { uid: string }) => u.uid === uid), 'not found by the claimed address');

    // An address the account does have is its email, and no claim is kept beside it.
    const own = learner();
    assert.equal((await linkLaunch(platform, { user: own })).status, 302);
    const ownProfile = (
      await adminDb.doc(`clients/${tenant.clientId}/users/${ltiUid(tenant.clientId, platform.issuer, own.sub)}`).get()
    ).data()!;
    assert.equal(ownProfile.email, own.email);
    assert.equal(ownProfile.lms_email, undefined);
  });

  it('makes an Instructor a Client Admin only when the registration allows it', async () => {
    const allowing = await startPlatform();
    const t = await createTenant();
    await register(t, allowing, { instructors_as_admins: true });
    const test = await publishedTestOn(base, t.admin.token, t.clientId);
    const teacher = learner({ roles: [INSTRUCTOR] });
    const res = await launch(base, allowing, (nonce) =>
      allowing.sign(allowing.resourceLink({ user: teacher, testId: test.id, nonce })),
    );
    assert.equal(res.status, 302, res.text);
    assert.equal((await claimsOf(ltiUid(t.clientId, allowing.issuer, teacher.sub))).role, 'client_admin');
    await allowing.close();

    const other = learner({ roles: [INSTRUCTOR] });
    const refused = await linkLaunch(platform, { user: other });
    assert.equal(refused.status, 302);
    assert.equal((await claimsOf(ltiUid(tenant.clientId, platform.issuer, other.sub))).role, 'student');
  });

  it('never makes a Learner an admin, and never promotes an existing student by a later Instructor claim', async () => {
    const allowing = await startPlatform();
    const t = await createTenant();
    await register(t, allowing, { instructors_as_admins: true });
    const test = await publishedTestOn(base, t.admin.token, t.clientId);
    const user = learner();
    const go = (roles: string[]) =>
      launch(base, allowing, (nonce) =>
        allowing.sign(allowing.resourceLink({ user: { ...user, roles }, testId: test.id, nonce })),
      );
    assert.equal((await go([LEARNER, 'http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'])).status, 302);
    assert.equal((await claimsOf(ltiUid(t.clientId, allowing.issuer, user.sub))).role, 'student');
    assert.equal((await go([INSTRUCTOR])).status, 302);
    assert.equal((await claimsOf(ltiUid(t.clientId, allowing.issuer, user.sub))).role, 'student');
    await allowing.close();
  });

  it('maps the course to a class made on its first launch, with a unique name, the students added', async () => {
    const c = { id: `course-${randomUUID()}`, title: `Chemistry ${randomUUID().slice(0, 4)}` };
    const clash = await api('POST', '/api/classes', { ...as(tenant.admin.token), body: { name: c.title } });
    assert.equal(clash.status, 201);
    const [a, b] = [learner(), learner()];
    assert.equal(
      (await linkLaunch(platform, { user: a, course: c, membershipsUrl: `${platform.baseUrl}/memberships` })).status,
      302,
    );
    assert.equal((await linkLaunch(platform, { user: b, course: c })).status, 302);
    const contexts = await adminDb
      .collection(`clients/${tenant.clientId}/lti_contexts`)
      .where('context_id', '==', c.id)
      .get();
    assert.equal(contexts.size, 1);
    const ctx = contexts.docs[0].data();
    assert.equal(ctx.memberships_url, `${platform.baseUrl}/memberships`);
    assert.equal(ctx.platform_id, platformId);
    const cls = (await adminDb.doc(`clients/${tenant.clientId}/classes/${ctx.class_id}`).get()).data()!;
    assert.equal(cls.name, `${c.title} (2)`);
    assert.equal(cls.member_count, 2);
  });

  it('assigns the linked test to the course’s class: its students see it, other students get 404', async () => {
    const t = await createTenant();
    const p = await startPlatform();
    await register(t, p);
    const test = await publishedTestOn(base, t.admin.token, t.clientId);
    const res = await launch(base, p, (nonce) =>
      p.sign(p.resourceLink({ user: learner(), course: course(), testId: test.id, nonce })),
    );
    assert.equal(res.status, 302, res.text);
    const stored = (await adminDb.doc(`clients/${t.clientId}/tests/${test.id}`).get()).data()!;
    assert.equal(stored.assigned_class_ids.length, 1);
    const member = await idTokenFor(fragment(res.location).token);
    assert.equal((await api('GET', `/api/tests/${test.id}`, as(member))).status, 200);
    const outsider = await createUser('student', t.clientId);
    assert.equal((await api('GET', `/api/tests/${test.id}`, as(outsider.token))).status, 404);
    await p.close();
  });

  it('writes the outcome (where the score goes) when the launch has a line item', async () => {
    const user = learner();
    const lineitem = `${platform.baseUrl}/lineitems/1`;
    assert.equal((await linkLaunch(platform, { user, lineitem })).status, 302);
    const uid = ltiUid(tenant.clientId, platform.issuer, user.sub);
    const outcome = (await adminDb.doc(`clients/${tenant.clientId}/lti_outcomes/${testId}~${uid}`).get()).data();
    assert.equal(outcome?.lineitem, lineitem);
    assert.equal(outcome?.user_sub, user.sub);
    assert.equal(outcome?.platform_id, platformId);
  });
});

describe('POST /api/lti/launch: tenant isolation', () => {
  it('never launches into another organization: the login and the token decide by the registration, not by anything the token says', async () => {
    const other = await createTenant();
    const otherPlatform = await startPlatform();
    await register(other, otherPlatform);
    const user = learner();
    // Platform B's launch naming organization A's test: 404, no user made in A.
    const res = await launch(base, otherPlatform, (nonce) =>
      otherPlatform.sign(otherPlatform.resourceLink({ user, testId, nonce })),
    );
    assert.equal(res.status, 404, res.text);
    assert.equal(
      (
        await adminDb
          .doc(`clients/${tenant.clientId}/users/${ltiUid(tenant.clientId, otherPlatform.issuer, user.sub)}`)
          .get()
      ).exists,
      false,
    );
    // A's login state answered with a token B signed: refused.
    const res2 = await launch(base, platform, (nonce) =>
      otherPlatform.sign({
        ...otherPlatform.resourceLink({ user, testId, nonce }),
        iss: platform.issuer,
        aud: platform.clientId,
      }),
    );
    assert.equal(res2.status, 401);
    await otherPlatform.close();
  });
});
