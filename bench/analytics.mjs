// @ts-check
// The analytics half of the benchmark: one published
// test with 100 submitted attempts and another with 10,000, and the cost of
// GET /api/analytics/tests/{testId} at both sizes, which must be the same: the
// request reads the version's stats shards, never an attempt.
//
// The attempts are written straight through the Admin SDK, in batches, in the
// shape the service stores (attempts/documents.ts StoredAttempt): each is built as
// the start builds it and submitted with the service's own compiled
// `submission()` (attempts/rules.js), so score, percentage and the per-question
// results are exactly what a submit would have written. Writing them that way
// bypasses the submit transaction, so the version's sums are then built by the
// repair endpoint (POST …/recompute), which is measured too. A few real
// submits through the API afterwards must move the figures; a second repair
// must then find nothing to change.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { compiledFunctions } from '../scripts/functions-lib.mjs';
import { call } from './lib/http.mjs';
import { adminDb, createUser, mapLimit, RUN_ID } from './lib/seed.mjs';
import { costCell, ms, section, table } from './lib/report.mjs';

export const ANALYTICS_SIZES = [
  { label: 'small', attempts: 100 },
  { label: 'large', attempts: 10_000 },
];
const REAL_SUBMITS = 3; // per test, through the API, after the measurement
const STUDENT_SIZES = [25, 500]; // submitted attempts of one student (both above one page of 20 rows), for GET /api/analytics/students/{id}
const SAMPLES = 30;
const BATCH = 400; // attempt documents per batch (Firestore allows 500 writes)
const SLOW_MS = 300_000; // the repair and the export read every attempt: give them time
const STATS_SHARDS = 32; // analytics/store.ts (not imported: that module opens the service's own Firestore client)

// Ten questions of every type. `right` is the key as a taker would type it; `wrong` are answers takers give instead.
const BANK = [
  {
    body: {
      question_type: 'multiple_choice',
      options: ['Paris', 'Berlin', 'Rome', 'Madrid'],
      correct_answer: 'Paris',
      marks: 2,
      difficulty: 'easy',
    },
    b: -1.5,
    wrong: ['Berlin', 'Rome', 'Madrid'],
  },
  {
    body: {
      question_type: 'multiple_choice',
      options: ['3', '4', '5'],
      correct_answer: '4',
      marks: 1,
      difficulty: 'easy',
    },
    b: -2,
    wrong: ['3', '5'],
  },
  {
    body: {
      question_type: 'multiple_choice',
      options: ['Oxygen', 'Gold', 'Iron'],
      correct_answer: 'Gold',
      marks: 1.5,
      difficulty: 'medium',
    },
    b: 0,
    wrong: ['Oxygen', 'Iron'],
  },
  {
    body: {
      question_type: 'multiple_select',
      options: ['2', '3', '4', '5'],
      correct_answer: '2|3|5',
      marks: 3,
      difficulty: 'hard',
    },
    b: 1,
    wrong: ['2|3', '2|3|4|5', '3|5'],
  },
  {
    body: {
      question_type: 'multiple_select',
      options: ['red', 'green', 'blue', 'black'],
      correct_answer: 'red|blue',
      marks: 2,
      difficulty: 'medium',
    },
    b: 0.3,
    wrong: ['red', 'red|green|blue'],
  },
  {
    body: {
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: 'True',
      marks: 1,
      difficulty: 'easy',
    },
    b: -2.5,
    wrong: ['False'],
  },
  {
    body: {
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: 'False',
      marks: 1,
      difficulty: 'medium',
    },
    b: -0.5,
    wrong: ['True'],
  },
  {
    body: { question_type: 'short_answer', correct_answer: 'Au', marks: 2, difficulty: 'hard' },
    b: 1.2,
    wrong: ['Ag', 'Gd'],
  },
  {
    body: { question_type: 'numeric', correct_answer: '42', marks: 2, difficulty: 'medium' },
    b: 0.2,
    wrong: ['24', '40'],
  },
  {
    body: { question_type: 'numeric', correct_answer: '3.14', tolerance: 0.01, marks: 2, difficulty: 'hard' },
    b: 1.5,
    wrong: ['3.2', '3'],
  },
];

/** A small deterministic generator (mulberry32): the same attempts on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A taker's answers: a one-parameter logistic model (ability θ against each question's b), so
 * stronger takers are right more often and the item statistics have something to measure.
 * A wrong taker sometimes leaves the question blank.
 */
