import assert from 'node:assert/strict';
import { hashAccessCode } from '../../functions/src/sittingRules/accessCode';
import { testDoc } from '../exams/fixtures';
import { createTenant } from '../support/fixtures';
import { freshIp, get, patch } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

// Access codes as teachers use them: the admin's sitting form shows the code it set,
// a taker types it on the test's card (before the test opens too) in any case, and
// nothing the taker's page receives carries it.

describe('web app: the access code on the sitting form', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('shows the code the admin set, and a code stored as a hash before as not readable until typed again', async function () {
    const tenant = await createTenant();
    const test = await createTestWith(tenant, { settings: { access_code: 'Room-12B' } });
    const { page, errors } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}`);
    const sitting = page.getByRole('region', { name: 'Sitting settings' });
    await sitting.getByText('Access code: Room-12B').waitFor();
    await checkPage(page, this, 'code shown');

    // A test whose code was saved before codes were readable: only its hash is stored.
    await testDoc(tenant.clientId, test.id).update({
      access_code: null,
      access_code_hash: await hashAccessCode('Old-Code'),
    });
    await page.reload();
    await sitting.getByText(/saved before codes could be shown: it still works/).waitFor();
    await checkPage(page, this, 'legacy code not readable');
    await sitting.getByLabel('New access code').fill('Old-Code');
    await sitting.getByRole('button', { name: 'Save sitting settings' }).click();
    await sitting.getByText('Access code: Old-Code').waitFor();
    const read = await get(`/api/tests/${test.id}`, { token: tenant.admin.token, ip: freshIp() });
    assert.equal(read.body.access_code, 'Old-Code');
    assert.deepEqual(errors, []);
  });
});

describe('web app: a student types the access code on the test’s card', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('shows the field before the test opens, takes the code in another case with spaces, and never receives the code', async function () {
    const tenant = await createTenant();
    const CODE = 'North-Wing-77';
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const test = await createTestWith(tenant, { settings: { access_code: CODE, opens_at: later } });
    const { page, errors } = browser();
    const received: string[] = [];
    page.on('response', async (response) => {
      if (!new URL(response.url()).pathname.startsWith('/api/')) return;
      received.push(await response.text().catch(() => ''));
    });
    await signInAs(page, tenant.student.email, tenant.student.password);
    // Opening soon, set once the student is signed in: surely not open yet when the page shows it.
    const soon = await patch(
      `/api/tests/${test.id}`,
      { opens_at: new Date(Date.now() + 30_000).toISOString() },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(soon.status, 200, soon.text);
    await page.reload();
    const card = page.getByRole('listitem', { name: test.test_name });
    const field = card.getByLabel(`Access code for ${test.test_name}`);
    await field.waitFor();
    // Not open yet: the field is there, the start button is not.
    assert.equal(await card.getByRole('button', { name: `Start ${test.test_name}` }).count(), 0);
    await card.getByText('You can start it once it opens').waitFor();
    await field.fill('  north-wing-77 ');
    await checkPage(page, this, 'code typed before the test opens');

    await card.getByRole('button', { name: `Start ${test.test_name}` }).click({ timeout: 90_000 });
    await page.getByRole('timer').waitFor();
    await checkPage(page, this, 'started');
    assert.ok(received.length > 0, 'the page read the API');
    for (const body of received)
      assert.ok(!body.toLowerCase().includes(CODE.toLowerCase()), `a reply carried the code: ${body}`);
    for (const body of received) assert.ok(!body.includes('"access_code"'), `a reply named access_code: ${body}`);
    assert.deepEqual(errors, []);
  });
});
