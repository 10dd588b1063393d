import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES } from '../../functions/src/outbound/sender';
import { postOnce } from '../../functions/src/webhooks/sender';

// One POST to a receiver, against local servers: the contract's bounds.

const emulators = { allowLoopback: true };

async function serve(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; hits: () => number; connections: () => number; close: () => Promise<void> }> {
  let hits = 0;
  let connections = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    handler!(req, res);
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits: () => hits,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhook sender: postOnce', () => {
  it('does not follow a redirect: a 3xx is a failed try, the target never reached', async () => {
    const target = await serve((_req, res) => res.writeHead(204).end());
    const redirecting = await serve((_req, res) => res.writeHead(307, { location: target.url }).end());
    const result = await postOnce(redirecting.url, {}, '{}', emulators);
    assert.equal(result.code, 307);
    assert.match(result.error ?? '', /not followed/);
    assert.equal(target.hits(), 0);
    await Promise.all([target.close(), redirecting.close()]);
  });

  it('cuts a receiver that does not answer in time (code null, the time it waited)', async () => {
    const slow = await serve(() => undefined);
    const result = await postOnce(slow.url, {}, '{}', emulators, { timeoutMs: 300 });
    assert.equal(result.code, null);
    assert.match(result.error ?? '', /No answer within/);
    assert.ok(result.ms >= 290 && result.ms < 2_000, String(result.ms));
    await slow.close();
  });

  it('reads none of an answer’s body, however long it goes on: the 2xx counts and the connection is closed', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let written = 0;
    const endless = await serve((_req, res) => {
      res.writeHead(200);
      const more = () => {
        while (written < 50 * MAX_RESPONSE_BYTES && res.write(chunk)) written += chunk.length;
        if (written < 50 * MAX_RESPONSE_BYTES) res.once('drain', more);
      };
      more();
    });
    const result = await postOnce(endless.url, {}, '{}', emulators, { timeoutMs: 5_000 });
    assert.equal(result.code, 200);
    assert.equal(result.error, null);
    assert.ok(written < 50 * MAX_RESPONSE_BYTES, 'stopped reading long before the end');
    await endless.close();
  });

  it('counts a 2xx when its status arrives, however slowly its body follows (a byte a second)', async () => {
    const trickling = await serve((_req, res) => {
      res.writeHead(200);
      res.flushHeaders();
      const drip = setInterval(() => res.write('x'), 1_000);
      res.on('close', () => clearInterval(drip));
    });
    const result = await postOnce(trickling.url, {}, '{}', emulators);
    assert.deepEqual([result.code, result.error], [200, null]);
    assert.ok(result.ms < 2_000, `counted after ${result.ms} ms`);
    await trickling.close();
  });

  it('refuses at connect time a name that resolves to loopback outside the emulators, sending nothing', async function () {
    // This machine's own name: nothing in the URL says loopback, only its DNS answer does (as a rebinding would).
    const name = hostname();
    const found = await lookup(name).catch(() => undefined);
    if (!found || !/^127\./.test(found.address)) this.skip();
    const local = await serve((_req, res) => res.writeHead(204).end());
    const port = new URL(local.url).port;
    const result = await postOnce(`https://${name}:${port}/hook`, {}, '{}', { allowLoopback: false });
    assert.equal(result.code, null);
    assert.match(result.error ?? '', /Refused: .* not a public address/);
    assert.equal(local.connections(), 0, 'no connection was made');
    // The same name where loopback is allowed does connect (its TLS then fails on this plain-HTTP server).
    await postOnce(`https://${name}:${port}/hook`, {}, '{}', emulators);
    assert.equal(local.connections(), 1);
    await local.close();
  });

  it('refuses a private address literal outside the emulators without connecting', async () => {
    const result = await postOnce('https://10.0.0.1/hook', {}, '{}', { allowLoopback: false });
    assert.equal(result.code, null);
    assert.match(result.error ?? '', /Refused/);
  });

  it('posts the body with the headers given and reports the status', async () => {
    let seen: { body: string; id: string | undefined } | undefined;
    const ok = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { body, id: req.headers['webhook-id'] as string | undefined };
        res.writeHead(202).end();
      });
    });
    const result = await postOnce(ok.url, { 'webhook-id': 'msg_1' }, '{"a":1}', emulators);
    assert.deepEqual([result.code, result.error], [202, null]);
    assert.deepEqual(seen, { body: '{"a":1}', id: 'msg_1' });
    await ok.close();
  });
});
