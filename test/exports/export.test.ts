import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { parse as parseGift } from 'gift-pegjs';
import { element, elements, parseXml, textOf } from '../../functions/src/interchange/xml';
import { MAX_EXPORT_QUESTIONS } from '../../functions/src/exports/schemas';
import { adminDb } from '../support/admin';
import { expectError } from '../support/assertions';
import { BASE_URL } from '../support/env';
import { createRoleMatrix, createUser, type RoleMatrix } from '../support/fixtures';
import { freshIp, get } from '../support/http';
import { as, clientDoc, createTestAs, validTest, writeFolder, writeQuestion } from '../exams/fixtures';
import { zipEntries } from '../interchange/zipEntries';
import { multipartBody, postBytes } from '../support/multipart';

// The export endpoints over HTTP (Hosting → Functions emulator → Firestore
// emulator). Questions and folders are written straight into Firestore in the
// bank's shapes; tests are made through the API. Each export counts against
// the strict per-user limit, so each is made by a fresh administrator.

let m: RoleMatrix;

const exporter = async (clientId: string): Promise<string> => (await createUser('client_admin', clientId)).token;

/** The reply's bytes as sent (a zip is not text). */
async function fetchBytes(path: string, token: string) {
  const res = await fetch(`${BASE_URL}${path}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': freshIp() },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function expectAttachment(headers: Headers, pattern: RegExp): void {
  const header = headers.get('content-disposition') ?? '';
  assert.match(header, /^attachment; filename=/, header);
  assert.match(header.replace(/^attachment; filename="?|"$/g, ''), pattern, header);
}

const moodleQuestions = (xml: string) =>
  elements(parseXml(xml, 'export'), 'question').filter((q) => q.attrs.type !== 'category');
const moodleNames = (xml: string) => moodleQuestions(xml).map((q) => textOf(element(element(q, 'name')!, 'text')!));

describe('GET /api/questions/export', () => {
  let folder: { id: string; name: string };
  const texts: string[] = [];

  before(async () => {
    m = await createRoleMatrix();
    const clientId = m.tenant.clientId;
    folder = await writeFolder(clientId, 'Science / Optics');
    texts.push(
      (
        await writeQuestion(clientId, {
          question_text: 'Export me: a choice',
          folder_id: folder.id,
          difficulty: 'hard',
        })
      ).question_text,
      (
        await writeQuestion(clientId, {
          question_text: 'Export me: a number',
          question_type: 'numeric',
          options: [],
          correct_answer: '3.5',
          tolerance: 0.1,
          difficulty: 'easy',
        })
      ).question_text,
      (
        await writeQuestion(clientId, {
          question_text: 'Export me: a word',
          question_type: 'short_answer',
          options: [],
          correct_answer: 'lens',
          folder_id: folder.id,
          difficulty: 'easy',
        })
      ).question_text,
    );
    await writeQuestion(m.otherTenant.clientId, { question_text: 'Another organization’s question' });
  });

  it('answers a Moodle XML file of the organization’s questions, as an attachment, with their folders as categories', async () => {
    const res = await get('/api/questions/export?format=moodle_xml', as(await exporter(m.tenant.clientId)));
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/xml; charset=utf-8$/);
    expectAttachment(res.headers, /^questions-\d{4}-\d{2}-\d{2}\.xml$/);
    assert.deepEqual(moodleNames(res.text).sort(), [...texts].sort());
    assert.match(res.text, /<category><text>\$course\$\/top\/Science\/Optics<\/text><\/category>/);
    assert.doesNotMatch(res.text, /Another organization/);
  });

  it('answers a GIFT file as text/plain', async () => {
    const res = await get('/api/questions/export?format=gift', as(await exporter(m.tenant.clientId)));
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8$/);
    expectAttachment(res.headers, /^questions-\d{4}-\d{2}-\d{2}\.gift\.txt$/);
    const parsed = parseGift(res.text).filter((q) => q.type !== 'Category');
    assert.deepEqual(parsed.map((q) => ('stem' in q ? q.stem.text : '')).sort(), [...texts].sort());
  });

  it('answers a QTI 3.0 package as application/zip with one item per question', async () => {
    const res = await fetchBytes('/api/questions/export?format=qti', await exporter(m.tenant.clientId));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    expectAttachment(res.headers, /^questions-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = await zipEntries(res.bytes);
    assert.ok(entries.has('imsmanifest.xml'));
    const items = [...entries.keys()].filter((k) => k.startsWith('items/q-'));
    assert.equal(items.length, 3);
    const bodies = items.map((k) => entries.get(k)!.toString('utf8'));
    for (const text of texts)
      assert.ok(
        bodies.some((b) => b.includes(text)),
        text,
      );
  });

  it('exports what the list’s filters select: folder_id, difficulty, question_type', async () => {
    const byFolder = await get(
      `/api/questions/export?format=moodle_xml&folder_id=${folder.id}`,
      as(await exporter(m.tenant.clientId)),
    );
    assert.deepEqual(moodleNames(byFolder.text).sort(), ['Export me: a choice', 'Export me: a word']);
    const easyInFolder = await get(
      `/api/questions/export?format=moodle_xml&folder_id=${folder.id}&difficulty=easy`,
      as(await exporter(m.tenant.clientId)),
    );
    assert.deepEqual(moodleNames(easyInFolder.text), ['Export me: a word']);
    const numeric = await get(
      '/api/questions/export?format=moodle_xml&question_type=numeric',
      as(await exporter(m.tenant.clientId)),
    );
    assert.deepEqual(moodleNames(numeric.text), ['Export me: a number']);
  });

  it('lets a Super Admin export an organization it names, and asks it to name one', async () => {
    const named = await get(`/api/questions/export?format=gift&client_id=${m.tenant.clientId}`, as(m.superAdmin.token));
    assert.equal(named.status, 200, named.text);
    assert.match(named.text, /Export me\\: a choice/);
    expectError(await get('/api/questions/export?format=gift', as(m.superAdmin.token)), 400, 'VALIDATION_ERROR');
  });

  it('refuses an unknown format with 400 in the JSON error body', async () => {
    const res = await get('/api/questions/export?format=docx', as(m.tenant.admin.token));
    expectError(res, 400, 'VALIDATION_ERROR');
    assert.ok(
      res.body.details.some((d: { path: string }) => d.path === 'query.format'),
      res.text,
    );
    expectError(await get('/api/questions/export', as(m.tenant.admin.token)), 400, 'VALIDATION_ERROR');
  });

  it('refuses Students (403) and another organization (403), and an unknown folder (404)', async () => {
    expectError(await get('/api/questions/export?format=gift', as(m.tenant.student.token)), 403, 'FORBIDDEN');
    expectError(
      await get(`/api/questions/export?format=gift&client_id=${m.otherTenant.clientId}`, as(m.tenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    const otherFolder = await writeFolder(m.otherTenant.clientId, 'Theirs');
    expectError(
      await get(`/api/questions/export?format=gift&folder_id=${otherFolder.id}`, as(m.tenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    expectError(
      await get(`/api/questions/export?format=gift&folder_id=${randomUUID()}`, as(m.tenant.admin.token)),
      404,
      'NOT_FOUND',
    );
  });

  it(`refuses more than ${MAX_EXPORT_QUESTIONS} questions with 400 asking for filters, and exports exactly ${MAX_EXPORT_QUESTIONS}`, async function () {
    this.timeout(180_000);
    const { clientId, admin } = await import('../support/fixtures').then((f) => f.createTenant());
    void admin;
    const now = new Date().toISOString();
    const questions = clientDoc(clientId).collection('questions');
    for (let from = 0; from < MAX_EXPORT_QUESTIONS + 1; from += 500) {
      const batch = adminDb.batch();
      for (let i = from; i < Math.min(from + 500, MAX_EXPORT_QUESTIONS + 1); i += 1) {
        const id = `q${String(i).padStart(5, '0')}`;
        batch.set(questions.doc(id), {
          id,
          client_id: clientId,
          folder_id: null,
          question_text: `Question ${i}`,
          question_type: 'true_false',
          options: ['True', 'False'],
          correct_answer: 'True',
          tolerance: null,
          max_words: null,
          marks: 1,
          difficulty: i === 0 ? 'hard' : 'easy',
          created_at: now,
          updated_at: now,
        });
      }
      await batch.commit();
    }
    const tooMany = await get('/api/questions/export?format=gift', as(await exporter(clientId)));
    expectError(tooMany, 400, 'VALIDATION_ERROR');
    assert.match(tooMany.body.message, /5001 questions; at most 5000/);
    assert.match(tooMany.body.message, /folder_id, difficulty or question_type/);
    const exactly = await get('/api/questions/export?format=gift&difficulty=easy', as(await exporter(clientId)));
    assert.equal(exactly.status, 200, exactly.text.slice(0, 300));
    const parsed = parseGift(exactly.text).filter((q) => q.type !== 'Category');
    assert.equal(parsed.length, MAX_EXPORT_QUESTIONS);
    assert.equal(new Set(parsed.map((q) => ('stem' in q ? q.stem.text : ''))).size, MAX_EXPORT_QUESTIONS);
  });
});

describe('GET /api/tests/{testId}/export', () => {
  let testId: string;

  before(async () => {
    m ??= await createRoleMatrix();
    const clientId = m.tenant.clientId;
    const poolFolder = await writeFolder(clientId, `Pool ${randomUUID().slice(0, 6)}`);
    const fixed = await Promise.all([
      writeQuestion(clientId, { question_text: 'Fixed one' }),
      writeQuestion(clientId, { question_text: 'Fixed two' }),
    ]);
    await Promise.all(
      [1, 2, 3].map((i) =>
        writeQuestion(clientId, { question_text: `Pooled ${i}`, folder_id: poolFolder.id, difficulty: 'hard' }),
      ),
    );
    await writeQuestion(clientId, { question_text: 'Pooled but easy', folder_id: poolFolder.id, difficulty: 'easy' });
    const test = await createTestAs(
      m.tenant.admin.token,
      validTest(
        fixed.map((q) => q.id),
        { test_name: 'Optics: the final!', pools: [{ folder_id: poolFolder.id, difficulty: 'hard', draw: 2 }] },
      ),
    );
    testId = test.id;
  });

  it('exports the test’s questions and its pool as Moodle random questions in the pool’s category', async () => {
    const res = await get(`/api/tests/${testId}/export?format=moodle_xml`, as(await exporter(m.tenant.clientId)));
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/xml/);
    expectAttachment(res.headers, /^test-optics-the-final\.xml$/);
    const questions = moodleQuestions(res.text);
    const names = questions
      .filter((q) => q.attrs.type !== 'random')
      .map((q) => textOf(element(element(q, 'name')!, 'text')!));
    // The fixed questions in the test's order, then the pool's (in id order, as a publish freezes them); not the easy one.
    assert.deepEqual(names.slice(0, 2), ['Fixed one', 'Fixed two']);
    assert.deepEqual(names.slice(2).sort(), ['Pooled 1', 'Pooled 2', 'Pooled 3']);
    assert.equal(questions.filter((q) => q.attrs.type === 'random').length, 2);
    assert.match(res.text, /\$course\$\/top\/Pool [0-9a-f]{6}\/hard/);
  });

  it('imports its Moodle XML export back whole (the default, all or nothing): the pool a folder of its category, its draw noted', async () => {
    const xml = await get(`/api/tests/${testId}/export?format=moodle_xml`, as(await exporter(m.tenant.clientId)));
    assert.equal(xml.status, 200, xml.text);
    const form = multipartBody([
      { field: 'file', filename: 'test.xml', contentType: 'application/xml', content: xml.text },
    ]);
    const res = await postBytes('/api/questions/import?dry_run=true', form.body, form.contentType, {
      token: await exporter(m.tenant.clientId),
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.questions.map((q: any) => q.status),
      ['ok', 'ok', 'ok', 'ok', 'ok'],
    );
    const notes = res.body.questions.flatMap((q: any) => q.warnings).filter((w: string) => /at random/.test(w));
    assert.equal(notes.length, 1, JSON.stringify(res.body.questions));
    assert.match(
      notes[0],
      /^The category "Pool [0-9a-f]{6}" draws 2 of its hard questions at random .*all its 3 questions$/,
    );
  });

  it('exports a QTI package whose test has a qti-selection section for the pool', async () => {
    const res = await fetchBytes(`/api/tests/${testId}/export?format=qti`, await exporter(m.tenant.clientId));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    expectAttachment(res.headers, /^test-optics-the-final\.zip$/);
    const entries = await zipEntries(res.bytes);
    const test = parseXml(entries.get('test.xml')!.toString('utf8'));
    const sections = elements(element(test, 'qti-test-part')!, 'qti-assessment-section');
    assert.deepEqual(
      sections.map((s) => [element(s, 'qti-selection')?.attrs.select, elements(s, 'qti-assessment-item-ref').length]),
      [
        [undefined, 2],
        ['2', 3],
      ],
    );
  });

  it('exports GIFT with the pool noted', async () => {
    const res = await get(`/api/tests/${testId}/export?format=gift`, as(await exporter(m.tenant.clientId)));
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /^\/\/ pool 1: each attempt draws 2 of the 3 questions/);
    assert.equal(parseGift(res.text).filter((q) => q.type !== 'Category').length, 5);
  });

  it('refuses Students (403), another organization’s administrator (403), an unknown test (404) and an unknown format (400)', async () => {
    expectError(await get(`/api/tests/${testId}/export?format=gift`, as(m.tenant.student.token)), 403, 'FORBIDDEN');
    expectError(await get(`/api/tests/${testId}/export?format=gift`, as(m.otherTenant.admin.token)), 403, 'FORBIDDEN');
    expectError(await get(`/api/tests/${randomUUID()}/export?format=gift`, as(m.tenant.admin.token)), 404, 'NOT_FOUND');
    expectError(await get(`/api/tests/${testId}/export?format=pdf`, as(m.tenant.admin.token)), 400, 'VALIDATION_ERROR');
  });
});
