// @ts-check
// The sittings half of the benchmark, through the Hosting emulator with X-Debug-Cost:
//
// 1. The hot path with and without a sitting's settings: start, save and submit on
//    a test with no delivery settings beside the same on a test with a window, a
//    cooldown of 0, a review date and an access code, for a student with no
//    override or accommodation, one with an override, one with an accommodation
//    and one with both. Save and submit must cost the same reads and round trips
//    (all and sequential) in every case: an attempt's deadline is folded into its
//    expires_at, so they read nothing more (docs/architecture.md).
// 2. POST /api/tests/{testId}/extend with 100 and with 1,000 attempts in progress:
//    wall time, reads, writes and round trips, and afterwards every attempt read
//    back (each has every extension, once, and its deadline moved by their sum).
//    The attempts are written with the Admin SDK, each with its slot, in the shape
//    a start writes them (attempts/documents.ts StoredAttempt, AttemptSlot), with
//    the service's own compiled questionOrder() and expiresAtMs().
//
// Part of `npm run bench` (bench/run.mjs); alone: `npm run bench:sittings`.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledFunctions } from '../scripts/functions-lib.mjs';
import { BASE_URL, PROJECT_ID } from './lib/env.mjs';
import { call } from './lib/http.mjs';
import { costCell, ms, section, table, verdict } from './lib/report.mjs';
import { adminDb, createUser, mapLimit, RUN_ID, seedClients } from './lib/seed.mjs';
import { summarize } from './lib/stats.mjs';
import { cpuBusy } from './lib/guard.mjs';

const CYCLES = 20; // start → save → submit, per variant, after WARMUP unrecorded ones
const WARMUP = 3;
const EXTEND_SIZES = [100, 1000];
const EXTEND_RUNS = 3; // presses per size, one after the other
const EXTEND_MINUTES = 5;
const EXTEND_TIMER = 120; // minutes: every seeded attempt stays in progress through the runs
const BATCH = 400; // writes per batch (Firestore allows 500)
const ACCESS_CODE = 'BENCH-ROOM-7';

const sameCost = (a, b, keys) => keys.every((k) => a.cost[k]?.median === b.cost[k]?.median);

/**
 * Everything measured here, in the organization `tenantId`, as its Client Admin
 * `as.admin` ({token, ip}). Unexpected statuses and unequal costs go to `failures`.
 */
