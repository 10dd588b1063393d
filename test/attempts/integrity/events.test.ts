import assert from 'node:assert/strict';
import { expectError, expectValidation } from '../../support/assertions';
import { createRoleMatrix, createUser, signInAnonymously, type RoleMatrix } from '../../support/fixtures';
import { freshIp, get, post, type RequestOptions } from '../../support/http';
import { as } from '../../exams/fixtures';
import { attemptDoc, expire, publishTest, startOk, tokenQuery, writeShareCode } from '../../attempts/fixtures';

// Integrity events over HTTP (Hosting → Functions emulator → Firestore emulator):
// sent by the taker's page, stored beside the attempt, read by administrators.

let m: RoleMatrix;
let test: any;

before(async function () {
  this.timeout(60_000);
  m = await createRoleMatrix();
  ({ test } = await publishTest(m.tenant.admin.token, m.tenant.clientId, { count: 2, extra: { timer: 30 } }));
});

interface Taking {
  id: string;
  token: string;
  studentToken: string;
  as: RequestOptions;
  path: string;
}

async function taking(): Promise<Taking> {
  const student = await createUser('student', m.tenant.clientId);
  const body = await startOk(student.token, { test_id: test.id });
  return {
    id: body.attempt_id,
    token: body.attempt_token,
    studentToken: student.token,
    as: { ...as(student.token), ip: freshIp() },
    path: `/api/attempts/${body.attempt_id}/events`,
  };
}

const event = (client_seq: number, type = 'focus_lost', at = new Date().toISOString()) => ({ type, at, client_seq });
const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => event(from + i));
const eventsOf = (a: Taking) => attemptDoc(m.tenant.clientId, a.id).collection('integrity_events');
const summaryOf = (a: Taking) => attemptDoc(m.tenant.clientId, a.id).collection('integrity_summary').doc('summary');