function answersOf(rand, frozenQuestions, bankByKey) {
  const theta = (rand() + rand() + rand() - 1.5) * 2.5;
  const answers = {};
  for (const question of frozenQuestions) {
    const item = bankByKey.get(question.question_text);
    const pRight = 1 / (1 + Math.exp(-(theta - item.b)));
    const roll = rand();
    if (roll < pRight) answers[question.id] = item.body.correct_answer;
    else if (rand() < 0.8) answers[question.id] = item.wrong[Math.floor(rand() * item.wrong.length)];
  }
  return answers;
}

/**
 * `count` submitted attempts on the frozen `version`, each as the start makes it and then
 * submitted with the service's own submission() (score, percentage, results per question).
 */
function buildAttempts(tenantId, version, count, seed, bankByKey) {
  const { questionOrder, submission } = compiledFunctions('attempts/rules.js');
  // The deadline as a start computes it (no window, override, accommodation or extension here).
  const { expiresAtMs } = compiledFunctions('sittingRules/deadline.js');
  const expiresAt = (startedAtMs, timer) =>
    new Date(
      expiresAtMs({
        startedAtMs,
        versionTimer: timer,
        testClosesAt: null,
        override: undefined,
        accommodation: undefined,
        extensionMinutes: 0,
      }),
    ).toISOString();
  const rand = random(seed);
  const timer = version.test.timer ?? 30;
  const base = Date.now() - (count + 10) * 60_000; // started a minute apart, all in the past
  const docs = [];
  for (let i = 0; i < count; i++) {
    const id = `${tenantId}.${randomBytes(16).toString('base64url')}`; // attempts/attemptLookup.ts newAttemptId
    const studentId = `bench-taker-${RUN_ID}-${seed}-${i}`;
    const startedMs = base + i * 60_000;
    const given = answersOf(rand, version.questions, bankByKey);
    const automatic = rand() < 0.05; // time ran out: closed by the service at expires_at
    const submittedMs = startedMs + Math.floor(rand() * timer * 60_000);
    const savedAt = new Date(startedMs + 30_000).toISOString();
    const attempt = {
      id,
      client_id: tenantId,
      test_id: version.test_id,
      test_name: version.test.test_name,
      version: version.version,
      student_id: studentId,
      guest: false,
      guest_name: null,
      share_code: null,
      started_by: studentId,
      status: 'in_progress',
      started_at: new Date(startedMs).toISOString(),
      expires_at: expiresAt(startedMs, timer),
      submitted_at: null,
      auto_submitted: false,
      answers: Object.fromEntries(
        Object.entries(given).map(([questionId, answer]) => [questionId, { answer, saved_at: savedAt }]),
      ),
      question_order: questionOrder(id, version),
      token_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
      score: null,
      total_marks: version.total_marks,
      results: null,
    };
    docs.push({ ...attempt, ...submission(attempt, version, { nowMs: submittedMs, automatic }) });
  }
  return docs;
}

async function writeAttempts(tenantId, docs) {
  const attempts = adminDb.collection('clients').doc(tenantId).collection('attempts');
  const chunks = [];
  for (let i = 0; i < docs.length; i += BATCH) chunks.push(docs.slice(i, i + BATCH));
  await mapLimit(chunks, 4, async (chunk) => {
    const batch = adminDb.batch();
    for (const doc of chunk) batch.set(attempts.doc(doc.id), doc);
    await batch.commit();
  });
}

/** What the seeded attempts must show, computed here from the documents (not from the service's sums). */
function expectedFigures(docs) {
  const scores = docs.map((d) => d.score);
  return {
    completed: docs.length,
    auto_submitted: docs.filter((d) => d.auto_submitted).length,
    average_score: scores.reduce((s, x) => s + x, 0) / scores.length,
    highest_score: Math.max(...scores),
    lowest_score: Math.min(...scores),
  };
}

/** The median of `n` timings of `fn`, in ms. */
async function medianMs(n, fn) {
  const values = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    values.push(performance.now() - t);
  }
  values.sort((x, y) => x - y);
  return Number(values[Math.floor((n - 1) / 2)].toFixed(1));
}

const close = (a, b) => typeof a === 'number' && Math.abs(a - b) <= 1e-3 * Math.max(1, Math.abs(b));

