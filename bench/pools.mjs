// @ts-check
// `npm run bench:pools`: what a question pool costs a start, and what freezing one
// costs a publish, on the Functions Framework (the server Cloud Functions runs in
// production: one process, restarted here to get a cold instance) against the Auth
// and Firestore emulators, with X-Debug-Cost.
//
// Two published tests, each `pools: [{ folder_id, draw: 20 }]` and no fixed
// questions: one on a folder of 50 questions, one on a folder of 5,000 (the
// questions written with the Admin SDK in the bank's stored shape). Measured:
//
// - POST /api/tests/{id}/publish of each: wall time, writes, round trips (it
//   freezes every pool question, one document each).
// - POST /api/attempts (start), each by a student starting its first attempt:
//   * cold: the first start of the test on a fresh instance (the process
//     restarted and warmed by one start on a test without pools, so only this
//     test's version and pool questions are not cached), COLD_RUNS times;
//   * warm: WARM_STARTS more starts of each test on the same instance, after
//     WARMUP unrecorded ones.
//   Beside them, as the baseline, the same for a test of 5 fixed questions and no pool
//   (its cold figure is that warm-up start: the instance's first start).
//   Reads, round trips (all and sequential) and p50/p95. The round trips and the
//   reads must not grow with the pool: a cold start reads the version and the 20
//   drawn questions (one getAll), whatever the pool's size.
// Every attempt is read back: 20 distinct drawn questions, all of its frozen pool.
//
// Alone: `npm run bench:pools` (builds, starts the Auth and Firestore emulators of
// project demo-exam-bench). Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from './lib/ports.mjs';

const SIZES = [50, 5000];
const DRAW = 20;
const COLD_RUNS = Number(process.env.POOLS_COLD_RUNS ?? 8); // fresh instances
const WARMUP = 3;
const WARM_STARTS = Number(process.env.POOLS_WARM_STARTS ?? 30); // per test, on one warm instance
const BATCH = 400;

// scripts/bench.mjs starts the emulators this bench needs (npm run bench:pools).
process.exitCode = await runPools();

