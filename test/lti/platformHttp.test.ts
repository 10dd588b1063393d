import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { platformRequest, platformUrlProblem } from '../../functions/src/lti/platformHttp';
import { withoutEmulators } from './emulatorEnv';

describe('platformUrlProblem', () => {
  it('accepts an https URL on a public name or address', () => {
    assert.equal(platformUrlProblem('https://lms.example/token', false), null);
    assert.equal(platformUrlProblem('https://8.8.8.8/token', false), null);
  });

  it('refuses http, non-URLs and addresses that are not public, outside the emulators', () => {
    assert.equal(platformUrlProblem('http://lms.example/token', false), 'not https');
    assert.equal(platformUrlProblem('nope', false), 'not a URL');
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/x',
    ])
      assert.equal(platformUrlProblem(url, false), 'not a public address', url);
  });

  it('allows loopback over http on the emulators only', () => {
    assert.equal(platformUrlProblem('http://127.0.0.1:9000/token', true), null);
    assert.equal(platformUrlProblem('http://10.0.0.1/x', true), 'not https');
  });
});

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
      const reply = await withoutEmulators(() =>
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
