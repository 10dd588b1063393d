import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { platformRequest } from '../../functions/src/lti/platformHttp';
import { withoutLoopback } from './loopbackEnv';

describe('platformRequest', () => {
  it('does not call a name that resolves to a private address outside the emulators', async function () {
    const name = hostname();
    const found = await lookup(name, { all: true }).catch(() => []);
    if (!found.some((a) => a.address.startsWith('127.'))) this.skip();
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const reply = await withoutLoopback(() =>
        platformRequest(`https://${name}:${port}/token`, { method: 'POST', headers: {}, body: '' }),
      );
      assert.equal(reply.status, null);
      assert.match((reply as { error: string }).error, /resolves to 127\.[0-9.]+, not a public address/);
      assert.equal(hits, 0);
    } finally {
      server.close();
    }
  });
});
