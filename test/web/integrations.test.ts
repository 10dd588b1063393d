import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createTenant, createUser, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on this machine (loopback, which the emulators allow) that answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/exams`, received, server };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A student of the organization starts the test and submits it at once. */
async function submitAttempt(tenant: Tenant, testId: string): Promise<string> {
  const student = await createUser('student', tenant.clientId);
  const started = await post('/api/attempts', { test_id: testId }, { token: student.token, ip: freshIp() });
  assert.equal(started.status, 201, started.text);
  const attemptId: string = started.body.attempt_id;
  const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, { token: student.token, ip: freshIp() });
  assert.equal(submitted.status, 200, submitted.text);
  return attemptId;
}

const headerOf = (r: Received, name: string) => String(r.headers[name]);

/** Verified as a receiver does, with the Standard Webhooks library: the parsed body (throws when not signed with `secret`). */
const verified = (r: Received, secret: string) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': headerOf(r, 'webhook-id'),
    'webhook-timestamp': headerOf(r, 'webhook-timestamp'),
    'webhook-signature': headerOf(r, 'webhook-signature'),
  }) as { type: string };

/** The type of a delivery signed with `secret`, else undefined. */
function typeSignedWith(r: Received, secret: string): string | undefined {
  try {
    return verified(r, secret).type;
  } catch {
    return undefined;
  }
}

const secretShown = async (page: Page) =>
  (await page.getByTestId('secret-once').getByTestId('webhook-secret').textContent())?.trim() ?? '';

/**
 * Every webhook call is a sensitive operation, counted per signed-in user (10 a minute under the tests'
 * config): each test drives the page as an admin of its own, and the checks through the API use another.
 */
describe('web app: an admin manages the organization’s webhooks', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The endpoint the first test creates, the second's deliveries go to. */
  let endpointId: string;
  let oldSecret: string;
  let secret: string;
  before(async () => {
    tenant = await createTenant();
    test = await createTestWith(tenant);
    receiver = await startReceiver();
  });
  after(() => receiver?.server.close());

  const listEndpoints = async () => {
    const listed = await get(`/api/clients/${tenant.clientId}/webhooks`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(listed.status, 200, listed.text);
    return listed.body.data;
  };

  it('creates an endpoint and shows its secret once, then rotates it and shows the new one once', async function () {
    const admin = await createUser('client_admin', tenant.clientId);
    const visitor = browser();
    const { page } = visitor;
    page.on('dialog', (d) => void d.accept());
    await signInAs(page, admin.email, admin.password);
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await page.getByText('No webhook endpoint yet.').waitFor();
    await checkPage(page, this, 'no endpoint');

    // Refused by the API (http to a public name): the refusal is shown under the URL field.
    const form = page.getByRole('form', { name: 'New webhook endpoint' });
    await form.getByLabel('Endpoint URL').fill('http://example.com/hooks');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await form.locator('.field-error').filter({ hasText: /https/ }).waitFor();
    assert.equal(await form.getByLabel('Endpoint URL').getAttribute('aria-invalid'), 'true');
    await checkPage(page, this, 'url refused');

    const description = uniqueName('Gradebook bridge');
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel(/attempt\.graded/).check();
    await form.getByLabel('Description').fill(description);
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByTestId('secret-once').getByText('you will not see it again').waitFor();
    const first = await secretShown(page);
    assert.match(first, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: receiver.url }) });
    await card.getByText('Active', { exact: true }).waitFor();
    await checkPage(page, this, 'secret shown once');

    const [endpoint] = await listEndpoints();
    assert.deepEqual(endpoint.events, ['attempt.submitted', 'attempt.graded']);
    assert.equal(endpoint.description, description);
    assert.equal('secret' in endpoint, false);
    endpointId = endpoint.id;

    // Once dismissed, the secret is nowhere on the page (and no list carries it).
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByTestId('secret-once').waitFor({ state: 'detached' });
    assert.equal((await page.content()).includes(first), false);

    await card.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    await page.getByTestId('secret-once').getByText('keeps signing for 24 hours').waitFor();
    secret = await secretShown(page);
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, first);
    oldSecret = first;
    await checkPage(page, this, 'secret rotated');
    assert.deepEqual(visitor.errors, []);
  });

  it('lists the delivery of a submit, signed with the rotated secret, and resends it with the same webhook-id', async function () {
    assert.ok(endpointId, 'the endpoint of the previous test');
    const attemptId = await submitAttempt(tenant, test.id);
    const delivered = await until('the delivery of the submit', () =>
      receiver.received.find((r) => typeSignedWith(r, secret) === 'attempt.submitted' && r.body.includes(attemptId)),
    );
    // The old secret signs too for 24 h after the rotation.
    assert.equal(typeSignedWith(delivered, oldSecret), 'attempt.submitted');
    const messageId = headerOf(delivered, 'webhook-id');

    const admin = await createUser('client_admin', tenant.clientId);
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, admin.email, admin.password);
    await page.goto('/admin/integrations');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: receiver.url }) });
    await card.getByRole('button', { name: `Show deliveries of ${receiver.url}` }).click();
    const row = card.getByTestId('delivery').filter({ hasText: messageId });
    await row.waitFor();
    // Recorded a moment after the receiver's 200: read again a few times at most (each read is a sensitive operation).
    for (let i = 0; i < 3 && (await row.getAttribute('data-status')) !== 'delivered'; i++) {
      await page.waitForTimeout(1_000);
      await card.getByRole('button', { name: /^Refresh/ }).click();
      await card
        .getByRole('button', { name: /^Refresh/ })
        .and(page.locator(':enabled'))
        .waitFor();
    }
    assert.equal(await row.getAttribute('data-status'), 'delivered');
    await row.getByRole('cell', { name: '200', exact: true }).waitFor();
    await row.getByText('attempt.submitted', { exact: true }).waitFor();
    await checkPage(page, this, 'deliveries');

    await row.getByRole('button', { name: /^Resend/ }).click();
    await card
      .getByTestId('delivery')
      .filter({ hasText: messageId })
      .and(page.locator('[data-status="pending"]'))
      .waitFor();
    await checkPage(page, this, 'resent');
    const deliveries = await get(`/api/clients/${tenant.clientId}/webhooks/${endpointId}/deliveries`, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.equal(deliveries.status, 200, deliveries.text);
    const again = deliveries.body.data.find((d: { message_id: string }) => d.message_id === messageId);
    // Pending again (or already sent again), under the same webhook-id.
    assert.ok(['pending', 'delivered'].includes(again.status), again.status);
    assert.ok(again.status === 'pending' || again.tries >= 2, JSON.stringify(again));
    assert.deepEqual(visitor.errors, []);
  });
});

describe('web app: an admin registers the organization’s LTI platforms', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('registers an LTI platform, shows the tool URLs and what else to turn on in the platform, edits it, and deletes it', async function () {
    const visitor = browser();
    const { page } = visitor;
    page.on('dialog', (d) => void d.accept());
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/integrations');
    await page.getByText('No platform registered yet.').waitFor();
    const tool = page.getByTestId('tool-urls');
    await tool
      .getByTestId('tool-login_url')
      .filter({ hasText: /\/api\/lti\/login$/ })
      .waitFor();

    const issuer = `https://moodle-${Date.now()}.example.org`;
    const form = page.getByRole('form', { name: 'Register a platform' });
    await form.getByLabel('Platform name').fill('School Moodle');
    await form.getByLabel('Issuer').fill(issuer);
    await form.getByLabel('Client ID').fill('tool-client-1');
    await form.getByLabel('Deployment IDs').fill('1\n2');
    await form.getByLabel('Authentication request URL').fill(`${issuer}/mod/lti/auth.php`);
    await form.getByLabel('Access token URL').fill(`${issuer}/mod/lti/token.php`);
    await form.getByLabel('Platform keyset (JWKS) URL').fill(`${issuer}/mod/lti/certs.php`);
    await form.getByLabel(/Instructors become admins/).check();
    await form.getByRole('button', { name: 'Register platform' }).click();
    await tool.getByRole('heading', { name: 'Tool URLs for School Moodle' }).waitFor();
    const row = page.getByTestId('lti-platform').filter({ hasText: issuer });
    await row.getByText('Become admins').waitFor();
    await checkPage(page, this, 'platform registered');

    const listed = await get(`/api/clients/${tenant.clientId}/lti/platforms`, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.equal(listed.status, 200, listed.text);
    const platform = listed.body.data.find((p: { issuer: string }) => p.issuer === issuer);
    assert.deepEqual(platform.deployment_ids, ['1', '2']);
    assert.equal(platform.instructors_as_admins, true);
    for (const key of ['login_url', 'launch_url', 'jwks_url', 'deep_linking_url']) {
      assert.match((await tool.getByTestId(`tool-${key}`).textContent()) ?? '', /^https?:\/\/.+\/api\/lti\//);
    }

    // The platform's own login URL stays on its row, after the registration's notice is gone.
    assert.equal(await row.getByTestId('platform-login-url').textContent(), platform.tool.login_url);
    const checklist = page.getByRole('region', { name: 'Also turn on in the platform' });
    for (const item of ['Grade passback', 'Rosters', 'Deep linking', 'Names and emails shared'])
      await checklist.getByText(item).first().waitFor();
    await checklist.getByText(/Share launcher’s email with tool: Always/).waitFor();

    // Edited: a deployment added, Instructors no longer admins; the pair is shown, not editable.
    await row.getByRole('button', { name: 'Edit the platform School Moodle' }).click();
    const edit = page.getByRole('form', { name: 'Edit the platform School Moodle' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Edit School Moodle',
      'the focus moves to the form',
    );
    assert.equal(await edit.getByLabel('Issuer').count(), 0);
    await edit.getByLabel('Deployment IDs').fill('1\n2\n3');
    await edit.getByLabel('Instructors become admins').uncheck();
    await checkPage(page, this, 'platform edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Take tests as students').waitFor();
    const edited = (
      await get(`/api/clients/${tenant.clientId}/lti/platforms`, { token: tenant.admin.token, ip: freshIp() })
    ).body.data.find((p: { issuer: string }) => p.issuer === issuer);
    assert.deepEqual(edited.deployment_ids, ['1', '2', '3']);
    assert.equal(edited.instructors_as_admins, false);
    assert.equal(edited.tool.login_url, platform.tool.login_url, 'the login URL is the same');

    // The same pair again is refused, and the refusal is shown.
    await form.getByLabel('Issuer').fill(issuer);
    await form.getByLabel('Client ID').fill('tool-client-1');
    await form.getByLabel('Deployment IDs').fill('1');
    await form.getByLabel('Authentication request URL').fill(`${issuer}/mod/lti/auth.php`);
    await form.getByLabel('Access token URL').fill(`${issuer}/mod/lti/token.php`);
    await form.getByLabel('Platform keyset (JWKS) URL').fill(`${issuer}/mod/lti/certs.php`);
    await form.getByRole('button', { name: 'Register platform' }).click();
    await form.getByRole('alert').waitFor();
    await checkPage(page, this, 'platform refused');

    await row.getByRole('button', { name: 'Delete the platform School Moodle' }).click();
    await page.getByText('No platform registered yet.').waitFor();
    const after = await get(`/api/clients/${tenant.clientId}/lti/platforms`, {
      token: tenant.admin.token,
      ip: freshIp(),
    });
    assert.deepEqual(after.body.data, []);
    assert.deepEqual(visitor.errors, []);
  });
});

