// @ts-check
// `npm run bench:hall`: the exam hall. One organization's class behind one
// address, as a school's NAT shows it, on the Functions Framework (one process,
// as Cloud Functions serves it) against the Auth and Firestore emulators, with
// the interface's DEFAULT limits (100 requests a minute per address, 10
// sensitive, 10 failed authentications; 200 for an address of a registered
// network), not the raised ones of the other benches.
//
// The crowd: HALL_STUDENTS students (300) and HALL_GUESTS guests (30: anonymous
// sign-in, a share code), all sending X-Forwarded-For: 203.0.113.7 as the front
// end appends it (TRUSTED_PROXY_HOPS=1). 20 students have accommodations; 30
// take a second test of the same hall that needs an access code. Everyone starts
// within 10 s and saves one answer every 1 to 2 s, 16 questions, each save with
// its client_seq (HALL_SAVE_EVERY_S=6-10 spaces the saves out). A tenth go offline for six questions (revising two of them),
// come back, change one of those answers again online, and replay the queue
// late, shuffled, in batches: the replayed versions older than what the server
// holds must come back `stale` and never be applied. A tenth never submit: the
// deadline (closes_at, shared by the hall) closes them, through the scheduled
// closer run here once the deadline and its 30 s grace have passed, as the
// scheduler's next tick would.
//
// The network 203.0.113.0/24 is registered for the organization before the
// server starts (its document, written with the service's own store), so the
// per-instance registry holds it from the first request. HALL_CONTROL=1 runs
// the same hall without it: the control, which shows the 429s that counting by
// identity removes.
//
// Students send their ID token, guests their attempt token alone (X-Attempt-Token).
// Until batches and client_seq are served (a 400 to the probe), the offline
// queue is replayed as a client can today: single saves without client_seq, so a
// late replay overwrites a newer answer; the run reports that as lost answers.
//
// Each page also sends its integrity events (HALL_EVENTS=0 leaves them out): a
// glance away from the tab twice (focus_lost, then focus_back), an offline
// student's offline/online in one batch once back; every event acknowledged must
// be counted in its attempt's integrity summary.
//
// Measured: statuses per step (429s and 5xx: goal 0), lost answers (goal 0),
// stale replays applied (goal 0), the analytics against a recomputation,
// p50/p95/p99 of start, save, batch and submit, the deadline to the last attempt
// closed, CPU ms per request of the serving process beside a bare Express app
// under the same framework, and writes per document path (bench/lib/writeTap.cjs)
// with the busiest document's writes per second.
//
// Bounded: every client stops by the deadline; only loopback is targeted.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { questionBank } from './lib/examContent.mjs';
import { freePort } from './lib/ports.mjs';

const STUDENTS = Number(process.env.HALL_STUDENTS ?? 300);
const GUESTS = Number(process.env.HALL_GUESTS ?? 30);
const ACCOMMODATED = Math.min(20, STUDENTS);
const WITH_ACCESS_CODE = Math.min(30, STUDENTS);
/** Seconds from the first start to closes_at. */
const DEADLINE_S = Number(process.env.HALL_DEADLINE_S ?? 180);
const CONTROL = process.env.HALL_CONTROL === '1';
/** Seconds between one student's saves, as "min-max" (1-2: a fast hall; 6-10: a hall saving every few seconds). */
const SAVE_EVERY_MS = (process.env.HALL_SAVE_EVERY_S ?? '1-2').split('-').map((s) => Number(s) * 1000);
/** The pages' integrity events beside the answers (HALL_EVENTS=0: answers only, as before they existed). */
const EVENTS = process.env.HALL_EVENTS !== '0';
const HALL_IP = '203.0.113.7';
const HALL_NETWORK = '203.0.113.0/24';
const ADMIN_IP = '198.51.100.10';
const PROBE_IP = '198.51.100.20';
const ACCESS_CODE = 'HALL-ROOM-7';
const GRACE_S = 30;

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const rand = (lo, hi) => lo + Math.random() * (hi - lo);
function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Writes per second of one document: total, the most in one second, and the most sustained over 10 s and 60 s. */
function rateOf(perSecond) {
  const seconds = Object.keys(perSecond)
    .map(Number)
    .sort((a, b) => a - b);
  const total = seconds.reduce((n, s) => n + perSecond[s], 0);
  const peak = (width) => {
    let best = 0;
    for (const from of seconds) {
      let n = 0;
      for (const s of seconds) if (s >= from && s < from + width) n += perSecond[s];
      best = Math.max(best, n / width);
    }
    return Number(best.toFixed(2));
  };
  return { total, peak_1s: peak(1), peak_10s: peak(10), peak_60s: peak(60), active_seconds: seconds.length };
}

/** A document path with its ids replaced by what they are. */
function kindOf(path) {
  const parts = path.split('/');
  return parts
    .map((p, i) =>
      i % 2 === 0
        ? p
        : i === parts.length - 1 && parts[i - 1] === 'rate_limits'
          ? p.replace(/^([a-z]+)_.*_(\d+)$/, '$1_{subject}_{minute}')
          : `{${parts[i - 1]}}`,
    )
    .join('/');
}

