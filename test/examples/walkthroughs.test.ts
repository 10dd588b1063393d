import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemo } from '../support/demoSeed';
import { AUTH_HOST, BASE_URL } from '../support/env';
import { signIn } from '../support/fixtures';
import { get, patch } from '../support/http';

const root = join(__dirname, '..', '..');
const DEMO_PASSWORD = 'demo-pass-1234';

/** The shell blocks of docs/walkthroughs.md, in order: exactly what a reader pastes. */
const pasted = [...readFileSync(join(root, 'docs', 'walkthroughs.md'), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .join('\n');

/** Runs the walkthroughs twice in one bash, as a reader pasting them twice; stderr is split per run. */
function pasteTwice(): Promise<{ runs: string[]; stdout: string; code: number | null }> {
  const script = `${pasted}\necho '--- pasted again ---' >&2\n${pasted}`;
  return new Promise((resolve, reject) => {
    const shell = spawn('bash', ['-c', script], {
      cwd: root,
      env: {
        ...process.env,
        API: `${BASE_URL}/api`,
        AUTH: `http://${AUTH_HOST}/identitytoolkit.googleapis.com/v1`,
      },
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (chunk) => (stdout += chunk));
    shell.stderr.on('data', (chunk) => (stderr += chunk));
    shell.on('error', reject);
    shell.on('close', (code) => resolve({ runs: stderr.split('--- pasted again ---\n'), stdout, code }));
  });
}

/** The API's refusals a run printed, as "status error_code", in order. */
const refusalsOf = (stderr: string) =>
  [...stderr.matchAll(/^HTTP (\d{3}) (\{.*\})$/gm)].map((m) => `${m[1]} ${JSON.parse(m[2]).error}`);

describe('docs/walkthroughs.md, pasted twice in a row into one shell', function () {
  // Two runs of ~70 requests from one address against the demo's 100 a minute: the second waits a 429 out.
  this.timeout(600_000);

  before(async () => {
    await seedDemo();
    // The sitting opens in two minutes (as after npm start), so the first run meets the refusal before
    // opens_at and then waits for it.
    const admin = await signIn('admin@demo-academy.example', DEMO_PASSWORD);
    const tests = await get('/api/tests?status=published&limit=100', { token: admin });
    const sitting = tests.body.data.find((t: { test_name: string }) => t.test_name === 'Demo Timed Sitting');
    const opens = await patch(
      `/api/tests/${sitting.id}`,
      { opens_at: new Date(Date.now() + 120_000).toISOString() },
      { token: admin },
    );
    assert.equal(opens.status, 200);
  });

  it('runs every step both times: no shell or node error, and only the refusals the page explains', async () => {
    const { runs, stdout, code } = await pasteTwice();
    assert.equal(runs.length, 2, runs.join('\n'));
    for (const [i, stderr] of runs.entries()) {
      const trouble = stderr
        .split('\n')
        .filter((line) => /Error\b|not in the reply|No answer from|command not found|undefined/.test(line));
      assert.deepEqual(trouble, [], `run ${i + 1}:\n${stderr}`);
    }
    assert.doesNotMatch(stdout, /undefined/);
    // The first run: the refusals each walkthrough shows on purpose.
    assert.deepEqual(
      refusalsOf(runs[0]),
      [
        '403 FORBIDDEN', // a Client Admin lists the clients
        '403 FORBIDDEN', // a student reads the bank
        '409 CONFLICT', // the sitting before opens_at
        '403 FORBIDDEN', // no access code
        '403 FORBIDDEN', // a wrong access code
      ],
      runs[0],
    );
    // The second: the same, less the sitting's (it is open, and its attempts resume), plus the steps that
    // cannot be repeated, as the page says.
    assert.deepEqual(
      refusalsOf(runs[1]),
      [
        '409 CONFLICT', // a client named "Second School" exists
        '409 CONFLICT', // the new student's email is taken
        '403 FORBIDDEN',
        '409 CONFLICT', // examples/questions.csv was imported already
        '409 CONFLICT', // examples/bank.gift too: its dry run
        '409 CONFLICT', // and its import
        '403 FORBIDDEN',
      ],
      runs[1],
    );
    // Both runs reached their ends: the guest's submitted attempt and its review.
    assert.equal([...stdout.matchAll(/"status":"submitted","score":2,"total_marks":/g)].length, 2);
    assert.equal(code, 0);
    // The second run found the first run's test: students see one "My first exam", not two.
    const admin = await signIn('admin@demo-academy.example', DEMO_PASSWORD);
    const tests = await get('/api/tests?limit=100', { token: admin });
    assert.equal(tests.status, 200);
    const named = tests.body.data.filter((t: { test_name: string }) => t.test_name === 'My first exam');
    assert.equal(named.length, 1, JSON.stringify(named));
  });
});
