import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Timestamp } from 'firebase-admin/firestore';
import {
  REFRESH_MS,
  applyLocally,
  forgetRegisteredNetworks,
  registeredNetworks,
  type NetworkIndex,
} from '../../functions/src/networks/registry';
import { writeNetworks } from '../../functions/src/networks/store';
import { captureLog, type LogEntry } from '../../functions/src/platform/log';
import { countQueries, failReads, holdFirstQuery, loggedDuring } from '../support/faults';
import { adminDb } from '../support/admin';
import { createTenant } from '../support/fixtures';
import { api, freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';

// Each instance's registry of every organization's networks, in this process,
// against the Firestore emulator. Another instance's write is a document
// written with writeNetworks alone (no applyLocally here); REFRESH_MS passing
// is the clock moved forward for the one call that looks at it.

const NETWORKS_QUERY = /^networks$/;

/** A network no other test registers (3fff::/20 is for documentation), and an address inside it. */
function uniqueNetwork(): { cidr: string; inside: string } {
  const [a, b] = [randomBytes(2).toString('hex'), randomBytes(2).toString('hex')].map((h) =>
    parseInt(h, 16).toString(16),
  );
  return { cidr: `3fff:${a}:${b}::/48`, inside: `3fff:${a}:${b}::42` };
}

/** registeredNetworks() as called REFRESH_MS from now: the clock is moved only while the call looks at it. */
function callAfterRefreshInterval(): Promise<NetworkIndex> {
  const realNow = Date.now;
  Date.now = () => realNow() + REFRESH_MS;
  try {
    return registeredNetworks();
  } finally {
    Date.now = realNow;
  }
}

/** Waits (a few seconds at most) until the index this instance answers satisfies `done`. */
async function until(done: (index: NetworkIndex) => boolean, what: string): Promise<NetworkIndex> {
  for (const startedAt = Date.now(); Date.now() - startedAt < 5_000; await sleep(25)) {
    const index = await registeredNetworks();
    if (done(index)) return index;
  }
  throw new Error(`The registry never came to: ${what}`);
}

describe("networks registry: every organization's networks, per instance", () => {
  beforeEach(() => forgetRegisteredNetworks());
  after(() => forgetRegisteredNetworks());

  it("reads every organization's networks once on its first call, then answers from memory until REFRESH_MS has passed", async () => {
    const org = randomUUID();
    const net = uniqueNetwork();
    await writeNetworks(org, [net.cidr], 'another-instance');
    const watch = countQueries(NETWORKS_QUERY);
    try {
      const index = await registeredNetworks();
      assert.ok(index.onNetworkOf(org, net.inside));
      assert.ok(index.onAnyNetwork(net.inside));
      assert.ok(!index.onNetworkOf(randomUUID(), net.inside), "another organization's networks are not its own");
      for (let i = 0; i < 20; i++) await registeredNetworks();
      assert.equal(watch.queries, 1, 'one read, however many calls');
    } finally {
      watch.heal();
    }
  });

  it('sees a change written on another instance after REFRESH_MS, reading only the document that changed', async () => {
    await registeredNetworks();
    const org = randomUUID();
    const net = uniqueNetwork();
    await writeNetworks(org, [net.cidr], 'another-instance');
    assert.ok(!(await registeredNetworks()).onNetworkOf(org, net.inside), 'not before REFRESH_MS');
    const watch = countQueries(NETWORKS_QUERY);
    try {
      const answered = await callAfterRefreshInterval();
      assert.ok(
        !answered.onNetworkOf(org, net.inside),
        'the call that starts a refresh answers at once, with what it had',
      );
      await until((index) => index.onNetworkOf(org, net.inside), 'the new network');
      assert.deepEqual({ queries: watch.queries, documents: watch.documents }, { queries: 1, documents: 1 });
    } finally {
      watch.heal();
    }
  });

  it("drops an organization whose networks were emptied, for its own lookups and for any network's", async () => {
    const org = randomUUID();
    const net = uniqueNetwork();
    await writeNetworks(org, [net.cidr], 'another-instance');
    assert.ok((await registeredNetworks()).onAnyNetwork(net.inside));
    await writeNetworks(org, [], 'another-instance');
    await callAfterRefreshInterval();
    const index = await until((i) => !i.onAnyNetwork(net.inside), 'the emptied organization gone');
    assert.ok(!index.onNetworkOf(org, net.inside));
  });

  it('rejects the first call when Firestore fails at the first read, refuses without reading for 5 s after it, then reads again', async () => {
    const org = randomUUID();
    const net = uniqueNetwork();
    await writeNetworks(org, [net.cidr], 'another-instance');
    const heal = failReads(NETWORKS_QUERY);
    try {
      await assert.rejects(registeredNetworks(), /UNAVAILABLE/);
    } finally {
      heal();
    }
    await assert.rejects(registeredNetworks(), /failed moments ago/, 'an outage is not met with a read per request');
    const realNow = Date.now;
    Date.now = () => realNow() + 5_000;
    try {
      assert.ok((await registeredNetworks()).onNetworkOf(org, net.inside));
    } finally {
      Date.now = realNow;
    }
  });

  it('keeps the last index when a refresh fails (logged), and the next refresh reads what changed since the last good read', async () => {
    const kept = { org: randomUUID(), ...uniqueNetwork() };
    await writeNetworks(kept.org, [kept.cidr], 'another-instance');
    await registeredNetworks();
    const added = { org: randomUUID(), ...uniqueNetwork() };
    await writeNetworks(added.org, [added.cidr], 'another-instance');
    const logged: LogEntry[] = [];
    const release = captureLog((entry) => logged.push(entry));
    const heal = failReads(NETWORKS_QUERY);
    try {
      const answered = await callAfterRefreshInterval();
      assert.ok(answered.onNetworkOf(kept.org, kept.inside));
      for (
        let waited = 0;
        !logged.some((e) => /could not be refreshed/.test(e.message)) && waited < 5_000;
        waited += 25
      )
        await sleep(25);
      assert.ok(
        logged.some((e) => e.severity === 'WARNING' && /the last ones read stay in use/.test(e.message)),
        JSON.stringify(logged),
      );
      const after = await registeredNetworks();
      assert.ok(after.onNetworkOf(kept.org, kept.inside), 'the last index stays');
      assert.ok(!after.onNetworkOf(added.org, added.inside));
    } finally {
      heal();
      release();
    }
    await callAfterRefreshInterval();
    await until((index) => index.onNetworkOf(added.org, added.inside), 'the change made before the failed refresh');
    assert.ok((await registeredNetworks()).onNetworkOf(kept.org, kept.inside));
  });

  it('reads a document edited by hand (the console): bad entries are left out and logged, the organization is the one its path names, and the others still load', async () => {
    const [edited, broken, fine] = [randomUUID(), randomUUID(), randomUUID()];
    const [good, alsoFine] = [uniqueNetwork(), uniqueNetwork()];
    const now = Timestamp.now();
    await adminDb.doc(`clients/${edited}/networks/registered`).set({
      networks: [good.cidr, 'not-a-network', '10.0.0.0/8', 5, `${good.cidr.slice(0, -3)}1/48`],
      updated_at: now,
    });
    await adminDb
      .doc(`clients/${broken}/networks/registered`)
      .set({ client_id: broken, networks: '203.0.113.0/24', updated_at: now });
    await writeNetworks(fine, [alsoFine.cidr], 'another-instance');
    const { result: index, entries } = await loggedDuring(() => registeredNetworks());
    // Every later first read in this test run would log them again.
    await Promise.all([edited, broken].map((org) => adminDb.doc(`clients/${org}/networks/registered`).delete()));
    assert.ok(
      index.onNetworkOf(edited, good.inside),
      'the valid network of the hand-made document, under the organization of its path',
    );
    assert.ok(!index.onAnyNetwork('10.1.2.3'), 'a network wider than /16 is not taken');
    assert.ok(index.onNetworkOf(fine, alsoFine.inside), 'the other organizations load');
    const ignored = entries
      .filter((e) => e.severity === 'ERROR' && e.data.client_id === edited)
      .map((e) => e.data.network);
    assert.deepEqual(ignored, ['not-a-network', '10.0.0.0/8', '5', `${good.cidr.slice(0, -3)}1/48`]);
    assert.ok(entries.some((e) => e.severity === 'ERROR' && e.data.client_id === broken && /no list/.test(e.message)));
  });

  describe('PUT /api/clients/{clientId}/networks, served in-process', () => {
    let server: InProcessApi;
    before(async () => {
      server = await startInProcessApi();
    });
    after(() => server.close());

    const put = (clientId: string, networks: string[], token: string) =>
      api('PUT', `/api/clients/${clientId}/networks`, {
        token,
        body: { networks },
        ip: freshIp(),
        baseUrl: server.baseUrl,
      });

    it('is seen by the instance that answered at once, without waiting for a refresh', async () => {
      const tenant = await createTenant();
      const net = uniqueNetwork();
      await registeredNetworks();
      const res = await put(tenant.clientId, [net.cidr], tenant.admin.token);
      assert.equal(res.status, 200, res.text);
      assert.ok((await registeredNetworks()).onNetworkOf(tenant.clientId, net.inside));
      const emptied = await put(tenant.clientId, [], tenant.admin.token);
      assert.equal(emptied.status, 200, emptied.text);
      assert.ok(!(await registeredNetworks()).onAnyNetwork(net.inside));
    });

    it("is not undone by a refresh that read the organization's older networks before the PUT and lands after it", async () => {
      const tenant = await createTenant();
      const [older, newer] = [uniqueNetwork(), uniqueNetwork()];
      await writeNetworks(tenant.clientId, [older.cidr], 'another-instance');
      await registeredNetworks();
      await writeNetworks(tenant.clientId, [older.cidr], 'another-instance'); // changed again, so the refresh reads it
      const held = holdFirstQuery(NETWORKS_QUERY, 1_500);
      try {
        await callAfterRefreshInterval();
        await held.reached;
        const res = await put(tenant.clientId, [newer.cidr], tenant.admin.token);
        assert.equal(res.status, 200, res.text);
        assert.ok((await registeredNetworks()).onNetworkOf(tenant.clientId, newer.inside), 'at once');
        await sleep(1_700);
      } finally {
        held.heal();
      }
      const index = await registeredNetworks();
      assert.ok(index.onNetworkOf(tenant.clientId, newer.inside), "the PUT's networks stay");
      assert.ok(!index.onNetworkOf(tenant.clientId, older.inside), 'the older ones the refresh read do not come back');
    });
  });

  it('keeps a write this instance made while its first read was under way, though that read began before it', async () => {
    const org = randomUUID();
    const net = uniqueNetwork();
    const held = holdFirstQuery(NETWORKS_QUERY, 500);
    try {
      const first = registeredNetworks();
      await held.reached;
      applyLocally(org, [net.cidr], await writeNetworks(org, [net.cidr], 'this-instance'));
      assert.ok((await first).onNetworkOf(org, net.inside));
    } finally {
      held.heal();
    }
  });
});
