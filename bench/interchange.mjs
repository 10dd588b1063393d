// @ts-check
// `npm run bench:interchange`: importing and exporting whole question banks, on
// the Functions Framework (the server Cloud Functions runs in production)
// against the Auth, Firestore and Storage emulators, with X-Debug-Cost.
//
// 1. Import a GIFT file of 5,000 questions (every GIFT type we take, in 20 categories).
// 2. Import a GIFT file of 5,000 questions with long texts, about 5 MB: the most one upload holds.
// 3. Import a Moodle XML file of about 5 MB whose questions each carry an image
//    (a real PNG in a base64 `<file>`): the images go to Cloud Storage.
// 4. Export the 5,000-question bank and the images' bank as Moodle XML, GIFT and a
//    QTI 3.0 package; each export is read back by our own importers.
// Each: wall time, the serving process's peak resident memory during the request
// (VmHWM, reset before each request through /proc/<pid>/clear_refs; sampled VmRSS
// where that is refused) above its resident memory before it, Firestore reads and
// writes (X-Debug-Cost; a streamed export's whole cost comes as its trailer), and
// the bytes written to Cloud Storage or read from it. The growth must stay within
// MEMORY_BOUND_MB; an export may read once per question and media file, and little more.
//
// Alone: `npm run bench:interchange`. Beside someone else: FIREBASE_JSON=firebase.<name>.json.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { crc32, deflateSync } from 'node:zlib';
import { multipart, parseCost } from './lib/http.mjs';
import { peakWatch } from './lib/memory.mjs';

const QUESTIONS = 5_000;
const CATEGORIES = 20;
const IMAGE_BYTES = 40 * 1024;
const XML_TARGET_BYTES = 5 * 1024 * 1024 - 64 * 1024;
/**
 * The most a serving process may grow while it imports or exports one bank. An import holds its
 * file whole (at most 5 MB) and what it becomes: measured, about 7 to 9 times the file's bytes
 * plus about 10 KB per question (at most 5,000), so at most about 95 MB. An export holds a page of
 * 500 questions and one question's media, and a QTI package a few KB per question written (at
 * most 5,000): under 50 MB. 150 MB leaves room for when the collector runs.
 */
const MEMORY_BOUND_MB = 150;
/** Reads an export may make beyond one per question and one per media file (the count, folders, the caller's checks). */
const EXPORT_READS_OVERHEAD = 100;
const SLOW_MS = 600_000;
const IMPORT_COLUMNS = ['file', 'size', 'wall ms', 'peak MB', 'reads', 'writes', 'round trips', 'Storage written'];
const EXPORT_COLUMNS = [
  'export',
  'wall ms',
  'peak MB',
  'reads before the file',
  'reads in all',
  'round trips',
  'body',
  'Storage read',
];
const MB = 1024 * 1024;

/**
 * A GIFT file of `count` questions, cycling through the types the import takes, in CATEGORIES
 * categories. With `targetBytes`, each question's text is lengthened with words until the file
 * is about that size (the most questions with the most text an upload can hold).
 */
function giftBank(count, runId, targetBytes = 0) {
  const kinds = [
    (i, lead) => `::MC ${i}:: ${lead} What is ${i} + 1? {=${i + 1}#Right ~${i + 2}#Off by one ~${i}}`,
    (i, lead) => `::MS ${i}:: ${lead} Which are even? {~%50%${i * 2}~%50%${i * 2 + 2}~%-100%${i * 2 + 1}}`,
    (i, lead) => `::TF ${i}:: ${lead} ${i} is a number. {T####Every integer is.}`,
    (i, lead) => `::SA ${i}:: ${lead} Name of item ${i}? {=item${i} =%50%it${i}}`,
    (i, lead) => `::NUM ${i}:: ${lead} Half of ${i * 2}? {#${i}:0.5}`,
    (i, lead) => `::ES ${i}:: ${lead} Describe item ${i}. {}`,
  ];
  const perCategory = Math.ceil(count / CATEGORIES);
  const write = (lead) => {
    const lines = [];
    for (let i = 0; i < count; i++) {
      if (i % perCategory === 0) lines.push(`$CATEGORY: Bench/${runId}/Part ${i / perCategory + 1}`, '');
      lines.push(kinds[i % kinds.length](i, lead), '');
    }
    return lines.join('\n');
  };
  const plain = write(runId);
  const padding = Math.floor((targetBytes - plain.length) / count);
  if (padding <= 0) return plain;
  const words = 'the quick brown fox jumps over the lazy dog '.repeat(Math.ceil(padding / 44) + 1);
  return write(`${runId} ${words.slice(0, padding - 1).trim()}.`);
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type, data) {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A real PNG of about `bytes` bytes: random RGB pixels (which do not compress), each image its own.
 * The import decides a file's type by its content (file-type walks a PNG's chunks), so a PNG
 * signature followed by random bytes is refused more often than not.
 */
