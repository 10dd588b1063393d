import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mediaUrl } from '../../functions/src/media/rules';
import type { StoredMedia } from '../../functions/src/media/schemas';
import { storeMedia } from '../../functions/src/media/store';
import { expectError } from '../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { BASE_URL } from '../support/env';
import { freshIp, get, post, type ApiResponse } from '../support/http';
import { as, writeQuestion } from '../exams/fixtures';
import { publishTest, startOk, tokenQuery, writeShareCode } from '../attempts/fixtures';
import { png, wav } from './samples';

// GET /api/media/{mediaId} over HTTP (Hosting → Functions emulator → Firestore
// and Storage emulators). No endpoint of this branch creates media, so it is
// stored with the store itself, as the import does.

let m: RoleMatrix;
let picture: StoredMedia;
let sound: StoredMedia;
let unused: StoredMedia;
let titled: StoredMedia; // named only in a question's title
let shown: any; // a published test whose question shows `picture`; allow_review 1
let hidden: any; // the same question, allow_review 0

/** The bytes as well as the JSON of an answer: the shared helper reads text only. */
async function fetchMedia(
  path: string,
  token?: string,
): Promise<{ res: ApiResponse; bytes: Buffer; headers: Headers; status: number }> {
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
  return {
    res: { status: res.status, headers: res.headers, body, text: bytes.toString('utf8') },
    bytes,
    headers: res.headers,
    status: res.status,
  };
}

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  const { stored } = await storeMedia(
    m.tenant.clientId,
    [
      { name: 'diagram.png', bytes: png(11) },
      { name: 'sound.ogg', bytes: wav() },
      { name: 'spare.png', bytes: png(12) },
      { name: 'titled.png', bytes: png(13) },
    ],
    randomUUID(),
  );
  picture = stored.get('diagram.png')!;
  sound = stored.get('sound.ogg')!;
  unused = stored.get('spare.png')!;
  titled = stored.get('titled.png')!;
  const question = await writeQuestion(m.tenant.clientId, {
    title: `Shapes ${mediaUrl(titled.id)}`,
    question_text: `<p>Which shape?</p><img src="${mediaUrl(picture.id)}" alt="a shape">`,
    options: ['Square', 'Circle'],
    correct_answer: 'Square',
  });
  ({ test: shown } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    questions: [question],
    extra: { allow_review: 1 },
  }));
  ({ test: hidden } = await publishTest(m.tenant.admin.token, m.tenant.clientId, {
    questions: [question],
    extra: { allow_review: 0 },
  }));
});

