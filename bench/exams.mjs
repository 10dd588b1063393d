// @ts-check
// The exam-authoring half of the benchmark: folders, questions, the CSV import,
// tests and share codes. Lists are grown by cloning one document the API itself
// created (new id, distinct sort key), so the stored shape is the service's own.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { call } from './lib/http.mjs';
import { adminDb, RUN_ID } from './lib/seed.mjs';

const BATCH = 400;

/**
 * Writes `count` copies of `prototype` into `collection`, each with a fresh id and its own sort key.
 * @param {any} collection
 * @param {Record<string, any>} prototype
 * @param {number} count
 * @param {string} [label]
 * @param {{ sortField?: string, docId?: (i: number) => string }} [options]
 */
async function cloneInto(collection, prototype, count, label, { sortField, docId = (_i) => collection.doc().id } = {}) {
  const base = Date.parse(prototype.created_at ?? new Date().toISOString());
  for (let start = 0; start < count; start += BATCH) {
    const batch = adminDb.batch();
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const id = docId(i);
      /** @type {Record<string, any>} */
      const clone = { ...prototype, id, created_at: new Date(base - (i + 1) * 1000).toISOString() };
      if ('code' in prototype) clone.code = id;
      if (sortField === 'name_sort')
        Object.assign(clone, {
          name: `${label} ${i}`,
          name_sort: `${label} ${String(i).padStart(6, '0')}`.toLowerCase(),
        });
      batch.set(collection.doc(id), clone);
    }
    await batch.commit();
  }
}

const countOf = async (query) => (await query.count().get()).data().count;

export const DEMO_CSV_HEADER = 'question_text,question_type,options,correct_answer,marks,difficulty';

