import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { PROJECT_ID } from '../support/env';
import { publishTest } from '../attempts/fixtures';

// A cold instance loads only what a taker's sitting needs: the other features'
// code and packages load with the first request that reaches them
// (functions/src/app.ts routeGroups, index.ts), so they never weigh on the
// require and the first save of a fresh instance (bench/README.md).

const functionsDir = path.join(__dirname, '..', '..', 'functions');
const source = (file: string) => path.join(functionsDir, 'src', file);
const pkg = (name: string) => path.join(functionsDir, 'node_modules', name) + path.sep;

/** What a sitting must not load: a file, or a folder (ending in /), of ours, or a package. */
const LAZY: string[] = [
  source('openapi/document'),
  source('exports/'),
  source('webhooks/'),
  source('grading/'),
  source('regrading/'),
  source('media/routes'),
  source('media/service'),
  source('media/store'),
  source('media/mediaType'),
  source('questions/routes'),
  source('questions/service'),
  source('questions/importService'),
  source('questions/csvRows'),
  source('classes/routes'),
  source('classes/rosterRoutes'),
  source('classes/rosterService'),
  source('analytics/routes'),
  source('analytics/service'),
  source('analytics/resultsExport'),
  source('users/routes'),
  source('users/importService'),
  source('users/rosterAccounts'),
  source('users/rosterRows'),
  source('users/importSchemas'),
  source('folders/routes'),
  source('clients/routes'),
  source('networks/routes'),
  source('audit/routes'),
  source('exams/routes'),
  source('lti/routes'),
  source('lti/service'),
  source('lti/toolKeys'),
  source('lti/verify'),
  source('lti/grades/'),
  source('lti/roster/rosterSync'),
  source('questionTypes/bankFormats'),
  source('questionTypes/formats/'),
  source('interchange/gift/'),
  source('interchange/qti/'),
  source('interchange/moodleXml/'),
  source('interchange/aiken/'),
  source('interchange/zip'),
  source('interchange/conventions'),
  source('interchange/exportModel'),
  source('interchange/xmlText'),
  source('delivery/'),
  ...[
    '@asteasolutions/zod-to-openapi',
    'busboy',
    'csv-parse',
    'csv-stringify',
    'fast-xml-parser',
    'file-type',
    'jose',
    'peggy',
    'sanitize-html',
    'standardwebhooks',
    'temml',
    'yauzl',
    'yazl',
  ].map(pkg),
];

/** The variables of `functions/.env.demo-exam-test`, as the emulator gives them to the function. */
function testParams(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path.join(functionsDir, '.env.demo-exam-test'), 'utf8').split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

const loadedLazy = (loaded: string[]): string[] => LAZY.filter((lazy) => loaded.some((file) => file.startsWith(lazy)));

describe('a cold instance of the api function', () => {
  let child: ChildProcess;
  let baseUrl: string;
  let admin: { token: string };
  let studentToken: string;
  let testId: string;
  let questionId: string;
  const ip = freshIp();

  const loaded = async (): Promise<string[]> => {
    const reply = once(child, 'message');
    child.send('loaded');
    const [message] = (await reply) as [{ loaded: string[] }];
    return message.loaded;
  };

  before(async function () {
    this.timeout(90_000);
    const tenant = await createTenant();
    admin = tenant.admin;
    const { test, questions } = await publishTest(tenant.admin.token, tenant.clientId, { count: 2 });
    testId = test.id;
    questionId = questions[0].id;
    studentToken = (await createUser('student', tenant.clientId)).token;
    child = fork(path.join(__dirname, '..', 'support', 'coldInstanceMain.ts'), {
      execArgv: ['--import', 'tsx'],
      // Production's setting: the cost meter off.
      env: { ...process.env, ...testParams(), GCLOUD_PROJECT: PROJECT_ID, EXPOSE_COST_HEADER: 'false' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit')])) as [{ port: number }];
    if (!message?.port) throw new Error('The cold instance did not start');
    baseUrl = `http://127.0.0.1:${message.port}`;
  });
  after(async () => {
    if (!child?.connected) return;
    const exited = once(child, 'exit');
    child.disconnect();
    await exited;
  });

  it('names only files and packages that exist (so their absence below means something)', () => {
    for (const lazy of LAZY) {
      const file = lazy.endsWith(path.sep) || lazy.endsWith('/') ? lazy : `${lazy}.ts`;
      assert.ok(existsSync(file), `${file} exists`);
    }
  });

  it('serves a whole sitting (health, /me, start, read, save, submit) without loading any other feature or its packages', async function () {
    this.timeout(30_000);
    const as = { baseUrl, ip, token: studentToken };
    assert.equal((await get('/api/health', { baseUrl, ip })).status, 200);
    assert.equal((await get('/api/me', as)).status, 200);
    const started = await post('/api/attempts', { test_id: testId }, as);
    assert.equal(started.status, 201, started.text);
    const id = started.body.attempt_id;
    assert.equal((await get(`/api/attempts/${id}`, as)).status, 200);
    const saved = await post(`/api/attempts/${id}/answers`, { question_id: questionId, student_answer: 'A' }, as);
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${id}/submit`, undefined, as);
    assert.equal(submitted.status, 200, submitted.text);
    const files = await loaded();
    assert.ok(files.includes(source('attempts/service.ts')), 'the sitting ran the attempts service');
    assert.deepEqual(loadedLazy(files), []);
  });

  it('loads a feature with the first request that reaches it, and the OpenAPI generator with the document', async function () {
    this.timeout(30_000);
    const listed = await get('/api/questions', { baseUrl, ip, token: admin.token });
    assert.equal(listed.status, 200, listed.text);
    assert.equal((await get('/api/openapi.json', { baseUrl, ip })).status, 200);
    const now = loadedLazy(await loaded());
    assert.ok(now.includes(source('questions/routes')), now.join(', '));
    assert.ok(now.includes(source('openapi/document')), now.join(', '));
  });
});