function randomPng(bytes) {
  const side = Math.floor(Math.sqrt(bytes / 3));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < side; y++) rows.push(Buffer.from([0]), randomBytes(side * 3)); // filter 0, then the row
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A Moodle XML file of about `target` bytes, each question carrying its own image. */
function moodleXmlWithImages(target, runId) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'];
  let size = parts[0].length;
  for (let i = 0; size < target - 80 * 1024; i++) {
    const image = randomPng(IMAGE_BYTES).toString('base64');
    const q =
      `<question type="truefalse"><name><text>Image ${i}</text></name>` +
      `<questiontext format="html"><text><![CDATA[<p>${runId} Is picture ${i} a square? <img src="@@PLUGINFILE@@/img${i}.png" alt="picture ${i}"></p>]]></text>` +
      `<file name="img${i}.png" path="/" encoding="base64">${image}</file></questiontext>` +
      `<defaultgrade>1</defaultgrade>` +
      `<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>\n`;
    parts.push(q);
    size += q.length;
  }
  parts.push('</quiz>\n');
  return parts.join('');
}

/**
 * GET through node:http, which (unlike fetch) reads trailers: a streamed reply sends X-Debug-Cost
 * with its headers (the reads before the file started) and again as a trailer (the whole request's).
 * Never throws: a network error, a timeout or a reply cut short comes back as `error`.
 */
function download(baseUrl, path, { token, ip }, timeoutMs) {
  return new Promise((resolve) => {
    const started = performance.now();
    const failed = (err, status = 0, bytes = Buffer.alloc(0)) =>
      resolve({ status, ms: performance.now() - started, bytes, cost: null, total: null, error: err.message });
    const req = httpRequest(
      baseUrl + path,
      { headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': ip }, timeout: timeoutMs },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', (err) => failed(err, res.statusCode, Buffer.concat(chunks)));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          if (!res.complete) return failed(new Error('the reply was cut short'), res.statusCode, bytes);
          const header = /** @type {string | undefined} */ (res.headers['x-debug-cost']);
          const cost = parseCost(header ?? null);
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            bytes,
            cost,
            total: res.trailers['x-debug-cost'] === undefined ? null : parseCost(res.trailers['x-debug-cost']),
            error: undefined,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => failed(err));
    req.end();
  });
}

