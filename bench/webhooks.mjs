// @ts-check
// `npm run bench:webhooks`: signed webhook delivery through the outbox, to a local receiver that
// verifies every message with the standardwebhooks library. The API runs under the Functions
// Framework (the server production runs), the Firestore trigger in the Functions emulator: the
// emulator's single runtime, serving both, answered 504s to submits under the burst.
//
// 1. The extra cost of a submit: X-Debug-Cost of submits in an organization with an endpoint and
//    in one without. The event is one write in the submit's own transaction either way; an
//    endpoint must add nothing to the request (the fan-out runs after it, in the trigger).
// 2. Latency: submits one after another; from each submit's reply to the receiver's 2xx answer.
// 3. Throughput: WEBHOOKS_BURST (1,000) submits spread over a minute by many students at once;
//    the time until every delivery has landed, none lost and none answered 2xx twice.
//
// Alone: `npm run bench:webhooks`. Beside someone else: FIREBASE_JSON=firebase.<name>.json API_BASE_URL=….
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';

const LATENCY_SUBMITS = Number(process.env.WEBHOOKS_LATENCY ?? 40);
const BURST = Number(process.env.WEBHOOKS_BURST ?? 1000);
const BURST_SPREAD_MS = Number(process.env.WEBHOOKS_SPREAD_MS ?? 60_000);
const STUDENTS = 50;
const DRAIN_TIMEOUT_MS = 15 * 60_000;