/** One student, through the API: start, every question right, submit. Returns the submit's score. */
async function realSubmit(tenantId, testId, label, i) {
  const student = await createUser('student', tenantId, `analytics-${label}-${i}`);
  const who = { token: student.token, ip: `2001:db8:8:${i.toString(16)}::1` };
  const start = await call({ method: 'POST', path: '/api/attempts', body: { test_id: testId }, ...who });
  if (start.status !== 201)
    throw new Error(`real submit ${label} ${i}: start ${start.status} ${start.text.slice(0, 300)}`);
  const { attempt_id: attemptId, test_details: details } = start.json;
  for (const question of details.questions) {
    const answer = question.question_text.split(' key ')[1]; // the text carries the key (measureAnalytics)
    const res = await call({
      method: 'POST',
      path: `/api/attempts/${attemptId}/answers`,
      body: { question_id: question.id, student_answer: answer },
      ...who,
    });
    if (res.status !== 200)
      throw new Error(`real submit ${label} ${i}: answer ${res.status} ${res.text.slice(0, 300)}`);
  }
  const submit = await call({ method: 'POST', path: `/api/attempts/${attemptId}/submit`, ...who });
  if (submit.status !== 200)
    throw new Error(`real submit ${label} ${i}: submit ${submit.status} ${submit.text.slice(0, 300)}`);
  return submit.json.score;
}

/**
 * Seeds the two tests, builds their sums with the repair, measures the analytics
 * request at both sizes (and the results export, when it is there), then checks
 * that real submits move the figures. `measure` is run.mjs's sequential measurer.
 */