async function runHall() {
  const { PROJECT_ID, AUTH_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, mapLimit, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { latencySummary } = await import('./lib/stats.mjs');
  const { ms, table, verdict } = await import('./lib/report.mjs');
  const { bareExpressSource, callAt, measureCpu, paramsEnv, root, startFramework } =
    await import('./lib/framework.mjs');
  const { compiledFunctions } = await import('../scripts/functions-lib.mjs');
  const { signInAnonymously } = await import('../scripts/lib/emulatorAuth.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');

  const label = CONTROL ? 'hall-control' : 'hall';
  const log = (line) => console.log(`[${label}] ${line}`);
  const failures = [];
  const servers = [];
  let bare;
  const benchDir = join(root, '.bench');
  mkdirSync(benchDir, { recursive: true });
  const tapFile = join(benchDir, `${label}-writes.json`);
  const closerTapFile = join(benchDir, `${label}-closer-writes.json`);
  for (const f of [tapFile, closerTapFile]) rmSync(f, { force: true });
  const startedAt = Date.now();

  try {
    // ---- the organization, its administrator, the network (unless the control)
    const [tenant] = await seedClients(1, 'hall');
    const admin = { ...(await createUser('client_admin', tenant.id, 'hall-admin')), ip: ADMIN_IP };
    if (!CONTROL) {
      const { writeNetworks } = compiledFunctions('networks/store.js');
      await writeNetworks(tenant.id, [HALL_NETWORK], admin.uid);
      log(
        `registered ${HALL_NETWORK} for organization ${tenant.id} (before the server starts: its registry reads it at the first request)`,
      );
    } else log('CONTROL: no network registered');

    // ---- the server: the bench project's params, with the interface's default limits
    const { params } = compiledFunctions('config.js');
    const defaults = Object.fromEntries(
      [
        'RATE_LIMIT_PER_MINUTE',
        'RATE_LIMIT_SENSITIVE_PER_MINUTE',
        'AUTH_FAILURES_PER_MINUTE',
        'AUTH_FAILURES_PER_NETWORK_ADDRESS_PER_MINUTE',
      ].map((name) => {
        const param = Object.values(params).find((p) => p.name === name);
        if (param?.options?.default === undefined) throw new Error(`no default for ${name} in functions/lib/config.js`);
        return [name, String(param.options.default)];
      }),
    );
    const apiPort = await freePort();
    const env = {
      ...paramsEnv(PROJECT_ID),
      ...defaults,
      TRUSTED_PROXY_HOPS: '1',
      FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      GCLOUD_PROJECT: PROJECT_ID,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(root, 'bench', 'lib', 'writeTap.cjs')}`.trim(),
      HALL_WRITE_TAP_FILE: tapFile,
    };
    log(`limits given to the server: ${JSON.stringify(defaults)}`);
    const api = await startFramework({
      target: 'api',
      source: join(root, 'functions'),
      port: apiPort,
      env,
      readyPath: '/api/health',
      logPrefix: 'api',
    });
    servers.push(api);
    const call = (opts) => callAt(api.baseUrl, opts);
    const asAdmin = async (method, path, body, expect = [200, 201]) => {
      const res = await call({ method, path, body, token: admin.token, ip: ADMIN_IP });
      if (!expect.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 400)}`);
      return res;
    };

    // ---- the crowd's accounts (before the tests, so closes_at is measured from the crowd's start)
    log(`creating ${STUDENTS} students (Auth emulator accounts, signed in) and ${GUESTS} guests (anonymous sign-in)`);
    const students = await mapLimit(Array.from({ length: STUDENTS }), 16, async (_, i) => ({
      ...(await createUser('student', tenant.id, `hall-s${i}`)),
      guest: false,
    }));
    const guests = await mapLimit(Array.from({ length: GUESTS }), 8, async () => {
      const session = await signInAnonymously(AUTH_HOST);
      return { uid: session.uid, token: session.idToken, guest: true };
    });
    const probeStudent = await createUser('student', tenant.id, 'hall-probe');

    // ---- the exam: 16 questions, test A (300 - 30 students and the guests), test B (30 students, an access code); one closes_at
    const bank = questionBank(RUN_ID);
    const created = [];
    for (const q of bank) created.push({ ...q, id: (await asAdmin('POST', '/api/questions', q.body)).json.id });
    const byId = new Map(created.map((q) => [q.id, q]));
    const hallStartMs = Date.now() + 15_000;
    const closesAtMs = hallStartMs + DEADLINE_S * 1000;
    const closesAt = new Date(closesAtMs).toISOString();
    const testBody = (name, extra = {}) => ({
      test_name: `Hall ${RUN_ID} ${name}`,
      timer: 60,
      shuffle: 1,
      allow_review: 0,
      negative_marking: 1,
      negative_mark_ratio: 0.25,
      status: 'draft',
      question_ids: created.map((q) => q.id),
      closes_at: closesAt,
      ...extra,
    });
    const testA = (await asAdmin('POST', '/api/tests', testBody('A'))).json;
    const testB = (await asAdmin('POST', '/api/tests', testBody('B', { access_code: ACCESS_CODE }))).json;
    for (const t of [testA, testB]) await asAdmin('POST', `/api/tests/${t.id}/publish`);
    const shareCode = (await asAdmin('POST', `/api/tests/${testA.id}/share-codes`, { max_uses: GUESTS + 10 })).json
      .code;
    for (const s of students.slice(0, ACCOMMODATED))
      await asAdmin('PUT', `/api/users/${s.uid}/accommodations`, { extra_time_percent: 25, extra_minutes: 0 });
    log(
      `tests ${testA.id} (share code ${shareCode}) and ${testB.id} (access code), closes_at ${closesAt}; ${ACCOMMODATED} accommodations`,
    );

    // ---- what this build serves: client_seq on a single save, batches (probed from another address)
    const probeStart = await call({
      method: 'POST',
      path: '/api/attempts',
      body: { test_id: testA.id },
      token: probeStudent.token,
      ip: PROBE_IP,
    });
    if (probeStart.status !== 201)
      throw new Error(`probe start: ${probeStart.status} ${probeStart.text.slice(0, 300)}`);
    const probeQ = probeStart.json.test_details.questions;
    const probeSeq = await call({
      method: 'POST',
      path: `/api/attempts/${probeStart.json.attempt_id}/answers`,
      body: { question_id: probeQ[0].id, student_answer: 'probe', client_seq: 1 },
      token: probeStudent.token,
      ip: PROBE_IP,
    });
    const probeBatch = await call({
      method: 'POST',
      path: `/api/attempts/${probeStart.json.attempt_id}/answers`,
      body: { answers: [{ question_id: probeQ[1].id, student_answer: 'probe', client_seq: 1 }] },
      token: probeStudent.token,
      ip: PROBE_IP,
    });
    const seqServed = probeSeq.status === 200;
    const batchServed = probeBatch.status === 200 && Array.isArray(probeBatch.json?.saved);
    await call({
      method: 'POST',
      path: `/api/attempts/${probeStart.json.attempt_id}/submit`,
      token: probeStudent.token,
      ip: PROBE_IP,
    });
    log(
      `client_seq on a single save: ${seqServed ? 'served' : `not served (${probeSeq.status})`}; batches: ${batchServed ? 'served' : `not served (${probeBatch.status})`}`,
    );
    const replayMode =
      batchServed && seqServed
        ? 'batches with client_seq'
        : 'single saves without client_seq (what a client can do before batches)';

    // ---- warm-up from the administrator's address (not the hall's): modules loaded, channels open
    for (let i = 0; i < 10; i++) await call({ path: '/api/me', token: admin.token, ip: ADMIN_IP });

    // ---- the hall
    const crowd = [
      ...students.map((s, i) => ({
        ...s,
        index: i,
        test: i >= STUDENTS - WITH_ACCESS_CODE ? testB : testA,
        accessCode: i >= STUDENTS - WITH_ACCESS_CODE,
      })),
      ...guests.map((g, i) => ({ ...g, index: STUDENTS + i, test: testA, accessCode: false })),
    ];
    for (const c of crowd) {
      c.offline = c.index % 10 === 3;
      c.abandons = c.index % 10 === 7;
    }
    const samples = { start: [], save: [], batch: [], events: [], submit: [] };
    const limitsSeen = { start: new Set(), save: new Set(), batch: new Set(), events: new Set(), submit: new Set() };
    const results = [];
    const cutoffMs = closesAtMs - 20_000; // a student still answering then submits what it has
    const busyBefore = await cpuBusy(2000);
    await sleep(hallStartMs - Date.now());
    log(
      `${crowd.length} takers from ${HALL_IP}, starting within 10 s; closes_at in ${DEADLINE_S} s; offline replay: ${replayMode}`,
    );
    const cpuBefore = api.cpuSeconds();
    const t0 = performance.now();

    /** One request of a step, retried as a client would on 429 (after Retry-After, at most 5 s), 5xx and network errors. */
    async function send(step, opts, { tries = 4, until = cutoffMs } = {}) {
      let res;
      for (let attempt = 1; attempt <= tries; attempt++) {
        res = await call({ ...opts, ip: HALL_IP });
        samples[step].push({ status: res.status, ms: res.ms, at: Date.now() });
        if (res.rateLimit !== null) limitsSeen[step].add(res.rateLimit);
        if (res.status !== 429 && res.status < 500 && res.status !== 0) return res;
        const wait = res.status === 429 ? Math.min(5, res.retryAfter ?? 2) * 1000 : 1000;
        if (Date.now() + wait > until) return res;
        await sleep(wait + rand(0, 500));
      }
      return res;
    }

    await Promise.all(
      crowd.map(async (c) => {
        const r = {
          c,
          started: false,
          attemptId: null,
          submitted: false,
          acked: {},
          stale: [],
          newest: {},
          refused: 0,
          cutShort: false,
          eventsAcked: 0,
          eventsRefused: 0,
        };
        results.push(r);
        await sleep(rand(0, 10_000));
        const body = c.guest
          ? { share_code: shareCode, guest_name: `Guest ${c.index}` }
          : { test_id: c.test.id, ...(c.accessCode ? { access_code: ACCESS_CODE } : {}) };
        // A start retried after a timeout may land after the one that answered: it resumes the attempt and
        // replaces its token (the interface's rule). Students use their ID token, which no start replaces;
        // guests use the attempt token alone, as the guest flow does, and start again (a resume) to pick
        // up the current token when theirs is refused.
        let start = await send('start', { method: 'POST', path: '/api/attempts', body, token: c.token }, { tries: 10 });
        if (start.status !== 201 && start.status !== 200) return;
        r.started = true;
        r.attemptId = start.json.attempt_id;
        r.expiresAt = start.json.expires_at;
        const shown = start.json.test_details.questions.map((q) => q.id);
        const headers = {};
        const bearer = c.guest ? undefined : c.token;
        if (c.guest) headers['X-Attempt-Token'] = start.json.attempt_token;
        const sendAttempt = async (step, opts, options) => {
          let res = await send(step, opts, options);
          if (c.guest && res.status === 403 && /does not open/.test(res.json?.message ?? '')) {
            r.tokenReplaced = (r.tokenReplaced ?? 0) + 1;
            start = await send('start', { method: 'POST', path: '/api/attempts', body, token: c.token }, { tries: 4 });
            if (start.status === 200 || start.status === 201) {
              headers['X-Attempt-Token'] = start.json.attempt_token;
              res = await send(step, opts, options);
            }
          }
          return res;
        };
        const path = `/api/attempts/${r.attemptId}/answers`;
        const seq = {};
        /** The next version of a question's answer: its own client_seq, a text differing from the last one where the bank allows. */
        const nextAnswer = (qid) => {
          const n = (seq[qid] = (seq[qid] ?? 0) + 1);
          const q = byId.get(qid);
          const last = r.newest[qid]?.answer;
          let text = q.answers(c.index + n - 1);
          for (let k = n; text === last && k < n + 6; k++) text = q.answers(c.index + k);
          r.newest[qid] = { answer: text, seq: n };
          return { question_id: qid, student_answer: text, client_seq: n };
        };
        const ack = (item) => {
          const held = r.acked[item.question_id];
          if (!held || item.client_seq > held.client_seq) r.acked[item.question_id] = item;
        };
        const saveOnline = async (item) => {
          const sent = seqServed ? item : { question_id: item.question_id, student_answer: item.student_answer };
          const res = await sendAttempt('save', { method: 'POST', path, body: sent, token: bearer, headers });
          if (res.status === 200) {
            // Without client_seq the server keeps whichever arrived last; the student still means its newest (by its own counter).
            if (
              seqServed &&
              (res.json?.stale === true ||
                (Array.isArray(res.json?.stale) && res.json.stale.includes(item.question_id)))
            )
              r.stale.push(item);
            else ack(item);
          } else r.refused++;
          return res;
        };
        // What the taker's page reports for the proctor (web/src/taker/integrityEvents.ts): each event sent as
        // it happens; those of an offline student wait in its queue and go in one batch once it is back.
        let eventSeq = 0;
        const heldEvents = [];
        const sendEvents = async (...types) => {
          if (!EVENTS) return;
          const events = [
            ...heldEvents.splice(0),
            ...types.map((type) => ({ type, at: new Date().toISOString(), client_seq: ++eventSeq })),
          ];
          const res = await sendAttempt('events', {
            method: 'POST',
            path: `/api/attempts/${r.attemptId}/events`,
            body: { events },
            token: bearer,
            headers,
          });
          if (res.status === 200) r.eventsAcked += events.length;
          else r.eventsRefused += events.length;
        };
        const holdEvent = (type) => {
          if (EVENTS) heldEvents.push({ type, at: new Date().toISOString(), client_seq: ++eventSeq });
        };
        const queue = [];
        let replayed = false;
        const replay = async () => {
          replayed = true;
          const pending = shuffled(queue);
          if (batchServed && seqServed) {
            while (pending.length) {
              const batch = [];
              for (let i = 0; i < pending.length && batch.length < 4;) {
                if (batch.some((b) => b.question_id === pending[i].question_id)) i++;
                else batch.push(...pending.splice(i, 1));
              }
              const res = await sendAttempt('batch', {
                method: 'POST',
                path,
                body: { answers: batch },
                token: bearer,
                headers,
              });
              if (res.status === 200) {
                const staleIds = new Set(res.json?.stale ?? []);
                for (const item of batch) {
                  if (staleIds.has(item.question_id)) r.stale.push(item);
                  else ack(item);
                }
              } else r.refused += batch.length;
              await sleep(rand(300, 800));
            }
          } else {
            for (const item of pending) await saveOnline(item);
          }
        };
        for (let position = 0; position < shown.length; position++) {
          if (Date.now() > cutoffMs) {
            r.cutShort = true;
            break;
          }
          await sleep(rand(SAVE_EVERY_MS[0], SAVE_EVERY_MS[1]));
          const qid = shown[position];
          // A glance away from the tab twice in the sitting: left, then back a moment later.
          if ((position === 3 || position === 11) && !(c.offline && position >= 4 && position < 10)) {
            await sendEvents('focus_lost');
            await sleep(rand(500, 1500));
            await sendEvents('focus_back');
          }
          if (c.offline && position === 4) holdEvent('offline');
          if (c.offline && position === 10) await sendEvents('online');
          if (c.offline && position >= 4 && position < 10) {
            queue.push(nextAnswer(qid));
            if (position === 6 || position === 9) queue.push(nextAnswer(shown[position - 2])); // revised while offline
            continue;
          }
          if (c.offline && position === 10) await saveOnline(nextAnswer(shown[5])); // back online: changes one queued answer again
          await saveOnline(nextAnswer(qid));
          if (c.offline && position === 12) await replay(); // the queue, late and out of order
        }
        if (c.offline && !replayed && Date.now() < cutoffMs) await replay();
        if (c.abandons) return;
        await sleep(rand(500, 1500));
        const submit = await sendAttempt(
          'submit',
          { method: 'POST', path: `/api/attempts/${r.attemptId}/submit`, token: bearer, headers },
          { tries: 6, until: closesAtMs },
        );
        r.submitted = submit.status === 200;
      }),
    );
    const crowdWallS = (performance.now() - t0) / 1000;
    const appCpuS = api.cpuSeconds() - cpuBefore;
    const crowdRequests = Object.values(samples).reduce((n, s) => n + s.length, 0);
    log(
      `the crowd is done after ${crowdWallS.toFixed(1)} s (${crowdRequests} requests); waiting for closes_at + ${GRACE_S} s grace`,
    );

    // ---- the deadline: the scheduled closer's next tick (run here, on the same Firestore)
    await sleep(closesAtMs + GRACE_S * 1000 + 1000 - Date.now());
    process.env.HALL_WRITE_TAP_FILE = closerTapFile;
    (await import('node:module')).createRequire(import.meta.url)(join(root, 'bench', 'lib', 'writeTap.cjs'));
    compiledFunctions('app.js').provideEffects();
    const { closeOverdueAttempts } = compiledFunctions('attempts/service.js');
    const closerStarted = Date.now();
    const closed = await closeOverdueAttempts(Date.now(), 300);
    const closerMs = Date.now() - closerStarted;
    log(`closer: ${JSON.stringify(closed)} in ${closerMs} ms`);

    // ---- every attempt read back
    const started = results.filter((r) => r.started);
    const snaps = await mapLimit(started, 20, (r) => adminDb.doc(`clients/${tenant.id}/attempts/${r.attemptId}`).get());
    let lost = 0;
    let staleApplied = 0;
    let notClosed = 0;
    let acknowledged = 0;
    let lastClosedMs = 0;
    const problems = [];
    // Every event acknowledged is counted in its attempt's integrity summary (none lost, none twice).
    const summaries = EVENTS
      ? await mapLimit(started, 20, (r) =>
          adminDb.doc(`clients/${tenant.id}/attempts/${r.attemptId}/integrity_summary/summary`).get(),
        )
      : [];
    let eventsAcked = 0;
    let eventsLost = 0;
    started.forEach((r, i) => {
      if (!EVENTS) return;
      eventsAcked += r.eventsAcked;
      const total = summaries[i].data()?.total ?? 0;
      if (total < r.eventsAcked) eventsLost += r.eventsAcked - total;
    });
    started.forEach((r, i) => {
      const stored = snaps[i].data();
      if (stored.status !== 'submitted') notClosed++;
      if (stored.auto_submitted) lastClosedMs = Math.max(lastClosedMs, snaps[i].updateTime.toMillis());
      for (const [qid, item] of Object.entries(r.acked)) {
        acknowledged++;
        // The answer the student means: its newest acknowledged one (by its own client_seq).
        const held = stored.answers?.[qid]?.answer;
        if (held !== item.student_answer) {
          lost++;
          if (problems.length < 8)
            problems.push(
              `attempt ${r.attemptId} question ${qid}: acknowledged ${JSON.stringify(item.student_answer)} (seq ${item.client_seq}), stored ${JSON.stringify(held)}`,
            );
        }
      }
      for (const item of r.stale) {
        const newest = r.acked[item.question_id];
        if (
          newest &&
          newest.student_answer !== item.student_answer &&
          stored.answers?.[item.question_id]?.answer === item.student_answer
        )
          staleApplied++;
      }
    });

    // ---- analytics against a recomputation: our own from the attempts, and the service's repair
    const analytics = [];
    for (const test of [testA, testB]) {
      const got = (await asAdmin('GET', `/api/analytics/tests/${test.id}`)).json;
      const mine = (
        await adminDb.collection(`clients/${tenant.id}/attempts`).where('test_id', '==', test.id).get()
      ).docs.map((d) => d.data());
      const submitted = mine.filter((a) => a.status === 'submitted');
      const sum = submitted.reduce((s, a) => s + a.score, 0);
      const expected = {
        completed: submitted.length,
        in_progress: mine.length - submitted.length,
        auto_submitted: submitted.filter((a) => a.auto_submitted).length,
        average_score: submitted.length ? sum / submitted.length : null,
        highest_score: submitted.length ? Math.max(...submitted.map((a) => a.score)) : null,
        lowest_score: submitted.length ? Math.min(...submitted.map((a) => a.score)) : null,
        times_answered: Object.fromEntries(
          created.map((q) => [
            q.id,
            submitted.filter((a) => a.results.find((x) => x.question_id === q.id)?.answered).length,
          ]),
        ),
        times_correct: Object.fromEntries(
          created.map((q) => [
            q.id,
            submitted.filter((a) => a.results.find((x) => x.question_id === q.id)?.correct).length,
          ]),
        ),
      };
      const differences = [];
      for (const key of ['completed', 'in_progress', 'auto_submitted', 'highest_score', 'lowest_score'])
        if (got[key] !== expected[key]) differences.push(`${key}: ${got[key]} vs ${expected[key]}`);
      // The service reports figures rounded to 4 decimals.
      if (Math.abs((got.average_score ?? 0) - Math.round((expected.average_score ?? 0) * 1e4) / 1e4) > 1e-9)
        differences.push(`average_score: ${got.average_score} vs ${expected.average_score}`);
      for (const q of got.questions ?? []) {
        if (q.times_answered !== expected.times_answered[q.question_id])
          differences.push(
            `${q.question_id} times_answered ${q.times_answered} vs ${expected.times_answered[q.question_id]}`,
          );
        if (q.times_correct !== expected.times_correct[q.question_id])
          differences.push(
            `${q.question_id} times_correct ${q.times_correct} vs ${expected.times_correct[q.question_id]}`,
          );
      }
      const repair = await asAdmin('POST', `/api/analytics/tests/${test.id}/recompute`);
      analytics.push({
        test: test.id,
        completed: got.completed,
        in_progress: got.in_progress,
        auto_submitted: got.auto_submitted,
        average_score: got.average_score,
        differences,
        repair_changed: repair.json.changed,
      });
    }

    // ---- the floor: the same number of requests to a bare Express app under the same framework
    bare = bareExpressSource();
    const barePort = await freePort();
    const bareServer = await startFramework({ target: 'bare', source: bare.dir, port: barePort, logPrefix: 'bare' });
    servers.push(bareServer);
    await measureCpu(bareServer, { count: 200, concurrency: 10, request: () => ({ path: '/' }) });
    const bareRun = await measureCpu(bareServer, {
      count: crowdRequests,
      concurrency: 50,
      request: () => ({ path: '/', ip: HALL_IP }),
    });

    // ---- writes per document
    await api.stop();
    servers.splice(servers.indexOf(api), 1);
    const writes = existsSync(tapFile) ? JSON.parse(readFileSync(tapFile, 'utf8')) : {};
    const closerWrites = existsSync(closerTapFile) ? JSON.parse(readFileSync(closerTapFile, 'utf8')) : {};
    for (const [path, perSecond] of Object.entries(closerWrites)) {
      const into = (writes[path] ??= {});
      for (const [s, n] of Object.entries(perSecond)) into[s] = (into[s] ?? 0) + n;
    }
    const perDoc = Object.entries(writes).map(([path, perSecond]) => ({
      path,
      kind: kindOf(path),
      ...rateOf(perSecond),
    }));
    perDoc.sort((a, b) => b.peak_60s - a.peak_60s || b.peak_1s - a.peak_1s);
    const byKind = new Map();
    for (const d of perDoc) {
      const k = byKind.get(d.kind) ?? { kind: d.kind, documents: 0, writes: 0, busiest: d };
      k.documents++;
      k.writes += d.total;
      if (d.peak_60s > k.busiest.peak_60s || (d.peak_60s === k.busiest.peak_60s && d.peak_1s > k.busiest.peak_1s))
        k.busiest = d;
      byKind.set(d.kind, k);
    }
    const kinds = [...byKind.values()].sort((a, b) => b.busiest.peak_60s - a.busiest.peak_60s);
    // The rate limiter's shared counters beside the saves they count: a save should cost the attempt's write alone.
    const counterWrites = perDoc.filter((d) => d.path.startsWith('rate_limits/')).reduce((n, d) => n + d.total, 0);
    const savesOk = ['save', 'batch'].reduce((n, step) => n + samples[step].filter((x) => x.status === 200).length, 0);
    const counters = {
      writes: counterWrites,
      per_second: Number((counterWrites / crowdWallS).toFixed(2)),
      saves: savesOk,
      saves_per_second: Number((savesOk / crowdWallS).toFixed(2)),
      per_request: Number((counterWrites / crowdRequests).toFixed(4)),
    };

    // ---- report
    const statusesOf = (list) => list.reduce((acc, s) => ((acc[s.status] = (acc[s.status] ?? 0) + 1), acc), {});
    const steps = Object.entries(samples).map(([step, list]) => {
      const statuses = statusesOf(list);
      return {
        step,
        n: list.length,
        statuses,
        too_many: statuses[429] ?? 0,
        server_errors: list.filter((s) => s.status >= 500 || s.status === 0).length,
        latency_ms: latencySummary(list.filter((s) => s.status !== 429).map((s) => s.ms)),
        rate_limit_headers: [...limitsSeen[step]].sort((a, b) => a - b),
      };
    });
    const too_many = steps.reduce((n, s) => n + s.too_many, 0);
    const serverErrors = steps.reduce((n, s) => n + s.server_errors, 0);
    const busiest = perDoc[0];
    const result = {
      generated_at: new Date().toISOString(),
      control: CONTROL,
      network_registered: !CONTROL,
      project: PROJECT_ID,
      run_id: RUN_ID,
      cpus: cpus().length,
      cpu_busy_before: busyBefore,
      limits: defaults,
      takers: {
        students: STUDENTS,
        guests: GUESTS,
        accommodated: ACCOMMODATED,
        with_access_code: WITH_ACCESS_CODE,
        offline: crowd.filter((c) => c.offline).length,
        abandoning: crowd.filter((c) => c.abandons).length,
      },
      served: { client_seq: seqServed, batches: batchServed, replay: replayMode },
      started: started.length,
      could_not_start: crowd.length - started.length,
      guests_restarted_for_a_replaced_token: results.reduce((n, r) => n + (r.tokenReplaced ?? 0), 0),
      submitted_by_takers: results.filter((r) => r.submitted).length,
      cut_short_by_the_deadline: results.filter((r) => r.cutShort).length,
      requests: crowdRequests,
      crowd_wall_s: Number(crowdWallS.toFixed(1)),
      steps,
      too_many_requests: too_many,
      server_errors: serverErrors,
      answers_acknowledged: acknowledged,
      answers_refused: results.reduce((n, r) => n + r.refused, 0),
      lost_answers: lost,
      stale_reported: results.reduce((n, r) => n + r.stale.length, 0),
      stale_applied: staleApplied,
      integrity_events: EVENTS
        ? { acknowledged: eventsAcked, refused: results.reduce((n, r) => n + r.eventsRefused, 0), lost: eventsLost }
        : null,
      not_closed: notClosed,
      closer: { ...closed, ms: closerMs },
      deadline_to_last_closed_s: lastClosedMs ? Number(((lastClosedMs - closesAtMs) / 1000).toFixed(1)) : null,
      analytics,
      cpu: {
        app_cpu_ms_per_request: Number(((appCpuS * 1000) / crowdRequests).toFixed(2)),
        bare_express_cpu_ms_per_request: bareRun.cpu_ms_per_request,
        ratio:
          bareRun.cpu_ms_per_request > 0
            ? Number(((appCpuS * 1000) / crowdRequests / bareRun.cpu_ms_per_request).toFixed(1))
            : null,
        note: 'CPU (user + system) of the serving process over the whole crowd (its think time included, when it idles) divided by its requests',
      },
      writes: {
        method:
          "bench/lib/writeTap.cjs: WriteBatch.prototype._commit of the functions' @google-cloud/firestore wrapped in the serving process (and in this one for the closer); one write per committed operation per document path, bucketed by the second the commit answered",
        documents: perDoc.length,
        total: perDoc.reduce((n, d) => n + d.total, 0),
        busiest: busiest ?? null,
        by_kind: kinds.map((k) => ({
          kind: k.kind,
          documents: k.documents,
          writes: k.writes,
          busiest_path: k.busiest.path,
          total: k.busiest.total,
          peak_1s: k.busiest.peak_1s,
          peak_10s: k.busiest.peak_10s,
          peak_60s: k.busiest.peak_60s,
        })),
        top: perDoc.slice(0, 10),
        rate_limit_counters: counters,
      },
      runtime_s: Math.round((Date.now() - startedAt) / 1000),
      problems,
    };
    const limitHeaders = new Set(steps.flatMap((s) => s.rate_limit_headers));
    if (
      !limitHeaders.has(Number(defaults.RATE_LIMIT_PER_MINUTE)) ||
      !limitHeaders.has(Number(defaults.RATE_LIMIT_SENSITIVE_PER_MINUTE)) ||
      [...limitHeaders].some((l) => l > Number(defaults.AUTH_FAILURES_PER_NETWORK_ADDRESS_PER_MINUTE))
    ) {
      failures.push(
        `the limits in force are not the defaults: X-RateLimit-Limit seen ${JSON.stringify([...limitHeaders])}`,
      );
    }
    for (const a of analytics)
      if (a.differences.length || a.repair_changed)
        failures.push(
          `analytics of ${a.test} differ from the recomputation: ${a.differences.slice(0, 5).join('; ')}${a.repair_changed ? ' (the repair changed the sums)' : ''}`,
        );
    if (notClosed) failures.push(`${notClosed} attempts still in progress after the closer`);
    if (!CONTROL) {
      if (too_many) failures.push(`${too_many} requests refused with 429`);
      if (serverErrors) failures.push(`${serverErrors} requests answered 5xx or not at all`);
      if (lost) failures.push(`${lost} acknowledged answers lost`);
      if (staleApplied) failures.push(`${staleApplied} stale replays applied`);
      if (eventsLost) failures.push(`${eventsLost} acknowledged integrity events not stored`);
      if (started.length !== crowd.length) failures.push(`${crowd.length - started.length} takers could not start`);
    } else if (!too_many) failures.push('the control saw no 429: the hall was not limited by its address');
    result.failures = failures;

    const out = [`\n# The exam hall${CONTROL ? ' (CONTROL: no registered network)' : ''}`];
    out.push(
      `\n${crowd.length} takers (${STUDENTS} students, ${GUESTS} guests) from ${HALL_IP}; ${started.length} started, ${result.submitted_by_takers} submitted, ${result.takers.abandoning} abandoning; ${crowdRequests} requests in ${result.crowd_wall_s} s on ${cpus().length} cores (${Math.round(busyBefore * 100)}% busy before). Offline replay: ${replayMode}.\n`,
    );
    out.push(
      table(
        ['step', 'n', 'statuses', '429', '5xx', 'p50 ms', 'p95 ms', 'p99 ms', 'X-RateLimit-Limit'],
        steps.map((s) => [
          s.step,
          s.n,
          Object.entries(s.statuses)
            .map(([k, v]) => `${k}x${v}`)
            .join(' '),
          s.too_many,
          s.server_errors,
          ms(s.latency_ms.p50),
          ms(s.latency_ms.p95),
          ms(s.latency_ms.p99),
          s.rate_limit_headers.join('/'),
        ]),
        { rightAlign: [1, 3, 4, 5, 6, 7] },
      ),
    );
    out.push(
      `\nAnswers: ${acknowledged} acknowledged, ${result.answers_refused} refused, ${lost} lost; stale reported ${result.stale_reported}, applied ${staleApplied}. Could not start: ${result.could_not_start}. Guest tokens replaced by a retried start (resumed for the new one): ${result.guests_restarted_for_a_replaced_token}. Cut short by the deadline: ${result.cut_short_by_the_deadline}.`,
    );
    if (EVENTS)
      out.push(
        `Integrity events: ${eventsAcked} acknowledged, ${result.integrity_events.refused} refused, ${eventsLost} not stored.`,
      );
    out.push(
      `Deadline: closer ${JSON.stringify(closed)} in ${closerMs} ms; last attempt closed ${result.deadline_to_last_closed_s} s after closes_at (grace ${GRACE_S} s); still in progress: ${notClosed}.`,
    );
    for (const a of analytics)
      out.push(
        `Analytics ${a.test}: completed ${a.completed}, in progress ${a.in_progress}, automatic ${a.auto_submitted}, average ${a.average_score}; differences from the recomputation: ${a.differences.length}; the repair changed the sums: ${a.repair_changed}.`,
      );
    out.push(
      `CPU per request: app ${result.cpu.app_cpu_ms_per_request} ms, bare Express ${bareRun.cpu_ms_per_request} ms (x${result.cpu.ratio}).`,
    );
    out.push(
      `Counter writes: ${counters.writes} (${counters.per_second}/s, ${counters.per_request} per request) beside ${counters.saves} saves (${counters.saves_per_second}/s), over the crowd's ${result.crowd_wall_s} s.`,
    );
    out.push(
      `\nWrites per document (${perDoc.length} documents, ${result.writes.total} writes), busiest of each kind:\n`,
    );
    out.push(
      table(
        ['kind', 'docs', 'writes', 'busiest: total', 'peak 1 s', 'peak 10 s /s', 'peak 60 s /s'],
        result.writes.by_kind.map((k) => [k.kind, k.documents, k.writes, k.total, k.peak_1s, k.peak_10s, k.peak_60s]),
        { rightAlign: [1, 2, 3, 4, 5, 6] },
      ),
    );
    for (const p of problems) out.push(`- ${p}`);
    for (const s of steps)
      for (const e of samples[s.step].filter((x) => x.status >= 500).slice(0, 2)) out.push(`- ${s.step} ${e.status}`);
    console.log(out.join('\n'));
    writeFileSync(join(benchDir, `${label}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(benchDir, `${label}-api.log`), api.output());
    console.log(`\nResults written to .bench/${label}.json`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
  } finally {
    for (const server of servers) {
      if (failures.some((f) => f.startsWith('aborted')))
        console.log(`--- ${server.baseUrl} output (tail):\n${server.output().slice(-3000)}`);
      await server.stop();
    }
    bare?.cleanup();
  }
  return CONTROL
    ? verdict('Hall control', { failures, passed: 'the hall behind one unregistered address is refused.' })
    : verdict('Hall', { failures, passed: 'no 429, no 5xx, no answer lost, no stale replay applied.' });
}

// Last, so every helper above is initialised before the run starts.
// scripts/bench.mjs starts the emulators this bench needs (npm run bench:hall).
process.exitCode = await runHall();