describe('GET /api/media/{mediaId}', () => {
  it('serves a Client Admin its organization’s media: the bytes, their sniffed type, and the safety headers', async () => {
    const { status, bytes, headers, res } = await fetchMedia(`/api/media/${picture.id}`, m.tenant.admin.token);
    assert.equal(status, 200, res.text);
    assert.ok(bytes.equals(png(11)));
    assert.equal(headers.get('content-type'), 'image/png');
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.equal(headers.get('content-disposition'), 'inline');
    assert.equal(headers.get('cache-control'), 'private, max-age=300');
  });

  it('serves the type the content is, not the one its name claimed', async () => {
    const { status, headers } = await fetchMedia(`/api/media/${sound.id}`, m.tenant.admin.token);
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'audio/wav');
  });

  it('serves a Super Admin any organization’s media', async () => {
    const { status } = await fetchMedia(`/api/media/${picture.id}`, m.superAdmin.token);
    assert.equal(status, 200);
  });

  it('answers another organization’s Client Admin 404, as for media that does not exist', async () => {
    const { res } = await fetchMedia(`/api/media/${picture.id}`, m.otherTenant.admin.token);
    expectError(res, 404, 'NOT_FOUND');
    const missing = await fetchMedia(`/api/media/${m.tenant.clientId}.${randomUUID()}`, m.tenant.admin.token);
    expectError(missing.res, 404, 'NOT_FOUND');
  });

  it('answers ids that name no media 404 in the error body, never 500', async () => {
    // ('.x' never reaches the API: the Hosting emulator answers a path segment that starts with a dot itself.)
    for (const id of ['nodot', 'x.', '__x__.y', encodeURIComponent('a/b.c')]) {
      const { res } = await fetchMedia(`/api/media/${id}`, m.superAdmin.token);
      expectError(res, 404, 'NOT_FOUND');
    }
    const long = await fetchMedia(`/api/media/${'a'.repeat(300)}`, m.superAdmin.token);
    expectError(long.res, 400, 'VALIDATION_ERROR');
  });

  it('refuses a Student without attempt_id with 403', async () => {
    const { res } = await fetchMedia(`/api/media/${picture.id}`, m.tenant.student.token);
    expectError(res, 403, 'FORBIDDEN');
  });

  it('refuses without credentials with 401', async () => {
    const { res } = await fetchMedia(`/api/media/${picture.id}`);
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('serves a Student the media its attempt’s question shows, while the attempt is taken', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const attempt = await startOk(student.token, { test_id: shown.id });
    const { status, bytes } = await fetchMedia(
      `/api/media/${picture.id}?attempt_id=${encodeURIComponent(attempt.attempt_id)}`,
      student.token,
    );
    assert.equal(status, 200);
    assert.ok(bytes.equals(png(11)));
  });

  it('answers 404 for media of the organization that the attempt’s questions do not show', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const attempt = await startOk(student.token, { test_id: shown.id });
    const { res } = await fetchMedia(
      `/api/media/${unused.id}?attempt_id=${encodeURIComponent(attempt.attempt_id)}`,
      student.token,
    );
    expectError(res, 404, 'NOT_FOUND');
  });

  it('answers 404 for media named only in a question’s title, which takers never see, while taken and in a review', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const attempt = await startOk(student.token, { test_id: shown.id });
    const path = `/api/media/${titled.id}?attempt_id=${encodeURIComponent(attempt.attempt_id)}`;
    expectError((await fetchMedia(path, student.token)).res, 404, 'NOT_FOUND');
    const done = await post(`/api/attempts/${attempt.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(done.status, 200, done.text);
    expectError((await fetchMedia(path, student.token)).res, 404, 'NOT_FOUND');
    assert.equal((await fetchMedia(`/api/media/${titled.id}`, m.tenant.admin.token)).status, 200, 'the bank’s author');
  });

  it('refuses a Student another student’s attempt with 403, as the attempt endpoints do', async () => {
    const [owner, other] = await Promise.all([
      createUser('student', m.tenant.clientId),
      createUser('student', m.tenant.clientId),
    ]);
    const attempt = await startOk(owner.token, { test_id: shown.id });
    const { res } = await fetchMedia(
      `/api/media/${picture.id}?attempt_id=${encodeURIComponent(attempt.attempt_id)}`,
      other.token,
    );
    expectError(res, 403, 'FORBIDDEN');
  });

  it('after submission shows the media only in a released review', async () => {
    const student = await createUser('student', m.tenant.clientId);
    const withReview = await startOk(student.token, { test_id: shown.id });
    const withoutReview = await startOk(student.token, { test_id: hidden.id });
    for (const a of [withReview, withoutReview]) {
      const res = await post(`/api/attempts/${a.attempt_id}/submit`, undefined, as(student.token));
      assert.equal(res.status, 200, res.text);
    }
    const reviewed = await fetchMedia(
      `/api/media/${picture.id}?attempt_id=${encodeURIComponent(withReview.attempt_id)}`,
      student.token,
    );
    assert.equal(reviewed.status, 200, reviewed.res.text);
    const closed = await fetchMedia(
      `/api/media/${picture.id}?attempt_id=${encodeURIComponent(withoutReview.attempt_id)}`,
      student.token,
    );
    expectError(closed.res, 404, 'NOT_FOUND');
  });

  it('serves a Guest through its attempt token alone', async () => {
    const code = await writeShareCode(m.tenant.clientId, shown.id);
    const guest = await signInAnonymously();
    const attempt = await startOk(guest.token, { share_code: code, guest_name: 'Visitor' });
    const path = `/api/media/${picture.id}${tokenQuery(attempt.attempt_token)}&attempt_id=${encodeURIComponent(attempt.attempt_id)}`;
    const { status } = await fetchMedia(path);
    assert.equal(status, 200);
    const wrong = await fetchMedia(
      `/api/media/${picture.id}${tokenQuery('x'.repeat(43))}&attempt_id=${encodeURIComponent(attempt.attempt_id)}`,
    );
    expectError(wrong.res, 403, 'FORBIDDEN');
  });

  it('is described in the OpenAPI document', async () => {
    const res = await get('/api/openapi.json');
    assert.ok(res.body.paths['/api/media/{mediaId}']?.get, 'the route is documented');
  });
});