/** A CSV of `rows` valid questions, every type in turn, each row distinct. */
export function csvOfRows(rows, tag) {
  const lines = [DEMO_CSV_HEADER];
  for (let i = 0; i < rows; i++) {
    switch (i % 5) {
      case 0:
        lines.push(`"Bench ${tag} ${i}: capital of France?",multiple_choice,Paris|Berlin|Rome,Paris,2,easy`);
        break;
      case 1:
        lines.push(`"Bench ${tag} ${i}: primes?",multiple_select,2|3|4,2|3,3,medium`);
        break;
      case 2:
        lines.push(`"Bench ${tag} ${i}: the sky is blue",true_false,True|False,True,1,easy`);
        break;
      case 3:
        lines.push(`"Bench ${tag} ${i}: symbol for gold?",short_answer,,Au,2,hard`);
        break;
      default:
        lines.push(`"Bench ${tag} ${i}: 6 x 7?",numeric,,42,2,medium`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function multipart(csv, filename = 'questions.csv') {
  const boundary = `----bench${RUN_ID}`;
  return {
    body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// ---- peak memory of the process that serves the function (the Functions emulator's runtime worker).
function functionWorkers() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/functionsEmulatorRuntime/.test(cmdline)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
const peakRssKb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
/** Resets a process's peak-RSS mark (Linux: "5" to clear_refs), so the next peak is this request's. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Imports a CSV of `rows` rows through Hosting and reports wall time, cost and
 * how far the serving process's resident memory rose above where it stood.
 */
export async function measureImport(rows, as) {
  const csv = csvOfRows(rows, `${RUN_ID}-${rows}`);
  const { body, contentType } = multipart(csv, `bench-${rows}.csv`);
  const workers = functionWorkers();
  const before = new Map(workers.map((pid) => [pid, rssKb(pid)]));
  const peaksReset = workers.every(resetPeak);
  const t = performance.now();
  const res = await call({
    method: 'POST',
    path: '/api/questions/import',
    rawBody: body,
    contentType,
    timeoutMs: 300_000,
    ...as,
  });
  const wallMs = performance.now() - t;
  // The worker that served it is the one whose peak rose most.
  const rises = workers.map((pid) => {
    try {
      return { pid, rise_kb: peakRssKb(pid) - before.get(pid), peak_kb: peakRssKb(pid) };
    } catch {
      return { pid, rise_kb: NaN, peak_kb: NaN };
    }
  });
  const served = rises.sort((a, b) => b.rise_kb - a.rise_kb)[0];
  return {
    rows,
    file_bytes: Buffer.byteLength(csv),
    status: res.status,
    imported: res.json?.imported ?? null,
    wall_ms: Number(wallMs.toFixed(0)),
    cost: res.cost,
    peak_rss_rise_mb: served && peaksReset ? Number((served.rise_kb / 1024).toFixed(1)) : null,
    peak_rss_mb: served ? Number((served.peak_kb / 1024).toFixed(1)) : null,
    workers: workers.length,
    error: res.status === 201 ? undefined : res.text.slice(0, 300),
  };
}

/**
 * Creates one of each exam resource through the API (the prototypes), and the
 * list definitions the data-size check grows by cloning them.
 */
export async function prepareExamLists({ tenantId, as }) {
  const post = async (path, body, who = as.admin) => {
    const res = await call({ method: 'POST', path, body, ...who });
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const folder = await post('/api/folders', { name: `Bench folder ${RUN_ID}` });
  const question = await post('/api/questions', {
    question_text: `Bench ${RUN_ID}: 2 + 2?`,
    question_type: 'multiple_choice',
    options: ['3', '4', '5'],
    correct_answer: '4',
    marks: 2,
    difficulty: 'easy',
    folder_id: folder.id,
  });
  const test = await post('/api/tests', {
    test_name: `Bench test ${RUN_ID}`,
    timer: 30,
    shuffle: 1,
    allow_review: 1,
    negative_marking: 0,
    status: 'draft',
    question_ids: [question.id],
    folder_id: folder.id,
  });
  const published = await post(`/api/tests/${test.id}/publish`, undefined);
  const shareCode = await post(`/api/tests/${published.id}/share-codes`, { max_uses: 100 });

  const client = adminDb.collection('clients').doc(tenantId);
  const stored = async (ref) => (await ref.get()).data();
  const prototypes = {
    folder: await stored(client.collection('folders').doc(folder.id)),
    question: await stored(client.collection('questions').doc(question.id)),
    test: await stored(client.collection('tests').doc(test.id)),
    shareCode: await stored(adminDb.collection('share_codes').doc(shareCode.code)),
  };
  const lists = [
    {
      name: 'GET /api/folders (client_admin)',
      path: '/api/folders',
      who: 'admin',
      count: () => countOf(client.collection('folders')),
      seed: (k, label) =>
        cloneInto(client.collection('folders'), prototypes.folder, k, `${label} folder`, { sortField: 'name_sort' }),
    },
    {
      name: 'GET /api/questions (client_admin)',
      path: '/api/questions',
      who: 'admin',
      count: () => countOf(client.collection('questions')),
      seed: (k) => cloneInto(client.collection('questions'), prototypes.question, k),
    },
    {
      name: 'GET /api/tests (client_admin)',
      path: '/api/tests',
      who: 'admin',
      count: () => countOf(client.collection('tests')),
      seed: (k) => cloneInto(client.collection('tests'), prototypes.test, k),
    },
    {
      name: 'GET /api/tests/{id}/share-codes (client_admin)',
      path: `/api/tests/${published.id}/share-codes`,
      who: 'admin',
      count: () => countOf(adminDb.collection('share_codes').where('test_id', '==', published.id)),
      seed: (k) =>
        cloneInto(adminDb.collection('share_codes'), prototypes.shareCode, k, '', {
          docId: (i) =>
            `B${RUN_ID.toUpperCase().replace(/[^0-9A-Z]/g, 'X')}${String(Date.now() % 1e6)}${i}`.slice(0, 40),
        }),
    },
  ];
  return { folder, question, test: published, shareCode, lists };
}

/** Sequential steps for every exam-authoring endpoint; victims of deletes and moves are made beforehand. */
export async function examSteps({ as, made }) {
  const post = async (path, body) => {
    const res = await call({ method: 'POST', path, body, ...as.admin });
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const N = 20;
  const WARM = 2;
  const many = (k, fn) => Promise.all(Array.from({ length: k }, (_, i) => fn(i)));
  const draft = (i, label) => ({
    test_name: `Bench ${label} ${RUN_ID} ${i}`,
    timer: 30,
    shuffle: 0,
    allow_review: 0,
    negative_marking: 0,
    status: 'draft',
    question_ids: [made.question.id],
  });
  // Victims, made through the API: deletes and moves consume one each.
  const folderVictims = await many(N + WARM, (i) => post('/api/folders', { name: `Bench victim ${RUN_ID} ${i}` }));
  const questionVictims = await many(N + WARM, (i) =>
    post('/api/questions', {
      question_text: `Bench victim ${RUN_ID} ${i}`,
      question_type: 'numeric',
      correct_answer: '1',
      marks: 1,
      difficulty: 'easy',
    }),
  );
  const toDelete = await many(N + WARM, (i) => post('/api/tests', draft(i, 'delete')));
  const toPublish = await many(N + WARM, (i) => post('/api/tests', draft(i, 'publish')));
  const toArchive = await many(N + WARM, async (i) =>
    post(`/api/tests/${(await post('/api/tests', draft(i, 'archive'))).id}/publish`),
  );
  const toRestore = await many(N + WARM, async (i) =>
    post(`/api/tests/${(await post('/api/tests', draft(i, 'restore'))).id}/archive`),
  );
  const codesToRevoke = await many(N + WARM, () => post(`/api/tests/${made.test.id}/share-codes`, {}));
  const importCsv = (i) => multipart(csvOfRows(20, `${RUN_ID}-step-${i}`), `step-${i}.csv`);
  const questionBody = (i) => ({
    question_text: `Bench ${RUN_ID} written ${i}`,
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'True',
    marks: 1,
    difficulty: 'easy',
    folder_id: made.folder.id,
  });
  const q = `/api/questions/${made.question.id}`;
  const t = `/api/tests/${made.test.id}`;
  const draftToEdit = await post('/api/tests', draft(0, 'edit'));

  return [
    {
      name: 'GET /api/folders (client_admin)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/folders', ...as.admin }),
    },
    {
      name: 'POST /api/folders (client_admin)',
      expected: 201,
      n: N,
      warmup: WARM,
      request: (i) => ({
        method: 'POST',
        path: '/api/folders',
        body: { name: `Bench created ${RUN_ID} ${i}` },
        ...as.admin,
      }),
    },
    {
      name: 'PATCH /api/folders/{id} (client_admin)',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({
        method: 'PATCH',
        path: `/api/folders/${made.folder.id}`,
        body: { name: `Bench folder ${RUN_ID} v${i}` },
        ...as.admin,
      }),
    },
    {
      name: 'DELETE /api/folders/{id} (client_admin)',
      expected: 204,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'DELETE', path: `/api/folders/${folderVictims[i].id}`, ...as.admin }),
    },
    {
      name: 'GET /api/questions (client_admin)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/questions', ...as.admin }),
    },
    {
      name: 'POST /api/questions (client_admin)',
      expected: 201,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'POST', path: '/api/questions', body: questionBody(i), ...as.admin }),
    },
    { name: 'GET /api/questions/{id} (client_admin)', expected: 200, n: 50, request: () => ({ path: q, ...as.admin }) },
    {
      name: 'PATCH /api/questions/{id} (client_admin, marks)',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'PATCH', path: q, body: { marks: 1 + (i % 5) }, ...as.admin }),
    },
    {
      name: 'PUT /api/questions/{id} (client_admin)',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({
        method: 'PUT',
        path: q,
        body: {
          question_text: `Bench ${RUN_ID}: 2 + 2? (v${i})`,
          question_type: 'multiple_choice',
          options: ['3', '4', '5'],
          correct_answer: '4',
          marks: 2,
          difficulty: 'easy',
          folder_id: made.folder.id,
        },
        ...as.admin,
      }),
    },
    {
      name: 'DELETE /api/questions/{id} (client_admin)',
      expected: 204,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'DELETE', path: `/api/questions/${questionVictims[i].id}`, ...as.admin }),
    },
    {
      name: 'POST /api/questions/import (20 rows)',
      expected: 201,
      n: 10,
      warmup: 1,
      request: (i) => ({
        method: 'POST',
        path: '/api/questions/import',
        rawBody: importCsv(i).body,
        contentType: importCsv(i).contentType,
        ...as.admin,
      }),
    },
    {
      name: 'GET /api/tests (client_admin)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/tests', ...as.admin }),
    },
    {
      name: 'GET /api/tests (student, published)',
      expected: 200,
      n: 50,
      request: () => ({ path: '/api/tests?status=published', ...as.student }),
    },
    {
      name: 'POST /api/tests (client_admin)',
      expected: 201,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'POST', path: '/api/tests', body: draft(i, 'created'), ...as.admin }),
    },
    { name: 'GET /api/tests/{id} (client_admin)', expected: 200, n: 50, request: () => ({ path: t, ...as.admin }) },
    {
      name: 'GET /api/tests/{id} (student, published)',
      expected: 200,
      n: 50,
      request: () => ({ path: t, ...as.student }),
    },
    {
      name: 'PUT /api/tests/{id} (client_admin, draft)',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'PUT', path: `/api/tests/${draftToEdit.id}`, body: draft(i, 'edited'), ...as.admin }),
    },
    {
      name: 'DELETE /api/tests/{id} (client_admin)',
      expected: 204,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'DELETE', path: `/api/tests/${toDelete[i].id}`, ...as.admin }),
    },
    {
      name: 'POST /api/tests/{id}/publish (1 question)',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'POST', path: `/api/tests/${toPublish[i].id}/publish`, ...as.admin }),
    },
    {
      name: 'POST /api/tests/{id}/archive',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'POST', path: `/api/tests/${toArchive[i].id}/archive`, ...as.admin }),
    },
    {
      name: 'POST /api/tests/{id}/restore',
      expected: 200,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'POST', path: `/api/tests/${toRestore[i].id}/restore`, ...as.admin }),
    },
    {
      name: 'POST /api/tests/{id}/share-codes',
      expected: 201,
      n: N,
      warmup: WARM,
      request: () => ({ method: 'POST', path: `${t}/share-codes`, body: { max_uses: 500 }, ...as.admin }),
    },
    {
      name: 'GET /api/tests/{id}/share-codes',
      expected: 200,
      n: 50,
      request: () => ({ path: `${t}/share-codes`, ...as.admin }),
    },
    {
      name: 'DELETE /api/tests/{id}/share-codes/{code}',
      expected: 204,
      n: N,
      warmup: WARM,
      request: (i) => ({ method: 'DELETE', path: `${t}/share-codes/${codesToRevoke[i].code}`, ...as.admin }),
    },
  ];
}
