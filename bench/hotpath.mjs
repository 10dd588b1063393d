// @ts-check
// `npm run bench:hotpath`: the exam hot path on the
// Functions Framework, the server Cloud Functions runs in production, against
// the Auth and Firestore emulators. The shape of Moodle's quiz load test: a
// class of students start one 16-question test at once, answer every
// question, submit. Reported: requests/s held, p50/p95/p99 and round trips
// per step, errors (must be 0), lost answers (must be 0: every attempt is read
// back and its answers and score checked against scoring.ts), and the CPU time
// per request of the serving process beside a bare Express app served by the
// same framework for the same number of requests, in the same run.
//
// Run alone: `npm run bench:hotpath` builds the functions and starts the Auth
// and Firestore emulators (project demo-exam-bench) around this file. Beside
// someone else: FIREBASE_JSON=firebase.<name>.json npm run bench:hotpath.
// Knobs: HOTPATH_STUDENTS (50), HOTPATH_ROUNDS (1: attempts per student, one
// after the other), HOTPATH_AUTH (bearer: the student's ID token on every call;
// token: the attempt_token after the start), HOTPATH_BANK (classic: 16 questions of the six first
// types; six40: 40 of those six; mixed40: 40 of every type, a description among them).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bankOf, savedAnswers } from './lib/examContent.mjs';
import { freePort } from './lib/ports.mjs';

const STUDENTS = Number(process.env.HOTPATH_STUDENTS ?? 50);
const ROUNDS = Number(process.env.HOTPATH_ROUNDS ?? 1);
const AUTH_MODE = process.env.HOTPATH_AUTH === 'token' ? 'token' : 'bearer';
const BANK = process.env.HOTPATH_BANK ?? 'classic';
// HOTPATH_SHARED_IP=1: the whole class behind one address (a school's NAT), its limit raised by the
// bench params: the shared counter must hold with no contention errors and count every request exactly.
const SHARED_IP = process.env.HOTPATH_SHARED_IP === '1' ? '2001:db8:7:5c00::1' : null;

// scripts/bench.mjs starts the emulators this bench needs (npm run bench:hotpath).
process.exitCode = await runHotpath();

