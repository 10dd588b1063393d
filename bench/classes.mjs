// @ts-check
// `npm run bench:classes`: what a student's test list costs when tests are assigned to classes,
// on the Functions Framework (the server Cloud Functions runs in production) against the Auth and
// Firestore emulators, with X-Debug-Cost.
//
// Two organizations, one with 50 published tests and one with 2,000. In each, eight classes; one
// student belongs to five of them. A quarter of the tests are open to the whole organization, a
// quarter are assigned to one of the student's classes, and half to classes it is not in. The tests
// are clones of two the API created and published (one open, one assigned), with a fresh id, a
// distinct created_at and their assignment, so the stored shape is the service's own.
//
// The student lists its tests (GET /api/tests?limit=20) page after page to the end: each page's
// reads, round trips and latency; the tests it was shown must be exactly those open to it. The
// reads of a page must not grow with the organization (50 → 2,000 tests).
//
// Alone: `npm run bench:classes`. Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib/ports.mjs';

const SIZES = (process.env.CLASSES_SIZES ?? '50,2000').split(',').map(Number);
const CLASSES = 8;
const MEMBER_OF = 5;
const PAGE = 20;
const BATCH = 400;
/** Reads a page may make beyond its tests and its total: the student's profile and its organization. */
const PAGE_READS_OVERHEAD = 2;
/** `pagination.total` is a count() aggregation, which Firestore bills 1 read per 1,000 index entries (bench/run.mjs does the same). */
const countReads = (items) => Math.max(1, Math.ceil(items / 1000));
const REPEATS = 5;

