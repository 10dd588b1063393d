import assert from 'node:assert/strict';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, patch } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith } from './support/exams';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const readTest = async (token: string, id: string) => (await get(`/api/tests/${id}`, { token, ip: freshIp() })).body;

describe('web app: an admin edits a published test as a new version', function () {
  this.timeout(240_000);
  const browser = browserPerTest();

  it('shows the bank questions changed since the freeze, edits version 2 while version 1 stays live, publishes it, and confirms a discard and an archive', async function () {
    const tenant: Tenant = await createTenant();
    const test = await createTestWith(tenant);
    const edited = await patch(
      `/api/questions/${test.question_ids[0]}`,
      { question_text: 'Reworded in the bank' },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(edited.status, 200, edited.text);

    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${encodeURIComponent(test.id)}`);
    await page.getByRole('heading', { name: test.test_name, level: 1 }).waitFor();

    // The bank's edit is named, and so is what students get meanwhile.
    const changes = page.getByTestId('bank-changes');
    await changes.getByRole('heading', { name: '1 bank question changed since version 1 was frozen' }).waitFor();
    await changes.getByText('text changed').waitFor();
    await changes.getByText('edit the test as a new version and publish it', { exact: false }).waitFor();
    await checkPage(page, this, 'published test with a changed bank question');

    // Edit as a new version: the form edits version 2, the live test and what students read stay version 1.
    await page.getByRole('button', { name: 'Edit as a new version' }).click();
    const pending = page.getByTestId('new-version');
    await pending.getByRole('heading', { name: 'Version 2 is being edited' }).waitFor();
    await page.getByLabel('Test name').fill(`${test.test_name} v2`);
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.getByText('Test saved.').waitFor();
    await checkPage(page, this, 'a new version being edited');
    const live = await readTest(tenant.admin.token, test.id);
    assert.equal(live.test_name, test.test_name);
    assert.equal(live.version, 1);
    assert.equal(live.pending_edit.test_name, `${test.test_name} v2`);
    const student = await createUser('student', tenant.clientId);
    const seen = await readTest(student.token, test.id);
    assert.equal(seen.test_name, test.test_name, 'students still read version 1');
    assert.equal(seen.pending_edit, undefined);

    // Publish: version 2 is live, and it froze the bank's text, so nothing is changed any more.
    await pending.getByRole('button', { name: 'Publish version 2' }).click();
    await page.getByRole('heading', { name: `${test.test_name} v2`, level: 1 }).waitFor();
    await page.getByText('version 2, published', { exact: false }).waitFor();
    await changes.waitFor({ state: 'detached' });
    assert.equal(await pending.count(), 0);
    assert.equal((await readTest(student.token, test.id)).test_name, `${test.test_name} v2`);
    await checkPage(page, this, 'version 2 published');

    // A discard asks first; the live version stays.
    await page.getByRole('button', { name: 'Edit as a new version' }).click();
    await pending.getByRole('heading', { name: 'Version 3 is being edited' }).waitFor();
    await pending.getByRole('button', { name: 'Discard the new version' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard version 3?' });
    await discard.waitFor();
    await checkPage(page, this, 'discard confirmation');
    await discard.getByRole('button', { name: 'Discard' }).click();
    await pending.waitFor({ state: 'detached' });
    assert.equal((await readTest(tenant.admin.token, test.id)).pending_edit, null);

    // An archive asks first: focus starts on Cancel, and Cancel keeps the test published.
    await page.getByRole('button', { name: 'Archive' }).click();
    const archive = page.getByRole('dialog', { name: `Archive "${test.test_name} v2"?` });
    await archive.waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Cancel',
      'focus moves into the dialog',
    );
    await checkPage(page, this, 'archive confirmation');
    await archive.getByRole('button', { name: 'Cancel' }).click();
    await archive.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('test-status').textContent(), 'published');
    assert.equal((await readTest(tenant.admin.token, test.id)).status, 'published');

    await page.getByRole('button', { name: 'Archive' }).click();
    await archive.getByRole('button', { name: 'Archive' }).click();
    await page.getByTestId('test-status').getByText('archived').waitFor();
    assert.equal((await readTest(tenant.admin.token, test.id)).status, 'archived');
    assert.deepEqual(browser().errors, []);
  });
});
