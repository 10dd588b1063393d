// @ts-check
// `npm run bench:interchange`: importing and exporting whole question banks, on
// the Functions Framework (the server Cloud Functions runs in production)
// against the Auth, Firestore and Storage emulators, with X-Debug-Cost.
//
// 1. Import a GIFT file of 5,000 questions (every GIFT type we take, in 20 categories).
// 2. Import a Moodle XML file of about 5 MB whose questions each carry an image
//    (base64 `<file>`): the images go to Cloud Storage.
// 3. Export the 5,000-question bank as Moodle XML, GIFT and a QTI 3.0 package.
// Each: wall time, the serving process's peak resident memory during the request
// (VmHWM, reset before each request through /proc/<pid>/clear_refs) above its
// resident memory before it, Firestore reads and writes (X-Debug-Cost), and the
// bytes stored in Cloud Storage or sent back. The memory must stay within a bound
// that does not grow with the bank beyond the 5 MB file limit: MEMORY_BOUND_MB.
//
// Alone: `npm run bench:interchange`. Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from './lib/ports.mjs';

const QUESTIONS = 5_000;
const CATEGORIES = 20;
const IMAGE_BYTES = 40 * 1024;
const XML_TARGET_BYTES = 5 * 1024 * 1024 - 64 * 1024;
/** The most a serving process may grow while it imports or exports one bank (the file itself is at most 5 MB). */
const MEMORY_BOUND_MB = 400;
const SLOW_MS = 600_000;

/** A GIFT file of `count` questions, cycling through the types the import takes. */
function giftBank(count, runId) {
  const kinds = [
    (i) => `::MC ${i}:: ${runId} What is ${i} + 1? {=${i + 1}#Right ~${i + 2}#Off by one ~${i}}`,
    (i) => `::MS ${i}:: ${runId} Which are even? {~%50%${i * 2}~%50%${i * 2 + 2}~%-100%${i * 2 + 1}}`,
    (i) => `::TF ${i}:: ${runId} ${i} is a number. {T####Every integer is.}`,
    (i) => `::SA ${i}:: ${runId} Name of item ${i}? {=item${i} =%50%it${i}}`,
    (i) => `::NUM ${i}:: ${runId} Half of ${i * 2}? {#${i}:0.5}`,
    (i) => `::ES ${i}:: ${runId} Describe item ${i}. {}`,
  ];
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (i % Math.ceil(count / CATEGORIES) === 0) lines.push(`$CATEGORY: Bench/${runId}/Part ${lines.length}`);
    lines.push(kinds[i % kinds.length](i), '');
  }
  return lines.join('\n');
}

/** A PNG by its signature and header, with random pixels' worth of bytes after it (checked by content, not decoded). */
function fakePng(bytes) {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex');
  return Buffer.concat([head, randomBytes(bytes - head.length)]);
}

/** A Moodle XML file of about `target` bytes, each question carrying its own image. */
function moodleXmlWithImages(target, runId) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'];
  let size = parts[0].length;
  for (let i = 0; size < target - 80 * 1024; i++) {
    const image = fakePng(IMAGE_BYTES).toString('base64');
    const q =
      `<question type="truefalse"><name><text>Image ${i}</text></name>` +
      `<questiontext format="html"><text><![CDATA[<p>${runId} Is picture ${i} a square? <img src="@@PLUGINFILE@@/img${i}.png" alt="picture ${i}"></p>]]></text>` +
      `<file name="img${i}.png" path="/" encoding="base64">${image}</file></questiontext>` +
      `<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>\n`;
    parts.push(q);
    size += q.length;
  }
  parts.push('</quiz>\n');
  return parts.join('');
}

