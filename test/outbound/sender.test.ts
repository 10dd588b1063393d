import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { MAX_RESPONSE_BYTES, sendOnce, type OutboundFailure } from '../../functions/src/outbound/sender';

// The one outbound sender against local servers: its bounds, whoever calls it
// (a webhook's POST reads only the status, an LTI call reads a bounded body).

const emulators = { allowLoopback: true };
const production = { allowLoopback: false };

async function serve(handler: Parameters<typeof createServer>[1]) {
  let connections = 0;
  const server: Server = createServer(handler);
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/x`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const failureOf = (reply: Awaited<ReturnType<typeof sendOnce>>): OutboundFailure => {
  assert.equal(reply.status, null, 'no answer');
  return reply as OutboundFailure;
};

describe('outbound sender: sendOnce', () => {
  it('sends the method, headers and body given, and answers the status, headers and body', async () => {
    let seen: { method?: string; body: string; type?: string } | undefined;
    const local = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { method: req.method, body, type: req.headers['content-type'] };
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const reply = await sendOnce(
      local.url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
      { policy: emulators },
    );
    assert.equal(reply.status, 201);
    assert.equal(reply.status !== null && reply.body, '{"ok":true}');
    assert.equal(reply.status !== null && reply.headers.get('content-type'), 'application/json');
    assert.deepEqual(seen, { method: 'POST', body: 'a=1', type: 'application/x-www-form-urlencoded' });
    await local.close();
  });

  it('answers a redirect as it is, its target never called', async () => {
    const local = await serve((_req, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end());
    const reply = await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: emulators });
    assert.equal(reply.status, 307);
    assert.equal(reply.status !== null && reply.headers.get('location'), 'http://127.0.0.1:9/elsewhere');
    await local.close();
  });

  it('gives up on an answer that does not come in time', async () => {
    const local = await serve(() => undefined);
    const failed = failureOf(
      await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: emulators, timeoutMs: 300 }),
    );
    assert.equal(failed.failure, 'timeout');
    assert.ok(failed.ms >= 290 && failed.ms < 2_000, String(failed.ms));
    await local.close();
  });

  it('reads a body up to its bound: past it, a failure when the body is read, the status when only it counts', async () => {
    const local = await serve((_req, res) => res.writeHead(200).end(Buffer.alloc(2 * MAX_RESPONSE_BYTES, 'x')));
    const whole = failureOf(await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: emulators }));
    assert.equal(whole.failure, 'too_large');
    const status = await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: emulators, read: 'status' });
    assert.deepEqual([status.status, status.status !== null && status.body], [200, '']);
    await local.close();
  });

  it('answers the status as it arrives when only the status counts, and lets go of a body that trickles', async () => {
    // Headers at once, then a byte a second for 20 s: longer than the whole bound.
    let closedAt: number | undefined;
    const local = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      let sent = 0;
      const drip = setInterval(() => (sent++ < 20 ? res.write('x') : (clearInterval(drip), res.end())), 1_000);
      res.on('close', () => {
        clearInterval(drip);
        closedAt = Date.now();
      });
    });
    const started = Date.now();
    const reply = await sendOnce(
      local.url,
      { method: 'POST', headers: {}, body: '{}' },
      { policy: emulators, read: 'status' },
    );
    assert.equal(reply.status, 200, 'counted by its status, not cut as a timeout');
    assert.ok(reply.ms < 2_000, `answered after ${reply.ms} ms`);
    assert.equal(reply.status !== null && reply.body, '');
    // The sender hung up: the receiver sees its connection closed, long before its body would end.
    for (let i = 0; i < 40 && closedAt === undefined; i += 1) await new Promise((r) => setTimeout(r, 50));
    assert.ok(closedAt !== undefined && closedAt - started < 3_000, 'the sender stopped reading the body');
    await local.close();
  });

  it('still times out, when only the status counts, a receiver whose status does not come in time', async () => {
    // The request read, then nothing: no status line.
    const local = await serve((req) => void req.resume());
    const failed = failureOf(
      await sendOnce(
        local.url,
        { method: 'POST', headers: {}, body: '{}' },
        { policy: emulators, read: 'status', timeoutMs: 300 },
      ),
    );
    assert.equal(failed.failure, 'timeout');
    assert.ok(failed.ms >= 290 && failed.ms < 2_000, String(failed.ms));
    await local.close();
  });

  it('bounds the whole exchange when the body is read: a body that trickles past the bound is a timeout', async () => {
    const local = await serve((_req, res) => {
      res.writeHead(200);
      res.flushHeaders();
      const drip = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(drip));
    });
    const failed = failureOf(
      await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: emulators, timeoutMs: 500 }),
    );
    assert.equal(failed.failure, 'timeout');
    assert.ok(failed.ms >= 490 && failed.ms < 2_000, String(failed.ms));
    await local.close();
  });

  it('refuses a URL the address guard refuses, connecting to nothing', async () => {
    const local = await serve((_req, res) => res.end());
    const failed = failureOf(await sendOnce(local.url, { method: 'GET', headers: {} }, { policy: production }));
    assert.deepEqual([failed.failure, failed.problem], ['refused', 'loopback']);
    assert.equal(local.connections(), 0);
    await local.close();
  });

  it('refuses at connect time a name that resolves to loopback where loopback is not allowed', async function () {
    const name = hostname();
    const found = await lookup(name, { all: true }).catch(() => []);
    if (!found.some((a) => a.address.startsWith('127.'))) this.skip();
    const local = await serve((_req, res) => res.end());
    const url = `https://${name}:${local.port}/x`;
    const failed = failureOf(await sendOnce(url, { method: 'GET', headers: {} }, { policy: production }));
    assert.equal(failed.failure, 'refused');
    assert.match(failed.detail, /resolves to 127\.[0-9.]+, not a public address/);
    assert.equal(local.connections(), 0);
    // Where loopback is allowed the same name connects (its TLS then fails on this plain-HTTP server).
    assert.equal(
      failureOf(await sendOnce(url, { method: 'GET', headers: {} }, { policy: emulators })).failure,
      'network',
    );
    assert.equal(local.connections(), 1);
    await local.close();
  });
});
