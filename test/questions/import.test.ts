import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminDb } from '../support/admin';
import { createRoleMatrix, createTenant, createUser, uniqueName, type RoleMatrix } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { expectError, expectValidation } from '../support/assertions';
import { csvUpload, importCsv, multipartBody, postBytes } from '../support/multipart';

// POST /api/questions/import over real HTTP: the Functions emulator hands the
// body over as req.rawBody, as Cloud Functions does. The import is sensitive
// (10 per minute per user), so each test uploads as an administrator of its own.

const HEADER = 'question_text,question_type,options,correct_answer,marks,difficulty';
const EXAMPLE = readFileSync(join(__dirname, '..', '..', 'examples', 'questions.csv'));
/** Makes a file unique, so that no test trips over another's earlier import of the same bytes. */
const unique = (csv: string, extraColumns = 0) =>
  `${csv.replace(/\n*$/, '')}\nUnique ${randomUUID()}?,short_answer,,x,1,easy${','.repeat(extraColumns)}\n`;

type Tenant = Awaited<ReturnType<typeof createTenant>>;
let m: RoleMatrix;
let tenant: Tenant;
before(async () => {
  [m, tenant] = await Promise.all([createRoleMatrix(), createTenant()]);
});

/** A fresh Client Admin of the tenant: a rate-limit bucket of its own. */
const admin = async (t: Tenant = tenant) => (await createUser('client_admin', t.clientId)).token;

const questionCount = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/questions`).count().get()).data().count;
const importCount = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/question_imports`).count().get()).data().count;

/** Runs `act` and checks that it wrote no question and no import record. */
async function writesNothing(clientId: string, act: () => Promise<void>) {
  const [questions, imports] = await Promise.all([questionCount(clientId), importCount(clientId)]);
  await act();
  assert.equal(await questionCount(clientId), questions, 'no question written');
  assert.equal(await importCount(clientId), imports, 'no import record written');
}