export async function measureSittings({ tenantId, as, log, failures }) {
  const admin = as.admin;
  const send = async (method, path, body, expected) => {
    const res = await call({ method, path, body, ...admin, timeoutMs: 300_000 });
    if (![expected].flat().includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };

  // ---- The tests: one without delivery settings, one with a window, a review date, no code, one with the code too.
  const questionIds = [];
  for (let i = 0; i < 5; i++) {
    const q = await send(
      'POST',
      '/api/questions',
      {
        question_text: `Sittings ${RUN_ID} Q${i + 1}: 2 + ${i}?`,
        question_type: 'numeric',
        correct_answer: String(2 + i),
        marks: 1,
        difficulty: 'easy',
      },
      201,
    );
    questionIds.push(q.json.id);
  }
  const now = Date.now();
  const window = {
    opens_at: new Date(now - 3600_000).toISOString(),
    closes_at: new Date(now + 86_400_000).toISOString(),
    review_opens_at: new Date(now + 86_400_000).toISOString(),
    attempt_cooldown_minutes: 0,
  };
  const publish = async (label, extra) => {
    const draft = await send(
      'POST',
      '/api/tests',
      {
        test_name: `Sittings ${RUN_ID} ${label}`,
        timer: 60,
        shuffle: 1,
        allow_review: 1,
        negative_marking: 0,
        status: 'draft',
        question_ids: questionIds,
        ...extra,
      },
      201,
    );
    return (await send('POST', `/api/tests/${draft.json.id}/publish`, undefined, 200)).json;
  };
  const plain = await publish('plain', {});
  const windowed = await publish('window', window);
  const coded = await publish('window and code', { ...window, access_code: ACCESS_CODE });

  // ---- The students: none, an override, an accommodation, both (set through the API).
  const [student, overridden, accommodated, both] = await Promise.all(
    ['plain', 'override', 'accommodation', 'both'].map((label, i) =>
      createUser('student', tenantId, `sit-${label}`).then((u) => ({
        ...u,
        ip: `2001:db8:9:${(i + 1).toString(16)}::1`,
      })),
    ),
  );
  for (const s of [overridden, both])
    await send('PUT', `/api/tests/${coded.id}/overrides/${s.uid}`, { timer: 90, max_attempts: null }, 200);
  for (const s of [accommodated, both])
    await send('PUT', `/api/users/${s.uid}/accommodations`, { extra_time_percent: 50, extra_minutes: 0 }, 200);

  const variants = [
    { name: 'no delivery settings', test: plain, who: student, body: {} },
    { name: 'window, cooldown, review date', test: windowed, who: student, body: {} },
    { name: '+ access code', test: coded, who: student, body: { access_code: ACCESS_CODE } },
    { name: '+ access code, override', test: coded, who: overridden, body: { access_code: ACCESS_CODE } },
    { name: '+ access code, accommodation', test: coded, who: accommodated, body: { access_code: ACCESS_CODE } },
    { name: '+ access code, override and accommodation', test: coded, who: both, body: { access_code: ACCESS_CODE } },
  ];
  const hotPath = [];
  for (const variant of variants) {
    log(`sittings: start, save, submit x ${CYCLES} (${variant.name})`);
    const samples = { start: [], save: [], submit: [] };
    const minutes = new Set();
    for (let i = 0; i < WARMUP + CYCLES; i++) {
      const who = { token: variant.who.token, ip: variant.who.ip };
      const start = await call({
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: variant.test.id, ...variant.body },
        ...who,
      });
      if (start.status !== 201) {
        failures.push(`sittings ${variant.name}: start ${start.status} ${start.text.slice(0, 200)}`);
        break;
      }
      const { attempt_id: attemptId, test_details: details, started_at: startedAt, expires_at: expiresAt } = start.json;
      minutes.add((Date.parse(expiresAt) - Date.parse(startedAt)) / 60_000);
      const save = await call({
        method: 'POST',
        path: `/api/attempts/${attemptId}/answers`,
        body: { question_id: details.questions[0].id, student_answer: '2' },
        ...who,
      });
      const submit = await call({ method: 'POST', path: `/api/attempts/${attemptId}/submit`, ...who });
      if (i < WARMUP) continue;
      samples.start.push(start);
      samples.save.push(save);
      samples.submit.push(submit);
    }
    hotPath.push({
      variant: variant.name,
      minutes: [...minutes],
      start: summarize(samples.start, 201),
      save: summarize(samples.save, 200),
      submit: summarize(samples.submit, 200),
    });
  }
  // A wrong code always pays the whole scrypt (only successes are remembered); each from its own
  // address, since refused codes count toward the per-address lockout.
  const wrong = [];
  for (let i = 0; i < 10; i++) {
    wrong.push(
      await call({
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: coded.id, access_code: `WRONG-${i}` },
        token: student.token,
        ip: `2001:db8:9:1${i.toString(16).padStart(3, '0')}::1`,
      }),
    );
  }
  const wrongCode = summarize(wrong, 403);
  for (const row of hotPath) {
    for (const step of ['start', 'save', 'submit']) {
      if (row[step].unexpected)
        failures.push(
          `sittings ${row.variant}: ${step} got ${JSON.stringify(row[step].statuses)}: ${JSON.stringify(row[step].unexpected_examples)}`,
        );
    }
  }
  if (wrongCode.unexpected) failures.push(`sittings: a wrong access code got ${JSON.stringify(wrongCode.statuses)}`);
  // Save and submit: the same reads and round trips, all and sequential, with the settings as without them.
  const base = hotPath[0];
  const equal = hotPath.map((row) => ({
    variant: row.variant,
    save: sameCost(row.save, base.save, ['reads', 'round_trips', 'sequential_round_trips']),
    submit: sameCost(row.submit, base.submit, ['reads', 'round_trips', 'sequential_round_trips']),
    start: sameCost(row.start, base.start, ['reads', 'round_trips', 'sequential_round_trips']),
  }));
  for (const e of equal) {
    if (!e.save || !e.submit)
      failures.push(
        `sittings ${e.variant}: save or submit costs differ from the test without settings: ${JSON.stringify(
          hotPath.find((r) => r.variant === e.variant),
          (k, v) => (k === 'latency_ms' || k === 'unexpected_examples' ? undefined : v),
        )}`,
      );
  }
  const expectMinutes = {
    'no delivery settings': 60,
    'window, cooldown, review date': 60,
    '+ access code': 60,
    '+ access code, override': 90,
    '+ access code, accommodation': 90,
    '+ access code, override and accommodation': 135,
  };
  for (const row of hotPath) {
    if (row.minutes.length !== 1 || row.minutes[0] !== expectMinutes[row.variant])
      failures.push(
        `sittings ${row.variant}: expires_at - started_at was ${row.minutes.join(', ')} minutes, expected ${expectMinutes[row.variant]}`,
      );
  }

  // ---- POST /api/tests/{testId}/extend with 100 and with 1,000 attempts in progress.
  const { questionOrder } = compiledFunctions('attempts/rules.js');
  const { expiresAtMs } = compiledFunctions('sittingRules/deadline.js');
  const extend = [];
  for (const size of EXTEND_SIZES) {
    const test = await publish(`extend ${size}`, { timer: EXTEND_TIMER });
    const version = (
      await adminDb
        .collection('clients')
        .doc(tenantId)
        .collection('tests')
        .doc(test.id)
        .collection('versions')
        .doc('1')
        .get()
    ).data();
    log(`sittings: writing ${size} attempts in progress (and their slots) on test ${test.id}`);
    const startedMs = Date.now() - 5 * 60_000;
    const attempts = Array.from({ length: size }, (_, i) => {
      const id = `${tenantId}.${randomBytes(16).toString('base64url')}`; // attempts/attemptLookup.ts newAttemptId
      const studentId = `bench-sitting-${RUN_ID}-${size}-${i}`;
      const startedAt = new Date(startedMs + i).toISOString();
      const expiresAt = new Date(
        expiresAtMs({
          startedAtMs: startedMs + i,
          versionTimer: EXTEND_TIMER,
          testClosesAt: null,
          override: undefined,
          accommodation: undefined,
          extensionMinutes: 0,
        }),
      ).toISOString();
      return {
        id,
        client_id: tenantId,
        test_id: test.id,
        test_name: version.test.test_name,
        version: version.version,
        student_id: studentId,
        guest: false,
        guest_name: null,
        share_code: null,
        started_by: studentId,
        status: 'in_progress',
        started_at: startedAt,
        expires_at: expiresAt,
        submitted_at: null,
        auto_submitted: false,
        answers: {},
        question_order: questionOrder(id, version),
        token_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
        submitted_by: null,
        score: null,
        total_marks: version.total_marks,
        results: null,
      };
    });
    const client = adminDb.collection('clients').doc(tenantId);
    const writes = attempts.flatMap((a) => [
      [client.collection('attempts').doc(a.id), a],
      [
        client.collection('tests').doc(test.id).collection('attempt_slots').doc(a.student_id),
        {
          test_id: test.id,
          student_id: a.student_id,
          client_id: tenantId,
          count: 1,
          in_progress: { attempt_id: a.id, version: a.version, started_at: a.started_at, expires_at: a.expires_at },
          last_submitted_at: null,
        },
      ],
    ]);
    const chunks = [];
    for (let i = 0; i < writes.length; i += BATCH) chunks.push(writes.slice(i, i + BATCH));
    await mapLimit(chunks, 4, async (chunk) => {
      const batch = adminDb.batch();
      for (const [ref, data] of chunk) batch.set(ref, data);
      await batch.commit();
    });

    const runs = [];
    for (let r = 0; r < EXTEND_RUNS; r++) {
      log(`sittings: POST /api/tests/{id}/extend with ${size} attempts in progress (press ${r + 1} of ${EXTEND_RUNS})`);
      const res = await call({
        method: 'POST',
        path: `/api/tests/${test.id}/extend`,
        body: { minutes: EXTEND_MINUTES },
        ...admin,
        timeoutMs: 300_000,
      });
      runs.push({
        status: res.status,
        ms: Math.round(res.ms),
        extended: res.json?.extended ?? null,
        cost: res.cost,
        error: res.status === 200 ? undefined : (res.error ?? res.text).slice(0, 300),
      });
      if (res.status !== 200 || res.json?.extended !== size)
        failures.push(
          `sittings: extend with ${size} attempts answered ${res.status} ${JSON.stringify(res.json ?? res.text.slice(0, 200))}, expected 200 {"extended":${size}}`,
        );
    }
    // Every attempt: every press once, its deadline moved by their sum, its slot's copy too.
    const presses = runs.filter((run) => run.status === 200).length;
    const refs = attempts.map((a) => client.collection('attempts').doc(a.id));
    const slotRefs = attempts.map((a) =>
      client.collection('tests').doc(test.id).collection('attempt_slots').doc(a.student_id),
    );
    let wrongAttempts = 0;
    for (let i = 0; i < refs.length; i += 300) {
      const [snaps, slots] = await Promise.all([
        adminDb.getAll(...refs.slice(i, i + 300)),
        adminDb.getAll(...slotRefs.slice(i, i + 300)),
      ]);
      snaps.forEach((snap, k) => {
        const stored = snap.data();
        const want = new Date(Date.parse(attempts[i + k].expires_at) + presses * EXTEND_MINUTES * 60_000).toISOString();
        const extensions = Object.values(stored.extensions ?? {});
        const ok =
          stored.status === 'in_progress' &&
          stored.expires_at === want &&
          extensions.length === presses &&
          extensions.every((m) => m === EXTEND_MINUTES) &&
          slots[k].get('in_progress.expires_at') === want;
        if (!ok) wrongAttempts++;
      });
    }
    if (wrongAttempts)
      failures.push(
        `sittings: after ${presses} extensions with ${size} attempts, ${wrongAttempts} attempts do not have each exactly once`,
      );
    extend.push({ attempts: size, runs, attempts_checked: size, attempts_wrong: wrongAttempts });
  }
  return { hot_path: hotPath, equal, wrong_code: wrongCode, extend };
}

