import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { AUTH_HOST, FIRESTORE_HOST, PROJECT_ID } from '../support/env';
import { api, freshIp } from '../support/http';

// The built function (functions/lib) served by the Functions Framework, as Cloud Run
// serves it without the Firebase CLI: no param is in the environment, only the
// emulators' hosts and the project. Every param must read as its documented default.

const root = join(__dirname, '..', '..');

function frameworkBin(): string {
  let dir = dirname(require.resolve('@google-cloud/functions-framework'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).bin['functions-framework']);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the api function under the Functions Framework with no params set', function () {
  this.timeout(90_000);
  let child: ChildProcess;
  let baseUrl: string;
  const output: string[] = [];

  before(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      [
        frameworkBin(),
        '--target=api',
        `--source=${join(root, 'functions')}`,
        `--port=${port}`,
        '--signature-type=http',
      ],
      {
        cwd: root,
        // Nothing of this process's environment: no param can leak in.
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
          FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
          GCLOUD_PROJECT: PROJECT_ID,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`functions-framework exited:\n${output.join('')}`);
      try {
        await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`functions-framework did not listen:\n${output.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  });

  after(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it('answers a request under the default limit of 100 a minute, not 429', async () => {
    const res = await api('GET', '/api/health', { baseUrl, ip: freshIp() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-ratelimit-limit'), '100');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '99');
  });

  it('takes a JSON body up to the default 256 KiB and refuses a larger one with 413', async () => {
    const sized = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes - 11) });
    const ip = freshIp();
    const under = await api('POST', '/api/clients', {
      baseUrl,
      ip,
      rawBody: sized(200 * 1024),
      contentType: 'application/json',
    });
    assert.equal(under.status, 401, under.text);
    const over = await api('POST', '/api/clients', {
      baseUrl,
      ip,
      rawBody: sized(300 * 1024),
      contentType: 'application/json',
    });
    assert.equal(over.status, 413, over.text);
    assert.equal(over.body.error, 'PAYLOAD_TOO_LARGE');
  });

  it('allows no browser origin by default', async () => {
    const res = await api('GET', '/api/health', {
      baseUrl,
      ip: freshIp(),
      headers: { Origin: 'http://localhost:5173' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('believes one X-Forwarded-For hop by default: each caller address is its own bucket', async () => {
    const first = await api('GET', '/api/health', { baseUrl, ip: freshIp() });
    const second = await api('GET', '/api/health', { baseUrl, ip: freshIp() });
    assert.equal(first.headers.get('x-ratelimit-remaining'), '99');
    assert.equal(second.headers.get('x-ratelimit-remaining'), '99');
  });
});
