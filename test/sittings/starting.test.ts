import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../support/assertions';
import { auditRecordsFor, createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../support/fixtures';
import { freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { awayFromWindowEdge } from '../support/windows';
import { attemptDoc, expire, start, startOk, writeShareCode } from '../attempts/fixtures';
import { fromNow, MIN, msBetween, patchTest, setLastSubmitted, sittingTest, submit } from './httpFixtures';

// POST /api/attempts under a test's delivery settings: its window, its access
// code, its cooldown, and the deadline they give a new attempt.

const CODE = 'Proctor-7781';

let m: RoleMatrix;
const newStudent = () => createUser('student', m.tenant.clientId);

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
});

describe('POST /api/attempts: the window [opens_at, closes_at)', () => {
  it('refuses a start before opens_at with 409 saying when it opens', async () => {
    const opens = fromNow(60 * MIN);
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: opens });
    const res = await start((await newStudent()).token, { test_id: test.id });
    expectError(res, 409, 'CONFLICT');
    assert.ok(res.body.message.includes(`opens at ${opens}`), res.text);
  });

  it('refuses a start from closes_at on with 409 saying it closed', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const closes = fromNow(-1000);
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { closes_at: closes })).status, 200);
    const res = await start((await newStudent()).token, { test_id: test.id });
    expectError(res, 409, 'CONFLICT');
    assert.ok(res.body.message.includes(`closed at ${closes}`), res.text);
  });

  it('admits a start inside the window: 201', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      opens_at: fromNow(-MIN),
      closes_at: fromNow(120 * MIN),
    });
    assert.equal((await start((await newStudent()).token, { test_id: test.id })).status, 201);
  });

  it('refuses an administrator starting for a student outside the window too (409)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: fromNow(60 * MIN) });
    const student = await newStudent();
    expectError(await start(m.tenant.admin.token, { test_id: test.id, student_id: student.uid }), 409, 'CONFLICT');
  });
});

describe('POST /api/attempts: the access code', () => {
  let test: any;
  before(async () => {
    ({ test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { access_code: CODE }));
  });

  it('refuses a start without the code with 403 saying it is required', async () => {
    const res = await start((await newStudent()).token, { test_id: test.id });
    expectError(res, 403, 'FORBIDDEN');
    assert.match(res.body.message, /access_code/);
  });

  it('refuses a start with a wrong code with 403', async () => {
    expectError(
      await start((await newStudent()).token, { test_id: test.id, access_code: 'wrong-code' }),
      403,
      'FORBIDDEN',
    );
  });

  it('starts with the right code: 201', async () => {
    assert.equal((await start((await newStudent()).token, { test_id: test.id, access_code: CODE })).status, 201);
  });

  it('resumes the attempt in progress without the code: 200, the same attempt', async () => {
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: test.id, access_code: CODE });
    const again = await start(student.token, { test_id: test.id });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.resumed, true);
    assert.equal(again.body.attempt_id, first.attempt_id);
  });

  it('lets a Client Admin start for a student without the code: 201', async () => {
    const student = await newStudent();
    const res = await start(m.tenant.admin.token, { test_id: test.id, student_id: student.uid });
    assert.equal(res.status, 201, res.text);
  });

  it('answers 400 naming body.access_code for a code too short to be one', async () => {
    expectValidation(await start((await newStudent()).token, { test_id: test.id, access_code: 'abc' }), [
      'body.access_code',
    ]);
  });

  // POST /api/attempts is also limited per user (the strict limit of sensitive operations): each
  // request below comes from another student, so only the address's refusals can make the 429.
  // The lockout's requests go to one instance of the app: the emulated function spreads requests over
  // several instances when other files keep it busy, and another instance sees the count only from its
  // next flush (test/rateLimit/instances.inProcess.test.ts holds the instances to the limit together).
  let lone: InProcessApi;
  before(async () => {
    lone = await startInProcessApi();
  });
  after(() => lone.close());
  const startOnOne = (token: string, body: Record<string, unknown>, ip: string) =>
    start(token, body, { ip, baseUrl: lone.baseUrl });
  const lockedOut = (res: Awaited<ReturnType<typeof start>>) => {
    expectError(res, 429, 'RATE_LIMITED');
    assert.match(res.body.message, /failed authentications from this address/);
  };

  it('counts wrong and missing codes toward the refused-credential lockout shared with share codes: after 10 refusals from one address, the 11th request is 429', async function () {
    this.timeout(60_000);
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    const [guests, students] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => signInAnonymously())),
      Promise.all(Array.from({ length: 7 }, () => newStudent())),
    ]);
    // Five refused share codes, three wrong access codes and two missing ones from the same address: one count.
    for (const guest of guests)
      expectError(await startOnOne(guest.token, { share_code: 'ZZZZZZZZZZZZZ' }, ip), 404, 'NOT_FOUND');
    for (const s of students.slice(0, 3))
      expectError(await startOnOne(s.token, { test_id: test.id, access_code: `wrong-${s.uid}` }, ip), 403, 'FORBIDDEN');
    for (const s of students.slice(3, 5))
      expectError(await startOnOne(s.token, { test_id: test.id }, ip), 403, 'FORBIDDEN');
    lockedOut(await startOnOne(students[5].token, { test_id: test.id, access_code: CODE }, ip));
    // Another address is not locked out.
    assert.equal((await startOnOne(students[6].token, { test_id: test.id, access_code: CODE }, freshIp())).status, 201);
  });

  it('locks out wrong access codes alone the same way: 10 refusals from one address, then 429', async function () {
    this.timeout(60_000);
    await awayFromWindowEdge(15_000);
    const ip = freshIp();
    const students = await Promise.all(Array.from({ length: 11 }, () => newStudent()));
    for (const [i, s] of students.slice(0, 10).entries()) {
      expectError(await startOnOne(s.token, { test_id: test.id, access_code: `guess-${i}` }, ip), 403, 'FORBIDDEN');
    }
    lockedOut(await startOnOne(students[10].token, { test_id: test.id, access_code: `guess-10` }, ip));
  });
});

