// @ts-check
// The benchmark proper, run by `npm run bench` under emulators:exec.
// Seeds its own data through the Admin SDK, signs in for real ID tokens, then
// measures every endpoint through the Hosting emulator: latency, and the
// Firestore/Auth cost the service reports in X-Debug-Cost. Also checks that
// list costs do not grow with the data, measures the rate limiter's own cost,
// runs a short concurrent load, and checks that a test's analytics cost the
// same with 100 and with 10,000 attempts (bench/analytics.mjs), and measures the
// sittings: start, save and submit with and without a sitting's settings, and the
// sitting-wide extension at 100 and 1,000 attempts in progress (bench/sittings.mjs).
// Prints tables; writes .bench/results.json.
// Exits 1 if any request got a status other than the one expected, or a cost grew with the data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BASE_URL, PROJECT_ID } from './lib/env.mjs';
import { call } from './lib/http.mjs';
import { buildWatcher, cpuBusy } from './lib/guard.mjs';
import { compiledFunctions } from '../scripts/functions-lib.mjs';
import { analyticsReport, measureAnalytics } from './analytics.mjs';
import { examSteps, measureImport, prepareExamLists } from './exams.mjs';
import { measureSittings, sittingsReport } from './sittings.mjs';
import { runLoad } from './lib/load.mjs';
import { costCell, ms, section, statusCell, table, verdict } from './lib/report.mjs';
import {
  adminDb,
  countDocs,
  createUser,
  mapLimit,
  PASSWORD,
  RUN_ID,
  seedAuditRecords,
  seedClients,
  seedUserProfiles,
} from './lib/seed.mjs';
import { latencySummary, summarize } from './lib/stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const startedAt = Date.now();
let cpuBusyAtStart = null; // share of all CPUs busy just before the first request
const HARD_LIMIT_MS = 25 * 60_000; // a run that takes longer than this is broken; stop it (5,000-item lists and imports take a while on 2 cores)
const NOTE =
  'All figures are from the local Firebase Emulator Suite on this machine (Hosting -> Functions -> Firestore/Auth emulators): ' +
  'latency is emulator latency, not production latency. Reads/writes/round trips/auth calls come from X-Debug-Cost ' +
  'and are what one request costs the service.';

const SMALL = 25; // a full first page (limit 20) even in the small data set
const LARGE = 5000;
// Warm-up: users join one by one (bounded by rampTimeoutMs), then all run for settleMs before the measured window.
const LOAD = { vus: 20, durationMs: 15_000, settleMs: 3_000, rampTimeoutMs: 120_000, maxRequests: 30_000 };

// Every virtual client has its own documentation-range address (RFC 3849), sent as
// X-Forwarded-For: TRUSTED_PROXY_HOPS=1 makes the service believe the last entry.
// Each caller is a different /64: the service keys IPv6 callers by their /64.
const IP = { public: '2001:db8:1::1', super: '2001:db8:2::1', admin: '2001:db8:3::1', student: '2001:db8:4::1' };
const rejectedIp = (i) => `2001:db8:401:${(i + 1).toString(16)}::1`;
const vuIp = (i) => `2001:db8:100:${(i + 1).toString(16)}::1`;

const log = (message) => console.log(`[bench +${((Date.now() - startedAt) / 1000).toFixed(0)}s] ${message}`);
const failures = []; // anything that makes the run fail
const warnings = []; // figures to distrust, but no failure of the service
const build = buildWatcher(join(root, 'functions', 'lib'));

/** Notes (once per phase) that functions/lib was rebuilt during `phase`: the emulator reloaded and cold-started. */
function checkBuild(phase) {
  if (!build.changed()) return false;
  warnings.push(
    `functions/lib was rebuilt during ${phase} (another build in this working tree?): the Functions emulator reloaded, so its latencies include cold starts`,
  );
  build.reset();
  return true;
}

function checkTime() {
  if (Date.now() - startedAt > HARD_LIMIT_MS)
    throw new Error(`benchmark exceeded ${HARD_LIMIT_MS / 60_000} minutes; stopping`);
}

