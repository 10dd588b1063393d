import assert from 'node:assert/strict';
import { MAX_ATTACHMENT_BYTES } from '../../../functions/src/media/mediaType';
import { expectError } from '../../support/assertions';
import { BASE_URL } from '../../support/env';
import { createRoleMatrix, createUser, type RoleMatrix } from '../../support/fixtures';
import { del, freshIp, get, post } from '../../support/http';
import { multipartBody, postBytes } from '../../support/multipart';
import { as, writeQuestion } from '../../exams/fixtures';
import { attemptDoc, expire, publishTest, startOk, tokenQuery } from '../fixtures';
import { gif, jpeg, pdf, png } from '../../media/samples';

// The files a taker attaches to an essay, over HTTP (Hosting → Functions emulator → Firestore and
// Storage emulators): who may attach, read and remove them, what they may be, and how many.

let m: RoleMatrix;
let essayId: string;
let plainEssayId: string;
let choiceId: string;
let testId: string;
let reviewedTestId: string;

const filesPath = (attemptId: string, questionId: string) =>
  `/api/attempts/${attemptId}/answers/${questionId}/attachments`;

function upload(
  attemptId: string,
  questionId: string,
  content: Buffer,
  {
    token,
    query = '',
    filename = 'work.pdf',
    contentType = 'application/pdf',
  }: { token?: string; query?: string; filename?: string; contentType?: string },
) {
  const body = multipartBody([{ field: 'file', filename, contentType, content }]);
  return postBytes(`${filesPath(attemptId, questionId)}${query}`, body.body, body.contentType, { token });
}

/** The bytes of a GET, with its headers. */
async function fetchBytes(path: string, token?: string) {
  const headers: Record<string, string> = { 'X-Forwarded-For': freshIp() };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${BASE_URL}${path}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, body, text: bytes.toString('utf8') };
}

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  const clientId = m.tenant.clientId;
  const [essay, plainEssay, choice] = await Promise.all([
    writeQuestion(clientId, {
      question_type: 'essay' as any,
      question_text: 'Photograph your working',
      options: [],
      correct_answer: '',
      max_words: null,
      attachments: 2,
      attachments_required: 1,
    } as any),
    writeQuestion(clientId, {
      question_type: 'essay' as any,
      question_text: 'Explain in words',
      options: [],
      correct_answer: '',
      max_words: null,
    } as any),
    writeQuestion(clientId),
  ]);
  essayId = essay.id;
  plainEssayId = plainEssay.id;
  choiceId = choice.id;
  ({
    test: { id: testId },
  } = await publishTest(m.tenant.admin.token, clientId, {
    questions: [essay, plainEssay, choice],
    extra: { max_attempts: 10, allow_review: 0 },
  }));
  ({
    test: { id: reviewedTestId },
  } = await publishTest(m.tenant.admin.token, clientId, {
    questions: [essay],
    extra: { max_attempts: 10, allow_review: 1 },
  }));
});

/** A new attempt of a new student of the tenant (starts are counted per user: one each keeps clear of the limit). */
async function freshAttempt(test = testId): Promise<{ id: string; token: string; student: string }> {
  const student = await createUser('student', m.tenant.clientId);
  const started = await startOk(student.token, { test_id: test });
  return { id: started.attempt_id, token: started.attempt_token, student: student.token };
}

