import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminDb } from '../support/admin';
import { createRoleMatrix, uniqueName, type RoleMatrix } from '../support/fixtures';
import { api, del, freshIp, get, patch, post } from '../support/http';
import { expectError, expectValidation, ISO_UTC } from '../support/assertions';

// The question bank over real HTTP with real Auth-emulator tokens.

const QUESTION_FIELDS = [
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
];

const samples = {
  multiple_choice: {
    question_type: 'multiple_choice',
    question_text: 'Capital of France?',
    options: ['Paris', 'London', 'Berlin'],
    correct_answer: 'paris',
    marks: 1,
    difficulty: 'easy',
  },
  multiple_select: {
    question_type: 'multiple_select',
    question_text: 'Primes?',
    options: ['2', '3', '4', '9'],
    correct_answer: '3|2',
    marks: 2,
    difficulty: 'medium',
  },
  true_false: {
    question_type: 'true_false',
    question_text: 'The sky is blue.',
    correct_answer: 'true',
    marks: 1,
    difficulty: 'easy',
  },
  short_answer: {
    question_type: 'short_answer',
    question_text: 'Symbol for gold?',
    correct_answer: 'Au',
    marks: 1,
    difficulty: 'hard',
  },
  numeric: {
    question_type: 'numeric',
    question_text: 'Pi to two places?',
    correct_answer: '3.14',
    tolerance: 0.005,
    marks: 2,
    difficulty: 'medium',
  },
  essay: {
    question_type: 'essay',
    question_text: 'Why do the seasons change?',
    max_words: 300,
    marks: 10,
    difficulty: 'hard',
  },
} as const;

let m: RoleMatrix;
let ip: string;
before(async () => {
  m = await createRoleMatrix();
});
beforeEach(() => {
  ip = freshIp();
});

const put = (path: string, body: unknown, o: { token?: string; ip?: string }) => api('PUT', path, { ...o, body });