/** The report section. */
export function sittingsReport({ hot_path: hotPath, equal, wrong_code: wrongCode, extend }) {
  const out = [];
  out.push(
    section(
      `Sittings: start, save and submit with and without a sitting's settings (${CYCLES} sequential cycles each)`,
    ),
  );
  const rows = [];
  for (const row of hotPath) {
    for (const step of ['start', 'save', 'submit']) {
      const s = row[step];
      rows.push([
        step === 'start' ? row.variant : '',
        step,
        ms(s.latency_ms.p50),
        ms(s.latency_ms.p95),
        costCell(s.cost.reads),
        costCell(s.cost.writes),
        costCell(s.cost.round_trips),
        costCell(s.cost.sequential_round_trips),
        step === 'start' ? row.minutes.join(', ') : '',
      ]);
    }
  }
  out.push(
    table(
      ['test / student', 'step', 'p50 ms', 'p95 ms', 'reads', 'writes', 'round trips', 'sequential', 'minutes given'],
      rows,
      { rightAlign: [2, 3, 4, 5, 6, 7, 8] },
    ),
  );
  for (const e of equal) {
    out.push(
      `${e.save && e.submit ? 'OK  ' : 'FAIL'} ${e.variant}: save ${e.save ? 'the same' : 'NOT the same'}, submit ${e.submit ? 'the same' : 'NOT the same'} reads and round trips as without settings; start ${e.start ? 'the same' : 'different'}.`,
    );
  }
  out.push(
    `A wrong access code (403, each from its own address): p50 ${ms(wrongCode.latency_ms.p50)} ms, p95 ${ms(wrongCode.latency_ms.p95)} ms, reads ${costCell(wrongCode.cost.reads)}, round trips ${costCell(wrongCode.cost.round_trips)} (sequential ${costCell(wrongCode.cost.sequential_round_trips)}).`,
  );
  out.push(
    'A start reads the override and the accommodation of every student in its one getAll, whether the test has settings or not; the',
  );
  out.push(
    'access code costs no read (its hash is on the test) but scrypt, paid once per instance for a right code and every time for a wrong one.',
  );

  out.push(
    section(
      `Sittings: POST /api/tests/{testId}/extend (${EXTEND_MINUTES} minutes), ${EXTEND_RUNS} presses at each size`,
    ),
  );
  out.push(
    table(
      [
        'attempts in progress',
        'press',
        'status',
        'extended',
        'wall ms',
        'reads',
        'writes',
        'round trips',
        'sequential',
      ],
      extend.flatMap((e) =>
        e.runs.map((r, i) => [
          e.attempts,
          i + 1,
          r.status,
          r.extended,
          r.ms,
          r.cost?.reads ?? '-',
          r.cost?.writes ?? '-',
          r.cost?.round_trips ?? '-',
          r.cost?.sequential_round_trips ?? '-',
        ]),
      ),
      { rightAlign: [0, 1, 3, 4, 5, 6, 7, 8] },
    ),
  );
  for (const e of extend)
    out.push(
      `${e.attempts_wrong === 0 ? 'OK  ' : 'FAIL'} ${e.attempts} attempts read back: ${e.attempts_checked - e.attempts_wrong} have every extension exactly once, with expires_at (and the slot's copy) moved by their sum.`,
    );
  return out.join('\n');
}