describe('POST /api/attempts/{attemptId}/events', () => {
  it('stores a batch beside the attempt, one document per event, and answers the counts and the last event', async () => {
    const a = await taking();
    const before = (await attemptDoc(m.tenant.clientId, a.id).get()).updateTime;
    const res = await post(
      a.path,
      {
        events: [event(0, 'focus_lost'), event(1, 'paste'), event(2, 'focus_back')],
      },
      a.as,
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.stored, 3);
    assert.equal(res.body.duplicates, 0);
    assert.equal(res.body.summary.total, 3);
    assert.deepEqual(res.body.summary.counts, {
      focus_lost: 1,
      focus_back: 1,
      paste: 1,
      fullscreen_exit: 0,
      offline: 0,
      online: 0,
      reload: 0,
    });
    assert.equal((await eventsOf(a).get()).size, 3);
    // The attempt document itself is not written.
    assert.deepEqual((await attemptDoc(m.tenant.clientId, a.id).get()).updateTime, before);
    assert.equal(Object.keys((await attemptDoc(m.tenant.clientId, a.id).get()).data()!).includes('integrity'), false);
  });

  it('ignores events whose client_seq is already stored (a replayed offline queue): counted once, reported as duplicates', async () => {
    const a = await taking();
    assert.equal((await post(a.path, { events: batch(0, 3) }, a.as)).status, 200);
    const again = await post(a.path, { events: [...batch(0, 3), event(3, 'offline'), event(3, 'online')] }, a.as);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.stored, 1);
    assert.equal(again.body.duplicates, 4);
    assert.equal(again.body.summary.total, 4);
    assert.equal(again.body.summary.counts.offline, 1);
    assert.equal(again.body.summary.counts.online, 0);
    assert.equal((await eventsOf(a).get()).size, 4);
  });

  it('takes the attempt token (header or query) as saves do, and a Guest’s own ID token', async () => {
    const a = await taking();
    const byHeader = await post(
      a.path,
      { events: [event(0)] },
      { ip: freshIp(), headers: { 'X-Attempt-Token': a.token } },
    );
    assert.equal(byHeader.status, 200, byHeader.text);
    const byQuery = await post(`${a.path}${tokenQuery(a.token)}`, { events: [event(1)] }, { ip: freshIp() });
    assert.equal(byQuery.status, 200, byQuery.text);
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const g = await startOk(guest.token, { share_code: code, guest_name: 'Events guest' });
    const byGuest = await post(`/api/attempts/${g.attempt_id}/events`, { events: [event(0)] }, as(guest.token));
    assert.equal(byGuest.status, 200, byGuest.text);
  });

  it('refuses 101 events in one request, unknown types, at far in the future, and bad client_seq (400, nothing stored)', async () => {
    const a = await taking();
    expectValidation(await post(a.path, { events: batch(0, 101) }, a.as), ['body.events']);
    expectValidation(await post(a.path, { events: [event(0, 'screenshot')] }, a.as), ['body.events.0.type']);
    const future = new Date(Date.now() + 60 * 60_000).toISOString();
    expectValidation(await post(a.path, { events: [event(0, 'paste', future)] }, a.as), ['body.events.0.at']);
    expectValidation(await post(a.path, { events: [event(-1)] }, a.as), ['body.events.0.client_seq']);
    expectValidation(await post(a.path, { events: [{ ...event(0), client_seq: 1.5 }] }, a.as), [
      'body.events.0.client_seq',
    ]);
    expectValidation(await post(a.path, { events: [] }, a.as), ['body.events']);
    expectValidation(await post(a.path, { events: [event(0)], extra: 1 }, a.as), []);
    assert.equal((await eventsOf(a).get()).size, 0);
  });

  it('accepts at up to a few minutes past the server’s clock (a page’s clock running ahead)', async () => {
    const a = await taking();
    const ahead = new Date(Date.now() + 2 * 60_000).toISOString();
    assert.equal((await post(a.path, { events: [event(0, 'reload', ahead)] }, a.as)).status, 200);
  });

  it('keeps at most 2,000 events per attempt: the request that would pass it → 409, nothing of it stored', async function () {
    this.timeout(120_000);
    const a = await taking();
    for (let from = 0; from < 2000; from += 100) {
      const res = await post(a.path, { events: batch(from, 100) }, { ...a.as, ip: freshIp() });
      assert.equal(res.status, 200, res.text);
    }
    const over = await post(a.path, { events: [event(2000)] }, { ...a.as, ip: freshIp() });
    expectError(over, 409, 'CONFLICT');
    assert.match(over.body.message, /2000/);
    assert.equal((await summaryOf(a).get()).get('total'), 2000);
    assert.equal((await eventsOf(a).count().get()).data().count, 2000);
    // A replay of stored events only is still answered (nothing new to store).
    const replay = await post(a.path, { events: batch(0, 5) }, { ...a.as, ip: freshIp() });
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.body.duplicates, 5);
  });

  it('refuses another student’s attempt (403) and an attempt that does not exist (404)', async () => {
    const a = await taking();
    const other = await createUser('student', m.tenant.clientId);
    expectError(await post(a.path, { events: [event(0)] }, as(other.token)), 403, 'FORBIDDEN');
    expectError(
      await post(`/api/attempts/${m.tenant.clientId}.nope/events`, { events: [event(0)] }, as(other.token)),
      404,
      'NOT_FOUND',
    );
    const b = await taking();
    expectError(
      await post(`${a.path}`, { events: [event(0)] }, { ip: freshIp(), headers: { 'X-Attempt-Token': b.token } }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses an administrator by its own ID token (403): it reads events, it does not send them', async () => {
    const a = await taking();
    expectError(await post(a.path, { events: [event(0)] }, as(m.tenant.admin.token)), 403, 'FORBIDDEN');
  });

  it('refuses events after submission (409), a Guest’s token included, and past the deadline (409)', async () => {
    const code = await writeShareCode(m.tenant.clientId, test.id);
    const guest = await signInAnonymously();
    const g = await startOk(guest.token, { share_code: code, guest_name: 'Submitted guest' });
    const withToken = { ip: freshIp(), headers: { 'X-Attempt-Token': g.attempt_token } };
    assert.equal((await post(`/api/attempts/${g.attempt_id}/submit`, undefined, withToken)).status, 200);
    expectError(await post(`/api/attempts/${g.attempt_id}/events`, { events: [event(0)] }, withToken), 409, 'CONFLICT');
    const a = await taking();
    await expire(m.tenant.clientId, a.id, 120);
    expectError(await post(a.path, { events: [event(0)] }, a.as), 409, 'CONFLICT');
  });

  it('never changes the score', async () => {
    const a = await taking();
    await post(a.path, { events: [event(0, 'paste'), event(1, 'focus_lost')] }, a.as);
    const submitted = await post(`/api/attempts/${a.id}/submit`, undefined, a.as);
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.score, 0);
    const stored = (await attemptDoc(m.tenant.clientId, a.id).get()).data()!;
    assert.equal(stored.score, 0);
  });
});