export async function measureAnalytics({ tenantId, as, measure, log, failures, warnings }) {
  const post = async (path, body) => {
    const res = await call({ method: 'POST', path, body, ...as.admin });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.json;
  };
  // The question's text carries its key, so a real taker below can answer from what the attempt shows.
  const questionIds = [];
  for (const [i, q] of BANK.entries()) {
    questionIds.push(
      (
        await post('/api/questions', {
          ...q.body,
          question_text: `Analytics ${RUN_ID} Q${i + 1} key ${q.body.correct_answer}`,
        })
      ).id,
    );
  }
  const bankByKey = new Map(BANK.map((q, i) => [`Analytics ${RUN_ID} Q${i + 1} key ${q.body.correct_answer}`, q]));

  /** @type {any[]} the sizes, each gathering its figures as the bench goes */
  const sizes = [];
  for (const [k, size] of ANALYTICS_SIZES.entries()) {
    const draft = await post('/api/tests', {
      test_name: `Analytics ${RUN_ID} ${size.label}`,
      timer: 30,
      shuffle: 1,
      allow_review: 0,
      negative_marking: 1,
      negative_mark_ratio: 0.25,
      status: 'draft',
      question_ids: questionIds,
    });
    await post(`/api/tests/${draft.id}/publish`, undefined);
    const version = (
      await adminDb
        .collection('clients')
        .doc(tenantId)
        .collection('tests')
        .doc(draft.id)
        .collection('versions')
        .doc('1')
        .get()
    ).data();
    log(`analytics: writing ${size.attempts} submitted attempts on test ${draft.id} (Admin SDK, batches of ${BATCH})`);
    const t = performance.now();
    const docs = buildAttempts(tenantId, version, size.attempts, k + 1, bankByKey);
    await writeAttempts(tenantId, docs);
    sizes.push({
      ...size,
      testId: draft.id,
      expected: expectedFigures(docs),
      seed_ms: Math.round(performance.now() - t),
    });
  }

  // ---- The repair builds the sums from the attempts: it reads every one (its cost grows, by design).
  for (const size of sizes) {
    log(`analytics: POST /api/analytics/tests/{id}/recompute on ${size.attempts} attempts`);
    const res = await call({
      method: 'POST',
      path: `/api/analytics/tests/${size.testId}/recompute`,
      timeoutMs: SLOW_MS,
      ...as.admin,
    });
    size.recompute = {
      status: res.status,
      ms: Math.round(res.ms),
      cost: res.cost,
      attempts_read: res.json?.attempts_read ?? null,
      changed: res.json?.changed ?? null,
    };
    if (res.status !== 200) {
      failures.push(
        `analytics recompute (${size.attempts} attempts): ${res.status} ${(res.error ?? res.text).slice(0, 300)}`,
      );
      continue;
    }
    const got = res.json.analytics;
    const want = size.expected;
    const mismatches = ['completed', 'auto_submitted'].filter((key) => got[key] !== want[key]);
    mismatches.push(...['average_score', 'highest_score', 'lowest_score'].filter((key) => !close(got[key], want[key])));
    if (got.total_attempts !== size.attempts) mismatches.push('total_attempts');
    if (res.json.attempts_read !== size.attempts) mismatches.push('attempts_read');
    if (mismatches.length)
      failures.push(
        `analytics recompute (${size.attempts} attempts): ${mismatches.join(', ')} differ from the seeded attempts: got ${JSON.stringify(Object.fromEntries(mismatches.map((m) => [m, m === 'attempts_read' ? res.json.attempts_read : got[m]])))}, want ${JSON.stringify(want)}`,
      );
    log(
      `analytics: recompute of ${size.attempts} attempts: ${res.status} in ${size.recompute.ms} ms, attempts_read ${size.recompute.attempts_read}, cost ${JSON.stringify(res.cost)}`,
    );
  }

  // ---- The request itself, at both sizes: the same reads, round trips and (about) the same time.
  for (const size of sizes) {
    const { summary, first } = await measure({
      name: `GET /api/analytics/tests/{id} (${size.attempts} attempts)`,
      expected: 200,
      n: SAMPLES,
      warmup: 3,
      request: () => ({ path: `/api/analytics/tests/${size.testId}`, ...as.admin }),
    });
    size.get = summary;
    size.figures = first?.json
      ? {
          completed: first.json.completed,
          average_score: first.json.average_score,
          standard_deviation: first.json.standard_deviation,
          cronbach_alpha: first.json.cronbach_alpha,
          discrimination: first.json.questions?.map((q) => q.discrimination_index),
        }
      : null;
    if (first?.json && first.json.completed !== size.attempts)
      failures.push(`analytics GET (${size.attempts} attempts): completed ${first.json.completed}`);
  }

  // ---- Where its time goes: the request's Firestore calls, timed directly from this process (Admin SDK).
  const { scoreExtremeSpec, openAttemptsSpec } = compiledFunctions('analytics/analyticsQuery.js');
  const { buildQuery } = compiledFunctions('firestore/pagedQuery.js');
  const attempts = adminDb.collection('clients').doc(tenantId).collection('attempts');
  for (const size of sizes) {
    const at = { testId: size.testId, version: 1 };
    const version = adminDb
      .collection('clients')
      .doc(tenantId)
      .collection('tests')
      .doc(size.testId)
      .collection('versions')
      .doc('1');
    const shards = Array.from({ length: STATS_SHARDS }, (_, k) => version.collection('stats_shards').doc(String(k)));
    const extreme = (direction) => buildQuery(attempts, scoreExtremeSpec(at, direction)).limit(1).select('score').get();
    size.direct = {
      shards: await medianMs(10, () => adminDb.getAll(...shards)),
      version: await medianMs(10, () => version.get()),
      highest: await medianMs(10, () => extreme('desc')),
      lowest: await medianMs(10, () => extreme('asc')),
      // The attempts in progress, counted when read (total_attempts = completed + these).
      in_progress: await medianMs(10, () => buildQuery(attempts, openAttemptsSpec(at)).count().get()),
    };
  }
  // Both tests' attempts share the organization's attempts collection.
  const attemptsInCollection = (
    await adminDb.collection('clients').doc(tenantId).collection('attempts').count().get()
  ).data().count;

  // ---- The results export, one row per attempt (its cost grows, by design).
  for (const size of sizes) {
    const path = `/api/analytics/tests/${size.testId}/results.csv`;
    const { summary, first } = await measure({
      name: `GET ${'/api/analytics/tests/{id}/results.csv'} (${size.attempts} attempts)`,
      expected: 200,
      n: size.attempts > 1000 ? 3 : 10,
      warmup: 1,
      request: () => ({ path, timeoutMs: SLOW_MS, ...as.admin }),
    });
    const rows = first?.text ? first.text.split(/\r?\n/).filter((line) => line.length > 0).length - 1 : null;
    size.csv = { summary, rows, bytes: first?.text ? Buffer.byteLength(first.text) : null };
    if (rows !== null && rows !== size.attempts)
      failures.push(`results.csv (${size.attempts} attempts): ${rows} data rows`);
  }

  // ---- Real submits through the API move the figures (the submit's own increments, no repair).
  for (const size of sizes) {
    const before = size.figures;
    if (!before) continue; // its GET failed (a failure already)
    let scores;
    try {
      scores = await mapLimit(Array.from({ length: REAL_SUBMITS }), REAL_SUBMITS, (_, i) =>
        realSubmit(tenantId, size.testId, size.label, i),
      );
    } catch (err) {
      failures.push(`analytics: real submits on the ${size.attempts}-attempt test: ${err.message}`);
      continue;
    }
    const after = (await call({ path: `/api/analytics/tests/${size.testId}`, ...as.admin })).json;
    const wantAverage =
      (before.average_score * before.completed + scores.reduce((s, x) => s + x, 0)) / (before.completed + REAL_SUBMITS);
    const moved =
      after?.completed === before.completed + REAL_SUBMITS &&
      after?.total_attempts === size.attempts + REAL_SUBMITS &&
      close(after?.average_score, wantAverage);
    size.real_submits = {
      submits: REAL_SUBMITS,
      scores,
      completed_before: before.completed,
      completed_after: after?.completed ?? null,
      average_before: before.average_score,
      average_after: after?.average_score ?? null,
      average_expected: Number(wantAverage.toFixed(4)),
      moved,
    };
    if (!moved)
      failures.push(
        `analytics: ${REAL_SUBMITS} real submits on the ${size.attempts}-attempt test did not move the figures as expected: ${JSON.stringify(size.real_submits)}`,
      );
  }
  // The maintained sums (repair + live increments) must equal a fresh recomputation: nothing to change.
  const small = sizes[0];
  const again = await call({
    method: 'POST',
    path: `/api/analytics/tests/${small.testId}/recompute`,
    timeoutMs: SLOW_MS,
    ...as.admin,
  });
  small.second_recompute = {
    status: again.status,
    ms: Math.round(again.ms),
    changed: again.json?.changed ?? null,
    attempts_read: again.json?.attempts_read ?? null,
  };
  if (again.status !== 200 || again.json.changed !== false)
    failures.push(
      `analytics: a second recompute after ${REAL_SUBMITS} real submits found drift (or failed): ${JSON.stringify(small.second_recompute)}`,
    );

  // ---- A student's analytics with few and with many submitted attempts: index aggregations and one page
  // of rows, so the same reads. (Written last, straight into the large test: nothing reads its sums after this.)
  const largeVersion = (
    await adminDb
      .collection('clients')
      .doc(tenantId)
      .collection('tests')
      .doc(sizes[1].testId)
      .collection('versions')
      .doc('1')
      .get()
  ).data();
  const students = [];
  for (const [k, count] of STUDENT_SIZES.entries()) {
    const studentId = `bench-student-${RUN_ID}-${count}`;
    const docs = buildAttempts(tenantId, largeVersion, count, 100 + k, bankByKey).map((d) => ({
      ...d,
      student_id: studentId,
      started_by: studentId,
    }));
    await writeAttempts(tenantId, docs);
    const { summary, first } = await measure({
      name: `GET /api/analytics/students/{id} (${count} attempts)`,
      expected: 200,
      n: SAMPLES,
      warmup: 3,
      request: () => ({ path: `/api/analytics/students/${studentId}`, ...as.admin }),
    });
    students.push({ attempts: count, get: summary });
    if (first?.json && first.json.completed !== count)
      failures.push(`student analytics (${count} attempts): completed ${first.json.completed}`);
  }
  const sameStudentCost = ['reads', 'writes', 'round_trips', 'sequential_round_trips'].every(
    (key) => students[0].get.cost[key]?.median === students[1].get.cost[key]?.median,
  );
  if (!sameStudentCost)
    failures.push(
      `cost of GET /api/analytics/students/{id} grows with the student's attempts: ${JSON.stringify(students.map((x) => x.get.cost))}`,
    );

  // ---- Cost must not grow with the attempts.
  const [a, b] = sizes;
  // Medians, as the list check in run.mjs: a request served by a fresh instance also reads the frozen version
  // (cached per instance afterwards), at both sizes alike; the ranges are in the table.
  const same = (key) => a.get.cost[key]?.median === b.get.cost[key]?.median;
  const check = {
    reads: [a.get.cost.reads?.median, b.get.cost.reads?.median],
    round_trips: [a.get.cost.round_trips?.median, b.get.cost.round_trips?.median],
    sequential_round_trips: [a.get.cost.sequential_round_trips?.median, b.get.cost.sequential_round_trips?.median],
    p50_ratio: a.get.latency_ms.p50 ? Number((b.get.latency_ms.p50 / a.get.latency_ms.p50).toFixed(2)) : null,
    constant: ['reads', 'writes', 'round_trips', 'sequential_round_trips'].every(same),
  };
  if (!check.constant)
    failures.push(`cost of GET /api/analytics/tests/{id} grows with the attempts: ${JSON.stringify(check)}`);
  if (check.p50_ratio !== null && check.p50_ratio > 1.5)
    warnings.push(
      `GET /api/analytics/tests/{id}: p50 with ${b.attempts} attempts is ${check.p50_ratio}x the p50 with ${a.attempts} (same reads: the emulator or the machine?)`,
    );
  return {
    sizes: sizes.map(({ expected, ...rest }) => rest),
    check,
    attempts_in_collection: attemptsInCollection,
    students,
    same_student_cost: sameStudentCost,
  };
}