/** The API's error body, as every refusal carries it. */
const refusal = (
  status: number,
  error: string,
  message: string,
  details: Array<{ path: string; message: string }> = [],
) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify({ error, message, status, details }),
});

describe('web app: the integrations page shows the API’s refusals', function () {
  this.timeout(120_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('says why a list could not be read, and puts each field’s refusal under that field', async function () {
    const visitor = browser();
    const { page } = visitor;
    // The service's answers replaced at the browser: a list that is unavailable, a create and a registration refused.
    await page.route(/\/api\/clients\/[^/]+\/webhooks$/, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill(refusal(503, 'SERVICE_UNAVAILABLE', 'The service is busy: try again in a moment'))
        : route.fulfill(
            refusal(400, 'VALIDATION_ERROR', 'The request is not valid', [
              { path: 'body.url', message: 'The URL must be https' },
              { path: 'body.events.1', message: 'Each event at most once' },
              { path: 'body', message: 'Something about the whole request' },
            ]),
          ),
    );
    await page.route(/\/api\/clients\/[^/]+\/lti\/platforms$/, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":[]}' })
        : route.fulfill(
            refusal(400, 'VALIDATION_ERROR', 'The request is not valid', [
              { path: 'body.deployment_ids.0', message: 'At most 255 characters' },
              { path: 'body.jwks_url', message: 'The URL must be https' },
            ]),
          ),
    );
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/integrations');
    await page.getByRole('alert').filter({ hasText: 'The service is busy: try again in a moment' }).waitFor();
    // A list that could not be read is not said to be empty.
    assert.equal(await page.getByText('No webhook endpoint yet.').count(), 0);

    const hooks = page.getByRole('form', { name: 'New webhook endpoint' });
    await hooks.getByLabel('Endpoint URL').fill('https://receiver.example.org/hooks');
    await hooks.getByRole('button', { name: 'Create endpoint' }).click();
    await hooks.getByLabel('Endpoint URL').and(page.locator('[aria-invalid="true"]')).waitFor();
    assert.equal(await hooks.locator('label:has(input[type=url]) .field-error').textContent(), 'The URL must be https');
    assert.equal(await hooks.locator('fieldset .field-error').textContent(), 'Each event at most once');
    // The detail naming no field stays in the form's own alert, the field ones do not repeat there.
    const alert = hooks.getByRole('alert');
    await alert.getByText('Something about the whole request').waitFor();
    assert.equal(await alert.getByText('The URL must be https').count(), 0);
    await checkPage(page, this, 'webhook refusals');

    const lti = page.getByRole('form', { name: 'Register a platform' });
    await lti.getByLabel('Issuer').fill('https://lms.example.org');
    await lti.getByLabel('Client ID').fill('abc');
    await lti.getByLabel('Deployment IDs').fill('x'.repeat(300));
    await lti.getByLabel('Authentication request URL').fill('https://lms.example.org/auth');
    await lti.getByLabel('Access token URL').fill('https://lms.example.org/token');
    await lti.getByLabel('Platform keyset (JWKS) URL').fill('https://lms.example.org/jwks');
    await lti.getByRole('button', { name: 'Register platform' }).click();
    await lti.getByText('At most 255 characters').waitFor();
    assert.equal(await lti.getByLabel('Deployment IDs').getAttribute('aria-invalid'), 'true');
    assert.equal(await lti.getByLabel('Platform keyset (JWKS) URL').getAttribute('aria-invalid'), 'true');
    await checkPage(page, this, 'platform refusals');
    assert.deepEqual(visitor.errors, []);
  });
});