/** Waits (bounded) until the function answers through Hosting. */
async function waitForApi() {
  const until = Date.now() + 90_000;
  let last;
  while (Date.now() < until) {
    last = await call({ path: '/api/health', ip: IP.public, timeoutMs: 10_000 });
    if (last.status === 200) return last;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${BASE_URL}/api/health never answered 200 (last: ${last?.status} ${last?.error ?? last?.text})`);
}

/**
 * Sends `warmup` unrecorded requests, then `n` recorded ones, one at a time.
 * `request(i)` builds request i (unique inputs for creates); i counts across warm-up and samples.
 */
async function measure({ name, expected, n, warmup = 5, request }) {
  checkTime();
  const warmupErrors = [];
  for (let i = 0; i < warmup; i++) {
    const res = await call(request(i));
    if (res.status !== expected) warmupErrors.push(res);
  }
  const samples = [];
  for (let i = warmup; i < warmup + n; i++) {
    const res = await call(request(i));
    samples.push({ status: res.status, ms: res.ms, cost: res.cost, text: res.text, error: res.error, json: res.json });
  }
  /** @type {Record<string, any>} */
  const summary = {
    endpoint: name,
    ...summarize(samples, expected),
    samples_ms: samples.map((s) => Number(s.ms.toFixed(1))),
  };
  if (warmupErrors.length) {
    summary.warmup_unexpected = warmupErrors.length;
    failures.push(
      `${name}: ${warmupErrors.length} warm-up request(s) got ${warmupErrors.map((r) => r.status).join(',')} (expected ${expected}): ${(warmupErrors[0].error ?? warmupErrors[0].text).slice(0, 200)}`,
    );
  }
  if (summary.unexpected) {
    failures.push(
      `${name}: ${summary.unexpected} of ${n} got an unexpected status: ${JSON.stringify(summary.unexpected_examples)}`,
    );
  }
  if (summary.cost_header_missing)
    failures.push(`${name}: ${summary.cost_header_missing} response(s) without X-Debug-Cost`);
  log(
    `${name}: n=${n} p50=${ms(summary.latency_ms.p50)} ms p99=${ms(summary.latency_ms.p99)} ms reads=${costCell(summary.cost.reads)} statuses=${statusCell(summary)}`,
  );
  return { summary, first: samples[0] };
}

/** Times `fn` n times (after `warmup` unrecorded calls) from this process. */
async function timeDirect(n, warmup, fn) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const values = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    values.push(performance.now() - t);
  }
  return { n, latency_ms: latencySummary(values) };
}

async function main() {
  log(`target ${BASE_URL} (project ${PROJECT_ID}), run ${RUN_ID}`);
  cpuBusyAtStart = await cpuBusy(2000);
  const health = await waitForApi();
  if (!health.cost) {
    throw new Error(
      'responses carry no X-Debug-Cost: EXPOSE_COST_HEADER must be true in functions/.env.demo-exam-bench',
    );
  }

  // ---- Seed: a super admin, a client with a client admin and a student.
  log('seeding users and tenant through the Admin SDK');
  const [tenant] = await seedClients(1, 'tenant');
  const [superAdmin, admin, student, patchTarget] = await Promise.all([
    createUser('super_admin', null, 'super'),
    createUser('client_admin', tenant.id, 'admin'),
    createUser('student', tenant.id, 'student'),
    createUser('student', tenant.id, 'patch-target', { signedIn: false }),
  ]);
  const as = {
    public: { ip: IP.public },
    super: { token: superAdmin.token, ip: IP.super },
    admin: { token: admin.token, ip: IP.admin },
    student: { token: student.token, ip: IP.student },
  };

  // ---- Warm-up: a token's first request also writes its `login` audit record (once per sign-in), which
  // would otherwise show up as a one-off extra write in the first measured row.
  for (const who of ['super', 'admin', 'student']) {
    for (let i = 0; i < 3; i++) {
      const res = await call({ path: '/api/me', ...as[who] });
      if (res.status !== 200) throw new Error(`warm-up GET /api/me as ${who}: ${res.status} ${res.text}`);
    }
  }

  // ---- One of each exam resource through the API: the prototypes the exam lists are grown from.
  log('creating a folder, a question, a published test and a share code through the API');
  const exams = await prepareExamLists({ tenantId: tenant.id, as });

  // ---- Cost must not grow with data: list endpoints with SMALL and with LARGE items.
  const lists = [
    {
      name: 'GET /api/clients (super_admin)',
      path: '/api/clients',
      who: 'super',
      count: () => countDocs(adminDb.collection('clients')),
      seed: (k, label) => seedClients(k, label),
    },
    {
      name: 'GET /api/users (client_admin, own org)',
      path: '/api/users',
      who: 'admin',
      count: () => countDocs(adminDb.collection('clients').doc(tenant.id).collection('users')),
      seed: (k, label) => seedUserProfiles(tenant.id, k, label),
    },
    {
      name: 'GET /api/audit-logs (super_admin, all)',
      path: '/api/audit-logs',
      who: 'super',
      count: () => countDocs(adminDb.collection('audit_logs')),
      seed: (k) => seedAuditRecords(tenant.id, k),
    },
    ...exams.lists,
  ];
  const scaling = [];
  for (const [label, target] of /** @type {const} */ ([
    ['small', SMALL],
    ['large', LARGE],
  ])) {
    log(`data set "${label}": topping up clients, tenant users and audit records to ${target} each`);
    await Promise.all(
      lists.map(async (list) => {
        const missing = target - Number(await list.count());
        if (missing > 0) await list.seed(missing, label);
      }),
    );
    for (const list of lists) {
      const { summary, first } = await measure({
        name: list.name,
        expected: 200,
        n: 30,
        warmup: 3,
        request: () => ({ path: list.path, ...as[list.who] }),
      });
      const total = first?.json?.pagination?.total ?? null;
      scaling.push({ data_set: label, items_in_collection: total, page: 1, ...summary });
      if (label === 'large' && total) {
        // The deepest page an offset may reach ((page - 1) x 20 = 1,000, the cap), for reference (not part of the check).
        const lastPage = Math.min(Math.ceil(total / 20), 51);
        const deep = await measure({
          name: `${list.name} page=${lastPage}`,
          expected: 200,
          n: 10,
          warmup: 1,
          request: () => ({ path: `${list.path}?page=${lastPage}&limit=20`, ...as[list.who] }),
        });
        scaling.push({ data_set: label, items_in_collection: total, page: lastPage, ...deep.summary });
        // The same page reached by cursor: it costs one page, whatever the depth.
        let cursor = null;
        for (let page = 1; page < lastPage; page++) {
          const res = await call({
            path: `${list.path}?limit=20${cursor ? `&cursor=${cursor}` : ''}`,
            ...as[list.who],
          });
          cursor = res.json?.pagination?.next_cursor;
          if (!cursor) throw new Error(`${list.name}: no next_cursor on page ${page} of ${lastPage}`);
        }
        const byCursor = await measure({
          name: `${list.name} page=${lastPage} by cursor`,
          expected: 200,
          n: 10,
          warmup: 1,
          request: () => ({ path: `${list.path}?limit=20&cursor=${cursor}`, ...as[list.who] }),
        });
        scaling.push({
          data_set: label,
          items_in_collection: total,
          page: `${lastPage} (cursor)`,
          ...byCursor.summary,
        });
      }
    }
  }
  checkBuild('the data-size check');
  const scale_checks = lists.map((list) => {
    const small = scaling.find((s) => s.endpoint === list.name && s.data_set === 'small');
    const large = scaling.find((s) => s.endpoint === list.name && s.data_set === 'large');
    // `pagination.total` is a count() aggregation, which Firestore bills 1 read per 1,000 index entries
    // matched: the one part of a list's cost that grows with the data, reported apart and not hidden.
    const countReads = (items) => Math.max(1, Math.ceil(items / 1000));
    const pageReads = (s) => s.cost.reads?.median - countReads(s.items_in_collection);
    const same =
      ['writes', 'round_trips', 'sequential_round_trips', 'auth_calls'].every(
        (k) => small.cost[k]?.median === large.cost[k]?.median,
      ) && pageReads(small) === pageReads(large);
    const check = {
      endpoint: list.name,
      small_items: small.items_in_collection,
      large_items: large.items_in_collection,
      reads_small: small.cost.reads?.median,
      reads_large: large.cost.reads?.median,
      page_reads_small: pageReads(small),
      page_reads_large: pageReads(large),
      total_count_reads_small: countReads(small.items_in_collection),
      total_count_reads_large: countReads(large.items_in_collection),
      round_trips_small: small.cost.round_trips?.median,
      round_trips_large: large.cost.round_trips?.median,
      constant: same,
    };
    if (!same) failures.push(`cost of ${list.name} grows with data: ${JSON.stringify(check)}`);
    if (!(large.items_in_collection >= LARGE && small.items_in_collection < large.items_in_collection)) {
      failures.push(
        `${list.name}: data sets not as intended (small ${small.items_in_collection}, large ${large.items_in_collection})`,
      );
    }
    return check;
  });

  // ---- Every endpoint, sequentially, on the large data set.
  log('preparing users to delete');
  const N_DELETE = 20;
  const DELETE_WARMUP = 2;
  const victims = await mapLimit(Array.from({ length: N_DELETE + DELETE_WARMUP }), 4, () =>
    createUser('student', tenant.id, 'delete-me', { signedIn: false }),
  );
  const badToken = `eyJhbGciOiJub25lIn0.${Buffer.from(`not-a-token-${RUN_ID}`).toString('base64url')}.invalid-signature`;
  const steps = [
    { name: 'GET /api/health (public)', expected: 200, n: 100, request: () => ({ path: '/api/health', ...as.public }) },
    {
      name: 'GET /api/openapi.json (public)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/openapi.json', ...as.public }),
    },
    { name: 'GET /api/me (student)', expected: 200, n: 100, request: () => ({ path: '/api/me', ...as.student }) },
    {
      name: 'GET /api/clients (super_admin)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/clients', ...as.super }),
    },
    {
      name: 'POST /api/clients (super_admin)',
      expected: 201,
      n: 50,
      request: (i) => ({
        method: 'POST',
        path: '/api/clients',
        body: {
          name: `Bench created ${RUN_ID} ${i}`,
          address: '2 Benchmark Road',
          logo_url: 'https://example.com/logo.png',
        },
        ...as.super,
      }),
    },
    {
      name: 'GET /api/clients/{id} (client_admin, own)',
      expected: 200,
      n: 100,
      request: () => ({ path: `/api/clients/${tenant.id}`, ...as.admin }),
    },
    {
      name: 'PATCH /api/clients/{id} (client_admin, address)',
      expected: 200,
      n: 50,
      request: (i) => ({
        method: 'PATCH',
        path: `/api/clients/${tenant.id}`,
        body: { address: `${i} Benchmark Road` },
        ...as.admin,
      }),
    },
    {
      name: 'GET /api/users (client_admin, own org)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/users', ...as.admin }),
    },
    {
      name: 'POST /api/users (client_admin, student)',
      expected: 201,
      n: 20,
      warmup: 2,
      request: (i) => ({
        method: 'POST',
        path: '/api/users',
        body: {
          email: `created-${RUN_ID}-${i}@bench.example`,
          password: PASSWORD,
          display_name: `Created ${i}`,
          role: 'student',
        },
        ...as.admin,
      }),
    },
    {
      name: 'GET /api/users/{uid} (client_admin)',
      expected: 200,
      n: 100,
      request: () => ({ path: `/api/users/${student.uid}`, ...as.admin }),
    },
    {
      name: 'PATCH /api/users/{uid} (client_admin, display_name)',
      expected: 200,
      n: 30,
      warmup: 2,
      request: (i) => ({
        method: 'PATCH',
        path: `/api/users/${patchTarget.uid}`,
        body: { display_name: `Renamed ${i}` },
        ...as.admin,
      }),
    },
    {
      name: 'DELETE /api/users/{uid} (client_admin)',
      expected: 204,
      n: N_DELETE,
      warmup: DELETE_WARMUP,
      request: (i) => ({ method: 'DELETE', path: `/api/users/${victims[i].uid}`, ...as.admin }),
    },
    {
      name: 'GET /api/audit-logs (super_admin, all)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/audit-logs', ...as.super }),
    },
    {
      // Each from its own address: ten failed authentications from one IP in a minute get that IP 429.
      name: 'GET /api/me, invalid token (rejected)',
      expected: 401,
      n: 50,
      warmup: 2,
      request: (i) => ({ path: '/api/me', token: badToken, ip: rejectedIp(i) }),
    },
  ];
  log('preparing the exam-authoring steps (their victims are made through the API)');
  steps.push(...(await examSteps({ as, made: exams })));
  const endpoints = [];
  for (const step of steps) {
    endpoints.push((await measure(step)).summary);
    checkBuild(step.name);
  }

  // The service must have taken each virtual client's address from X-Forwarded-For.
  const rejectedRecords = await adminDb.collection('audit_logs').where('event_type', '==', 'token_rejected').get();
  const seenIps = new Set(rejectedRecords.docs.map((d) => d.get('ip_address')));
  const expectedIps = Array.from({ length: 52 }, (_, i) => rejectedIp(i));
  const ipsHonoured = expectedIps.filter((a) => seenIps.has(a)).length;
  const client_address = { rejected_requests: expectedIps.length, recorded_with_own_address: ipsHonoured };
  if (ipsHonoured !== expectedIps.length) {
    failures.push(
      `client address: only ${ipsHonoured} of ${expectedIps.length} rejected requests were recorded with their own X-Forwarded-For address (seen: ${[...seenIps].slice(0, 5).join(', ')})`,
    );
  }

  // ---- The rate limiter's own cost: /api/health does nothing but the limiter's Firestore work.
  log('timing Firestore round trips directly from this process (Admin SDK)');
  checkTime();
  const tenantRef = adminDb.collection('clients').doc(tenant.id);
  const directGet = await timeDirect(100, 10, () => tenantRef.get());
  const { FieldValue, Timestamp } = await import('firebase-admin/firestore');
  const counterRef = adminDb.collection('rate_limits').doc(`bench-direct-${RUN_ID}`);
  // What the limiter does per request: the service's own addToCounters, one commit that returns the new count.
  const { addToCounters } = compiledFunctions('rateLimit/counterStore.js');
  const { currentWindow } = compiledFunctions('rateLimit/window.js');
  const limiterPattern = await timeDirect(100, 10, () =>
    addToCounters(`bench-direct-${RUN_ID}`, { requests: 1 }, currentWindow(Date.now())),
  );
  // The pattern it replaced, for comparison: a merge-increment, then a read back.
  const previousPattern = await timeDirect(100, 10, async () => {
    await counterRef.set(
      { requests: FieldValue.increment(1), expires_at: Timestamp.fromMillis(Date.now() + 120_000) },
      { merge: true },
    );
    await counterRef.get();
  });
  const healthRow = endpoints[0];
  const limiter = {
    health_endpoint: { latency_ms: healthRow.latency_ms, cost: healthRow.cost },
    direct_firestore_doc_get: directGet,
    direct_limiter_one_commit: limiterPattern,
    direct_previous_pattern_set_then_get: previousPattern,
    limiter_share_of_health_p50:
      healthRow.latency_ms.p50 && limiterPattern.latency_ms.p50
        ? Number((limiterPattern.latency_ms.p50 / healthRow.latency_ms.p50).toFixed(2))
        : null,
  };

  // ---- Load: concurrent virtual users, each its own client admin with its own address.
  log(`load: creating ${LOAD.vus} virtual users (client admins, signed in)`);
  checkTime();
  const vus = await mapLimit(Array.from({ length: LOAD.vus }), 4, async (_, i) => {
    const user = await createUser('client_admin', tenant.id, `vu${i}`);
    return { token: user.token, ip: vuIp(i) };
  });
  const workload = [
    { name: 'GET /api/me', path: '/api/me', expected: 200 },
    { name: 'GET /api/clients/{id}', path: `/api/clients/${tenant.id}`, expected: 200 },
    { name: 'GET /api/users', path: '/api/users', expected: 200 },
    { name: 'GET /api/audit-logs', path: '/api/audit-logs', expected: 200 },
  ];
  log(
    `load: ${LOAD.vus} virtual users joining one by one, ${LOAD.settleMs / 1000} s all together, then ${LOAD.durationMs / 1000} s measured`,
  );
  build.reset();
  let load = await runLoad({ users: vus, workload, ...LOAD });
  if (checkBuild('the load phase')) {
    log('load: functions/lib changed during the load phase; running it once more');
    load = { ...(await runLoad({ users: vus, workload, ...LOAD })), repeated_after_rebuild: true };
    checkBuild('the repeated load phase');
  }
  if (load.errors || load.warmup.errors) {
    failures.push(
      `load: ${load.errors} error(s), ${load.warmup.errors} in warm-up; ${JSON.stringify([...load.per_endpoint.flatMap((e) => e.unexpected_examples), ...load.warmup.error_examples].slice(0, 3))}`,
    );
  }
  if (load.warmup.users_joined !== LOAD.vus)
    failures.push(
      `load: only ${load.warmup.users_joined} of ${LOAD.vus} virtual users got an answer within the warm-up`,
    );

  // ---- The CSV import at size: wall time, cost, and how far the serving process's memory rose.
  log('importing CSV files of 1,000 and 5,000 rows');
  const imports = [];
  for (const rows of [1000, 5000]) {
    const result = await measureImport(rows, as.admin);
    if (result.status !== 201 || result.imported !== rows)
      failures.push(`import of ${rows} rows: ${result.status} ${result.error ?? ''} (imported ${result.imported})`);
    imports.push(result);
    log(
      `import ${rows} rows: ${result.status} in ${result.wall_ms} ms, peak RSS rise ${result.peak_rss_rise_mb} MB, cost ${JSON.stringify(result.cost)}`,
    );
  }
  checkBuild('the import measurement');

  // ---- Analytics: the same request on a test with 100 and with 10,000 submitted attempts (bench/analytics.mjs).
  log('analytics: two tests, with 100 and 10,000 submitted attempts');
  checkTime();
  const analytics = await measureAnalytics({ tenantId: tenant.id, as, measure, log, failures, warnings });
  checkBuild('the analytics measurement');

  // ---- Sittings: the hot path with and without a sitting's settings, and the sitting-wide extension (bench/sittings.mjs).
  log(
    'sittings: start, save and submit with and without settings; POST /api/tests/{id}/extend at 100 and 1,000 attempts',
  );
  checkTime();
  const sittings = await measureSittings({ tenantId: tenant.id, as, log, failures });
  checkBuild('the sittings measurement');

  return { tenant, endpoints, scaling, scale_checks, limiter, load, client_address, imports, analytics, sittings };
}

function print({ endpoints, scaling, scale_checks, limiter, load, client_address, imports, analytics, sittings }) {
  const out = [];
  out.push('\n# Benchmark results');
  out.push(`\nNOTE: ${NOTE}`);
  out.push(`Target ${BASE_URL}, project ${PROJECT_ID}, ${cpus().length} CPU(s), node ${process.version}.`);
  // The bench loads the machine itself; only the figure from before its first request says whether others were busy.
  const busy = cpuBusyAtStart > 0.25;
  out.push(
    `CPU busy just before the first request (over 2 s, all CPUs): ${Math.round(cpuBusyAtStart * 100)}%${busy ? ' -- other work was running on this machine, which inflates the latencies below' : ''}.`,
  );
  out.push(
    'p50/p99 are nearest-rank over sequential samples (with n < 100, p99 is the slowest sample). Cost columns show the',
  );
  out.push('median per request; "m (a-b)!" flags a cost that varied between a and b over the samples.');

  const costCols = (s) => [
    costCell(s.cost.reads),
    costCell(s.cost.writes),
    costCell(s.cost.round_trips),
    costCell(s.cost.sequential_round_trips),
    costCell(s.cost.auth_calls),
  ];
  out.push(section('Endpoints (sequential, one request at a time, on the large data set)'));
  out.push(
    table(
      ['endpoint', 'n', 'p50 ms', 'p99 ms', 'reads', 'writes', 'round trips', 'sequential', 'auth calls', 'statuses'],
      endpoints.map((s) => [
        s.endpoint,
        s.n,
        ms(s.latency_ms.p50),
        ms(s.latency_ms.p99),
        ...costCols(s),
        statusCell(s),
      ]),
      { rightAlign: [1, 2, 3, 4, 5, 6, 7] },
    ),
  );

  out.push(
    'Round trips count Firestore calls, parallel ones included (a list runs its count() and its page together).',
  );
  out.push(
    "Auth calls: under the Auth emulator the Admin SDK's verifyIdToken always checks revocation (one getUser), so every",
  );
  out.push(
    'request with a valid token shows 1 auth call for it; in production only non-GET requests make that check, so',
  );
  out.push(
    'authenticated GETs make one Auth call fewer (none) than shown. createUser/updateUser re-read the user inside the SDK (counted).',
  );

  out.push(section(`Cost does not grow with data (list endpoints, ${SMALL} vs ${LARGE}+ items, default page of 20)`));
  out.push(
    table(
      [
        'endpoint',
        'data set',
        'items',
        'page',
        'n',
        'p50 ms',
        'p99 ms',
        'reads',
        'writes',
        'round trips',
        'sequential',
        'auth calls',
        'statuses',
      ],
      scaling.map((s) => [
        s.endpoint.replace(/ page=\d+$/, ''),
        s.data_set,
        s.items_in_collection,
        s.page,
        s.n,
        ms(s.latency_ms.p50),
        ms(s.latency_ms.p99),
        ...costCols(s),
        statusCell(s),
      ]),
      { rightAlign: [2, 3, 4, 5, 6, 7, 8, 9, 10] },
    ),
  );
  for (const c of scale_checks) {
    out.push(
      `${c.constant ? 'OK  ' : 'FAIL'} ${c.endpoint}: reads/request ${c.reads_small} with ${c.small_items} items, ${c.reads_large} with ${c.large_items} items` +
        ` (page ${c.page_reads_small} vs ${c.page_reads_large}; total's count() ${c.total_count_reads_small} vs ${c.total_count_reads_large})` +
        `; round trips ${c.round_trips_small} vs ${c.round_trips_large}`,
    );
  }
  out.push(
    'Page 1 is the checked figure: writes, round trips (all and sequential) and auth calls must be equal at both sizes,',
  );
  out.push(
    'and so must the reads of the page itself. The one part that grows is `pagination.total`: a count() aggregation that',
  );
  out.push(
    'Firestore bills 1 read per 1,000 index entries (1 read at 25 items, 5 at 5,000), shown in the check lines above.',
  );
  out.push(
    'The page-51 rows show the deepest page an offset may reach (the cap), billed for every skipped item, beside the same page by cursor.',
  );
  out.push(section('CSV import at size (through Hosting, one request each)'));
  out.push(
    table(
      [
        'rows',
        'file',
        'status',
        'wall ms',
        'reads',
        'writes',
        'round trips (commits + reads)',
        'peak RSS rise of the serving process',
        'its peak RSS',
      ],
      imports.map((i) => [
        i.rows,
        `${(i.file_bytes / 1024).toFixed(0)} KiB`,
        i.status,
        i.wall_ms,
        i.cost?.reads ?? '-',
        i.cost?.writes ?? '-',
        i.cost?.round_trips ?? '-',
        i.peak_rss_rise_mb === null ? 'n/a' : `${i.peak_rss_rise_mb} MB`,
        i.peak_rss_mb === null ? 'n/a' : `${i.peak_rss_mb} MB`,
      ]),
      { rightAlign: [0, 1, 3, 4, 5, 6, 7, 8] },
    ),
  );
  out.push(analyticsReport(analytics));
  out.push(sittingsReport(sittings));

  out.push(section('Rate limiter cost (shared Firestore counter)'));
  const h = limiter.health_endpoint;
  out.push(
    table(
      ['measurement', 'n', 'p50 ms', 'p99 ms', 'firestore round trips'],
      [
        [
          'GET /api/health through Hosting (only the limiter touches Firestore)',
          endpoints[0].n,
          ms(h.latency_ms.p50),
          ms(h.latency_ms.p99),
          `${costCell(h.cost.round_trips)} (reads ${costCell(h.cost.reads)}, writes ${costCell(h.cost.writes)})`,
        ],
        [
          'one Firestore doc get, Admin SDK from the bench process',
          limiter.direct_firestore_doc_get.n,
          ms(limiter.direct_firestore_doc_get.latency_ms.p50),
          ms(limiter.direct_firestore_doc_get.latency_ms.p99),
          '1',
        ],
        [
          'the limiter (one commit returning the new count), Admin SDK direct',
          limiter.direct_limiter_one_commit.n,
          ms(limiter.direct_limiter_one_commit.latency_ms.p50),
          ms(limiter.direct_limiter_one_commit.latency_ms.p99),
          '1',
        ],
        [
          'the pattern it replaced (merge-increment, then get)',
          limiter.direct_previous_pattern_set_then_get.n,
          ms(limiter.direct_previous_pattern_set_then_get.latency_ms.p50),
          ms(limiter.direct_previous_pattern_set_then_get.latency_ms.p99),
          '2 (sequential)',
        ],
      ],
      { rightAlign: [1, 2, 3] },
    ),
  );
  out.push(
    `The limiter adds ${costCell(h.cost.round_trips)} Firestore round trip to every request (sensitive routes add 1 more);` +
      ` measured directly that is ~${ms(limiter.direct_limiter_one_commit.latency_ms.p50)} ms, about ${Math.round((limiter.limiter_share_of_health_p50 ?? 0) * 100)}% of the p50 of GET /api/health.`,
  );

  out.push(
    section(
      `Load: ${load.virtual_users} concurrent virtual users (own token and address each), mixed reads, ${load.duration_s} s measured${load.repeated_after_rebuild ? ' (second attempt: functions/lib was rebuilt during the first)' : ''}`,
    ),
  );
  out.push(
    `Warm-up: users joined one at a time (the Functions emulator runs one request per worker process and starts one per concurrent request), then ran together; ${load.warmup.seconds} s, ${load.warmup.requests} requests, ${load.warmup.errors} errors.`,
  );
  out.push(
    table(
      ['endpoint', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'reads', 'round trips', 'errors'],
      [
        ...load.per_endpoint.map((e) => [
          e.endpoint,
          e.n,
          ms(e.latency_ms.p50),
          ms(e.latency_ms.p95),
          ms(e.latency_ms.p99),
          costCell(e.cost.reads),
          costCell(e.cost.round_trips),
          e.unexpected,
        ]),
        [
          'all',
          load.requests,
          ms(load.latency_ms.p50),
          ms(load.latency_ms.p95),
          ms(load.latency_ms.p99),
          '',
          '',
          load.errors,
        ],
      ],
      { rightAlign: [1, 2, 3, 4, 5, 6, 7] },
    ),
  );
  out.push(
    `Throughput: ${load.throughput_rps} req/s; errors: ${load.errors} (warm-up: ${load.warmup.errors})${load.cap_reached ? `; stopped at the cap of ${load.requests_cap} requests` : ''}.`,
  );
  out.push(
    `\nClient addresses: ${client_address.recorded_with_own_address} of ${client_address.rejected_requests} rejected requests were audited with their own X-Forwarded-For address.`,
  );
  console.log(out.join('\n'));
}

let exitCode = 0;
try {
  const results = await main();
  print(results);
  const file = join(root, '.bench', 'results.json');
  mkdirSync(dirname(file), { recursive: true });
  const { tenant, ...rest } = results;
  writeFileSync(
    file,
    JSON.stringify(
      {
        note: NOTE,
        generated_at: new Date().toISOString(),
        base_url: BASE_URL,
        project: PROJECT_ID,
        run_id: RUN_ID,
        cpus: cpus().length,
        cpu_busy_before_start: cpuBusyAtStart,
        node: process.version,
        runtime_s: Math.round((Date.now() - startedAt) / 1000),
        ...rest,
        warnings,
        failures,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nResults written to ${file} (runtime ${Math.round((Date.now() - startedAt) / 1000)} s).`);
} catch (err) {
  failures.push(`aborted: ${err.stack ?? err}`);
}
if (verdict('Bench', { failures, warnings, passed: 'every request got its expected status.' })) exitCode = 1;
process.exit(exitCode);
