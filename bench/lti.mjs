// @ts-check
// `npm run bench:lti`: what an LTI 1.3 launch costs, on the Functions Framework (the server Cloud
// Functions runs in production) against the Auth and Firestore emulators, with X-Debug-Cost.
//
// A platform written here with jose (its own RS256 keys and JWKS over local HTTP) launches one
// published test: the login, then the launch that makes the student and the course's class and
// assigns the test (a first launch), then the same student again (a later launch, the common one),
// then a second student of the same course. Each step's reads, writes, round trips and sequential
// round trips, and latency over REPEATS later launches.
//
// Alone: `npm run bench:lti`. Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { freePort } from './lib/ports.mjs';

const REPEATS = Number(process.env.LTI_REPEATS ?? 20);
const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';

/** A minimal platform: its JWKS, and a signer of resource-link launches. */
async function startPlatform() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url === '/jwks')
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    res.writeHead(200).end('ok');
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const base = `http://127.0.0.1:${port}`;
  const issuer = `${base}/platform`;
  const clientId = `bench-${randomUUID().slice(0, 8)}`;
  return {
    issuer,
    clientId,
    registration: {
      issuer,
      client_id: clientId,
      deployment_ids: ['1'],
      auth_login_url: `${base}/auth`,
      auth_token_url: `${base}/token`,
      jwks_url: `${base}/jwks`,
    },
    /** @param {{ sub: string, course: string, testId: string, nonce: string }} o */
    sign: (o) =>
      new SignJWT({
        iss: issuer,
        aud: clientId,
        sub: o.sub,
        nonce: o.nonce,
        name: `Bench ${o.sub}`,
        [`${LTI}version`]: '1.3.0',
        [`${LTI}message_type`]: 'LtiResourceLinkRequest',
        [`${LTI}deployment_id`]: '1',
        [`${LTI}roles`]: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
        [`${LTI}context`]: { id: o.course, title: `Bench course ${o.course.slice(-6)}` },
        [`${LTI}resource_link`]: { id: 'link-1' },
        [`${LTI}custom`]: { test_id: o.testId },
        'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitem: `${base}/lineitems/1`,
        },
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

async function runLti() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { createUser, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { latencySummary } = await import('./lib/stats.mjs');
  const { parseCost } = await import('./lib/http.mjs');

  const started = Date.now();
  const log = (line) => console.log(`[lti +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  let api;
  let platform;
  try {
    api = await startFramework({
      target: 'api',
      source: join(root, 'functions'),
      port: await freePort(),
      env: {
        ...paramsEnv(PROJECT_ID),
        FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
        FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
        GCLOUD_PROJECT: PROJECT_ID,
        // What this bench measures (functions/.env.demo-exam-bench sets it too).
        EXPOSE_COST_HEADER: 'true',
      },
      readyPath: '/api/health',
      logPrefix: 'api',
    });
    const baseUrl = api.baseUrl;
    const [tenant] = await seedClients(1, 'lti');
    const admin = await createUser('client_admin', tenant.id, 'lti-admin');
    let ipN = 0;
    const ip = () => `2001:db8:17:${(ipN++).toString(16)}::1`;
    const asAdmin = async (method, path, body, expected) => {
      const res = await callAt(baseUrl, { method, path, body, token: admin.token, ip: ip(), timeoutMs: 60_000 });
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status}: ${res.text.slice(0, 300)}`);
      return res.json;
    };
    platform = await startPlatform();
    await asAdmin('POST', `/api/clients/${tenant.id}/lti/platforms`, platform.registration, 201);
    const question = await asAdmin(
      'POST',
      '/api/questions',
      {
        question_text: `LTI bench ${RUN_ID}`,
        question_type: 'true_false',
        options: ['True', 'False'],
        correct_answer: 'True',
        marks: 1,
        difficulty: 'easy',
      },
      201,
    );
    const draft = await asAdmin(
      'POST',
      '/api/tests',
      { test_name: `LTI ${RUN_ID}`, timer: 10, status: 'draft', question_ids: [question.id] },
      201,
    );
    await asAdmin('POST', `/api/tests/${draft.id}/publish`, undefined, 200);

    /** One login and its launch: each request's cost and time. */
    const launchOnce = async (sub, course) => {
      const query = new URLSearchParams({
        iss: platform.issuer,
        client_id: platform.clientId,
        login_hint: sub,
        target_link_uri: `${baseUrl}/api/lti/launch`,
      });
      const t0 = performance.now();
      const login = await fetch(`${baseUrl}/api/lti/login?${query}`, {
        redirect: 'manual',
        headers: { 'X-Forwarded-For': ip() },
      });
      const loginMs = performance.now() - t0;
      await login.text();
      if (login.status !== 302) throw new Error(`login: ${login.status}`);
      const location = new URL(login.headers.get('location') ?? '');
      const idToken = await platform.sign({
        sub,
        course,
        testId: draft.id,
        nonce: location.searchParams.get('nonce') ?? '',
      });
      const t1 = performance.now();
      const res = await fetch(`${baseUrl}/api/lti/launch`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': ip() },
        body: new URLSearchParams({ id_token: idToken, state: location.searchParams.get('state') ?? '' }),
      });
      const launchMs = performance.now() - t1;
      const text = await res.text();
      if (res.status !== 302) throw new Error(`launch: ${res.status} ${text.slice(0, 300)}`);
      return {
        login: { cost: parseCost(login.headers.get('x-debug-cost')), ms: loginMs },
        launch: { cost: parseCost(res.headers.get('x-debug-cost')), ms: launchMs },
      };
    };

    const course = `course-${RUN_ID}`;
    log('first launch (new student, new course), then the same student again, then a second student');
    const first = await launchOnce(`student-a-${RUN_ID}`, course);
    const later = [];
    for (let i = 0; i < REPEATS; i++) later.push(await launchOnce(`student-a-${RUN_ID}`, course));
    const secondStudent = await launchOnce(`student-b-${RUN_ID}`, course);
    const last = later.at(-1);
    if (!last?.launch.cost) failures.push('no X-Debug-Cost on the launch (EXPOSE_COST_HEADER off?)');
    else if (last.launch.cost.sequential_round_trips > 4)
      failures.push(
        `a later launch takes ${last.launch.cost.sequential_round_trips} sequential round trips (expected at most 4)`,
      );

    const row = (name, step, ms) => [
      name,
      step.cost?.reads ?? 'n/a',
      step.cost?.writes ?? 'n/a',
      step.cost?.round_trips ?? 'n/a',
      step.cost?.sequential_round_trips ?? 'n/a',
      step.cost?.auth_calls ?? 'n/a',
      ms,
    ];
    const laterLatency = latencySummary(later.map((l) => l.launch.ms));
    const rows = [
      row('login', last?.login ?? first.login, latencySummary(later.map((l) => l.login.ms)).p50?.toFixed(1)),
      row('launch: first (student, class, assignment made)', first.launch, first.launch.ms.toFixed(1)),
      row('launch: second student of the course', secondStudent.launch, secondStudent.launch.ms.toFixed(1)),
      row(
        `launch: later (p50 / p95 of ${REPEATS})`,
        last?.launch ?? first.launch,
        `${laterLatency.p50?.toFixed(1)} / ${laterLatency.p95?.toFixed(1)}`,
      ),
    ];
    const out = ['\n# The cost of an LTI launch'];
    out.push(
      `\n${cpus().length} CPUs; Functions Framework against the emulators; the platform's JWKS on loopback (cached after the first launch).\n`,
    );
    out.push(
      table(['step', 'reads', 'writes', 'round trips', 'sequential', 'auth calls', 'ms'], rows, {
        rightAlign: [1, 2, 3, 4, 5, 6],
      }),
    );
    console.log(out.join('\n'));
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(
      join(root, '.bench', 'lti.json'),
      `${JSON.stringify({ generated_at: new Date().toISOString(), run_id: RUN_ID, first, secondStudent, later: later.map((l) => l.launch), failures }, null, 2)}\n`,
    );
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
    if (api) console.log(`--- api output (tail):\n${api.output().slice(-3000)}`);
  } finally {
    if (platform) await platform.close();
    if (api) await api.stop();
  }
  return verdict('LTI bench', { failures, passed: 'no check failed.' });
}

// scripts/bench.mjs starts the emulators this bench needs (npm run bench:lti).
process.exitCode = await runLti();
