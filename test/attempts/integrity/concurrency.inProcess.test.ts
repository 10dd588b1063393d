import assert from 'node:assert/strict';
import { EVENT_TYPES } from '../../../functions/src/attempts/integrity/documents';
import { expectError } from '../../support/assertions';
import { failReads, failWrites } from '../../support/faults';
import { startApiInstances, type ApiInstances } from '../../support/apiInstances';
import { createTenant, createUser } from '../../support/fixtures';
import { freshIp, post, type ApiResponse, type RequestOptions } from '../../support/http';
import { attemptDoc, publishTest } from '../fixtures';

// Integrity events that truly overlap their attempt's submit: the real app served by two
// instances (this process and a child; the Functions emulator runs one request at a time per
// worker, so nothing would race there), each request to the next instance in turn. Only the
// events' own transaction can hold "after submission → 409" across them: a check made before it
// lets a batch land after the submit. Without the events' transaction deciding by the attempt's
// slot (attempts/integrity/store.ts), hundreds of events are stored after submitted_at in the first
// round; without the submit reading the summary (attempts/answering.ts), a batch lands between the
// submit's clock and its commit. And the transaction that decides stays whole: Firestore failing
// under it is a 503 with nothing written.

let instances: ApiInstances;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const ROUNDS = 4;
const REQUESTS = 12;
const PER_REQUEST = 100;

const at = (token: string): RequestOptions => ({ token, ip: freshIp(), baseUrl: instances.nextBaseUrl() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Request `r`'s events: client_seq r*100 … r*100+99, of every type in turn. */
const eventsOf = (r: number) =>
  Array.from({ length: PER_REQUEST }, (_, i) => ({
    type: EVENT_TYPES[(r * PER_REQUEST + i) % EVENT_TYPES.length],
    at: new Date().toISOString(),
    client_seq: r * PER_REQUEST + i,
  }));

before(async function () {
  this.timeout(60_000);
  instances = await startApiInstances({ ratePerMinute: 100_000, sensitivePerMinute: 100_000 });
  tenant = await createTenant();
});
after(() => instances.close());

describe('integrity events under truly concurrent requests', function () {
  this.timeout(600_000);

  it(`never stores an event after the submit: ${REQUESTS} requests of ${PER_REQUEST} events racing it, each 200 and stored before it, or 409 and not stored`, async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const seen: string[] = [];
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const student = await createUser('student', tenant.clientId);
      const started = await post('/api/attempts', { test_id: test.id }, at(student.token));
      assert.equal(started.status, 201, started.text);
      const attemptId: string = started.body.attempt_id;
      const send = (r: number) => post(`/api/attempts/${attemptId}/events`, { events: eventsOf(r) }, at(student.token));
      // Half the requests go out before the submit, half after it, the submit a little later each round:
      // all of them in flight together, the submit landing among them.
      const first = Array.from({ length: REQUESTS / 2 }, (_, r) => send(r));
      await sleep(round * 5);
      const submit = post(`/api/attempts/${attemptId}/submit`, undefined, at(student.token));
      const rest = Array.from({ length: REQUESTS / 2 }, (_, r) => send(REQUESTS / 2 + r));
      const [replies, submitted] = await Promise.all([Promise.all([...first, ...rest]), submit]);
      seen.push(`round ${round}: submit ${submitted.status}, events ${replies.map((r) => r.status).join(',')}`);
      const report = () => seen.join('\n');
      assert.equal(submitted.status, 200, `${report()}\n${submitted.text}`);

      const attempt = attemptDoc(tenant.clientId, attemptId);
      const submittedAt: string = (await attempt.get()).get('submitted_at');
      assert.equal(submittedAt, submitted.body.submitted_at);
      const stored = (await attempt.collection('integrity_events').get()).docs.map((d) => d.data());
      const storedSeqs = new Set(stored.map((e) => e.client_seq as number));
      // Every event stored was received no later than the submit.
      const late = stored.filter((e) => e.received_at > submittedAt);
      assert.equal(
        late.length,
        0,
        `${report()}\n${late.length} events stored after submitted_at ${submittedAt}, e.g. ${JSON.stringify(late[0])}`,
      );
      // Each request is 200 with all of its events stored, or 409 with none of them; never a 5xx.
      replies.forEach((reply: ApiResponse, r) => {
        const mine = eventsOf(r).filter((e) => storedSeqs.has(e.client_seq)).length;
        if (reply.status === 200) {
          assert.equal(reply.body.stored, PER_REQUEST, reply.text);
          assert.equal(mine, PER_REQUEST, `${report()}\nrequest ${r}: 200, ${mine} of its events stored`);
        } else {
          assert.equal(reply.status, 409, `${report()}\nrequest ${r}: ${reply.text}`);
          expectError(reply, 409, 'CONFLICT');
          assert.match(reply.body.message, /submitted/, reply.text);
          assert.equal(mine, 0, `${report()}\nrequest ${r}: 409, yet ${mine} of its events stored`);
          refused += 1;
        }
      });
      assert.equal(stored.length, replies.filter((r) => r.status === 200).length * PER_REQUEST, report());
      // The summary counts exactly the events stored.
      const summary = (await attempt.collection('integrity_summary').doc('summary').get()).data();
      const counts = Object.fromEntries(EVENT_TYPES.map((t) => [t, stored.filter((e) => e.type === t).length]));
      assert.equal(summary?.total ?? 0, stored.length, report());
      if (summary) assert.deepEqual(summary.counts, counts, report());
    }
    // Not asserted (timing decides), but reported: how many requests lost the race to the submit.
    console.log(`      (${refused} of ${ROUNDS * REQUESTS} event requests arrived after the submit and were refused)`);
    console.log(seen.map((line) => `      ${line}`).join('\n'));
  });

  it('answers 503 and stores nothing when Firestore fails under the events’ transaction: the slot unread, the commit refused', async () => {
    const { test } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    const student = await createUser('student', tenant.clientId);
    // This process's instance: the faults are injected into its own Firestore client.
    const here = { token: student.token, ip: freshIp(), baseUrl: instances.first.baseUrl };
    const started = await post('/api/attempts', { test_id: test.id }, here);
    assert.equal(started.status, 201, started.text);
    const attempt = attemptDoc(tenant.clientId, started.body.attempt_id);
    const path = `/api/attempts/${started.body.attempt_id}/events`;
    for (const fail of [() => failReads(/attempt_slots\//), () => failWrites(/integrity_summary\//)]) {
      const heal = fail();
      const res = await post(path, { events: eventsOf(0) }, here).finally(heal);
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      assert.equal((await attempt.collection('integrity_events').count().get()).data().count, 0);
      assert.equal((await attempt.collection('integrity_summary').doc('summary').get()).exists, false);
    }
    const healed = await post(path, { events: eventsOf(0) }, here);
    assert.equal(healed.status, 200, healed.text);
    assert.equal(healed.body.stored, PER_REQUEST);
  });
});