async function runClasses() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { latencySummary } = await import('./lib/stats.mjs');

  const started = Date.now();
  const log = (line) => console.log(`[classes +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  let api;
  try {
    const busy = await cpuBusy(2000);
    log(`CPU busy before the start: ${Math.round(busy * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`);
    api = await startFramework({
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
    const baseUrl = api.baseUrl;

    const results = [];
    for (const size of SIZES) {
      const [tenant] = await seedClients(1, `classes-${size}`);
      const admin = await createUser('client_admin', tenant.id, `classes-admin-${size}`);
      const student = await createUser('student', tenant.id, `classes-student-${size}`);
      const as = (who, ip) => async (method, path, body, expected) => {
        const res = await callAt(baseUrl, { method, path, body, token: who.token, ip, timeoutMs: 120_000 });
        if (expected !== undefined && res.status !== expected)
          throw new Error(`${method} ${path}: ${res.status}, expected ${expected}: ${res.text.slice(0, 300)}`);
        return res;
      };
      const asAdmin = as(admin, `2001:db8:c1:${size.toString(16)}::1`);
      const asStudent = as(student, `2001:db8:c2:${size.toString(16)}::1`);

      const classIds = [];
      for (let i = 0; i < CLASSES; i++)
        classIds.push((await asAdmin('POST', '/api/classes', { name: `Class ${i} ${RUN_ID}` }, 201)).json.id);
      const mine = classIds.slice(0, MEMBER_OF);
      const others = classIds.slice(MEMBER_OF);
      for (const id of mine) await asAdmin('PUT', `/api/classes/${id}/members/${student.uid}`, undefined, 200);

      const question = (
        await asAdmin(
          'POST',
          '/api/questions',
          {
            question_text: `Classes bench ${RUN_ID}`,
            question_type: 'true_false',
            options: ['True', 'False'],
            correct_answer: 'True',
            marks: 1,
            difficulty: 'easy',
          },
          201,
        )
      ).json;
      const publish = async (name, assigned) => {
        const draft = (
          await asAdmin(
            'POST',
            '/api/tests',
            { test_name: name, timer: 10, status: 'draft', question_ids: [question.id], assigned_class_ids: assigned },
            201,
          )
        ).json;
        await asAdmin('POST', `/api/tests/${draft.id}/publish`, undefined, 200);
        return (await adminDb.collection('clients').doc(tenant.id).collection('tests').doc(draft.id).get()).data();
      };
      const openPrototype = await publish(`Open ${RUN_ID}`, []);
      const assignedPrototype = await publish(`Assigned ${RUN_ID}`, [mine[0]]);
      if (JSON.stringify(openPrototype.audience) !== JSON.stringify(['*']))
        failures.push(`${size}: an open test's audience is ${JSON.stringify(openPrototype.audience)}, expected ["*"]`);

      log(`writing ${size - 2} more published tests into ${tenant.id}`);
      const tests = adminDb.collection('clients').doc(tenant.id).collection('tests');
      const expected = new Set([openPrototype.id, assignedPrototype.id]);
      const base = Date.parse(openPrototype.created_at);
      for (let start = 0; start < size - 2; start += BATCH) {
        const batch = adminDb.batch();
        for (let i = start; i < Math.min(size - 2, start + BATCH); i++) {
          const id = tests.doc().id;
          // A quarter open, a quarter to one of the student's classes, half to classes it is not in.
          const kind = i % 4;
          const assigned = kind === 0 ? [] : kind === 1 ? [mine[i % MEMBER_OF]] : [others[i % others.length]];
          if (kind <= 1) expected.add(id);
          batch.set(tests.doc(id), {
            ...(kind === 0 ? openPrototype : assignedPrototype),
            id,
            test_name: `Bench ${i}`,
            created_at: new Date(base - (i + 1) * 1000).toISOString(),
            assigned_class_ids: assigned,
            audience: assigned.length === 0 ? ['*'] : assigned,
          });
        }
        await batch.commit();
      }

      log(`the student lists its tests page by page (${expected.size} of ${size} are open to it)`);
      const pages = [];
      const seen = new Set();
      for (let cursor = null, n = 0; ; n++) {
        const path = `/api/tests?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await asStudent('GET', path, undefined, 200);
        for (const t of res.json.data) seen.add(t.id);
        pages.push({ page: n + 1, items: res.json.data.length, cost: res.cost, ms: res.ms });
        cursor = res.json.pagination.next_cursor ?? null;
        if (!cursor) break;
      }
      const unexpected = [...seen].filter((id) => !expected.has(id));
      const missing = [...expected].filter((id) => !seen.has(id));
      if (unexpected.length > 0)
        failures.push(`${size}: the student was shown ${unexpected.length} tests not open to it`);
      if (missing.length > 0) failures.push(`${size}: ${missing.length} tests open to the student were not listed`);

      // The first page, again and again: its latency, and its cost once the instance is warm.
      const firstPage = [];
      for (let i = 0; i < REPEATS * 4; i++)
        firstPage.push(await asStudent('GET', `/api/tests?limit=${PAGE}`, undefined, 200));
      const maxReads = Math.max(...pages.map((p) => p.cost?.reads ?? Infinity));
      const row = {
        tests: size,
        open_to_student: expected.size,
        pages: pages.length,
        total_count_reads: countReads(expected.size),
        first_page: {
          reads: firstPage.at(-1).cost?.reads ?? null,
          round_trips: firstPage.at(-1).cost?.round_trips ?? null,
          sequential_round_trips: firstPage.at(-1).cost?.sequential_round_trips ?? null,
          latency: latencySummary(firstPage.map((r) => r.ms)),
        },
        max_page_reads: maxReads,
        pages_detail: pages.map((p) => ({
          page: p.page,
          items: p.items,
          reads: p.cost?.reads ?? null,
          ms: Math.round(p.ms),
        })),
      };
      for (const p of pages)
        if ((p.cost?.reads ?? Infinity) > p.items + PAGE_READS_OVERHEAD + countReads(expected.size))
          failures.push(`${size}: page ${p.page} read ${p.cost?.reads} documents for ${p.items} tests`);
      log(
        `${size} tests: ${JSON.stringify(row.first_page)}; ${pages.length} pages, the most reads on one page ${maxReads}`,
      );
      results.push(row);
    }
    // The page itself, without its total's count (which grows by one read per 1,000 tests open to the student).
    const pageOnly = (r) => r.first_page.reads - r.total_count_reads;
    if (results.length === 2 && pageOnly(results[0]) !== pageOnly(results[1]))
      failures.push(
        `the first page's reads grew with the organization: ${pageOnly(results[0])} at ${results[0].tests} tests, ${pageOnly(results[1])} at ${results[1].tests} (without the total's count)`,
      );

    const out = ["\n# A student's test list with classes"];
    out.push(
      `\n${cpus().length} CPUs, ${Math.round(busy * 100)}% busy before the start. A student in ${MEMBER_OF} of ${CLASSES} classes; pages of ${PAGE}.\n`,
    );
    out.push(
      table(
        [
          'tests',
          'open to it',
          'pages',
          'first page reads',
          'of which the total',
          'round trips',
          'sequential',
          'p50 ms',
          'p95 ms',
          'most reads on a page',
        ],
        results.map((r) => [
          r.tests,
          r.open_to_student,
          r.pages,
          r.first_page.reads,
          r.total_count_reads,
          r.first_page.round_trips,
          r.first_page.sequential_round_trips,
          r.first_page.latency.p50?.toFixed(1),
          r.first_page.latency.p95?.toFixed(1),
          r.max_page_reads,
        ]),
        { rightAlign: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
      ),
    );
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
    writeFileSync(join(root, '.bench', 'classes.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(root, '.bench', 'classes-api.log'), api.output());
    console.log(`\nResults written to .bench/classes.json (runtime ${result.runtime_s} s).`);
  } catch (err) {
    failures.push(`aborted: ${err.stack ?? err}`);
    if (api) console.log(`--- api output (tail):\n${api.output().slice(-3000)}`);
  } finally {
    if (api) await api.stop();
  }
  return verdict('Classes bench', { failures, passed: 'no check failed.' });
}

// Run last: everything above is defined by then.
// scripts/bench.mjs starts the emulators this bench needs (npm run bench:classes).
process.exitCode = await runClasses();