async function runPools() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, mapLimit, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { summarize } = await import('./lib/stats.mjs');
  const { costCell, ms, table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');

  const started = Date.now();
  const log = (line) => console.log(`[pools +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  let api;
  const env = {
    ...paramsEnv(PROJECT_ID),
    FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
    FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
    GCLOUD_PROJECT: PROJECT_ID,
  };
  const startApi = async () => {
    if (api) await api.stop();
    api = await startFramework({
      target: 'api',
      source: join(root, 'functions'),
      port: await freePort(),
      env,
      readyPath: '/api/health',
      logPrefix: 'api',
    });
  };
  const call = (opts) => callAt(api.baseUrl, { timeoutMs: 300_000, ...opts });
  try {
    const busy = await cpuBusy(2000);
    log(`CPU busy before the start: ${Math.round(busy * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`);
    await startApi();
    const [tenant] = await seedClients(1, 'pools');
    const admin = { ...(await createUser('client_admin', tenant.id, 'pools-admin')), ip: '2001:db8:a:ffff::1' };
    const send = async (method, path, body, expected) => {
      const res = await call({ method, path, body, token: admin.token, ip: admin.ip });
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 500)}`);
      return res;
    };

    // ---- The bank: one folder per size, its questions written in the stored shape (questions/documents.ts StoredQuestion).
    const client = adminDb.collection('clients').doc(tenant.id);
    const folders = {};
    for (const size of SIZES) {
      const folder = (await send('POST', '/api/folders', { name: `Pool ${RUN_ID} ${size}` }, 201)).json;
      folders[size] = folder.id;
      log(`writing ${size} questions into folder ${folder.id}`);
      const now = new Date().toISOString();
      const docs = Array.from({ length: size }, (_, i) => ({
        id: randomUUID(),
        client_id: tenant.id,
        folder_id: folder.id,
        question_text: `Pool ${RUN_ID} ${size} question ${i + 1}: which is ${i % 4}?`,
        question_type: 'multiple_choice',
        options: ['0', '1', '2', '3'],
        correct_answer: String(i % 4),
        tolerance: null,
        max_words: null,
        marks: 1 + (i % 3),
        difficulty: ['easy', 'medium', 'hard'][i % 3],
        created_at: now,
        updated_at: now,
      }));
      const chunks = [];
      for (let i = 0; i < docs.length; i += BATCH) chunks.push(docs.slice(i, i + BATCH));
      await mapLimit(chunks, 4, async (chunk) => {
        const batch = adminDb.batch();
        for (const doc of chunk) batch.set(client.collection('questions').doc(doc.id), doc);
        await batch.commit();
      });
    }

    // ---- The tests, published: the publish freezes the pool.
    const tests = {};
    const publish = {};
    for (const size of SIZES) {
      const draft = (
        await send(
          'POST',
          '/api/tests',
          {
            test_name: `Pool ${RUN_ID} ${size}`,
            timer: 60,
            shuffle: 1,
            status: 'draft',
            question_ids: [],
            pools: [{ folder_id: folders[size], draw: DRAW }],
          },
          201,
        )
      ).json;
      log(`POST /api/tests/{id}/publish with a pool of ${size}`);
      const res = await call({
        method: 'POST',
        path: `/api/tests/${draft.id}/publish`,
        token: admin.token,
        ip: admin.ip,
      });
      if (res.status !== 200) throw new Error(`publish (pool of ${size}): ${res.status} ${res.text.slice(0, 500)}`);
      tests[size] = draft.id;
      const version = (await client.collection('tests').doc(draft.id).collection('versions').doc('1').get()).data();
      const frozenIds = version.pools?.[0]?.question_ids ?? [];
      const freezeDocs = (
        await client
          .collection('tests')
          .doc(draft.id)
          .collection('pool_freezes')
          .doc(String(version.pool_freeze_id))
          .collection('questions')
          .count()
          .get()
      ).data().count;
      // The version document (read by a cold start) names every frozen id: its size, as JSON (about Firestore's).
      publish[size] = {
        ms: Math.round(res.ms),
        cost: res.cost,
        frozen_ids: frozenIds.length,
        freeze_docs: freezeDocs,
        question_count: res.json?.question_count ?? null,
        version_kb: Number((JSON.stringify(version).length / 1024).toFixed(1)),
      };
      if (frozenIds.length !== size || freezeDocs !== size)
        failures.push(
          `publish (pool of ${size}): the version names ${frozenIds.length} ids, ${freezeDocs} frozen documents`,
        );
      log(
        `publish (pool of ${size}): ${Math.round(res.ms)} ms, cost ${JSON.stringify(res.cost)}, ${freezeDocs} frozen`,
      );
    }
    // The one part of a cold start that grows with the pool is the bytes of the version it reads: that read alone, Admin SDK, median of 5.
    for (const size of SIZES) {
      const ref = client.collection('tests').doc(tests[size]).collection('versions').doc('1');
      const values = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await ref.get();
        values.push(performance.now() - t);
      }
      publish[size].version_read_ms = Number(values.sort((a, b) => a - b)[2].toFixed(1));
    }
    const frozenPools = {};
    for (const size of SIZES)
      frozenPools[size] = new Set(
        (await client.collection('tests').doc(tests[size]).collection('versions').doc('1').get()).data().pools[0]
          .question_ids,
      );

    // A test without pools: every fresh instance starts one first, so only the measured test's own documents are cold.
    const warmQuestions = [];
    for (let i = 0; i < 5; i++)
      warmQuestions.push(
        (
          await send(
            'POST',
            '/api/questions',
            {
              question_text: `Pools ${RUN_ID} warm-up ${i}`,
              question_type: 'numeric',
              correct_answer: String(i),
              marks: 1,
              difficulty: 'easy',
            },
            201,
          )
        ).json.id,
      );
    const warmTest = (
      await send(
        'POST',
        '/api/tests',
        { test_name: `Pools ${RUN_ID} warm-up`, timer: 60, status: 'draft', question_ids: warmQuestions },
        201,
      )
    ).json;
    await send('POST', `/api/tests/${warmTest.id}/publish`, undefined, 200);

    // ---- Students: each starts one attempt (a first start of the test; none resumes).
    // (per pooled test: a cold start per instance and the warm starts; per instance a warm-up start; the warm starts of the test without pools)
    const perSize = COLD_RUNS + WARMUP + WARM_STARTS;
    const studentCount = perSize * SIZES.length + COLD_RUNS + WARMUP + WARM_STARTS;
    log(`creating ${studentCount} students`);
    const students = await mapLimit(Array.from({ length: studentCount }), 4, async (_, i) => ({
      ...(await createUser('student', tenant.id, `pool-s${i}`)),
      ip: `2001:db8:a:${i.toString(16)}::1`,
    }));
    // Each signs in once before it is measured: its first request writes its login record, which is no part of a start.
    await mapLimit(students, 4, async (who) => {
      const res = await call({ path: '/api/me', token: who.token, ip: who.ip });
      if (res.status !== 200) throw new Error(`GET /api/me: ${res.status} ${res.text.slice(0, 300)}`);
    });
    const next = (() => {
      let i = 0;
      return () => students[i++];
    })();
    const attempts = [];
    const startOnce = async (size, who) => {
      const res = await call({
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: tests[size] },
        token: who.token,
        ip: who.ip,
      });
      if (res.status === 201)
        attempts.push({ size, id: res.json.attempt_id, shown: res.json.test_details?.questions?.length ?? null });
      return res;
    };
    // The first start on a fresh instance, of the test without pools: kept as the baseline (its version read once, no pool).
    const baselineCold = [];
    const warmUpInstance = async () => {
      const who = next();
      await call({ path: '/api/me', token: who.token, ip: who.ip });
      const res = await call({
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: warmTest.id },
        token: who.token,
        ip: who.ip,
      });
      if (res.status !== 201) throw new Error(`warm-up start: ${res.status} ${res.text.slice(0, 300)}`);
      baselineCold.push(res);
    };

    const cold = Object.fromEntries(SIZES.map((s) => [s, []]));
    for (let r = 0; r < COLD_RUNS; r++) {
      log(
        `cold instance ${r + 1} of ${COLD_RUNS}: restart, warm-up start on a test without pools, then the first start of each pooled test`,
      );
      await startApi();
      await warmUpInstance();
      const order = r % 2 === 0 ? SIZES : [...SIZES].reverse();
      for (const size of order) cold[size].push(await startOnce(size, next()));
    }
    const warm = Object.fromEntries(SIZES.map((s) => [s, []]));
    const baselineWarm = [];
    log(`warm instance: ${WARMUP} + ${WARM_STARTS} starts of each test (and of the test without pools), alternating`);
    for (let i = 0; i < WARMUP + WARM_STARTS; i++) {
      for (const size of SIZES) {
        const res = await startOnce(size, next());
        if (i >= WARMUP) warm[size].push(res);
      }
      const who = next();
      const res = await call({
        method: 'POST',
        path: '/api/attempts',
        body: { test_id: warmTest.id },
        token: who.token,
        ip: who.ip,
      });
      if (i >= WARMUP) baselineWarm.push(res);
    }

    // ---- Every attempt read back: DRAW distinct questions of its frozen pool.
    let wrongDraws = 0;
    for (let i = 0; i < attempts.length; i += 300) {
      const snaps = await adminDb.getAll(
        ...attempts.slice(i, i + 300).map((a) => client.collection('attempts').doc(a.id)),
      );
      snaps.forEach((snap, k) => {
        const a = attempts[i + k];
        const drawn = snap.get('drawn') ?? [];
        const ok =
          drawn.length === DRAW &&
          new Set(drawn).size === DRAW &&
          drawn.every((id) => frozenPools[a.size].has(id)) &&
          a.shown === DRAW &&
          (snap.get('question_order') ?? []).length === DRAW;
        if (!ok) wrongDraws++;
      });
    }
    if (wrongDraws) failures.push(`${wrongDraws} attempts do not hold ${DRAW} distinct questions of their frozen pool`);

    const rows = [];
    const summaries = {};
    for (const [phase, samples] of [
      ['cold', baselineCold],
      ['warm', baselineWarm],
    ]) {
      const s = summarize(samples, 201);
      summaries[`${phase}_no_pool`] = s;
      if (s.unexpected)
        failures.push(
          `start (${phase}, no pool): ${JSON.stringify(s.statuses)} ${JSON.stringify(s.unexpected_examples)}`,
        );
      rows.push([
        `${phase} (n=${s.n})`,
        `none (5 fixed)`,
        ms(s.latency_ms.p50),
        ms(s.latency_ms.p95),
        costCell(s.cost.reads),
        costCell(s.cost.writes),
        costCell(s.cost.round_trips),
        costCell(s.cost.sequential_round_trips),
      ]);
    }
    for (const size of SIZES) {
      for (const [phase, samples] of [
        ['cold', cold[size]],
        ['warm', warm[size]],
      ]) {
        const s = summarize(samples, 201);
        summaries[`${phase}_${size}`] = s;
        if (s.unexpected)
          failures.push(
            `start (${phase}, pool of ${size}): ${JSON.stringify(s.statuses)} ${JSON.stringify(s.unexpected_examples)}`,
          );
        rows.push([
          `${phase} (n=${s.n})`,
          size,
          ms(s.latency_ms.p50),
          ms(s.latency_ms.p95),
          costCell(s.cost.reads),
          costCell(s.cost.writes),
          costCell(s.cost.round_trips),
          costCell(s.cost.sequential_round_trips),
        ]);
      }
    }
    // The claim: a cold start costs the same round trips and reads with a pool of 50 as of 5,000.
    const same = (a, b, keys) => keys.every((k) => a.cost[k]?.median === b.cost[k]?.median);
    const coldSame = same(summaries.cold_50, summaries.cold_5000, ['reads', 'round_trips', 'sequential_round_trips']);
    if (!coldSame)
      failures.push('a cold start costs other reads or round trips with a pool of 5,000 than with one of 50');

    const out = ['\n# Question pools: publish and start'];
    out.push(
      `\n${cpus().length} CPUs, ${Math.round(busy * 100)}% busy before the start. Draw ${DRAW} per attempt, no fixed questions.\n`,
    );
    out.push(
      table(
        [
          'publish',
          'ms',
          'reads',
          'writes',
          'round trips',
          'sequential',
          'frozen',
          'version doc KB',
          'its read alone ms',
        ],
        SIZES.map((size) => [
          `pool of ${size}`,
          publish[size].ms,
          publish[size].cost?.reads,
          publish[size].cost?.writes,
          publish[size].cost?.round_trips,
          publish[size].cost?.sequential_round_trips,
          publish[size].freeze_docs,
          publish[size].version_kb,
          publish[size].version_read_ms,
        ]),
        { rightAlign: [1, 2, 3, 4, 5, 6, 7, 8] },
      ),
    );
    out.push('');
    out.push(
      table(['POST /api/attempts', 'pool', 'p50 ms', 'p95 ms', 'reads', 'writes', 'round trips', 'sequential'], rows, {
        rightAlign: [1, 2, 3, 4, 5, 6, 7],
      }),
    );
    out.push(
      `\n${coldSame ? 'OK  ' : 'FAIL'} a cold start: the same reads and round trips with a pool of 50 and of 5,000.`,
    );
    out.push(
      `${wrongDraws === 0 ? 'OK  ' : 'FAIL'} ${attempts.length} attempts read back: each holds ${DRAW} distinct questions of its frozen pool.`,
    );
    console.log(out.join('\n'));
    const result = {
      generated_at: new Date().toISOString(),
      run_id: RUN_ID,
      cpus: cpus().length,
      cpu_busy_before_start: busy,
      draw: DRAW,
      publish,
      start: summaries,
      attempts_checked: attempts.length,
      wrong_draws: wrongDraws,
      failures,
      runtime_s: Math.round((Date.now() - started) / 1000),
    };
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(join(root, '.bench', 'pools.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nResults written to .bench/pools.json (runtime ${result.runtime_s} s).`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
    if (api) console.log(`--- api output (tail):\n${api.output().slice(-3000)}`);
  } finally {
    if (api) await api.stop();
  }
  return verdict('Pools bench', { failures, passed: 'no check failed.' });
}