/** A multipart/form-data body with one file part named "file". */
function multipart(filename, content) {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The process's resident memory now and its peak since the last reset, in MB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
const resetPeak = (pid) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

async function runInterchange() {
  const { PROJECT_ID, AUTH_HOST, FIRESTORE_HOST } = await import('./lib/env.mjs');
  const { adminDb, createUser, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, paramsEnv, root, startFramework } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');

  const started = Date.now();
  const log = (line) => console.log(`[interchange +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
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
        ...(process.env.FIREBASE_STORAGE_EMULATOR_HOST
          ? { FIREBASE_STORAGE_EMULATOR_HOST: process.env.FIREBASE_STORAGE_EMULATOR_HOST }
          : {}),
        GCLOUD_PROJECT: PROJECT_ID,
      },
      readyPath: '/api/health',
      logPrefix: 'api',
    });
    const pid = api.pid;
    if (pid === undefined) throw new Error('the framework has no pid');
    // One organization for the 5,000 GIFT questions (exported whole afterwards), another for the images.
    const [tenant, imageTenant] = await seedClients(2, 'interchange');
    const admin = { ...(await createUser('client_admin', tenant.id, 'interchange-admin')), ip: '2001:db8:c:ffff::1' };
    const imageAdmin = {
      ...(await createUser('client_admin', imageTenant.id, 'interchange-images')),
      ip: '2001:db8:c:fffe::1',
    };

    /** One request, with the serving process's memory around it. */
    const measured = async (label, request, as = admin) => {
      const before = memoryOf(pid);
      resetPeak(pid);
      const t0 = performance.now();
      const res = await callAt(api.baseUrl, { token: as.token, ip: as.ip, timeoutMs: SLOW_MS, ...request });
      const ms = performance.now() - t0;
      const after = memoryOf(pid);
      const growthMb = Math.max(0, after.peakMb - before.rssMb);
      log(`${label}: ${res.status} in ${ms.toFixed(0)} ms, peak +${growthMb.toFixed(0)} MB`);
      if (growthMb > MEMORY_BOUND_MB)
        failures.push(`${label}: the process grew ${growthMb.toFixed(0)} MB > ${MEMORY_BOUND_MB} MB`);
      return { res, ms, growthMb };
    };
    const importFile = (label, filename, content, as = admin) => {
      const { body, contentType } = multipart(filename, content);
      return measured(label, { method: 'POST', path: '/api/questions/import', rawBody: body, contentType }, as);
    };

    const rows = [];
    // ---- 1. GIFT, 5,000 questions.
    const gift = giftBank(QUESTIONS, RUN_ID);
    const giftRun = await importFile('import GIFT', 'bank.gift', gift);
    if (giftRun.res.status !== 201 || giftRun.res.json?.imported !== QUESTIONS)
      failures.push(`GIFT import: ${giftRun.res.status} ${giftRun.res.text.slice(0, 300)}`);
    rows.push([
      `import GIFT, ${QUESTIONS} questions`,
      `${(gift.length / 1024 / 1024).toFixed(2)} MB`,
      giftRun.ms.toFixed(0),
      giftRun.growthMb.toFixed(0),
      String(giftRun.res.cost?.reads ?? 'n/a'),
      String(giftRun.res.cost?.writes ?? 'n/a'),
      '0',
    ]);

    // ---- 2. Moodle XML with images, about 5 MB.
    const xml = moodleXmlWithImages(XML_TARGET_BYTES, RUN_ID);
    const xmlRun = await importFile('import Moodle XML', 'bank.xml', xml, imageAdmin);
    const images = (xml.match(/<file /g) ?? []).length;
    if (xmlRun.res.status !== 201 || xmlRun.res.json?.imported !== images)
      failures.push(`Moodle XML import: ${xmlRun.res.status} ${xmlRun.res.text.slice(0, 300)}`);
    const media = await adminDb.collection(`clients/${imageTenant.id}/media`).get();
    const storedBytes = media.docs.reduce((sum, d) => sum + Number(d.get('bytes') ?? 0), 0);
    if (media.size !== images) failures.push(`${images} images in the file, ${media.size} media stored`);
    rows.push([
      `import Moodle XML, ${images} questions with an image each`,
      `${(xml.length / 1024 / 1024).toFixed(2)} MB`,
      xmlRun.ms.toFixed(0),
      xmlRun.growthMb.toFixed(0),
      String(xmlRun.res.cost?.reads ?? 'n/a'),
      String(xmlRun.res.cost?.writes ?? 'n/a'),
      `${(storedBytes / 1024 / 1024).toFixed(2)} MB in ${media.size} objects`,
    ]);

    // ---- 3. Export of the 5,000 GIFT questions, whole, in each format.
    const exportRows = [];
    for (const format of ['moodle_xml', 'gift', 'qti']) {
      const run = await measured(`export ${format}`, { method: 'GET', path: `/api/questions/export?format=${format}` });
      if (run.res.status !== 200) failures.push(`export ${format}: ${run.res.status} ${run.res.text.slice(0, 300)}`);
      exportRows.push([
        `export ${format}, ${QUESTIONS} questions`,
        String(run.res.status),
        run.ms.toFixed(0),
        run.growthMb.toFixed(0),
        String(run.res.cost?.reads ?? 'n/a'),
        `${(Buffer.byteLength(run.res.text) / 1024 / 1024).toFixed(2)} MB`,
      ]);
    }

    console.log('\nImport (one request each; peak = the serving process above its resident memory before)');
    console.log(
      table(['file', 'size', 'wall ms', 'peak MB', 'reads', 'writes', 'Storage'], rows, {
        rightAlign: [1, 2, 3, 4, 5],
      }),
    );
    console.log('\nExport');
    console.log(
      table(['export', 'status', 'wall ms', 'peak MB', 'reads', 'body'], exportRows, { rightAlign: [1, 2, 3, 4, 5] }),
    );
  } catch (err) {
    failures.push(`the bench stopped: ${err instanceof Error ? err.stack : String(err)}`);
  } finally {
    await api?.stop();
  }
  return verdict('interchange', {
    failures,
    passed: `imports and exports answered, every process within ${MEMORY_BOUND_MB} MB of growth`,
  });
}

process.exitCode = await runInterchange();