/** The report section. */
export function analyticsReport({
  sizes,
  check,
  attempts_in_collection: inCollection,
  students,
  same_student_cost: sameStudentCost,
}) {
  const out = [];
  out.push(
    section(
      `Analytics: the same test with ${sizes.map((s) => s.attempts.toLocaleString('en-US')).join(' and with ')} submitted attempts`,
    ),
  );
  const [a, b] = sizes;
  const cost = (s, key) => costCell(s.get?.cost[key]);
  out.push(
    table(
      ['GET /api/analytics/tests/{id}', `${a.attempts} attempts`, `${b.attempts} attempts`],
      [
        ['requests (sequential)', a.get.n, b.get.n],
        ['p50 ms', ms(a.get.latency_ms.p50), ms(b.get.latency_ms.p50)],
        ['p95 ms', ms(a.get.latency_ms.p95), ms(b.get.latency_ms.p95)],
        ['p99 ms', ms(a.get.latency_ms.p99), ms(b.get.latency_ms.p99)],
        ['document reads', cost(a, 'reads'), cost(b, 'reads')],
        ['writes (the rate limiter)', cost(a, 'writes'), cost(b, 'writes')],
        ['round trips', cost(a, 'round_trips'), cost(b, 'round_trips')],
        ['sequential round trips', cost(a, 'sequential_round_trips'), cost(b, 'sequential_round_trips')],
        ['completed (as answered)', a.figures?.completed, b.figures?.completed],
        ['cronbach_alpha (as answered)', a.figures?.cronbach_alpha, b.figures?.cronbach_alpha],
      ],
      { rightAlign: [1, 2] },
    ),
  );
  out.push(
    `${check.constant ? 'OK  ' : 'FAIL'} GET /api/analytics/tests/{id}: reads ${check.reads.join(' vs ')}, round trips ${check.round_trips.join(' vs ')}, sequential ${check.sequential_round_trips.join(' vs ')}; ` +
      `p50 ratio ${check.p50_ratio} (${b.attempts} / ${a.attempts} attempts).`,
  );
  out.push(
    `Reads: the test, the ${STATS_SHARDS} stats shards (one getAll; every shard is counted, whether it exists or not), the highest and lowest score`,
  );
  out.push(
    '(two one-document index queries), the count of attempts in progress (a count() aggregation: 1 read per 1,000 open attempts)',
  );
  out.push("and the organization's status; a fresh instance also reads the frozen version once (cached afterwards).");
  out.push(
    `\nWhere the time goes: the request's Firestore calls timed directly from this process (Admin SDK, median of 10); both tests' attempts`,
  );
  out.push(`share the organization's attempts collection (${inCollection} documents):`);
  out.push(
    table(
      ['call', `${a.attempts} attempts`, `${b.attempts} attempts`],
      [
        [`getAll of the ${STATS_SHARDS} stats shards`, `${ms(a.direct.shards)} ms`, `${ms(b.direct.shards)} ms`],
        ['the frozen version', `${ms(a.direct.version)} ms`, `${ms(b.direct.version)} ms`],
        ['highest score (query, limit 1)', `${ms(a.direct.highest)} ms`, `${ms(b.direct.highest)} ms`],
        ['lowest score (query, limit 1)', `${ms(a.direct.lowest)} ms`, `${ms(b.direct.lowest)} ms`],
        ['attempts in progress (count())', `${ms(a.direct.in_progress)} ms`, `${ms(b.direct.in_progress)} ms`],
      ],
      { rightAlign: [1, 2] },
    ),
  );
  out.push(
    'The Firestore emulator has no indexes: it answers a query by scanning the collection, so the queries cost time in',
  );
  out.push(
    'proportion to the whole collection here (the same for both tests); production Firestore serves them from the composite',
  );
  out.push('index (firestore.indexes.json), at the cost of the one entry read.');
  out.push(
    '\nThe repair (POST …/recompute) reads every attempt of the version in one transaction, so its cost grows with them, by design:',
  );
  out.push(
    table(
      [
        'attempts',
        'seeded in (Admin SDK)',
        'recompute status',
        'recompute ms',
        'attempts_read',
        'reads',
        'writes',
        'round trips',
      ],
      sizes.map((s) => [
        s.attempts,
        `${s.seed_ms} ms`,
        s.recompute.status,
        s.recompute.ms,
        s.recompute.attempts_read,
        s.recompute.cost?.reads ?? '-',
        s.recompute.cost?.writes ?? '-',
        s.recompute.cost?.round_trips ?? '-',
      ]),
      { rightAlign: [0, 1, 3, 4, 5, 6, 7] },
    ),
  );
  out.push(
    '\nGET …/results.csv (one row per submitted attempt, streamed). X-Debug-Cost goes out with the headers, before the rows are',
  );
  out.push(
    "streamed, so its reads and round trips are those made before the first row was written, not the whole export's:",
  );
  out.push(
    table(
      ['attempts', 'n', 'p50 ms', 'max ms', 'rows', 'bytes', 'reads before streaming', 'round trips before streaming'],
      sizes.map((s) => [
        s.attempts,
        s.csv.summary.n,
        ms(s.csv.summary.latency_ms.p50),
        ms(s.csv.summary.latency_ms.max),
        s.csv.rows,
        s.csv.bytes,
        costCell(s.csv.summary.cost.reads),
        costCell(s.csv.summary.cost.round_trips),
      ]),
      { rightAlign: [0, 1, 2, 3, 4, 5, 6] },
    ),
  );
  out.push(
    `\nReal submits through the API afterwards (${sizes[0].real_submits?.submits} per test, every answer right):`,
  );
  for (const s of sizes) {
    const r = s.real_submits;
    if (!r) continue;
    out.push(
      `${r.moved ? 'OK  ' : 'FAIL'} ${s.attempts} attempts: completed ${r.completed_before} -> ${r.completed_after}, average_score ${r.average_before} -> ${r.average_after} (expected ${r.average_expected}).`,
    );
  }
  const second = sizes[0].second_recompute;
  if (second)
    out.push(
      `${second.changed === false ? 'OK  ' : 'FAIL'} A second recompute of the ${sizes[0].attempts}-attempt test after them: changed ${second.changed} (the maintained sums equal the recomputed ones), ${second.ms} ms.`,
    );
  const [few, many] = students;
  const studentCost = (x, key) => costCell(x.get.cost[key]);
  out.push(
    `\nGET /api/analytics/students/{id}: one student with ${few.attempts} and with ${many.attempts} submitted attempts (figures by count/average aggregations, one page of rows):`,
  );
  out.push(
    table(
      ['GET /api/analytics/students/{id}', `${few.attempts} attempts`, `${many.attempts} attempts`],
      [
        ['p50 ms', ms(few.get.latency_ms.p50), ms(many.get.latency_ms.p50)],
        ['p95 ms', ms(few.get.latency_ms.p95), ms(many.get.latency_ms.p95)],
        ['document reads', studentCost(few, 'reads'), studentCost(many, 'reads')],
        ['round trips', studentCost(few, 'round_trips'), studentCost(many, 'round_trips')],
        [
          'sequential round trips',
          studentCost(few, 'sequential_round_trips'),
          studentCost(many, 'sequential_round_trips'),
        ],
      ],
      { rightAlign: [1, 2] },
    ),
  );
  out.push(
    `${sameStudentCost ? 'OK  ' : 'FAIL'} the same reads and round trips with ${few.attempts} and with ${many.attempts} attempts.`,
  );
  return out.join('\n');
}