async function runWebhooks() {
  const { adminDb, createUser, seedClients, mapLimit, RUN_ID } = await import('./lib/seed.mjs');
  const { call } = await import('./lib/http.mjs');
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { freePort } = await import('./lib/ports.mjs');
  const { join } = await import('node:path');
  const { table, verdict, section } = await import('./lib/report.mjs');
  const { latencySummary } = await import('./lib/stats.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');

  const started = Date.now();
  const log = (line) => console.log(`[webhooks +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  log(
    `CPU busy before the start: ${Math.round((await cpuBusy(2000)) * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`,
  );

  // ---- The receiver: verifies, remembers when each message id was first answered 2xx.
  /** @type {string[]} */
  const secrets = [];
  /** @type {Map<string, number>} */
  const firstAccepted = new Map();
  /** @type {Map<string, number>} attempt id → arrival (performance.now) */
  const arrivedByAttempt = new Map();
  let duplicates = 0;
  let unverified = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      let verified = false;
      for (const secret of secrets) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = true;
        } catch {
          // another endpoint's secret
        }
      }
      if (!verified) unverified += 1;
      const id = headers['webhook-id'];
      if (firstAccepted.has(id)) duplicates += 1;
      else {
        firstAccepted.set(id, performance.now());
        const parsed = JSON.parse(body);
        if (parsed.data?.attempt_id) arrivedByAttempt.set(parsed.data.attempt_id, performance.now());
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const receiverUrl = `http://127.0.0.1:${port}/hook`;
  const api = await startFramework({
    target: 'api',
    source: join(root, 'functions'),
    port: await freePort(),
    env: {
      ...paramsEnv(PROJECT_ID),
      FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      GCLOUD_PROJECT: PROJECT_ID,
    },
    readyPath: '/api/health',
    logPrefix: 'api',
  });

  try {
    // ---- Two organizations: one with an endpoint, one without.
    const [withHooks, without] = (await seedClients(2, 'webhooks')).map((c) => c.id);
    const tenant = async (clientId, label) => {
      const admin = await createUser('client_admin', clientId, `${label}-admin`);
      const students = await mapLimit(
        Array.from({ length: label === 'on' ? STUDENTS : 5 }, (_, i) => i),
        10,
        (i) => createUser('student', clientId, `${label}-student-${i}`),
      );
      const as = (token) => ({
        token,
        ip: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      const send = async (method, path, body, expected, token = admin.token) => {
        const res = await call({ method, path, body, ...as(token), timeoutMs: 120_000, baseUrl: api.baseUrl });
        if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
        return res;
      };
      const questionIds = [];
      for (let i = 0; i < 3; i++) {
        const q = await send(
          'POST',
          '/api/questions',
          {
            question_text: `Hooks ${RUN_ID} Q${i}: 2 + ${i}?`,
            question_type: 'numeric',
            correct_answer: String(2 + i),
            marks: 1,
            difficulty: 'easy',
          },
          201,
        );
        questionIds.push(q.json.id);
      }
      const draft = await send(
        'POST',
        '/api/tests',
        {
          test_name: `Hooks ${RUN_ID} ${label}`,
          timer: 60,
          shuffle: 0,
          allow_review: 1,
          negative_marking: 0,
          status: 'draft',
          question_ids: questionIds,
        },
        201,
      );
      const test = (await send('POST', `/api/tests/${draft.json.id}/publish`, undefined, 200)).json;
      /** One start and submit by a student: the submit's reply time (performance.now), cost and attempt id. */
      const submitOnce = async (student) => {
        const start = await send('POST', '/api/attempts', { test_id: test.id }, 201, student.token);
        const submit = await send(
          'POST',
          `/api/attempts/${start.json.attempt_id}/submit`,
          undefined,
          200,
          student.token,
        );
        return { at: performance.now(), cost: submit.cost, attemptId: start.json.attempt_id };
      };
      return { clientId, admin, students, send, submitOnce };
    };
    const on = await tenant(withHooks, 'on');
    const off = await tenant(without, 'off');
    const created = await on.send(
      'POST',
      `/api/clients/${withHooks}/webhooks`,
      { url: receiverUrl, events: ['attempt.submitted'] },
      201,
    );
    secrets.push(created.json.secret);
    log(`receiver ${receiverUrl}; endpoint ${created.json.id}`);

    // ---- 1. Cost of a submit, with and without an endpoint.
    console.log(section('Cost of a submit (X-Debug-Cost), with and without a webhook endpoint'));
    const costs = { on: [], off: [] };
    for (let i = 0; i < 5; i++) {
      costs.on.push((await on.submitOnce(on.students[i])).cost);
      costs.off.push((await off.submitOnce(off.students[i])).cost);
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
    const costRow = (label, list) => [
      label,
      ...['reads', 'writes', 'round_trips', 'sequential_round_trips'].map((k) =>
        String(median(list.map((c) => c?.[k] ?? NaN))),
      ),
    ];
    console.log(
      table(
        ['organization', 'reads', 'writes', 'round trips', 'sequential'],
        [costRow('with an endpoint', costs.on), costRow('without', costs.off)],
      ),
    );
    for (const k of ['reads', 'writes', 'round_trips', 'sequential_round_trips'])
      if (median(costs.on.map((c) => c?.[k])) !== median(costs.off.map((c) => c?.[k])))
        failures.push(`a submit costs more ${k} with an endpoint than without`);
    // Let the first deliveries land before timing.
    await waitUntil(() => firstAccepted.size >= 5, 60_000);

    // ---- 2. Latency: one submit at a time, to the receiver's 2xx.
    console.log(section(`Delivery latency: ${LATENCY_SUBMITS} submits one after another, submit reply → receiver 2xx`));
    const latencies = [];
    for (let i = 0; i < LATENCY_SUBMITS; i++) {
      const { at, attemptId } = await on.submitOnce(on.students[i % on.students.length]);
      await waitUntil(() => arrivedByAttempt.has(attemptId), 30_000);
      const arrived = arrivedByAttempt.get(attemptId);
      if (arrived !== undefined) latencies.push(Math.max(0, arrived - at));
      else failures.push(`attempt ${attemptId} not delivered within 30 s`);
    }
    const lat = latencySummary(latencies);
    console.log(
      table(
        ['p50 ms', 'p95 ms', 'max ms', 'n'],
        [[String(lat.p50), String(lat.p95), String(lat.max), String(latencies.length)]],
      ),
    );

    // ---- 3. Throughput: BURST submits spread over a minute.
    console.log(
      section(`Throughput: ${BURST} submits over ${BURST_SPREAD_MS / 1000} s by ${on.students.length} students`),
    );
    const before = firstAccepted.size;
    const burstStart = performance.now();
    const attemptIds = [];
    /** @type {Map<string, number>} */
    const repliedAt = new Map();
    let submitFailures = 0;
    const perStudent = Math.ceil(BURST / on.students.length);
    const gap = BURST_SPREAD_MS / perStudent;
    await Promise.all(
      on.students.map(async (student, s) => {
        await sleep((gap * s) / on.students.length);
        for (let k = 0; k < perStudent && s * perStudent + k < BURST; k++) {
          const due = burstStart + k * gap + (gap * s) / on.students.length;
          await sleep(Math.max(0, due - performance.now()));
          try {
            const { at, attemptId } = await on.submitOnce(student);
            attemptIds.push(attemptId);
            repliedAt.set(attemptId, at);
          } catch (err) {
            submitFailures += 1;
            if (submitFailures <= 3) log(`submit failed: ${err instanceof Error ? err.message : err}`);
          }
        }
      }),
    );
    const submittedIn = performance.now() - burstStart;
    log(`${attemptIds.length} submits in ${(submittedIn / 1000).toFixed(1)} s; waiting for their deliveries`);
    await waitUntil(() => attemptIds.every((id) => arrivedByAttempt.has(id)), DRAIN_TIMEOUT_MS);
    const lastArrival = Math.max(...attemptIds.map((id) => arrivedByAttempt.get(id) ?? 0));
    const delivered = attemptIds.filter((id) => arrivedByAttempt.has(id)).length;
    const drainedIn = lastArrival - burstStart;
    const burstLatency = latencySummary(
      attemptIds
        .filter((id) => arrivedByAttempt.has(id))
        .map((id) => Math.max(0, (arrivedByAttempt.get(id) ?? 0) - (repliedAt.get(id) ?? 0))),
    );
    console.log(
      table(
        [
          'submits',
          'delivered',
          'lost',
          'duplicate 2xx',
          'unverified',
          'submits took s',
          'all delivered after s',
          'deliveries/s',
        ],
        [
          [
            String(attemptIds.length),
            String(delivered),
            String(attemptIds.length - delivered),
            String(duplicates),
            String(unverified),
            (submittedIn / 1000).toFixed(1),
            (drainedIn / 1000).toFixed(1),
            (delivered / (drainedIn / 1000)).toFixed(1),
          ],
        ],
      ),
    );
    console.log(
      table(
        ['during the burst: p50 ms', 'p95 ms', 'max ms'],
        [[String(burstLatency.p50), String(burstLatency.p95), String(burstLatency.max)]],
      ),
    );
    if (delivered !== attemptIds.length) failures.push(`${attemptIds.length - delivered} deliveries lost`);
    if (duplicates > 0) failures.push(`${duplicates} messages answered 2xx twice`);
    if (unverified > 0) failures.push(`${unverified} messages failed verification`);
    if (submitFailures > 0) failures.push(`${submitFailures} submits failed`);
    const stored = await adminDb
      .collection(`clients/${withHooks}/deliveries`)
      .where('status', '==', 'delivered')
      .count()
      .get();
    log(
      `deliveries stored as delivered: ${stored.data().count}; receiver requests: ${requests}; before the burst ${before}`,
    );
  } finally {
    await api.stop();
    server.closeAllConnections();
    server.close();
  }
  return verdict('Webhooks bench', {
    failures,
    passed: 'every submit delivered once, verified, and webhooks added nothing to the cost of a submit',
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {() => boolean} check */
async function waitUntil(check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await sleep(20);
}

process.exit(await runWebhooks());