async function create(token: string, body: Record<string, unknown>) {
  const res = await post('/api/questions', body, { token, ip });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const folderFor = async (token: string) => {
  const res = await post('/api/folders', { name: uniqueName('F') }, { token, ip });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
};

describe('POST /api/questions', () => {
  it('creates one question of every type, stored with exactly the documented fields and normalized answers', async () => {
    const expected: Record<
      string,
      { options: string[]; correct_answer: string | null; tolerance: number | null; max_words: number | null }
    > = {
      multiple_choice: {
        options: ['Paris', 'London', 'Berlin'],
        correct_answer: 'Paris',
        tolerance: null,
        max_words: null,
      },
      multiple_select: { options: ['2', '3', '4', '9'], correct_answer: '2|3', tolerance: null, max_words: null },
      true_false: { options: ['True', 'False'], correct_answer: 'True', tolerance: null, max_words: null },
      short_answer: { options: [], correct_answer: 'Au', tolerance: null, max_words: null },
      numeric: { options: [], correct_answer: '3.14', tolerance: 0.005, max_words: null },
      essay: { options: [], correct_answer: null, tolerance: null, max_words: 300 },
    };
    for (const [type, body] of Object.entries(samples)) {
      const q = await create(m.tenant.admin.token, body);
      assert.deepEqual(Object.keys(q).sort(), QUESTION_FIELDS, JSON.stringify(q));
      assert.equal(q.question_type, type);
      assert.equal(q.client_id, m.tenant.clientId);
      assert.equal(q.folder_id, null);
      assert.match(q.created_at, ISO_UTC);
      assert.deepEqual(
        { options: q.options, correct_answer: q.correct_answer, tolerance: q.tolerance, max_words: q.max_words },
        expected[type],
      );
      const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).data();
      // An essay's empty answer key is stored as '' and answered as null.
      assert.deepEqual(stored, type === 'essay' ? { ...q, correct_answer: '' } : q, 'stored exactly as answered');
    }
  });

  it('files a question into a folder of the organization', async () => {
    const folderId = await folderFor(m.tenant.admin.token);
    const q = await create(m.tenant.admin.token, { ...samples.short_answer, folder_id: folderId });
    assert.equal(q.folder_id, folderId);
  });

  it('refuses another organization’s folder (403) and an unknown one (404), writing nothing', async () => {
    const theirs = await folderFor(m.otherTenant.admin.token);
    const before = (await adminDb.collection(`clients/${m.tenant.clientId}/questions`).count().get()).data().count;
    expectError(
      await post('/api/questions', { ...samples.short_answer, folder_id: theirs }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await post(
        '/api/questions',
        { ...samples.short_answer, folder_id: randomUUID() },
        { token: m.tenant.admin.token, ip },
      ),
      404,
      'NOT_FOUND',
    );
    const after = (await adminDb.collection(`clients/${m.tenant.clientId}/questions`).count().get()).data().count;
    assert.equal(after, before);
  });

  it('lets a Super Admin create in the organization it names (and needs it), 400 for a folder of another organization', async () => {
    const q = await create(m.superAdmin.token, { ...samples.true_false, client_id: m.otherTenant.clientId });
    assert.equal(q.client_id, m.otherTenant.clientId);
    expectValidation(await post('/api/questions', samples.true_false, { token: m.superAdmin.token, ip }), [
      'body.client_id',
    ]);
    const folderOfTenant = await folderFor(m.tenant.admin.token);
    expectValidation(
      await post(
        '/api/questions',
        { ...samples.true_false, client_id: m.otherTenant.clientId, folder_id: folderOfTenant },
        { token: m.superAdmin.token, ip },
      ),
      ['body.folder_id'],
    );
  });

  const invalid: Array<[string, Record<string, unknown>, string[]]> = [
    ['an unknown question_type', { ...samples.short_answer, question_type: 'cloze' }, ['body.question_type']],
    ['marks of 0', { ...samples.short_answer, marks: 0 }, ['body.marks']],
    ['marks above 1000', { ...samples.short_answer, marks: 1001 }, ['body.marks']],
    ['marks as text', { ...samples.short_answer, marks: '1' }, ['body.marks']],
    ['an unknown difficulty', { ...samples.short_answer, difficulty: 'extreme' }, ['body.difficulty']],
    ['an empty question_text', { ...samples.short_answer, question_text: '  ' }, ['body.question_text']],
    ['a question_text too long', { ...samples.short_answer, question_text: 'x'.repeat(2001) }, ['body.question_text']],
    ['multiple_choice with one option', { ...samples.multiple_choice, options: ['Paris'] }, ['body.options']],
    [
      'multiple_choice with 11 options',
      { ...samples.multiple_choice, options: Array.from({ length: 11 }, (_, i) => `o${i}`), correct_answer: 'o1' },
      ['body.options'],
    ],
    [
      'multiple_choice with duplicate options (case and spacing ignored)',
      { ...samples.multiple_choice, options: ['Paris', ' paris ', 'Rome'] },
      ['body.options.1'],
    ],
    [
      'multiple_choice with an answer not among the options',
      { ...samples.multiple_choice, correct_answer: 'Rome' },
      ['body.correct_answer'],
    ],
    [
      'an option containing "|"',
      { ...samples.multiple_choice, options: ['Paris|Lyon', 'London'], correct_answer: 'London' },
      ['body.options.0'],
    ],
    [
      'an option too long',
      { ...samples.multiple_choice, options: ['x'.repeat(501), 'London'], correct_answer: 'London' },
      ['body.options.0'],
    ],
    [
      'multiple_select naming an unknown option',
      { ...samples.multiple_select, correct_answer: '2|5' },
      ['body.correct_answer'],
    ],
    [
      'multiple_select naming one option twice',
      { ...samples.multiple_select, correct_answer: '2|2' },
      ['body.correct_answer'],
    ],
    ['true_false with other options', { ...samples.true_false, options: ['Yes', 'No'] }, ['body.options']],
    [
      'true_false with an answer that is not True or False',
      { ...samples.true_false, correct_answer: 'yes' },
      ['body.correct_answer'],
    ],
    ['short_answer with options', { ...samples.short_answer, options: ['Au', 'Ag'] }, ['body.options']],
    ['short_answer with a tolerance', { ...samples.short_answer, tolerance: 1 }, ['body']],
    ['numeric with a non-number answer', { ...samples.numeric, correct_answer: 'three' }, ['body.correct_answer']],
    ['numeric with an infinite answer', { ...samples.numeric, correct_answer: '1e999' }, ['body.correct_answer']],
    ['numeric with a negative tolerance', { ...samples.numeric, tolerance: -1 }, ['body.tolerance']],
    ['an essay with a correct_answer', { ...samples.essay, correct_answer: 'Axial tilt' }, ['body.correct_answer']],
    ['an essay with options', { ...samples.essay, options: ['a', 'b'] }, ['body.options']],
    ['an essay with max_words of 0', { ...samples.essay, max_words: 0 }, ['body.max_words']],
    ['an essay with max_words above 10000', { ...samples.essay, max_words: 10_001 }, ['body.max_words']],
    ['an essay with a fractional max_words', { ...samples.essay, max_words: 2.5 }, ['body.max_words']],
    ['an essay with a tolerance', { ...samples.essay, tolerance: 1 }, ['body']],
    ['max_words on a question that is not an essay', { ...samples.short_answer, max_words: 100 }, ['body']],
    ['an unknown field', { ...samples.short_answer, hint: 'gold' }, ['body']],
  ];
  for (const [what, body, paths] of invalid) {
    it(`refuses ${what} (400)`, async () => {
      expectValidation(await post('/api/questions', body, { token: m.tenant.admin.token, ip }), paths);
    });
  }

  it('refuses Students, Guests and users without a role (403), no token (401), another organization’s client_id (403)', async () => {
    expectError(
      await post('/api/questions', samples.short_answer, { token: m.tenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(await post('/api/questions', samples.short_answer, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/questions', samples.short_answer, { token: m.noRole.token, ip }), 403, 'FORBIDDEN');
    expectError(await post('/api/questions', samples.short_answer, { ip }), 401, 'UNAUTHORIZED');
    expectError(
      await post(
        '/api/questions',
        { ...samples.short_answer, client_id: m.otherTenant.clientId },
        { token: m.tenant.admin.token, ip },
      ),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /api/questions', () => {
  let tenant: RoleMatrix['tenant'];
  let folderId: string;
  const ids: string[] = [];
  before(async () => {
    tenant = m.otherTenant;
    ip = freshIp();
    folderId = await folderFor(tenant.admin.token);
    for (const body of [
      samples.multiple_choice,
      { ...samples.numeric, folder_id: folderId },
      { ...samples.short_answer, folder_id: folderId },
    ]) {
      ids.push((await create(tenant.admin.token, body)).id);
    }
  });

  it('lists newest first with data and pagination, answer keys included for administrators', async () => {
    const res = await get('/api/questions?limit=100', { token: tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    const mine = res.body.data.filter((q: any) => ids.includes(q.id)).map((q: any) => q.id);
    assert.deepEqual(mine, [...ids].reverse());
    const created = res.body.data.map((q: any) => q.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    assert.ok(res.body.data.every((q: any) => 'correct_answer' in q && q.client_id === tenant.clientId));
    assert.deepEqual(Object.keys(res.body.pagination).sort(), ['limit', 'next_cursor', 'page', 'pages', 'total']);
  });

  it('filters by folder_id, question_type and difficulty', async () => {
    const inFolder = await get(`/api/questions?folder_id=${folderId}`, { token: tenant.admin.token, ip });
    assert.deepEqual(
      inFolder.body.data.map((q: any) => q.id),
      [ids[2], ids[1]],
    );
    assert.equal(inFolder.body.pagination.total, 2);
    const numeric = await get(`/api/questions?folder_id=${folderId}&question_type=numeric&difficulty=medium`, {
      token: tenant.admin.token,
      ip,
    });
    assert.deepEqual(
      numeric.body.data.map((q: any) => q.id),
      [ids[1]],
    );
    const none = await get(`/api/questions?folder_id=${folderId}&difficulty=easy`, { token: tenant.admin.token, ip });
    assert.deepEqual(none.body.data, []);
  });

  it('pages with limit and cursor without repeating an item', async () => {
    const first = await get(`/api/questions?folder_id=${folderId}&limit=1`, { token: tenant.admin.token, ip });
    assert.equal(first.body.data.length, 1);
    const second = await get(
      `/api/questions?folder_id=${folderId}&limit=1&cursor=${first.body.pagination.next_cursor}`,
      { token: tenant.admin.token, ip },
    );
    assert.equal(second.body.data.length, 1);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);
    assert.equal(second.body.pagination.next_cursor, null);
  });

  it('answers 403 for another organization’s client_id or folder_id, 404 for an unknown folder_id, 400 for bad filters', async () => {
    expectError(
      await get(`/api/questions?client_id=${tenant.clientId}`, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await get(`/api/questions?folder_id=${folderId}`, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await get(`/api/questions?folder_id=${randomUUID()}`, { token: tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectValidation(await get('/api/questions?difficulty=extreme', { token: tenant.admin.token, ip }), [
      'query.difficulty',
    ]);
    expectValidation(await get('/api/questions?question_type=cloze', { token: tenant.admin.token, ip }), [
      'query.question_type',
    ]);
    expectValidation(await get('/api/questions?limit=101', { token: tenant.admin.token, ip }), ['query.limit']);
  });

  it('needs client_id from a Super Admin and refuses Students, Guests (403) and no token (401)', async () => {
    expectValidation(await get('/api/questions', { token: m.superAdmin.token, ip }), ['query.client_id']);
    const res = await get(`/api/questions?client_id=${tenant.clientId}&folder_id=${folderId}`, {
      token: m.superAdmin.token,
      ip,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.pagination.total, 2);
    expectError(await get('/api/questions', { token: tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/questions', { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await get('/api/questions', { ip }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/questions/{questionId}', () => {
  it('answers an administrator of the organization and a Super Admin with the question and its answer key', async () => {
    const q = await create(m.tenant.admin.token, samples.numeric);
    for (const token of [m.tenant.admin.token, m.superAdmin.token]) {
      const res = await get(`/api/questions/${q.id}`, { token, ip });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, q);
    }
  });

  it('answers 403 for another organization’s question, 404 for an unknown one, 403 for a Student of its own organization and Guests', async () => {
    const q = await create(m.tenant.admin.token, samples.multiple_choice);
    expectError(await get(`/api/questions/${q.id}`, { token: m.otherTenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/questions/${randomUUID()}`, { token: m.tenant.admin.token, ip }), 404, 'NOT_FOUND');
    expectError(await get(`/api/questions/${randomUUID()}`, { token: m.superAdmin.token, ip }), 404, 'NOT_FOUND');
    const asStudent = await get(`/api/questions/${q.id}`, { token: m.tenant.student.token, ip });
    expectError(asStudent, 403, 'FORBIDDEN');
    assert.ok(
      !asStudent.text.includes('correct_answer') && !asStudent.text.includes('Paris'),
      'no answer key reaches a Student',
    );
    expectError(await get(`/api/questions/${q.id}`, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await get(`/api/questions/${q.id}`, { ip }), 401, 'UNAUTHORIZED');
  });

  it('refuses an id that is too long (400)', async () => {
    expectValidation(await get(`/api/questions/${'x'.repeat(129)}`, { token: m.tenant.admin.token, ip }), [
      'params.questionId',
    ]);
  });
});

describe('PUT /api/questions/{questionId}', () => {
  it('replaces the question whole, clearing folder_id and tolerance left out, keeping id and created_at', async () => {
    const folderId = await folderFor(m.tenant.admin.token);
    const q = await create(m.tenant.admin.token, { ...samples.numeric, folder_id: folderId });
    const res = await put(`/api/questions/${q.id}`, samples.multiple_choice, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, q.id);
    assert.equal(res.body.created_at, q.created_at);
    assert.equal(res.body.question_type, 'multiple_choice');
    assert.equal(res.body.folder_id, null);
    assert.equal(res.body.tolerance, null);
    assert.ok(res.body.updated_at >= q.updated_at);
    assert.deepEqual((await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).data(), res.body);
  });

  it('refuses an invalid question (400), a move to another organization (400), another organization’s question (403), an unknown one (404)', async () => {
    const q = await create(m.tenant.admin.token, samples.short_answer);
    expectValidation(
      await put(
        `/api/questions/${q.id}`,
        { ...samples.multiple_choice, correct_answer: 'Rome' },
        { token: m.tenant.admin.token, ip },
      ),
      ['body.correct_answer'],
    );
    expectValidation(
      await put(
        `/api/questions/${q.id}`,
        { ...samples.short_answer, client_id: m.otherTenant.clientId },
        { token: m.superAdmin.token, ip },
      ),
      ['body.client_id'],
    );
    expectError(
      await put(`/api/questions/${q.id}`, samples.short_answer, { token: m.otherTenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await put(`/api/questions/${randomUUID()}`, samples.short_answer, { token: m.tenant.admin.token, ip }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await put(`/api/questions/${q.id}`, samples.short_answer, { token: m.tenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('PATCH /api/questions/{questionId}', () => {
  it('changes only the fields sent, checking the result as a whole question', async () => {
    const q = await create(m.tenant.admin.token, samples.multiple_choice);
    const res = await patch(
      `/api/questions/${q.id}`,
      { marks: 5, correct_answer: 'London' },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.marks, 5);
    assert.equal(res.body.correct_answer, 'London');
    assert.deepEqual(res.body.options, q.options);
    expectValidation(
      await patch(`/api/questions/${q.id}`, { options: ['Rome', 'Madrid'] }, { token: m.tenant.admin.token, ip }),
      ['body.correct_answer'],
    );
  });

  it('changes the type, dropping options and tolerance that no longer fit, and clears fields sent as null', async () => {
    const folderId = await folderFor(m.tenant.admin.token);
    const q = await create(m.tenant.admin.token, { ...samples.numeric, folder_id: folderId });
    const res = await patch(
      `/api/questions/${q.id}`,
      { question_type: 'true_false', correct_answer: 'False', folder_id: null },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.options, ['True', 'False']);
    assert.equal(res.body.tolerance, null);
    assert.equal(res.body.folder_id, null);
    const numeric = await create(m.tenant.admin.token, samples.numeric);
    const cleared = await patch(
      `/api/questions/${numeric.id}`,
      { tolerance: null },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(cleared.body.tolerance, null);
  });

  it('refuses an empty body, a tolerance on a non-numeric question (400), another organization’s folder or question (403)', async () => {
    const q = await create(m.tenant.admin.token, samples.short_answer);
    expectValidation(await patch(`/api/questions/${q.id}`, {}, { token: m.tenant.admin.token, ip }), ['body']);
    expectValidation(
      await patch(`/api/questions/${q.id}`, { tolerance: 1 }, { token: m.tenant.admin.token, ip }),
      ['body'],
      ['numeric'],
    );
    const theirFolder = await folderFor(m.otherTenant.admin.token);
    expectError(
      await patch(`/api/questions/${q.id}`, { folder_id: theirFolder }, { token: m.tenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await patch(`/api/questions/${q.id}`, { marks: 2 }, { token: m.otherTenant.admin.token, ip }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await patch(`/api/questions/${q.id}`, { marks: 2 }, { token: m.tenant.student.token, ip }),
      403,
      'FORBIDDEN',
    );
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).data();
    assert.deepEqual(stored, q, 'nothing changed');
  });
});

describe('essays in the question bank', () => {
  const storedOf = async (id: string) =>
    (await adminDb.doc(`clients/${m.tenant.clientId}/questions/${id}`).get()).data()!;

  it('creates an essay and reads it back with correct_answer null and its max_words, in the list too', async () => {
    const q = await create(m.tenant.admin.token, samples.essay);
    const res = await get(`/api/questions/${q.id}`, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, q);
    assert.deepEqual(
      [res.body.question_type, res.body.options, res.body.correct_answer, res.body.max_words, res.body.tolerance],
      ['essay', [], null, 300, null],
    );
    const stored = await storedOf(q.id);
    assert.deepEqual([stored.correct_answer, stored.max_words], ['', 300]);
    const listed = await get('/api/questions?question_type=essay&limit=100', { token: m.tenant.admin.token, ip });
    assert.equal(listed.status, 200, listed.text);
    const item = listed.body.data.find((x: any) => x.id === q.id);
    assert.deepEqual(item, q);
    assert.ok(listed.body.data.every((x: any) => x.question_type === 'essay' && x.correct_answer === null));
    const open = await create(m.tenant.admin.token, {
      ...samples.essay,
      max_words: undefined,
      correct_answer: '',
      options: [],
    });
    assert.deepEqual([open.correct_answer, open.max_words], [null, null]);
  });

  it('PATCH changes max_words and clears it with null; a correct_answer is refused with a clear message', async () => {
    const q = await create(m.tenant.admin.token, samples.essay);
    const changed = await patch(`/api/questions/${q.id}`, { max_words: 150 }, { token: m.tenant.admin.token, ip });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.body.max_words, changed.body.correct_answer, changed.body.marks], [150, null, 10]);
    const marks = await patch(`/api/questions/${q.id}`, { marks: 12 }, { token: m.tenant.admin.token, ip });
    assert.deepEqual([marks.body.max_words, marks.body.marks], [150, 12], 'max_words kept when not sent');
    const cleared = await patch(`/api/questions/${q.id}`, { max_words: null }, { token: m.tenant.admin.token, ip });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.max_words, null);
    assert.equal((await storedOf(q.id)).max_words, null);
    const keyed = await patch(
      `/api/questions/${q.id}`,
      { correct_answer: 'Axial tilt' },
      { token: m.tenant.admin.token, ip },
    );
    expectValidation(keyed, ['body.correct_answer'], ['An essay has no correct_answer; it is graded by a person']);
    expectValidation(
      await patch(`/api/questions/${q.id}`, { max_words: 10_001 }, { token: m.tenant.admin.token, ip }),
      ['body.max_words'],
    );
  });

  it('PATCH makes a question an essay (dropping its answer key) and an essay another type (dropping max_words); max_words elsewhere is refused', async () => {
    const q = await create(m.tenant.admin.token, samples.short_answer);
    expectValidation(
      await patch(`/api/questions/${q.id}`, { max_words: 100 }, { token: m.tenant.admin.token, ip }),
      ['body'],
      ['max_words'],
    );
    const essay = await patch(
      `/api/questions/${q.id}`,
      { question_type: 'essay', max_words: 80 },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(essay.status, 200, essay.text);
    assert.deepEqual([essay.body.question_type, essay.body.correct_answer, essay.body.max_words], ['essay', null, 80]);
    expectValidation(
      await patch(`/api/questions/${q.id}`, { question_type: 'short_answer' }, { token: m.tenant.admin.token, ip }),
      ['body.correct_answer'],
    );
    const back = await patch(
      `/api/questions/${q.id}`,
      { question_type: 'short_answer', correct_answer: 'Au' },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(
      [back.body.question_type, back.body.correct_answer, back.body.max_words],
      ['short_answer', 'Au', null],
    );
    assert.deepEqual(await storedOf(q.id), back.body);
  });

  it('PUT replaces a question with an essay, and max_words left out is cleared', async () => {
    const q = await create(m.tenant.admin.token, samples.numeric);
    const essay = await put(`/api/questions/${q.id}`, samples.essay, { token: m.tenant.admin.token, ip });
    assert.equal(essay.status, 200, essay.text);
    assert.deepEqual(
      [essay.body.question_type, essay.body.correct_answer, essay.body.tolerance, essay.body.max_words],
      ['essay', null, null, 300],
    );
    const { max_words: _dropped, ...withoutLimit } = samples.essay;
    const open = await put(`/api/questions/${q.id}`, withoutLimit, { token: m.tenant.admin.token, ip });
    assert.equal(open.status, 200, open.text);
    assert.equal(open.body.max_words, null);
  });
});

describe('DELETE /api/questions/{questionId}', () => {
  it('deletes a question (204), then answers 404', async () => {
    const q = await create(m.tenant.admin.token, samples.true_false);
    assert.equal((await del(`/api/questions/${q.id}`, { token: m.tenant.admin.token, ip })).status, 204);
    assert.equal((await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).exists, false);
    expectError(await del(`/api/questions/${q.id}`, { token: m.tenant.admin.token, ip }), 404, 'NOT_FOUND');
  });

  it('answers 403 for another organization’s question and for Students and Guests, keeping it', async () => {
    const q = await create(m.tenant.admin.token, samples.true_false);
    expectError(await del(`/api/questions/${q.id}`, { token: m.otherTenant.admin.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/questions/${q.id}`, { token: m.tenant.student.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/questions/${q.id}`, { token: m.guest.token, ip }), 403, 'FORBIDDEN');
    expectError(await del(`/api/questions/${q.id}`, { ip }), 401, 'UNAUTHORIZED');
    assert.equal((await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).exists, true);
  });
});

describe('POST and GET /api/questions/{questionId} with the optional fields', () => {
  const full = {
    question_type: 'multiple_select',
    title: '  Primes  ',
    text_format: 'html',
    question_text:
      '<p onclick="x()">Which are <b>prime</b>?</p><img src="/api/media/m1" onerror="alert(1)"><script>alert(2)</script>',
    options: ['2', '3', '4'],
    correct_answer: '3|2',
    option_credits: [50, 50, -100],
    option_feedback: ['<i>yes</i>', 'yes', '<a href="javascript:alert(1)">no</a>'],
    feedback: '<p>Two divisors</p><iframe src="https://example.org"></iframe>',
    marks: 2,
    difficulty: 'medium',
  };

  it('stores every field (HTML sanitized, title trimmed) and answers the same on POST and GET', async () => {
    const q = await create(m.tenant.admin.token, full);
    assert.deepEqual(
      {
        title: q.title,
        text_format: q.text_format,
        question_text: q.question_text,
        correct_answer: q.correct_answer,
        option_credits: q.option_credits,
        option_feedback: q.option_feedback,
        feedback: q.feedback,
      },
      {
        title: 'Primes',
        text_format: 'html',
        question_text: '<p>Which are <b>prime</b>?</p><img src="/api/media/m1" />',
        correct_answer: '2|3',
        option_credits: [50, 50, -100],
        option_feedback: ['<i>yes</i>', 'yes', '<a>no</a>'],
        feedback: '<p>Two divisors</p>',
      },
    );
    const stored = (await adminDb.doc(`clients/${m.tenant.clientId}/questions/${q.id}`).get()).data();
    assert.deepEqual(stored, q, 'stored exactly as answered');
    const read = await get(`/api/questions/${q.id}`, { token: m.tenant.admin.token, ip });
    assert.deepEqual(read.body, q);

    const short = await create(m.tenant.admin.token, {
      question_type: 'short_answer',
      question_text: 'Symbol of sodium?',
      correct_answer: 'Na',
      alternatives: [{ answer: 'N a', credit: 50 }],
      case_sensitive: true,
      marks: 1,
      difficulty: 'easy',
    });
    assert.deepEqual([short.alternatives, short.case_sensitive], [[{ answer: 'N a', credit: 50 }], true]);
  });

  it('keeps the fields across a PATCH of another field, and clears one sent null', async () => {
    const q = await create(m.tenant.admin.token, full);
    const changed = await patch(`/api/questions/${q.id}`, { marks: 4 }, { token: m.tenant.admin.token, ip });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual({ ...changed.body, marks: 2, updated_at: q.updated_at }, q);
    const cleared = await patch(
      `/api/questions/${q.id}`,
      { feedback: null, option_credits: null },
      { token: m.tenant.admin.token, ip },
    );
    assert.equal(cleared.status, 200, cleared.text);
    assert.ok(!('feedback' in cleared.body) && !('option_credits' in cleared.body), cleared.text);
  });

  it('clears the fields a PUT leaves out', async () => {
    const q = await create(m.tenant.admin.token, full);
    const res = await put(`/api/questions/${q.id}`, samples.multiple_select, { token: m.tenant.admin.token, ip });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), QUESTION_FIELDS);
  });

  it('refuses each field of the wrong type or shape, naming it', async () => {
    for (const [label, body, paths] of [
      ['a title of 256 characters', { ...samples.short_answer, title: 'x'.repeat(256) }, ['body.title']],
      ['an unknown text_format', { ...samples.short_answer, text_format: 'md' }, ['body.text_format']],
      ['option_credits that do not match the key', { ...full, option_credits: [100, 0, 0] }, ['body.correct_answer']],
      ['option_credits on a short answer', { ...samples.short_answer, option_credits: [100] }, ['body']],
      [
        'a credit above 100',
        { ...samples.short_answer, alternatives: [{ answer: 'a', credit: 150 }] },
        ['body.alternatives.0.credit'],
      ],
      [
        'HTML showing nothing once sanitized',
        { ...samples.short_answer, text_format: 'html', question_text: '<script>x</script>' },
        ['body.question_text'],
      ],
    ] as const) {
      const res = await post('/api/questions', body, { token: m.tenant.admin.token, ip });
      expectValidation(res, [...paths]);
      assert.ok(res.status === 400, label);
    }
  });
});