async function runInterchange() {
  const { PROJECT_ID } = await import('./lib/env.mjs');
  const { adminDb, createUser, seedClients, RUN_ID } = await import('./lib/seed.mjs');
  const { table, verdict } = await import('./lib/report.mjs');
  const { callAt, root, startApiWithStorage } = await import('./lib/framework.mjs');
  const { cpuBusy } = await import('./lib/guard.mjs');
  const { compiledFunctions } = await import('../scripts/functions-lib.mjs');
  // The service's own parsers read each export back (here, not in the serving process).
  const { parseGift } = compiledFunctions('questionTypes/bankFormats.js');
  const { parseMoodleXml } = compiledFunctions('questionTypes/bankFormats.js');
  const { parseQtiXml } = compiledFunctions('questionTypes/bankFormats.js');
  const { readZip } = compiledFunctions('interchange/zip.js');

  const started = Date.now();
  const log = (line) => console.log(`[interchange +${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);
  const failures = [];
  const warnings = [];
  let api;
  try {
    const busy = await cpuBusy(2000);
    log(`CPU busy before the start: ${Math.round(busy * 100)}% of ${cpus().length} CPU(s); run ${RUN_ID}`);
    const started = await startApiWithStorage();
    api = started.api;
    const { pid, storageHost: STORAGE_HOST } = started;
    log(`Storage emulator at ${STORAGE_HOST}; serving process ${pid}`);
    // One organization for the 5,000 GIFT questions (exported whole afterwards), one for the images,
    // one for the 5 MB GIFT file (an export takes at most 5,000 questions: the first bank must stay at that).
    const [tenant, imageTenant, largeTenant] = await seedClients(3, 'interchange');
    const admin = { ...(await createUser('client_admin', tenant.id, 'interchange-admin')), ip: '2001:db8:c:ffff::1' };
    const imageAdmin = {
      ...(await createUser('client_admin', imageTenant.id, 'interchange-images')),
      ip: '2001:db8:c:fffe::1',
    };
    const largeAdmin = {
      ...(await createUser('client_admin', largeTenant.id, 'interchange-large')),
      ip: '2001:db8:c:fffd::1',
    };

    let memoryMethod = '';
    /** One request, with the serving process's peak memory over it. */
    const measured = async (label, send) => {
      const watch = peakWatch(pid);
      memoryMethod = watch.method;
      const t0 = performance.now();
      const res = await send();
      const ms = performance.now() - t0;
      const growthMb = watch.stop();
      log(`${label}: ${res.status} in ${ms.toFixed(0)} ms, peak +${growthMb.toFixed(0)} MB`);
      if (growthMb > MEMORY_BOUND_MB)
        failures.push(`${label}: the process grew ${growthMb.toFixed(0)} MB > ${MEMORY_BOUND_MB} MB`);
      return { res, ms, growthMb };
    };
    const importFile = (label, filename, content, as) => {
      const { body, contentType } = multipart(filename, content);
      return measured(label, () =>
        callAt(api.baseUrl, {
          method: 'POST',
          path: '/api/questions/import',
          rawBody: body,
          contentType,
          token: as.token,
          ip: as.ip,
          timeoutMs: SLOW_MS,
        }),
      );
    };
    /** The import answered 201 with every question imported, none failed; warnings are noted. */
    const checkImport = (label, run, expected) => {
      const body = run.res.json;
      if (run.res.status !== 201 || body?.imported !== expected || body?.failed !== 0) {
        failures.push(`${label}: ${run.res.status} ${run.res.text.slice(0, 300)}`);
        return;
      }
      const notOk = body.questions.filter((q) => q.status !== 'ok');
      if (notOk.length > 0) failures.push(`${label}: ${notOk.length} questions not ok: ${JSON.stringify(notOk[0])}`);
      const warned = body.questions.filter((q) => q.warnings.length > 0);
      if (warned.length > 0)
        warnings.push(`${label}: ${warned.length} questions with warnings, e.g. ${JSON.stringify(warned[0].warnings)}`);
    };

    const importRows = [];
    // ---- 1. GIFT, 5,000 questions.
    const gift = giftBank(QUESTIONS, RUN_ID);
    const giftRun = await importFile('import GIFT', 'bank.gift', gift, admin);
    checkImport('GIFT import', giftRun, QUESTIONS);
    const folders = await adminDb.collection(`clients/${tenant.id}/folders`).get();
    if (folders.size !== CATEGORIES) failures.push(`GIFT import: ${folders.size} folders, not ${CATEGORIES}`);
    importRows.push([
      `GIFT, ${QUESTIONS} questions in ${CATEGORIES} categories`,
      `${(gift.length / MB).toFixed(2)} MB`,
      giftRun.ms.toFixed(0),
      giftRun.growthMb.toFixed(0),
      String(giftRun.res.cost?.reads ?? 'n/a'),
      String(giftRun.res.cost?.writes ?? 'n/a'),
      String(giftRun.res.cost?.round_trips ?? 'n/a'),
      '0',
    ]);

    // ---- 2. GIFT, 5,000 questions with long texts: a file of about 5 MB, the most an upload holds.
    const largeGift = giftBank(QUESTIONS, RUN_ID, XML_TARGET_BYTES);
    const largeRun = await importFile('import GIFT, 5 MB', 'large.gift', largeGift, largeAdmin);
    checkImport('GIFT import, 5 MB', largeRun, QUESTIONS);
    importRows.push([
      `GIFT, ${QUESTIONS} questions of about ${Math.round(largeGift.length / QUESTIONS)} bytes each`,
      `${(largeGift.length / MB).toFixed(2)} MB`,
      largeRun.ms.toFixed(0),
      largeRun.growthMb.toFixed(0),
      String(largeRun.res.cost?.reads ?? 'n/a'),
      String(largeRun.res.cost?.writes ?? 'n/a'),
      String(largeRun.res.cost?.round_trips ?? 'n/a'),
      '0',
    ]);

    // ---- 3. Moodle XML with an image per question, about 5 MB.
    const xml = moodleXmlWithImages(XML_TARGET_BYTES, RUN_ID);
    const images = (xml.match(/<file /g) ?? []).length;
    const xmlRun = await importFile('import Moodle XML', 'bank.xml', xml, imageAdmin);
    checkImport('Moodle XML import', xmlRun, images);
    const media = await adminDb.collection(`clients/${imageTenant.id}/media`).get();
    const recordedBytes = media.docs.reduce((sum, d) => sum + Number(d.get('bytes') ?? 0), 0);
    if (media.size !== images) failures.push(`${images} images in the file, ${media.size} media records`);
    // What the bucket holds, asked of the Storage emulator itself (the JSON API the client library uses).
    const bucket = `${PROJECT_ID}.appspot.com`;
    const listing = await fetch(
      `http://${STORAGE_HOST}/storage/v1/b/${bucket}/o?prefix=${encodeURIComponent(`clients/${imageTenant.id}/media/`)}`,
    );
    const objects = listing.ok ? ((await listing.json()).items ?? []) : [];
    const storedBytes = objects.reduce((sum, o) => sum + Number(o.size ?? 0), 0);
    if (objects.length !== images || storedBytes !== recordedBytes)
      failures.push(
        `Storage: ${objects.length} objects of ${storedBytes} bytes in ${bucket} (listing ${listing.status}); the records name ${media.size} of ${recordedBytes} bytes`,
      );
    importRows.push([
      `Moodle XML, ${images} questions with a ${IMAGE_BYTES / 1024} KB PNG each`,
      `${(xml.length / MB).toFixed(2)} MB`,
      xmlRun.ms.toFixed(0),
      xmlRun.growthMb.toFixed(0),
      String(xmlRun.res.cost?.reads ?? 'n/a'),
      String(xmlRun.res.cost?.writes ?? 'n/a'),
      String(xmlRun.res.cost?.round_trips ?? 'n/a'),
      `${(storedBytes / MB).toFixed(2)} MB in ${objects.length} objects`,
    ]);

    // ---- 4. Exports, whole, in each format: the 5,000 GIFT questions, then the images' bank.
    /** What an export holds, read back by our own importers: its questions (ok) and media files' count and bytes. */
    const readBack = async (format, bytes) => {
      if (format === 'gift') {
        const bank = parseGift(bytes.toString('utf8'));
        return {
          ok: bank.items.filter((i) => i.status === 'ok').length,
          all: bank.items.length,
          files: 0,
          fileBytes: 0,
        };
      }
      if (format === 'moodle_xml') {
        const bank = parseMoodleXml(bytes.toString('utf8'));
        const files = [...bank.media.values()];
        return {
          ok: bank.items.filter((i) => i.status === 'ok').length,
          all: bank.items.length,
          files: files.length,
          fileBytes: files.reduce((sum, f) => sum + f.bytes.byteLength, 0),
        };
      }
      // A package of 5,000 items is past what the import takes (1,000 entries): read with room, item by item.
      const entries = await readZip(bytes, { maxEntries: 100_000, maxTotalBytes: 1024 * MB });
      let ok = 0;
      let all = 0;
      let files = 0;
      let fileBytes = 0;
      for (const [path, content] of entries) {
        if (/^items\/media\//.test(path)) {
          files += 1;
          fileBytes += content.byteLength;
        } else if (/^items\/[^/]+\.xml$/.test(path)) {
          const items = parseQtiXml(Buffer.from(content).toString('utf8'), path).items;
          all += items.length;
          ok += items.filter((i) => i.status === 'ok').length;
        }
      }
      return { ok, all, files, fileBytes };
    };

    const exportRows = [];
    const banks = [
      { label: `${QUESTIONS} GIFT questions`, as: admin, questions: QUESTIONS, media: 0, mediaBytes: 0 },
      {
        label: `${images} questions with images`,
        as: imageAdmin,
        questions: images,
        media: images,
        mediaBytes: recordedBytes,
      },
    ];
    for (const bank of banks) {
      for (const format of ['moodle_xml', 'gift', 'qti']) {
        const label = `export ${format}, ${bank.label}`;
        const run = await measured(label, () =>
          download(api.baseUrl, `/api/questions/export?format=${format}`, bank.as, SLOW_MS),
        );
        const { res } = run;
        const total = res.total ?? res.cost;
        let back = { ok: 0, all: 0, files: 0, fileBytes: 0 };
        if (res.status !== 200 || res.error) {
          failures.push(`${label}: ${res.status} ${res.error ?? res.bytes.toString('utf8').slice(0, 300)}`);
        } else {
          if (!res.total) failures.push(`${label}: no X-Debug-Cost trailer, so no cost for the whole export`);
          back = await readBack(format, res.bytes);
          if (back.ok !== bank.questions || back.all !== bank.questions)
            failures.push(`${label}: read back ${back.ok} ok of ${back.all} questions, not ${bank.questions}`);
          // GIFT carries links; the others carry each file, read from Storage.
          const files = format === 'gift' ? 0 : bank.media;
          const fileBytes = format === 'gift' ? 0 : bank.mediaBytes;
          if (back.files !== files || back.fileBytes !== fileBytes)
            failures.push(
              `${label}: ${back.files} files of ${back.fileBytes} bytes inside, not ${files} of ${fileBytes}`,
            );
          const readsBound = bank.questions + bank.media + EXPORT_READS_OVERHEAD;
          if (total && total.reads > readsBound)
            failures.push(`${label}: ${total.reads} reads, more than ${readsBound} (one per question and media file)`);
        }
        exportRows.push([
          label,
          res.ms.toFixed(0),
          run.growthMb.toFixed(0),
          String(res.cost?.reads ?? 'n/a'),
          String(total?.reads ?? 'n/a'),
          String(total?.round_trips ?? 'n/a'),
          `${(res.bytes.byteLength / MB).toFixed(2)} MB`,
          back.files ? `${(back.fileBytes / MB).toFixed(2)} MB in ${back.files} files` : '0',
        ]);
      }
    }

    const result = {
      run: RUN_ID,
      cpu_busy_at_start: Number(busy.toFixed(2)),
      memory: memoryMethod,
      memory_bound_mb: MEMORY_BOUND_MB,
      imports: importRows.map((row) => Object.fromEntries(IMPORT_COLUMNS.map((c, i) => [c, row[i]]))),
      exports: exportRows.map((row) => Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [c, row[i]]))),
    };
    mkdirSync(join(root, '.bench'), { recursive: true });
    writeFileSync(join(root, '.bench', 'interchange.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `\nPeak memory: the serving process's peak above its resident memory before the request (${memoryMethod}).`,
    );
    console.log('\nImport (POST /api/questions/import, one request each)');
    console.log(
      table(IMPORT_COLUMNS, importRows, {
        rightAlign: [1, 2, 3, 4, 5, 6],
      }),
    );
    console.log(
      '\nExport (GET /api/questions/export, streamed; reads before the file: X-Debug-Cost header; in all: its trailer)',
    );
    console.log(table(EXPORT_COLUMNS, exportRows, { rightAlign: [1, 2, 3, 4, 5, 6] }));
  } catch (err) {
    failures.push(`the bench stopped: ${err instanceof Error ? err.stack : String(err)}`);
  } finally {
    await api?.stop();
  }
  return verdict('interchange', {
    failures,
    warnings,
    passed: `every question imported and exported, each export read back whole, every request within ${MEMORY_BOUND_MB} MB of growth`,
  });
}

process.exitCode = await runInterchange();
