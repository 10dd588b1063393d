// @ts-check
// `npm run bench:regrade`: regrading a published version after a wrong key, on the
// Functions Framework (the server Cloud Functions runs in production) against the
// Auth and Firestore emulators, with X-Debug-Cost.
//
// Two published tests of 10 questions, one with 100 submitted attempts and one with
// 10,000. The attempts are written with the Admin SDK in the stored shape
// (attempts/documents.ts StoredAttempt), each built as a start builds it and
// submitted with the service's own compiled submission() (attempts/rules.js), so
// score, percentage and results are what a submit writes. One multiple-choice
// question's key is wrong ("A"; it should be "B"): a quarter of the attempts
// answered A, a quarter B, a quarter C and a quarter left it blank, so half change
// score when it is corrected. The version's analytics sums are first built with the
// repair (POST /api/analytics/tests/{id}/recompute), as the attempts bypassed the submit.
//
// Then POST /api/tests/{testId}/versions/1/regrade { question_id, correct_answer: "B" }:
// 1. dry_run: true (nothing may be written);
// 2. applied;
// 3. applied again (a rerun: nothing may be written to an attempt).
// Each: wall time, reads, writes, round trips, `attempts_checked`, `changed.length`.
// Every attempt is read back after each step (its update time tells whether it was
// rewritten); applied, every attempt is written (those `changed` lists rescored, the
// others with their key_revision alone), each with the score submission() gives on
// the corrected version and the version's revision; the attempt_regraded audit
// records are counted. Finally the repair must find the sums equal to a recomputation
// (`changed: false`).
//
// Alone: `npm run bench:regrade` (builds, starts the Auth and Firestore emulators of
// project demo-exam-bench). Beside someone else: FIREBASE_JSON=firebase.<name>.json.
// REGRADE_SIZES=100,10000 (default) changes the sizes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FieldPath } from 'firebase-admin/firestore';
import { freePort } from './lib/ports.mjs';

const SIZES = (process.env.REGRADE_SIZES ?? '100,10000').split(',').map(Number);
const BATCH = 400;
const SLOW_MS = 900_000;
const WRONG_KEY = 'A';
const RIGHT_KEY = 'B';

/** mulberry32: the same attempts on every run. */
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

// Nine questions with a right key, and the one whose key is wrong (first).
const BANK = [
  {
    question_type: 'multiple_choice',
    options: ['A', 'B', 'C', 'D'],
    correct_answer: WRONG_KEY,
    marks: 2,
    difficulty: 'medium',
    wrong: [],
  },
  {
    question_type: 'multiple_choice',
    options: ['Paris', 'Berlin', 'Rome'],
    correct_answer: 'Paris',
    marks: 2,
    difficulty: 'easy',
    wrong: ['Berlin', 'Rome'],
  },
  {
    question_type: 'multiple_choice',
    options: ['3', '4', '5'],
    correct_answer: '4',
    marks: 1,
    difficulty: 'easy',
    wrong: ['3', '5'],
  },
  {
    question_type: 'multiple_select',
    options: ['2', '3', '4', '5'],
    correct_answer: '2|3|5',
    marks: 3,
    difficulty: 'hard',
    wrong: ['2|3', '3|5'],
  },
  {
    question_type: 'multiple_select',
    options: ['red', 'green', 'blue'],
    correct_answer: 'red|blue',
    marks: 2,
    difficulty: 'medium',
    wrong: ['red'],
  },
  {
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'True',
    marks: 1,
    difficulty: 'easy',
    wrong: ['False'],
  },
  {
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'False',
    marks: 1,
    difficulty: 'medium',
    wrong: ['True'],
  },
  { question_type: 'short_answer', correct_answer: 'Au', marks: 2, difficulty: 'hard', wrong: ['Ag'] },
  { question_type: 'numeric', correct_answer: '42', marks: 2, difficulty: 'medium', wrong: ['24'] },
  { question_type: 'numeric', correct_answer: '3.14', tolerance: 0.01, marks: 2, difficulty: 'hard', wrong: ['3.2'] },
];

