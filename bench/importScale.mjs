// @ts-check
// `npm run bench:import-scale`: importing banks of every question type, at three sizes each, to show
// that an import's time and memory grow in line with the file, on the Functions Framework (the
// server Cloud Functions runs in production) against the Auth, Firestore and Storage emulators.
//
// 1. Moodle XML files of 1,250, 2,500 and 5,000 questions cycling through fourteen Moodle types
//    (bench/lib/mixedBanks.mjs): every one must import `ok`.
// 2. QTI 3.0 content packages of 125, 250 and 499 items, each with its own stylesheet (a package
//    holds at most 1,000 entries), that unpack to 12.5, 25 and 50 MB (the most a package may unpack to).
// Each: the file read by the service's own parser in this process (time), then imported through
// POST /api/questions/import into an organization of its own (wall time, the serving process's peak
// memory above what it held before, Firestore reads and writes from X-Debug-Cost, how many came with
// a warning: a ddmarker's markers are not carried, which the import says). The time per
// question of the largest must stay within LINEAR_BOUND of the smallest's, and the growth in memory
// within MEMORY_BOUND_MB (a package is read entry by entry, so it should not grow with the package).
//
// Alone: `npm run bench:import-scale`. Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { multipart } from './lib/http.mjs';
import { peakWatch } from './lib/memory.mjs';
import { MOODLE_TYPES, moodleMixedBank, qtiPackage } from './lib/mixedBanks.mjs';

const MOODLE_SIZES = [1_250, 2_500, 5_000];
const QTI_SIZES = [
  { items: 125, unpacked: 12.5 * 1024 * 1024 },
  { items: 250, unpacked: 25 * 1024 * 1024 },
  { items: 499, unpacked: 50 * 1024 * 1024 - 256 * 1024 },
];
/** Per question (Moodle XML) or per MB unpacked (QTI), the largest may take at most this many times the smallest's time. */
const LINEAR_BOUND = 1.5;
/** The most the serving process may grow over one import: as bench/interchange.mjs bounds it. */
const MEMORY_BOUND_MB = 150;
const SLOW_MS = 600_000;
const MB = 1024 * 1024;
const COLUMNS = [
  'file',
  'questions',
  'warned',
  'size',
  'parse ms',
  'import ms',
  'ms per question',
  'peak MB',
  'reads',
  'writes',
  'round trips',
];