describe('POST /api/attempts/{attemptId}/answers/{questionId}/attachments', () => {
  it('shows the taker how many files the essay takes', async () => {
    const attempt = await freshAttempt();
    const res = await get(`/api/attempts/${attempt.id}`, as(attempt.student));
    const shown = res.body.test_details.questions.find((q: any) => q.id === essayId);
    assert.equal(shown.attachments, 2);
    assert.equal(shown.attachments_required, 1);
    const plain = res.body.test_details.questions.find((q: any) => q.id === plainEssayId);
    assert.equal(plain.attachments, undefined);
  });

  it('201: attaches a PDF (by its content), lists it with the attempt, and serves its bytes to the taker', async () => {
    const attempt = await freshAttempt();
    const res = await upload(attempt.id, essayId, pdf(), { token: attempt.student, filename: 'My essay.pdf' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, 'My essay.pdf');
    assert.equal(res.body.content_type, 'application/pdf');
    assert.equal(res.body.size, pdf().length);
    assert.equal(res.body.url, `${filesPath(attempt.id, essayId)}/${res.body.id}`);
    const read = await get(`/api/attempts/${attempt.id}`, as(attempt.student));
    assert.deepEqual(
      read.body.attachments.map((a: any) => [a.question_id, a.id, a.name]),
      [[essayId, res.body.id, 'My essay.pdf']],
    );
    const bytes = await fetchBytes(res.body.url, attempt.student);
    assert.equal(bytes.status, 200, bytes.text);
    assert.ok(bytes.bytes.equals(pdf()));
    assert.equal(bytes.headers.get('content-type'), 'application/pdf');
    assert.equal(bytes.headers.get('x-content-type-options'), 'nosniff');
    assert.match(bytes.headers.get('content-disposition') ?? '', /^attachment;/);
  });

  it('201 with the attempt token (a Guest’s way in), a PNG named .pdf stored as the PNG it is', async () => {
    const attempt = await freshAttempt();
    const res = await upload(attempt.id, essayId, png(3), { query: tokenQuery(attempt.token), filename: 'scan.pdf' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.content_type, 'image/png');
    const bytes = await fetchBytes(`${res.body.url}${tokenQuery(attempt.token)}`);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'image/png');
  });

  it('400: a file that is not PDF, PNG or JPEG by its content (an HTML page named .pdf, a GIF), and nothing is stored', async () => {
    const attempt = await freshAttempt();
    const html = Buffer.from('%PDF-1.4 <html><script>alert(1)</script></html>');
    expectError(
      await upload(attempt.id, essayId, Buffer.concat([Buffer.from('<!doctype html>'), html]), {
        token: attempt.student,
      }),
      400,
      'VALIDATION_ERROR',
    );
    const refused = await upload(attempt.id, essayId, gif(), { token: attempt.student, filename: 'a.gif' });
    expectError(refused, 400, 'VALIDATION_ERROR');
    assert.match(refused.body.message, /image\/gif; an attachment may be PDF, PNG or JPEG/);
    assert.equal((await attemptDoc(m.tenant.clientId, attempt.id).get()).get('attachments'), undefined);
  });

  it('400: a question that takes no files (an essay without attachments, a choice); 404: one not in the attempt', async () => {
    const attempt = await freshAttempt();
    for (const questionId of [plainEssayId, choiceId]) {
      const res = await upload(attempt.id, questionId, pdf(), { token: attempt.student });
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.equal(res.body.message, 'This question takes no attached files');
    }
    expectError(await upload(attempt.id, 'not-a-question', pdf(), { token: attempt.student }), 404, 'NOT_FOUND');
  });

  it('400: not multipart, or no part named "file"', async () => {
    const attempt = await freshAttempt();
    expectError(
      await post(filesPath(attempt.id, essayId), { file: 'x' }, as(attempt.student)),
      400,
      'VALIDATION_ERROR',
    );
    const wrongPart = multipartBody([
      { field: 'upload', filename: 'a.pdf', contentType: 'application/pdf', content: pdf() },
    ]);
    expectError(
      await postBytes(filesPath(attempt.id, essayId), wrongPart.body, wrongPart.contentType, {
        token: attempt.student,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('413: a file of 10 MB + 1 byte; exactly 10 MB is taken', async function () {
    this.timeout(60_000);
    const attempt = await freshAttempt();
    const atLimit = Buffer.concat([pdf(), Buffer.alloc(MAX_ATTACHMENT_BYTES - pdf().length)]);
    expectError(
      await upload(attempt.id, essayId, Buffer.concat([atLimit, Buffer.alloc(1)]), { token: attempt.student }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    const taken = await upload(attempt.id, essayId, atLimit, { token: attempt.student });
    assert.equal(taken.status, 201, taken.text);
    assert.equal(taken.body.size, MAX_ATTACHMENT_BYTES);
  });

  it('409 past the essay’s limit, with a clear message (uploads racing for the last place: concurrency.inProcess.test.ts)', async () => {
    const attempt = await freshAttempt();
    for (const seed of [1, 2])
      assert.equal((await upload(attempt.id, essayId, png(seed), { token: attempt.student })).status, 201);
    const third = await upload(attempt.id, essayId, jpeg(), { token: attempt.student });
    expectError(third, 409, 'CONFLICT');
    assert.match(
      third.body.message,
      /already has 2 attached files, the most this question takes \(2\); remove one to attach another/,
    );
  });

  it('409 once submitted, and past the deadline', async () => {
    const submitted = await freshAttempt();
    await post(`/api/attempts/${submitted.id}/submit`, undefined, as(submitted.student));
    const after = await upload(submitted.id, essayId, pdf(), { token: submitted.student });
    expectError(after, 409, 'CONFLICT');
    assert.match(after.body.message, /submitted/);
    const late = await freshAttempt();
    await expire(m.tenant.clientId, late.id, 60);
    const overdue = await upload(late.id, essayId, pdf(), { token: late.student });
    expectError(overdue, 409, 'CONFLICT');
    assert.match(overdue.body.message, /Time is up/);
  });

  it('401 without a credential; 403 for an administrator by its own token, another student, a token of another attempt; 404 for an attempt that does not exist', async () => {
    const attempt = await freshAttempt();
    expectError(await upload(attempt.id, essayId, pdf(), {}), 401, 'UNAUTHORIZED');
    expectError(await upload(attempt.id, essayId, pdf(), { token: m.tenant.admin.token }), 403, 'FORBIDDEN');
    expectError(await upload(attempt.id, essayId, pdf(), { token: m.otherTenant.student.token }), 403, 'FORBIDDEN');
    expectError(await upload(attempt.id, essayId, pdf(), { token: m.otherTenant.admin.token }), 403, 'FORBIDDEN');
    const another = await freshAttempt();
    expectError(await upload(attempt.id, essayId, pdf(), { query: tokenQuery(another.token) }), 403, 'FORBIDDEN');
    const other = await startOk(m.otherTenant.student.token, { test_id: testId }).catch(() => undefined);
    assert.equal(other, undefined); // another organization's student cannot even start it
    expectError(
      await upload(`${m.tenant.clientId}.nope`, essayId, pdf(), { token: attempt.student }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('GET and DELETE /api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}', () => {
  it('serves the organization’s administrators and a Super Admin; another organization’s administrator, and a student of it, 404', async () => {
    const attempt = await freshAttempt();
    const { body: file } = await upload(attempt.id, essayId, jpeg(), { token: attempt.student, filename: 'photo.jpg' });
    assert.equal((await fetchBytes(file.url, m.tenant.admin.token)).status, 200);
    assert.equal((await fetchBytes(file.url, m.superAdmin.token)).status, 200);
    expectError(await fetchBytes(file.url, m.otherTenant.admin.token), 404, 'NOT_FOUND');
    expectError(await fetchBytes(file.url, m.otherTenant.student.token), 404, 'NOT_FOUND');
    expectError(await fetchBytes(`${filesPath(attempt.id, essayId)}/nope`, m.tenant.admin.token), 404, 'NOT_FOUND');
    expectError(
      await fetchBytes(`${filesPath(attempt.id, 'elsewhere')}/${file.id}`, m.tenant.admin.token),
      404,
      'NOT_FOUND',
    );
  });

  it('204: the taker removes a file while taking; it leaves the list and its bytes are gone; a second remove → 404; after submit → 409', async () => {
    const attempt = await freshAttempt();
    const { body: first } = await upload(attempt.id, essayId, png(7), { token: attempt.student });
    const { body: second } = await upload(attempt.id, essayId, png(8), { token: attempt.student });
    const removed = await del(`${filesPath(attempt.id, essayId)}/${first.id}`, as(attempt.student));
    assert.equal(removed.status, 204, removed.text);
    const read = await get(`/api/attempts/${attempt.id}`, as(attempt.student));
    assert.deepEqual(
      read.body.attachments.map((a: any) => a.id),
      [second.id],
    );
    expectError(await fetchBytes(first.url, attempt.student), 404, 'NOT_FOUND');
    expectError(await del(`${filesPath(attempt.id, essayId)}/${first.id}`, as(attempt.student)), 404, 'NOT_FOUND');
    expectError(
      await del(`${filesPath(attempt.id, essayId)}/${second.id}`, as(m.tenant.admin.token)),
      403,
      'FORBIDDEN',
    );
    await post(`/api/attempts/${attempt.id}/submit`, undefined, as(attempt.student));
    expectError(await del(`${filesPath(attempt.id, essayId)}/${second.id}`, as(attempt.student)), 409, 'CONFLICT');
  });

  it('an essay answered with a file alone is graded by a person: pending, in the grading queue with its file, and in the taker’s released review', async () => {
    const attempt = await freshAttempt(reviewedTestId);
    const { body: file } = await upload(attempt.id, essayId, pdf(), { token: attempt.student, filename: 'answer.pdf' });
    const submitted = await post(`/api/attempts/${attempt.id}/submit`, undefined, as(attempt.student));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.grading, 'pending');
    const queue = await get(`/api/tests/${reviewedTestId}/grading`, as(m.tenant.admin.token));
    assert.equal(queue.status, 200, queue.text);
    const item = queue.body.data.find((i: any) => i.attempt_id === attempt.id);
    assert.deepEqual(
      item.attachments.map((a: any) => [a.id, a.name, a.url]),
      [[file.id, 'answer.pdf', file.url]],
    );
    const review = await get(`/api/attempts/${attempt.id}`, as(attempt.student));
    assert.ok(review.body.review, 'the review is open');
    assert.deepEqual(
      review.body.attachments.map((a: any) => a.id),
      [file.id],
    );
    assert.equal((await fetchBytes(file.url, attempt.student)).status, 200);
  });
});