async function runHotpath() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, mapLimit, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { latencySummary, summarize } = await import('./lib/stats.mjs');
  const { costCell, ms, table, verdict } = await import('./lib/report.mjs');
  const { bareExpressSource, callAt, measureCpu, paramsEnv, root, startFramework } =
    await import('./lib/framework.mjs');
  const { compiledFunctions } = await import('../scripts/functions-lib.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { scoreAttempt } = compiledFunctions('attempts/scoring.js');

  const startedAt = Date.now();
  const failures = [];
  const log = (line) => console.log(`[hotpath] ${line}`);
  const servers = [];
  let bare;
  try {
    // ---- our function under the framework
    const apiPort = await freePort();
    const env = {
      ...paramsEnv(PROJECT_ID),
      FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      GCLOUD_PROJECT: PROJECT_ID,
    };
    log(`starting functions-framework --target=api --source=functions on port ${apiPort}`);
    const api = await startFramework({
      target: 'api',
      source: join(root, 'functions'),
      port: apiPort,
      env,
      readyPath: '/api/health',
      logPrefix: 'api',
    });
    servers.push(api);
    let fromSharedIp = 0;
    const sharedIpRequests = () => fromSharedIp;
    const call = (opts) => {
      if (SHARED_IP && opts.ip === SHARED_IP) fromSharedIp += 1;
      return callAt(api.baseUrl, opts);
    };

    // ---- a tenant, its admin, the class, the test
    log(`seeding a tenant, a client admin and ${STUDENTS} students (real Auth emulator accounts)`);
    const [tenant] = await seedClients(1, 'hotpath');
    const admin = { ...(await createUser('client_admin', tenant.id, 'hp-admin')), ip: '2001:db8:7:ffff::1' };
    const students = await mapLimit(Array.from({ length: STUDENTS }), 4, async (_, i) => ({
      ...(await createUser('student', tenant.id, `hp-student${i}`)),
      ip: SHARED_IP ?? `2001:db8:7:${i.toString(16)}::1`,
      index: i,
    }));
    const post = async (path, body) => {
      const res = await call({ method: 'POST', path, body, token: admin.token, ip: admin.ip });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`POST ${path}: ${res.status} ${res.text.slice(0, 500)}`);
      return res.json;
    };
    const bank = bankOf(RUN_ID, BANK);
    const created = [];
    for (const q of bank) created.push({ ...q, id: (await post('/api/questions', q.body)).id });
    const byId = new Map(created.map((q) => [q.id, q]));
    const test = await post('/api/tests', {
      test_name: `Hot path ${RUN_ID}`,
      timer: 60,
      shuffle: 1,
      allow_review: 0,
      negative_marking: 1,
      negative_mark_ratio: 0.25,
      status: 'draft',
      question_ids: created.map((q) => q.id),
    });
    await post(`/api/tests/${test.id}/publish`, undefined);
    log(`published test ${test.id} with ${created.length} questions (shuffle 1, negative marking 0.25)`);
    // Scored as stored (the admin's reply has every field a type's scoring reads), as the service freezes them.
    const scoringQuestions = [];
    for (const q of created) {
      const res = await call({ path: `/api/questions/${q.id}`, token: admin.token, ip: admin.ip });
      if (res.status !== 200) throw new Error(`GET /api/questions/${q.id}: ${res.status}`);
      scoringQuestions.push({ ...res.json, correct_answer: res.json.correct_answer ?? '' });
    }
    const answered = created.filter((q) => q.answers !== null);
    const rules = { negativeMarking: true, negativeMarkRatio: 0.25 };

    // ---- warm-up: modules loaded, the Firestore channel open (not measured)
    const warm = await measureCpu(api, {
      count: 40,
      concurrency: 10,
      request: (i) => ({ path: '/api/me', token: students[i % STUDENTS].token, ip: students[i % STUDENTS].ip }),
    });
    if (SHARED_IP) fromSharedIp += 40; // the warm-up's requests reach the limiter too
    if (!warm.statuses[200]) throw new Error(`warm-up GET /api/me failed: ${JSON.stringify(warm.statuses)}`);

    // ---- the hot path: every student at once (after noting how busy the machine already is)
    const busyBefore = await cpuBusy(2000);
    log(
      `hot path: ${STUDENTS} students x ${ROUNDS} round(s): start, ${answered.length} answers, submit (auth: ${AUTH_MODE}, bank ${BANK})`,
    );
    const samples = { start: [], answer: [], submit: [] };
    const expected = { start: 201, answer: 200, submit: 200 };
    const attempts = [];
    const cpuBefore = api.cpuSeconds();
    const t0 = performance.now();
    await Promise.all(
      students.map(async (student) => {
        for (let round = 0; round < ROUNDS; round++) {
          const start = await call({
            method: 'POST',
            path: '/api/attempts',
            body: { test_id: test.id },
            token: student.token,
            ip: student.ip,
          });
          samples.start.push(start);
          if (start.status !== expected.start) return;
          const { attempt_id: attemptId, attempt_token: attemptToken, test_details: details } = start.json ?? {};
          const auth =
            AUTH_MODE === 'token'
              ? { query: `?attempt_token=${encodeURIComponent(attemptToken)}` }
              : { query: '', token: student.token };
          const sent = {}; // what the student sent, for scoring
          const echoed = {}; // what the 200 said was saved, for the read-back
          const shown = details?.questions ?? [];
          for (const question of shown) {
            const answers = byId.get(question.id)?.answers;
            if (answers === null) continue; // a description takes no answer
            const answer = answers?.(student.index + round) ?? 'unknown question';
            const res = await call({
              method: 'POST',
              path: `/api/attempts/${attemptId}/answers${auth.query}`,
              body: { question_id: question.id, student_answer: answer },
              token: auth.token,
              ip: student.ip,
            });
            samples.answer.push(res);
            if (res.status === expected.answer) {
              sent[question.id] = answer;
              echoed[question.id] = res.json?.student_answer ?? answer;
            }
          }
          const submit = await call({
            method: 'POST',
            path: `/api/attempts/${attemptId}/submit${auth.query}`,
            token: auth.token,
            ip: student.ip,
          });
          samples.submit.push(submit);
          attempts.push({
            student,
            attemptId,
            attemptToken,
            shown: shown.length,
            sent,
            echoed,
            submit: submit.json,
            submitStatus: submit.status,
            auth,
          });
        }
      }),
    );
    const wallS = (performance.now() - t0) / 1000;
    const appCpuS = api.cpuSeconds() - cpuBefore;
    const hotRequests = samples.start.length + samples.answer.length + samples.submit.length;

    // ---- read every attempt back: answers all there, score as scoring.ts computes it
    log('reading every attempt back');
    const reads = [];
    // Lost: an answer the service accepted (200) that is not read back as saved.
    // Refused: an answer that got an error (counted in the errors; its sender knows).
    let lostAnswers = 0;
    let refusedAnswers = 0;
    let scoreMismatches = 0;
    let unreadable = 0;
    const problems = [];
    for (const a of attempts) {
      const res = await call({
        path: `/api/attempts/${a.attemptId}${a.auth.query}`,
        token: a.auth.token,
        ip: a.student.ip,
      });
      reads.push(res);
      const saved = res.status === 200 ? savedAnswers(res.json) : null;
      if (!saved) {
        unreadable++;
        if (problems.length < 5)
          problems.push(`attempt ${a.attemptId}: GET ${res.status}, no answers in ${res.text.slice(0, 200)}`);
        continue;
      }
      if (a.shown !== created.length && problems.length < 5)
        problems.push(`attempt ${a.attemptId} showed ${a.shown} questions, not ${created.length}`);
      for (const q of answered) {
        if (a.echoed[q.id] === undefined) refusedAnswers++;
        else if (saved[q.id] !== a.echoed[q.id]) {
          lostAnswers++;
          if (problems.length < 5)
            problems.push(
              `attempt ${a.attemptId}: question ${q.id} saved as ${JSON.stringify(a.echoed[q.id])}, read back ${JSON.stringify(saved[q.id])}`,
            );
        }
      }
      if (a.submitStatus !== 200) continue;
      const want = scoreAttempt(scoringQuestions, a.sent, { ...rules, seed: a.attemptId });
      const stored = res.json?.score;
      if (a.submit?.score !== want.score || stored !== want.score || a.submit?.total_marks !== want.total_marks) {
        scoreMismatches++;
        if (problems.length < 5)
          problems.push(
            `attempt ${a.attemptId}: scoring.ts ${want.score}/${want.total_marks}, submit said ${a.submit?.score}/${a.submit?.total_marks}, read back ${stored}`,
          );
      }
    }

    // ---- the same number of requests to a bare Express app under the same framework
    const bareSource = bareExpressSource();
    bare = bareSource;
    const barePort = await freePort();
    log(`bare Express under functions-framework on port ${barePort}: ${hotRequests} requests, ${STUDENTS} at a time`);
    const bareServer = await startFramework({
      target: 'bare',
      source: bareSource.dir,
      port: barePort,
      logPrefix: 'bare',
    });
    servers.push(bareServer);
    await measureCpu(bareServer, { count: 200, concurrency: 10, request: () => ({ path: '/' }) });
    const bareRun = await measureCpu(bareServer, {
      count: hotRequests,
      concurrency: STUDENTS,
      request: (i) => ({ path: '/', ip: students[i % STUDENTS].ip }),
    });

    // ---- report
    const steps = ['start', 'answer', 'submit'].map((name) => ({
      step: name,
      ...summarize(samples[name], expected[name]),
    }));
    const readStep = { step: 'read back (after the load)', ...summarize(reads, 200) };
    // Each student lists its own attempts (GET /api/attempts), one at a time.
    const lists = [];
    for (const student of students)
      lists.push(await call({ path: '/api/attempts', token: student.token, ip: student.ip }));
    const listStep = { step: 'list own attempts (after the load)', ...summarize(lists, 200) };
    if (listStep.unexpected) failures.push(`GET /api/attempts: ${listStep.unexpected} unexpected answers`);
    const errors = steps.reduce((n, s) => n + s.unexpected, 0);
    const result = {
      generated_at: new Date().toISOString(),
      project: PROJECT_ID,
      run_id: RUN_ID,
      cpus: cpus().length,
      cpu_busy_before_hot_path: busyBefore,
      node: process.version,
      server: 'functions-framework 5.0.5, one process, against the Auth and Firestore emulators',
      students: STUDENTS,
      rounds: ROUNDS,
      questions: created.length,
      auth: AUTH_MODE,
      attempts: attempts.length,
      requests: hotRequests,
      wall_s: Number(wallS.toFixed(2)),
      requests_per_s: Number((hotRequests / wallS).toFixed(1)),
      latency_ms_all: latencySummary([...samples.start, ...samples.answer, ...samples.submit].map((s) => s.ms)),
      steps,
      read_back: readStep,
      list: listStep,
      errors,
      bank: BANK,
      answers_expected: STUDENTS * ROUNDS * answered.length,
      lost_answers: lostAnswers,
      refused_answers: refusedAnswers,
      unreadable_attempts: unreadable,
      score_mismatches: scoreMismatches,
      problems,
      cpu: {
        app_cpu_s: Number(appCpuS.toFixed(2)),
        app_cpu_ms_per_request: Number(((appCpuS * 1000) / hotRequests).toFixed(3)),
        bare_express: bareRun,
        ratio:
          bareRun.cpu_ms_per_request > 0
            ? Number(((appCpuS * 1000) / hotRequests / bareRun.cpu_ms_per_request).toFixed(1))
            : null,
        note: 'CPU (user + system) of the serving process from /proc/<pid>/stat, 10 ms clock ticks, over the whole phase divided by its requests',
      },
      runtime_s: Math.round((Date.now() - startedAt) / 1000),
    };
    if (attempts.length !== STUDENTS * ROUNDS)
      failures.push(`only ${attempts.length} of ${STUDENTS * ROUNDS} attempts started`);
    if (errors) failures.push(`${errors} requests got an unexpected status`);
    if (lostAnswers) failures.push(`${lostAnswers} answers lost`);
    if (unreadable) failures.push(`${unreadable} attempts could not be read back with their answers`);
    if (scoreMismatches) failures.push(`${scoreMismatches} scores differ from scoring.ts`);
    if (bareRun.statuses[200] !== hotRequests) failures.push(`bare Express: ${JSON.stringify(bareRun.statuses)}`);
    if (SHARED_IP) {
      // Every request from the shared address, counted exactly once across the windows the run spanned.
      const { addressBucket } = compiledFunctions('rateLimit/addressBucket.js');
      const prefix = `ip_${encodeURIComponent(addressBucket(SHARED_IP))}_`;
      const windows = await adminDb
        .collection('rate_limits')
        .where('__name__', '>=', adminDb.doc(`rate_limits/${prefix}`))
        .where('__name__', '<', adminDb.doc(`rate_limits/${prefix}~`))
        .get();
      const counted = windows.docs.reduce((sum, d) => sum + Number(d.get('requests') ?? 0), 0);
      const sent = sharedIpRequests();
      result.shared_ip = { address: SHARED_IP, requests_sent: sent, requests_counted: counted, windows: windows.size };
      if (counted !== sent) failures.push(`shared address: ${sent} requests sent, ${counted} counted`);
    }
    result.failures = failures;

    const out = ['\n# Exam hot path on the Functions Framework'];
    out.push(
      `\n${STUDENTS} students x ${ROUNDS} round(s), ${created.length} questions (bank ${BANK}), all at once; ${hotRequests} requests in ${result.wall_s} s = **${result.requests_per_s} req/s held** on ${cpus().length} cores (the emulators share them; ${Math.round(busyBefore * 100)}% busy before the start).\n`,
    );
    out.push(
      table(
        ['step', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'reads', 'round trips', 'errors'],
        [...steps, readStep, listStep].map((s) => [
          s.step,
          s.n,
          ms(s.latency_ms.p50),
          ms(s.latency_ms.p95),
          ms(s.latency_ms.p99),
          ms(s.latency_ms.max),
          costCell(s.cost.reads),
          costCell(s.cost.round_trips),
          s.unexpected,
        ]),
        { rightAlign: [1, 2, 3, 4, 5, 6, 7, 8] },
      ),
    );
    out.push(
      `\nErrors: ${errors}. Lost answers (accepted with 200, not read back): ${lostAnswers} of ${attempts.length * answered.length} in ${attempts.length} attempts, every attempt read back; refused answers: ${refusedAnswers}. Scores differing from scoring.ts: ${scoreMismatches}.`,
    );
    if (result.shared_ip)
      out.push(
        `Shared address ${result.shared_ip.address}: ${result.shared_ip.requests_sent} requests sent, ${result.shared_ip.requests_counted} counted by the limiter (${result.shared_ip.windows} window(s)).`,
      );
    out.push(
      `CPU per request of the serving process: our app ${result.cpu.app_cpu_ms_per_request} ms, bare Express ${bareRun.cpu_ms_per_request} ms (x${result.cpu.ratio}); bare Express held ${bareRun.rps} req/s.`,
    );
    for (const s of steps) for (const e of s.unexpected_examples) out.push(`- ${s.step} ${e.status}: ${e.body}`);
    for (const p of problems) out.push(`- ${p}`);
    console.log(out.join('\n'));

    const file = join(root, '.bench', BANK === 'classic' ? 'hotpath.json' : `hotpath-${BANK}.json`);
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(root, '.bench', 'hotpath-api.log'), api.output());
    console.log(`\nResults written to ${file} (the serving process's last log lines: .bench/hotpath-api.log).`);
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
  return verdict('Hot path', {
    failures,
    passed: 'no errors, no lost answers, every score as scoring.ts computes it.',
  });
}