// ---- Alone: `npm run bench:sittings` (scripts/bench.mjs runs this file under the emulators).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const log = (message) => console.log(`[sittings +${((Date.now() - started) / 1000).toFixed(0)}s] ${message}`);
  const failures = [];
  let code = 0;
  try {
    const busy = await cpuBusy(2000);
    log(
      `target ${BASE_URL} (project ${PROJECT_ID}), run ${RUN_ID}; CPU busy before the start ${Math.round(busy * 100)}% of ${cpus().length} CPU(s)`,
    );
    for (let i = 0; ; i++) {
      const res = await call({ path: '/api/health', ip: '2001:db8:9:ffff::1' });
      if (res.status === 200) break;
      if (i > 90) throw new Error(`${BASE_URL}/api/health never answered 200`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const [tenant] = await seedClients(1, 'sittings');
    const admin = await createUser('client_admin', tenant.id, 'sit-admin');
    const as = { admin: { token: admin.token, ip: '2001:db8:9:fffe::1' } };
    for (let i = 0; i < 3; i++) await call({ path: '/api/me', ...as.admin }); // its login record, written once
    const result = await measureSittings({ tenantId: tenant.id, as, log, failures });
    console.log(sittingsReport(result));
    const file = join(dirname(fileURLToPath(import.meta.url)), '..', '.bench', 'sittings.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify(
        {
          generated_at: new Date().toISOString(),
          base_url: BASE_URL,
          run_id: RUN_ID,
          cpus: cpus().length,
          cpu_busy_before_start: busy,
          ...result,
          failures,
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`\nResults written to ${file} (runtime ${Math.round((Date.now() - started) / 1000)} s).`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
  }
  if (verdict('Sittings bench', { failures, passed: 'no check failed.' })) code = 1;
  process.exit(code);
}