async function runRegrade() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, mapLimit, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { compiledFunctions } = await import('../scripts/functions-lib.mjs');
  const { questionOrder, submission, scoredFields } = compiledFunctions('attempts/rules.js');
  const { expiresAtMs } = compiledFunctions('sittingRules/deadline.js');

  const started = Date.now();
  const log = (line) => console.log(`[regrade +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  let api;
  try {
    const busy = await cpuBusy(2000);
    log(`CPU busy before the start: ${Math.round(busy * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`);
    const env = {
      ...paramsEnv(PROJECT_ID),
      FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      GCLOUD_PROJECT: PROJECT_ID,
    };
    api = await startFramework({
      target: 'api',
      source: join(root, 'functions'),
      port: await freePort(),
      env,
      readyPath: '/api/health',
      logPrefix: 'api',
    });
    const [tenant] = await seedClients(1, 'regrade');
    const admin = { ...(await createUser('client_admin', tenant.id, 'regrade-admin')), ip: '2001:db8:b:ffff::1' };
    const call = (opts) => callAt(api.baseUrl, { token: admin.token, ip: admin.ip, timeoutMs: SLOW_MS, ...opts });
    const send = async (method, path, body, expected) => {
      const res = await call({ method, path, body });
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 500)}`);
      return res;
    };
    const client = adminDb.collection('clients').doc(tenant.id);

    const questionIds = [];
    for (const [i, q] of BANK.entries()) {
      const { wrong: _wrong, ...body } = q;
      questionIds.push(
        (await send('POST', '/api/questions', { ...body, question_text: `Regrade ${RUN_ID} Q${i + 1}` }, 201)).json.id,
      );
    }
    const fixId = questionIds[0];

    /** Every attempt's update time (Firestore's), by id: a rewrite changes it. */
    const updateTimes = async (ids) => {
      const times = new Map();
      for (let i = 0; i < ids.length; i += 300) {
        const snaps = await adminDb.getAll(...ids.slice(i, i + 300).map((id) => client.collection('attempts').doc(id)));
        for (const snap of snaps)
          times.set(snap.id, snap.updateTime.toMillis() * 1000 + (snap.updateTime.nanoseconds % 1_000_000) / 1000);
      }
      return times;
    };
    const rewritten = (before, after) => [...after.keys()].filter((id) => after.get(id) !== before.get(id));
    const regradeAudits = async (testId) =>
      (
        await adminDb
          .collection('audit_logs')
          .where('client_id', '==', tenant.id)
          .where('event_type', '==', 'attempt_regraded')
          .where('details.test_id', '==', testId)
          .count()
          .get()
      ).data().count;

    const results = [];
    for (const [k, size] of SIZES.entries()) {
      const draft = (
        await send(
          'POST',
          '/api/tests',
          {
            test_name: `Regrade ${RUN_ID} ${size}`,
            timer: 30,
            shuffle: 1,
            negative_marking: 0,
            status: 'draft',
            question_ids: questionIds,
          },
          201,
        )
      ).json;
      await send('POST', `/api/tests/${draft.id}/publish`, undefined, 200);
      const versionRef = client.collection('tests').doc(draft.id).collection('versions').doc('1');
      const version = (await versionRef.get()).data();

      // ---- The attempts, submitted, in the stored shape.
      log(`writing ${size} submitted attempts on test ${draft.id}`);
      const rand = random(k + 7);
      const base = Date.now() - (size + 10) * 60_000;
      const expiresAt = (startedMs) =>
        new Date(
          expiresAtMs({
            startedAtMs: startedMs,
            versionTimer: 30,
            testClosesAt: null,
            override: undefined,
            accommodation: undefined,
            extensionMinutes: 0,
          }),
        ).toISOString();
      const docs = [];
      for (let i = 0; i < size; i++) {
        const id = `${tenant.id}.${randomBytes(16).toString('base64url')}`; // attempts/attemptLookup.ts newAttemptId
        const studentId = `bench-regrade-${RUN_ID}-${size}-${i}`;
        const startedMs = base + i * 60_000;
        const savedAt = new Date(startedMs + 30_000).toISOString();
        const answers = {};
        const fix = [WRONG_KEY, RIGHT_KEY, 'C', null][i % 4];
        if (fix) answers[fixId] = { answer: fix, saved_at: savedAt };
        BANK.forEach((q, j) => {
          if (j === 0) return;
          const roll = rand();
          if (roll < 0.6) answers[questionIds[j]] = { answer: q.correct_answer, saved_at: savedAt };
          else if (roll < 0.9)
            answers[questionIds[j]] = { answer: q.wrong[Math.floor(rand() * q.wrong.length)], saved_at: savedAt };
        });
        const attempt = {
          id,
          client_id: tenant.id,
          test_id: draft.id,
          test_name: version.test.test_name,
          version: version.version,
          student_id: studentId,
          guest: false,
          guest_name: null,
          share_code: null,
          started_by: studentId,
          status: 'in_progress',
          started_at: new Date(startedMs).toISOString(),
          expires_at: expiresAt(startedMs),
          submitted_at: null,
          auto_submitted: false,
          answers,
          question_order: questionOrder(id, version),
          token_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
          submitted_by: null,
          score: null,
          total_marks: version.total_marks,
          results: null,
          key_revision: 0,
        };
        docs.push({
          ...attempt,
          ...submission(attempt, version, { nowMs: startedMs + 10 * 60_000, automatic: false }),
        });
      }
      const chunks = [];
      for (let i = 0; i < docs.length; i += BATCH) chunks.push(docs.slice(i, i + BATCH));
      await mapLimit(chunks, 4, async (chunk) => {
        const batch = adminDb.batch();
        for (const doc of chunk) batch.set(client.collection('attempts').doc(doc.id), doc);
        await batch.commit();
      });
      const ids = docs.map((d) => d.id);
      const expectedChanged = docs.filter((d) => [WRONG_KEY, RIGHT_KEY].includes(d.answers[fixId]?.answer)).length;

      log(`building the sums: POST /api/analytics/tests/{id}/recompute (${size} attempts)`);
      const build = await call({ method: 'POST', path: `/api/analytics/tests/${draft.id}/recompute` });
      if (build.status !== 200) throw new Error(`recompute (${size}): ${build.status} ${build.text.slice(0, 300)}`);

      const row = {
        attempts: size,
        test_id: draft.id,
        expected_changed: expectedChanged,
        sums_built_ms: Math.round(build.ms),
        steps: {},
      };
      const body = { question_id: fixId, correct_answer: RIGHT_KEY };
      let times = await updateTimes(ids);
      for (const step of ['dry_run', 'apply', 'rerun']) {
        log(`regrade (${step}) with ${size} submitted attempts`);
        const res = await call({
          method: 'POST',
          path: `/api/tests/${draft.id}/versions/1/regrade`,
          body: step === 'dry_run' ? { ...body, dry_run: true } : body,
        });
        const now = await updateTimes(ids);
        const written = rewritten(times, now);
        times = now;
        const audits = await regradeAudits(draft.id);
        const changed = res.json?.changed ?? [];
        row.steps[step] = {
          status: res.status,
          ms: Math.round(res.ms),
          cost: res.cost,
          attempts_checked: res.json?.attempts_checked ?? null,
          changed: changed.length,
          corrected: res.json?.corrected ?? null,
          revision: res.json?.revision ?? null,
          attempts_rewritten: written.length,
          attempt_regraded_audits_total: audits,
          reply_kb: Number((Buffer.byteLength(res.text ?? '') / 1024).toFixed(1)),
          error: res.status === 200 ? undefined : (res.error ?? res.text).slice(0, 500),
        };
        log(`regrade (${step}, ${size}): ${JSON.stringify(row.steps[step])}`);
        if (res.status !== 200) {
          failures.push(`regrade ${step} (${size}): ${res.status} ${(res.error ?? res.text).slice(0, 300)}`);
          break;
        }
        if (res.json.attempts_checked !== size)
          failures.push(`regrade ${step} (${size}): attempts_checked ${res.json.attempts_checked}, expected ${size}`);
        const wantChanged = step === 'rerun' ? 0 : expectedChanged;
        if (changed.length !== wantChanged)
          failures.push(`regrade ${step} (${size}): changed.length ${changed.length}, expected ${wantChanged}`);
        // Applied, every attempt is written: those listed rescored, the others with the revision alone (key_revision), so their reviews show the corrected key.
        const wantWritten = step === 'apply' ? size : 0;
        if (written.length !== wantWritten)
          failures.push(`regrade ${step} (${size}): ${written.length} attempts rewritten, expected ${wantWritten}`);
        if (step === 'apply') {
          const writtenNow = new Set(written);
          if (changed.some((c) => !writtenNow.has(c.attempt_id)))
            failures.push(`regrade apply (${size}): an attempt the reply lists was not rewritten`);
          if (audits !== expectedChanged)
            failures.push(
              `regrade apply (${size}): ${audits} attempt_regraded audit records, expected ${expectedChanged}`,
            );
          if (res.json.corrected !== true)
            failures.push(`regrade apply (${size}): corrected ${res.json.corrected}, expected true`);
        }
        if (step === 'rerun' && res.json.corrected !== false)
          failures.push(`regrade rerun (${size}): corrected ${res.json.corrected}, expected false`);
        if (step === 'dry_run' && (await versionRef.get()).get('revision'))
          failures.push(`regrade dry run (${size}): the version's revision moved`);
      }

      // ---- Every attempt scores as submission() scores it on the corrected version.
      const corrected = (await versionRef.get()).data();
      let wrongScores = 0;
      for (let i = 0; i < ids.length; i += 300) {
        const snaps = await adminDb.getAll(...ids.slice(i, i + 300).map((id) => client.collection('attempts').doc(id)));
        for (const snap of snaps) {
          const stored = snap.data();
          const want = scoredFields(stored, corrected);
          if (
            stored.score !== want.score ||
            stored.percentage !== want.percentage ||
            stored.total_marks !== want.total_marks ||
            stored.key_revision !== corrected.revision
          )
            wrongScores++;
        }
      }
      row.wrong_scores = wrongScores;
      if (wrongScores)
        failures.push(
          `after the regrade (${size}): ${wrongScores} attempts do not score as the corrected version scores them, or do not name its revision`,
        );
      if (corrected.questions[0].correct_answer !== RIGHT_KEY || corrected.revision !== 1)
        failures.push(
          `after the regrade (${size}): the frozen key is ${corrected.questions[0].correct_answer}, revision ${corrected.revision}`,
        );

      // ---- Where a page's time goes: its parts timed with the Admin SDK against the same emulator (median of 3).
      const median3 = async (fn) => {
        const values = [];
        for (let i = 0; i < 3; i++) {
          const t = performance.now();
          await fn();
          values.push(performance.now() - t);
        }
        return Math.round(values.sort((a, b) => a - b)[1]);
      };
      const sorted = [...ids].sort();
      const page = (after) => {
        let query = client
          .collection('attempts')
          .where('test_id', '==', draft.id)
          .where('version', '==', 1)
          .where('status', '==', 'submitted')
          .orderBy(FieldPath.documentId())
          .select();
        if (after !== undefined) query = query.startAfter(after);
        return query.limit(100).get();
      };
      const pageIds = sorted
        .slice(Math.floor(sorted.length / 2), Math.floor(sorted.length / 2) + 100)
        .map((id) => client.collection('attempts').doc(id));
      row.page_parts_ms = {
        query_first_page: await median3(() => page(undefined)),
        query_middle_page: await median3(() => page(sorted[Math.floor(sorted.length / 2)])),
        query_last_page: await median3(() => page(sorted[Math.max(0, sorted.length - 101)])),
        get_all_100: await median3(() => adminDb.getAll(...pageIds)),
        transaction_get_all_100: await median3(() => adminDb.runTransaction(async (tx) => tx.getAll(...pageIds))),
      };
      log(`a page's parts (${size} attempts): ${JSON.stringify(row.page_parts_ms)}`);

      // ---- The analytics: equal to a recomputation.
      log(`POST /api/analytics/tests/{id}/recompute after the regrade (${size} attempts)`);
      const check = await call({ method: 'POST', path: `/api/analytics/tests/${draft.id}/recompute` });
      row.recompute_after = {
        status: check.status,
        ms: Math.round(check.ms),
        changed: check.json?.changed ?? null,
        attempts_read: check.json?.attempts_read ?? null,
      };
      if (check.status !== 200 || check.json.changed !== false)
        failures.push(
          `analytics after the regrade (${size}): recompute answered ${check.status} changed ${check.json?.changed} (the maintained sums differ from a recomputation)`,
        );
      results.push(row);
    }

    const out = ['\n# Regrading a version'];
    out.push(
      `\n${cpus().length} CPUs, ${Math.round(busy * 100)}% busy before the start. One fixed multiple-choice question's key corrected (${WRONG_KEY} → ${RIGHT_KEY}); half the attempts change score.\n`,
    );
    const rows = results.flatMap((r) =>
      Object.entries(r.steps).map(([step, s]) => [
        r.attempts,
        step,
        s.status,
        s.ms,
        s.attempts_checked,
        s.changed,
        s.attempts_rewritten,
        s.cost?.reads,
        s.cost?.writes,
        s.cost?.round_trips,
        s.cost?.sequential_round_trips,
        s.reply_kb,
      ]),
    );
    out.push(
      table(
        [
          'attempts',
          'step',
          'status',
          'wall ms',
          'checked',
          'changed',
          'attempts rewritten',
          'reads',
          'writes',
          'round trips',
          'sequential',
          'reply KB',
        ],
        rows,
        { rightAlign: [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      ),
    );
    for (const r of results) {
      out.push(
        `\n${r.attempts} attempts: attempt_regraded audit records ${r.steps.apply?.attempt_regraded_audits_total} (expected ${r.expected_changed}); scores not as the corrected version gives: ${r.wrong_scores}; ` +
          `recompute afterwards: ${r.recompute_after?.status} changed ${r.recompute_after?.changed} (${r.recompute_after?.ms} ms). Sums first built in ${r.sums_built_ms} ms. A page's parts alone (ms): ${JSON.stringify(r.page_parts_ms)}.`,
      );
    }
    console.log(out.join('\n'));
    const result = {
      generated_at: new Date().toISOString(),
      run_id: RUN_ID,
      cpus: cpus().length,
      cpu_busy_before_start: busy,
      results,
      failures,
      runtime_s: Math.round((Date.now() - started) / 1000),
    };
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(join(root, '.bench', 'regrade.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(root, '.bench', 'regrade-api.log'), api.output());
    console.log(`\nResults written to .bench/regrade.json (runtime ${result.runtime_s} s).`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
    if (api) console.log(`--- api output (tail):\n${api.output().slice(-3000)}`);
  } finally {
    if (api) await api.stop();
  }
  return verdict('Regrade bench', { failures, passed: 'no check failed.' });
}

// Run last: everything above is defined by then.
// scripts/bench.mjs starts the emulators this bench needs (npm run bench:regrade).
process.exitCode = await runRegrade();