describe('GET /api/attempts/{attemptId}/events', () => {
  it('answers the organization’s administrators the timeline in at order, then client_seq, paged, with the counts', async () => {
    const a = await taking();
    const t = Date.now() - 60_000;
    const at = (s: number) => new Date(t + s * 1000).toISOString();
    await post(
      a.path,
      {
        events: [
          event(5, 'online', at(30)),
          event(3, 'offline', at(10)),
          event(4, 'focus_lost', at(10)),
          event(9, 'reload', at(5)),
        ],
      },
      a.as,
    );
    const page1 = await get(`${a.path}?limit=3`, as(m.tenant.admin.token));
    assert.equal(page1.status, 200, page1.text);
    assert.deepEqual(
      page1.body.data.map((e: any) => [e.type, e.client_seq]),
      [
        ['reload', 9],
        ['offline', 3],
        ['focus_lost', 4],
      ],
    );
    assert.equal(page1.body.pagination.total, 4);
    assert.equal(page1.body.summary.total, 4);
    assert.deepEqual(page1.body.summary.last_event, { type: 'online', at: at(30), client_seq: 5 });
    const page2 = await get(`${a.path}?limit=3&cursor=${page1.body.pagination.next_cursor}`, as(m.tenant.admin.token));
    assert.deepEqual(
      page2.body.data.map((e: any) => e.client_seq),
      [5],
    );
    const superAdmin = await get(a.path, as(m.superAdmin.token));
    assert.equal(superAdmin.status, 200, superAdmin.text);
  });

  it('refuses the taker (403), its attempt token (401), and another organization’s administrator (403)', async () => {
    const a = await taking();
    expectError(await get(a.path, a.as), 403, 'FORBIDDEN');
    expectError(await get(`${a.path}${tokenQuery(a.token)}`, { ip: freshIp() }), 401, 'UNAUTHORIZED');
    expectError(await get(a.path, as(m.otherTenant.admin.token)), 403, 'FORBIDDEN');
    expectError(
      await get(`/api/attempts/${m.tenant.clientId}.nope/events`, as(m.tenant.admin.token)),
      404,
      'NOT_FOUND',
    );
  });
});

describe('GET /api/attempts (the live view): integrity counts', () => {
  it('shows administrators each attempt’s counts and last event when listing a test; takers never see them', async () => {
    const a = await taking();
    await post(a.path, { events: [event(0, 'focus_lost'), event(1, 'focus_lost'), event(2, 'paste')] }, a.as);
    const live = await get(`/api/attempts?test_id=${test.id}&status=in_progress&limit=100`, as(m.tenant.admin.token));
    assert.equal(live.status, 200, live.text);
    const row = live.body.data.find((r: any) => r.attempt_id === a.id);
    assert.ok(row, 'the attempt is listed');
    assert.equal(row.integrity.total, 3);
    assert.equal(row.integrity.counts.focus_lost, 2);
    assert.equal(row.integrity.last_event.type, 'paste');
    const quiet = live.body.data.find((r: any) => r.attempt_id !== a.id);
    if (quiet) assert.ok(quiet.integrity.total >= 0);
    const own = await get(`/api/attempts?test_id=${test.id}`, a.as);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.data[0].integrity, undefined);
  });
});

describe('results export: integrity columns', () => {
  it('adds the counts per type and the total to each submitted attempt’s row', async () => {
    const a = await taking();
    await post(a.path, { events: [event(0, 'paste'), event(1, 'paste'), event(2, 'reload')] }, a.as);
    assert.equal((await post(`/api/attempts/${a.id}/submit`, undefined, a.as)).status, 200);
    const csv = await get(`/api/analytics/tests/${test.id}/results.csv`, as(m.tenant.admin.token));
    assert.equal(csv.status, 200, csv.text);
    const lines = csv.text
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const header = lines[0];
    const row = lines.find((l) => l[0] === a.id);
    assert.ok(row, csv.text);
    assert.equal(row[header.indexOf('paste_count')], '2');
    assert.equal(row[header.indexOf('reload_count')], '1');
    assert.equal(row[header.indexOf('focus_lost_count')], '0');
    assert.equal(row[header.indexOf('integrity_events_total')], '3');
  });
});