describe('POST /api/questions/import', () => {
  describe('a valid file', () => {
    it('imports examples/questions.csv (every type) whole: 201 with the ids, in file order, stored as POST stores them', async () => {
      const t = await createTenant();
      const res = await importCsv(EXAMPLE, { token: t.admin.token });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), [
        'dry_run',
        'errors',
        'failed',
        'import_id',
        'imported',
        'question_ids',
        'questions',
      ]);
      assert.equal(res.body.imported, 11);
      assert.equal(res.body.failed, 0);
      assert.deepEqual(res.body.errors, []);
      assert.equal(res.body.dry_run, false);
      assert.match(res.body.import_id, /^[0-9a-f]{64}$/);
      const snaps = await adminDb.getAll(
        ...res.body.question_ids.map((id: string) => adminDb.doc(`clients/${t.clientId}/questions/${id}`)),
      );
      const stored = snaps.map((s) => s.data()!);
      assert.deepEqual(
        stored.map((q) => q.question_type),
        [
          'multiple_choice',
          'multiple_select',
          'true_false',
          'short_answer',
          'numeric',
          'multiple_choice',
          'multiple_select',
          'true_false',
          'numeric',
          'short_answer',
          'essay',
        ],
      );
      assert.equal(stored[1].correct_answer, '2|3|11');
      assert.equal(stored[4].tolerance, 0.005);
      assert.equal(stored[3].question_text, 'Name the chemical symbol for gold, in one or two letters.');
      assert.equal(stored[5].question_text, 'Which word completes the phrase "to be or not to ___"?');
      assert.equal(stored[6].question_text, 'Which of these are programming languages?\n(Choose all that apply.)');
      assert.deepEqual(stored[7].options, ['True', 'False']);
      assert.deepEqual(
        [stored[10].options, stored[10].correct_answer, stored[10].max_words, stored[10].marks],
        [[], '', 300, 10],
      );
      assert.ok(stored.slice(0, 10).every((q) => q.max_words === null));
      for (const q of stored) {
        assert.deepEqual(Object.keys(q).sort(), [
          'client_id',
          'correct_answer',
          'created_at',
          'difficulty',
          'folder_id',
          'id',
          'marks',
          'max_words',
          'options',
          'question_text',
          'question_type',
          'tolerance',
          'updated_at',
        ]);
        assert.equal(q.client_id, t.clientId);
      }
      const listed = await get('/api/questions?limit=100', { token: t.admin.token, ip: freshIp() });
      assert.equal(listed.body.pagination.total, 11);
      assert.equal(listed.body.data.find((q: any) => q.question_type === 'essay').correct_answer, null);
    });

    it('refuses the same file sent again with 409 naming the earlier import, leaving the bank as it was', async () => {
      const token = await admin();
      const csv = unique(`${HEADER}\nQ1?,short_answer,,a,1,easy`);
      const first = await importCsv(csv, { token });
      assert.equal(first.status, 201, first.text);
      await writesNothing(tenant.clientId, async () => {
        const again = await importCsv(csv, { token });
        expectError(again, 409, 'CONFLICT');
        assert.ok(again.body.message.includes(first.body.import_id), again.text);
      });
    });

    it('reads a spreadsheet export: BOM, CRLF, quoted commas, quotes and line breaks, blank rows and trailing blank lines', async () => {
      const token = await admin();
      const rows = [
        `${HEADER}`,
        '"Commas, here?",multiple_choice,"a, b|c",c,1,easy',
        '"He said ""hi"".",short_answer,,"""hi""",1,medium',
        '"Two',
        'lines?",true_false,,TRUE,1,hard',
        ',,,,,',
        '  What is 2+2?  ,numeric,,4,1.5,easy',
      ];
      const csv = `\ufeff${rows.join('\r\n')}\r\n\r\n\r\n`;
      const res = await importCsv(unique(csv).replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'), { token });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported, 5);
      const snaps = await adminDb.getAll(
        ...res.body.question_ids.map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
      );
      const [commas, quotes, lines, numeric] = snaps.map((s) => s.data()!);
      assert.deepEqual(commas.options, ['a, b', 'c']);
      assert.equal(quotes.question_text, 'He said "hi".');
      assert.equal(quotes.correct_answer, '"hi"');
      assert.equal(lines.question_text, 'Two\nlines?');
      assert.equal(lines.correct_answer, 'True');
      assert.equal(numeric.question_text, 'What is 2+2?');
      assert.equal(numeric.marks, 1.5);
    });

    it('files rows into the folder named in the folder_id column, with tolerance as an optional column', async () => {
      const token = await admin();
      const folder = await post('/api/folders', { name: uniqueName('Imported') }, { token, ip: freshIp() });
      const csv = unique(
        `${HEADER},folder_id,tolerance\nPi?,numeric,,3.14,1,easy,${folder.body.id},0.1\nFree?,short_answer,,x,1,easy,,`,
        2,
      );
      const res = await importCsv(csv, { token });
      assert.equal(res.status, 201, res.text);
      const [pi, free] = (
        await adminDb.getAll(
          ...res.body.question_ids
            .slice(0, 2)
            .map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
        )
      ).map((s) => s.data()!);
      assert.equal(pi.folder_id, folder.body.id);
      assert.equal(pi.tolerance, 0.1);
      assert.equal(free.folder_id, null);
      const listed = await get(`/api/questions?folder_id=${folder.body.id}`, { token, ip: freshIp() });
      assert.equal(listed.body.pagination.total, 1);
    });

    it('imports essays, with max_words as an optional column, and refuses an essay row with a correct_answer', async () => {
      const token = await admin();
      const header = `${HEADER},max_words`;
      const answered = unique(
        `${header}
Essay with a key?,essay,,Anything,5,hard,
Fine?,short_answer,,a,1,easy,`,
        1,
      );
      await writesNothing(tenant.clientId, async () => {
        const res = await importCsv(answered, { token });
        expectValidation(res, ['row 2.correct_answer']);
        assert.match(res.text, /An essay has no correct_answer; it is graded by a person/);
      });
      const csv = unique(
        `${header}
Explain photosynthesis.,essay,,,5,hard,200
Describe your town.,essay,,,3,easy,`,
        1,
      );
      const res = await importCsv(csv, { token });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported, 3);
      const [limited, open] = (
        await adminDb.getAll(
          ...res.body.question_ids
            .slice(0, 2)
            .map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
        )
      ).map((s) => s.data()!);
      assert.deepEqual(
        [limited.question_type, limited.options, limited.correct_answer, limited.max_words, limited.tolerance],
        ['essay', [], '', 200, null],
      );
      assert.deepEqual([open.question_type, open.max_words], ['essay', null]);
      const read = await get(`/api/questions/${limited.id}`, { token, ip: freshIp() });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual([read.body.correct_answer, read.body.max_words], [null, 200]);
    });

    it('imports the optional columns: title, text_format (HTML sanitized), feedback, option_feedback, option_credits, alternatives, case_sensitive', async () => {
      const token = await admin();
      const header = `${HEADER},title,text_format,feedback,option_feedback,option_credits,alternatives,case_sensitive`;
      const csv = unique(
        `${header}
Which are prime?,multiple_select,2|3|4,2|3,2,easy,Primes,,Two divisors,Yes|Yes|No,50|50|-100,,
"<p>Symbol of <b>sodium</b>?</p><script>x()</script>",short_answer,,Na,1,easy,,html,<i>Natrium</i>,,,N a:50,true
Pi?,numeric,,3.14,1,easy,,,,,,3:50:0.2|3.1:25,`,
        7,
      );
      const res = await importCsv(csv, { token });
      assert.equal(res.status, 201, res.text);
      const [select, short, numeric] = (
        await adminDb.getAll(
          ...res.body.question_ids
            .slice(0, 3)
            .map((id: string) => adminDb.doc(`clients/${tenant.clientId}/questions/${id}`)),
        )
      ).map((s) => s.data()!);
      assert.deepEqual(
        [select.title, select.feedback, select.option_feedback, select.option_credits],
        ['Primes', 'Two divisors', ['Yes', 'Yes', 'No'], [50, 50, -100]],
      );
      assert.deepEqual(
        [short.text_format, short.question_text, short.feedback, short.alternatives, short.case_sensitive],
        ['html', '<p>Symbol of <b>sodium</b>?</p>', '<i>Natrium</i>', [{ answer: 'N a', credit: 50 }], true],
      );
      assert.deepEqual(numeric.alternatives, [
        { answer: '3', credit: 50, tolerance: 0.2 },
        { answer: '3.1', credit: 25 },
      ]);
      const bad = unique(`${header}\nPick,multiple_choice,a|b,a,1,easy,,,,,100|0,,`, 7);
      await writesNothing(tenant.clientId, async () => {
        expectValidation(await importCsv(bad, { token }), ['row 2.option_credits']);
      });
    });
  });

  describe('invalid rows', () => {
    const bad = [
      `${HEADER}`,
      'Fine?,short_answer,,a,1,easy',
      'Zero marks?,short_answer,,a,0,easy',
      '"Multi',
      'line?",multiple_choice,a|b,c,1,easy',
      'Bad type?,cloze,,a,1,easy',
      'Bad difficulty?,true_false,,True,1,extreme',
      'Tolerance on text?,short_answer,,a,1,easy',
    ].join('\n');

    it('refuses the whole file by default (400) listing every bad row by file line and field, and writes nothing', async () => {
      const token = await admin();
      await writesNothing(tenant.clientId, async () => {
        const res = await importCsv(unique(bad), { token });
        expectValidation(res, ['row 3.marks', 'row 4.correct_answer', 'row 6.question_type', 'row 7.difficulty']);
        const details = res.body.details as Array<{ row: number; field: string; path: string }>;
        assert.ok(
          details.every((d) => typeof d.row === 'number' && typeof d.field === 'string'),
          res.text,
        );
        assert.ok(!details.some((d) => d.row === 2), 'the valid row is not listed');
        assert.match(res.body.message, /4 of 7 rows are invalid/);
      });
    });

    it('writes the valid rows with ?mode=partial and reports the others', async () => {
      const token = await admin();
      const before = await questionCount(tenant.clientId);
      const res = await importCsv(unique(bad), { token, query: 'mode=partial' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported, 3);
      assert.equal(res.body.failed, 4);
      assert.equal(res.body.question_ids.length, 3);
      assert.deepEqual([...new Set(res.body.errors.map((e: any) => e.row))], [3, 4, 6, 7]);
      assert.equal(await questionCount(tenant.clientId), before + 3);
    });

    it('refuses a tolerance on a question that is not numeric, and a folder_id naming no folder of the organization', async () => {
      const token = await admin();
      const csv = unique(
        `${HEADER},tolerance,folder_id\nText?,short_answer,,a,1,easy,0.5,\nIn nowhere?,short_answer,,a,1,easy,,${randomUUID()}`,
        2,
      );
      await writesNothing(tenant.clientId, async () => {
        expectValidation(await importCsv(csv, { token }), ['row 2.tolerance', 'row 3.folder_id']);
      });
    });

    it('refuses a file naming more than 100 different folders (400: each costs a read), writing nothing', async () => {
      const token = await admin();
      const rows = Array.from(
        { length: 101 },
        (_, i) => `Q${i}?,short_answer,,a,1,easy,folder-${i}-${randomUUID().slice(0, 8)}`,
      );
      await writesNothing(tenant.clientId, async () => {
        expectValidation(
          await importCsv(unique(`${HEADER},folder_id\n${rows.join('\n')}`, 1), { token }),
          ['file.folder_id'],
          ['100'],
        );
      });
    });

    it('refuses a Client Admin naming another organization’s folder (403), writing nothing', async () => {
      const token = await admin();
      const theirs = await post(
        '/api/folders',
        { name: uniqueName('Theirs') },
        { token: m.otherTenant.admin.token, ip: freshIp() },
      );
      await writesNothing(tenant.clientId, async () => {
        expectError(
          await importCsv(unique(`${HEADER},folder_id\nQ?,short_answer,,a,1,easy,${theirs.body.id}`, 1), { token }),
          403,
          'FORBIDDEN',
        );
      });
    });
  });

  describe('?dry_run=true', () => {
    it('checks the file and writes nothing, then the real import goes through', async () => {
      const token = await admin();
      const csv = unique(`${HEADER}\nA?,short_answer,,a,1,easy\nB?,true_false,,False,1,easy`);
      await writesNothing(tenant.clientId, async () => {
        const dry = await importCsv(csv, { token, query: 'dry_run=true' });
        assert.equal(dry.status, 201, dry.text);
        assert.deepEqual(dry.body, {
          import_id: null,
          dry_run: true,
          imported: 3,
          failed: 0,
          errors: [],
          question_ids: [],
          questions: [
            {
              index: 1,
              line: 2,
              title: null,
              question_type: 'short_answer',
              status: 'ok',
              message: null,
              warnings: [],
            },
            { index: 2, line: 3, title: null, question_type: 'true_false', status: 'ok', message: null, warnings: [] },
            {
              index: 3,
              line: 4,
              title: null,
              question_type: 'short_answer',
              status: 'ok',
              message: null,
              warnings: [],
            },
          ],
        });
      });
      assert.equal((await importCsv(csv, { token })).status, 201);
      expectError(await importCsv(csv, { token, query: 'dry_run=true' }), 409, 'CONFLICT');
    });

    it('refuses an unknown mode or dry_run value (400)', async () => {
      const token = await admin();
      expectValidation(await importCsv(EXAMPLE, { token, query: 'mode=some' }), ['query.mode']);
      expectValidation(await importCsv(EXAMPLE, { token, query: 'dry_run=yes' }), ['query.dry_run']);
    });
  });

  describe('broken files and uploads', () => {
    const broken: Array<[string, () => { body: Buffer; contentType: string }, RegExp]> = [
      ['an unclosed quote', () => csvUpload(`${HEADER}\n"Open quote?,short_answer,,a,1,easy\n`), /not valid CSV/],
      ['a wrong header', () => csvUpload('question,type,answer\nQ?,short_answer,a\n'), /header row/],
      ['a row with a column too many', () => csvUpload(`${HEADER}\nQ?,short_answer,,a,1,easy,extra\n`), /line 2/],
      [
        'binary bytes',
        () => csvUpload(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]), randomBytes(512)])),
        /not UTF-8 text/,
      ],
      ['text with NUL characters', () => csvUpload(`${HEADER}\nQ\u0000?,short_answer,,a,1,easy\n`), /not UTF-8 text/],
      ['an empty file', () => csvUpload(''), /empty/],
      ['a header and no rows', () => csvUpload(`${HEADER}\n\n`), /no questions/],
      [
        'two file parts',
        () =>
          multipartBody([
            { field: 'file', filename: 'a.csv', content: EXAMPLE },
            { field: 'file', filename: 'b.csv', content: EXAMPLE },
          ]),
        /exactly one/,
      ],
      [
        'no part named file',
        () => multipartBody([{ field: 'upload', filename: 'a.csv', content: EXAMPLE }]),
        /named "file"/,
      ],
      [
        'a text field besides the file',
        () =>
          multipartBody([
            { field: 'note', content: 'hello' },
            { field: 'file', filename: 'a.csv', content: EXAMPLE },
          ]),
        /only the file part/,
      ],
      [
        'a truncated multipart body',
        () => {
          const u = csvUpload(EXAMPLE);
          return { ...u, body: u.body.subarray(0, u.body.length - 60) };
        },
        /malformed|Unexpected end/,
      ],
      [
        'a multipart body with no parts at all',
        () => ({ body: Buffer.from('--x--\r\n'), contentType: 'multipart/form-data; boundary=x' }),
        /No file part/,
      ],
      [
        'a CSV sent as text/csv instead of multipart',
        () => ({ body: EXAMPLE, contentType: 'text/csv' }),
        /multipart\/form-data/,
      ],
      [
        'multipart without a boundary',
        () => ({ body: csvUpload(EXAMPLE).body, contentType: 'multipart/form-data' }),
        /multipart/,
      ],
    ];
    for (const [what, build, message] of broken) {
      it(`answers 400 with a clear message for ${what}, writing nothing`, async () => {
        const token = await admin();
        await writesNothing(tenant.clientId, async () => {
          const upload = build();
          const res = await postBytes('/api/questions/import', upload.body, upload.contentType, { token });
          expectError(res, 400, 'VALIDATION_ERROR');
          assert.match(res.body.message, message);
        });
      });
    }

    it('answers 400 for JSON sent instead of a file', async () => {
      const res = await post('/api/questions/import', { questions: [] }, { token: await admin(), ip: freshIp() });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('answers 413 for a file over 5 MB, writing nothing', async () => {
      const token = await admin();
      const row = 'A question that is long enough to fill the file quickly?,short_answer,,a,1,easy\n';
      const big = HEADER + '\n' + row.repeat(Math.ceil((5 * 1024 * 1024 + 1) / row.length));
      await writesNothing(tenant.clientId, async () => {
        expectError(await importCsv(big, { token }), 413, 'PAYLOAD_TOO_LARGE');
      });
    });

    it('answers 400 for more than 5,000 rows, writing nothing', async () => {
      const token = await admin();
      const rows = Array.from({ length: 5001 }, (_, i) => `Q${i}?,short_answer,,a,1,easy`);
      await writesNothing(tenant.clientId, async () => {
        const res = await importCsv(`${HEADER}\n${rows.join('\n')}\n`, { token });
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.message, /more than 5000/);
      });
    });
  });

  describe('bounded error replies', () => {
    it('answers a header of 20,000 unknown columns with 400 and a message cut to 500 characters (a reply under 4 KB), writing nothing', async () => {
      const token = await admin();
      const header = Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(',');
      await writesNothing(tenant.clientId, async () => {
        const res = await importCsv(`${header}\n${'x,'.repeat(19_999)}x\n`, { token });
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.message, /header row/);
        assert.ok(res.body.message.length <= 500, `message of ${res.body.message.length} characters`);
        for (const d of res.body.details ?? [])
          assert.ok(d.message.length <= 500 && d.path.length <= 500, JSON.stringify(d).slice(0, 200));
        assert.ok(res.text.length < 4096, `reply of ${res.text.length} bytes`);
      });
    });

    it('answers 5,000 bad rows with 400 listing the first 100 details in file order and details_total 5000, the report of every row beside (a reply under 1 MB), writing nothing', async () => {
      const token = await admin();
      const rows = Array.from({ length: 5000 }, (_, i) => `Zero marks ${i} ${randomUUID()}?,short_answer,,a,0,easy`);
      await writesNothing(tenant.clientId, async () => {
        const res = await importCsv(`${HEADER}\n${rows.join('\n')}\n`, { token });
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.message, /5000 of 5000 rows are invalid/);
        assert.equal(res.body.details.length, 100);
        assert.equal(res.body.details_total, 5000);
        assert.deepEqual(
          res.body.details.map((d: any) => d.row),
          Array.from({ length: 100 }, (_, i) => i + 2),
        );
        // The per-question report has every row, as the 201 would: a short line each.
        assert.deepEqual(
          res.body.questions.map((q: any) => [q.line, q.status]),
          Array.from({ length: 5000 }, (_, i) => [i + 2, 'error']),
        );
        assert.ok(res.text.length < 1024 * 1024, `reply of ${res.text.length} bytes`);
      });
    });
  });

  describe('who may import', () => {
    it('refuses Students, Guests, users without a role (403) and no token (401)', async () => {
      for (const token of [tenant.student.token, m.guest.token, m.noRole.token]) {
        expectError(await importCsv(EXAMPLE, { token }), 403, 'FORBIDDEN');
      }
      expectError(await importCsv(EXAMPLE, {}), 401, 'UNAUTHORIZED');
    });

    it('refuses a Client Admin naming another organization (403)', async () => {
      await writesNothing(m.otherTenant.clientId, async () => {
        expectError(
          await importCsv(EXAMPLE, { token: await admin(), query: `client_id=${m.otherTenant.clientId}` }),
          403,
          'FORBIDDEN',
        );
      });
    });

    it('needs client_id from a Super Admin (400), and imports into the organization it names', async () => {
      expectValidation(await importCsv(EXAMPLE, { token: m.superAdmin.token }), ['query.client_id']);
      const t = await createTenant();
      const res = await importCsv(EXAMPLE, { token: m.superAdmin.token, query: `client_id=${t.clientId}` });
      assert.equal(res.status, 201, res.text);
      assert.equal(await questionCount(t.clientId), 11);
    });
  });
});