async function runImportScale() {
  const { createUser, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, root, startApiWithStorage } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { compiledFunctions } = await import('../scripts/functions-lib.mjs');
  const { parseMoodleXml } = compiledFunctions('questionTypes/bankFormats.js');
  const { parseQtiPackage } = compiledFunctions('questionTypes/bankFormats.js');

  const started = Date.now();
  const log = (line) => console.log(`[import-scale +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  let api;
  try {
    const busy = await cpuBusy(2000);
    log(`CPU busy before the start: ${Math.round(busy * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`);
    const started = await startApiWithStorage();
    api = started.api;
    const { pid } = started;
    const tenants = await seedClients(MOODLE_SIZES.length + QTI_SIZES.length, 'import-scale');
    let memoryMethod = '';

    /** Parses in this process, then imports through the API into the next organization; one row. */
    const measure = async ({ label, filename, content, count, parse }) => {
      const tenant = tenants.shift();
      if (!tenant) throw new Error('no organization left');
      const admin = {
        ...(await createUser('client_admin', tenant.id, 'import-scale')),
        ip: `2001:db8:d:${tenants.length.toString(16)}::1`,
      };
      const t0 = performance.now();
      const parsed = await parse(content);
      const parseMs = performance.now() - t0;
      const notOk = parsed.items.filter((i) => i.status !== 'ok');
      if (parsed.items.length !== count || notOk.length > 0)
        failures.push(
          `${label}: parsed ${parsed.items.length} items, ${notOk.length} not ok, e.g. ${JSON.stringify(notOk[0])}`,
        );
      const { body, contentType } = multipart(filename, content);
      const watch = peakWatch(pid);
      memoryMethod = watch.method;
      const t1 = performance.now();
      const res = await callAt(api.baseUrl, {
        method: 'POST',
        path: '/api/questions/import',
        rawBody: body,
        contentType,
        token: admin.token,
        ip: admin.ip,
        timeoutMs: SLOW_MS,
      });
      const importMs = performance.now() - t1;
      const growthMb = watch.stop();
      if (growthMb > MEMORY_BOUND_MB)
        failures.push(`${label}: the process grew ${growthMb.toFixed(0)} MB > ${MEMORY_BOUND_MB} MB`);
      log(`${label}: ${res.status} in ${importMs.toFixed(0)} ms, peak +${growthMb.toFixed(0)} MB`);
      const reply = res.json;
      if (res.status !== 201 || reply?.imported !== count || reply?.failed !== 0)
        failures.push(`${label}: ${res.status} ${res.text.slice(0, 300)}`);
      const warned = res.status === 201 ? reply.questions.filter((q) => q.warnings.length > 0).length : 0;
      return {
        warned,
        label,
        count,
        bytes: Buffer.byteLength(content),
        parseMs,
        importMs,
        growthMb,
        cost: res.cost,
      };
    };

    const moodleRuns = [];
    for (const count of MOODLE_SIZES) {
      const xml = moodleMixedBank(count, RUN_ID);
      moodleRuns.push(
        await measure({
          label: `Moodle XML, ${MOODLE_TYPES} types`,
          filename: 'bank.xml',
          content: xml,
          count,
          parse: (text) => parseMoodleXml(text),
        }),
      );
    }
    const qtiRuns = [];
    for (const { items, unpacked } of QTI_SIZES) {
      const pack = qtiPackage(items, unpacked, RUN_ID);
      const run = await measure({
        label: `QTI 3.0 package, ${(pack.unpacked / MB).toFixed(1)} MB unpacked`,
        filename: 'package.zip',
        content: pack.zip,
        count: items,
        parse: (zip) => parseQtiPackage(zip),
      });
      qtiRuns.push({ ...run, unpacked: pack.unpacked });
    }

    /** The largest's cost per unit against the smallest's. */
    const linear = (runs, what, of, per) => {
      const first = of(runs[0]) / per(runs[0]);
      const last = of(runs[runs.length - 1]) / per(runs[runs.length - 1]);
      const ratio = last / first;
      if (ratio > LINEAR_BOUND)
        failures.push(
          `${what}: the largest costs ${ratio.toFixed(2)}× the smallest per unit, more than ${LINEAR_BOUND}×`,
        );
      return Number(ratio.toFixed(2));
    };
    const growth = {
      moodle_ms_per_question: linear(
        moodleRuns,
        'Moodle XML import time',
        (r) => r.importMs,
        (r) => r.count,
      ),
      moodle_parse_ms_per_question: linear(
        moodleRuns,
        'Moodle XML parse time',
        (r) => r.parseMs,
        (r) => r.count,
      ),
      qti_ms_per_mb: linear(
        qtiRuns,
        'QTI import time',
        (r) => r.importMs,
        (r) => r.unpacked,
      ),
      qti_parse_ms_per_mb: linear(
        qtiRuns,
        'QTI parse time',
        (r) => r.parseMs,
        (r) => r.unpacked,
      ),
    };
    const rows = [...moodleRuns, ...qtiRuns].map((r) => [
      r.label,
      String(r.count),
      String(r.warned),
      'unpacked' in r ? `${(r.bytes / MB).toFixed(2)} MB zip` : `${(r.bytes / MB).toFixed(2)} MB`,
      r.parseMs.toFixed(0),
      r.importMs.toFixed(0),
      (r.importMs / r.count).toFixed(2),
      r.growthMb.toFixed(0),
      String(r.cost?.reads ?? 'n/a'),
      String(r.cost?.writes ?? 'n/a'),
      String(r.cost?.round_trips ?? 'n/a'),
    ]);
    const result = {
      run: RUN_ID,
      cpu_busy_at_start: Number(busy.toFixed(2)),
      memory: memoryMethod,
      growth_largest_over_smallest: growth,
      imports: rows.map((row) => Object.fromEntries(COLUMNS.map((c, i) => [c, row[i]]))),
    };
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(join(root, '.bench', 'import-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `\nPeak memory: the serving process's peak above its resident memory before the request (${memoryMethod}).`,
    );
    console.log(table(COLUMNS, rows, { rightAlign: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }));
    console.log(`\nLargest over smallest, per question or per MB: ${JSON.stringify(growth)}`);
  } catch (err) {
    failures.push(`the bench stopped: ${err instanceof Error ? err.stack : String(err)}`);
  } finally {
    await api?.stop();
  }
  return verdict('import-scale', {
    failures,
    passed: `every question imported at every size, time per unit within ${LINEAR_BOUND}× from the smallest to the largest, every import within ${MEMORY_BOUND_MB} MB of growth`,
  });
}

process.exitCode = await runImportScale();