describe('POST /api/attempts: the cooldown', () => {
  it('refuses a start inside the cooldown with 409 naming when it ends; allows it once the cooldown is over', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { attempt_cooldown_minutes: 10 });
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: test.id });
    const submitted = await submit(student.token, first.attempt_id);
    assert.equal(submitted.status, 200, submitted.text);
    const ends = new Date(Date.parse(submitted.body.submitted_at) + 10 * MIN).toISOString();
    const refused = await start(student.token, { test_id: test.id });
    expectError(refused, 409, 'CONFLICT');
    assert.ok(refused.body.message.includes(ends), `names ${ends}: ${refused.text}`);
    // As if the submission had been 10 minutes and a second ago.
    await setLastSubmitted(m.tenant.clientId, test.id, student.uid, fromNow(-10 * MIN - 1000));
    assert.equal((await start(student.token, { test_id: test.id })).status, 201);
  });

  it('counts from the deadline of an attempt left open past it: the start that closes it is refused, naming deadline + cooldown', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { attempt_cooldown_minutes: 10 });
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: test.id });
    await expire(m.tenant.clientId, first.attempt_id, 60);
    const { expires_at: deadline } = (await attemptDoc(m.tenant.clientId, first.attempt_id).get()).data()!;
    const refused = await start(student.token, { test_id: test.id });
    expectError(refused, 409, 'CONFLICT');
    assert.ok(refused.body.message.includes(new Date(Date.parse(deadline) + 10 * MIN).toISOString()), refused.text);
  });

  it('counts from the last submission of this student only: another student starts at once', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { attempt_cooldown_minutes: 10 });
    const [a, b] = await Promise.all([newStudent(), newStudent()]);
    const first = await startOk(a.token, { test_id: test.id });
    assert.equal((await submit(a.token, first.attempt_id)).status, 200);
    assert.equal((await start(b.token, { test_id: test.id })).status, 201);
  });

  it('applies from PATCH at once: a cooldown set after the submission refuses the next start', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId);
    const student = await newStudent();
    const first = await startOk(student.token, { test_id: test.id });
    assert.equal((await submit(student.token, first.attempt_id)).status, 200);
    assert.equal((await patchTest(m.tenant.admin.token, test.id, { attempt_cooldown_minutes: 60 })).status, 200);
    expectError(await start(student.token, { test_id: test.id }), 409, 'CONFLICT');
  });
});

describe('POST /api/attempts: the deadline of a new attempt', () => {
  it('is started_at + timer when closes_at is later', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { closes_at: fromNow(600 * MIN) });
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    assert.equal(msBetween(started.started_at, started.expires_at), 30 * MIN);
  });

  it('is closes_at when it comes before started_at + timer', async () => {
    const closes = fromNow(10 * MIN);
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { closes_at: closes });
    const started = await startOk((await newStudent()).token, { test_id: test.id });
    assert.equal(started.expires_at, closes);
    assert.ok(msBetween(started.started_at, started.expires_at) < 30 * MIN);
  });
});

describe('POST /api/attempts: a Guest redeeming a share code', () => {
  it('is refused before the window opens (409) and from its close on (409)', async () => {
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, { opens_at: fromNow(60 * MIN) });
    const code = await writeShareCode(m.tenant.clientId, test.id);
    expectError(await start((await signInAnonymously()).token, { share_code: code }), 409, 'CONFLICT');
    assert.equal(
      (await patchTest(m.tenant.admin.token, test.id, { opens_at: null, closes_at: fromNow(-1000) })).status,
      200,
    );
    const closed = await start((await signInAnonymously()).token, { share_code: code });
    expectError(closed, 409, 'CONFLICT');
    assert.match(closed.body.message, /closed at/);
  });

  it('needs the access code beside the share code: missing or wrong 403, right 201 with the test’s deadline', async () => {
    const closes = fromNow(15 * MIN);
    const { test } = await sittingTest(m.tenant.admin.token, m.tenant.clientId, {
      access_code: CODE,
      closes_at: closes,
    });
    const code = await writeShareCode(m.tenant.clientId, test.id);
    expectError(await start((await signInAnonymously()).token, { share_code: code }), 403, 'FORBIDDEN');
    expectError(
      await start((await signInAnonymously()).token, { share_code: code, access_code: 'not-the-code' }),
      403,
      'FORBIDDEN',
    );
    const guest = await signInAnonymously();
    const res = await start(guest.token, { share_code: code, access_code: CODE, guest_name: 'Ada' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.expires_at, closes);
    const [record] = await auditRecordsFor(guest.uid, 'share_code_redeemed');
    assert.equal(record.details.attempt_id, res.body.attempt_id);
  });
});
