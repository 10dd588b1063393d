import assert from 'node:assert/strict';
import { createTenant, uniqueName } from '../support/fixtures';
import { freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function folderNames(tenant: Tenant): Promise<string[]> {
  const res = await get('/api/folders?limit=100', { token: tenant.admin.token, ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((f: { name: string }) => f.name).sort();
}

describe('web app: an admin manages the bank’s folders', function () {
  this.timeout(180_000);
  const browser = browserPerTest();

  it('creates, renames and deletes folders, and explains why a folder with questions cannot be deleted', async function () {
    const tenant = await createTenant();
    const { page } = browser();
    page.on('dialog', (d) => void d.accept());
    const algebra = uniqueName('Algebra');
    const geometry = uniqueName('Geometry');
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/admin/questions');
    await page.getByRole('heading', { name: 'Folders', level: 2 }).waitFor();
    await page.getByText('No folder yet.').waitFor();
    await checkPage(page, this, 'no folder');

    const create = page.getByRole('form', { name: 'New folder' });
    for (const name of [algebra, geometry]) {
      await create.getByLabel('New folder name').fill(name);
      await create.getByRole('button', { name: 'Create folder' }).click();
      await page.getByRole('button', { name: `Rename ${name}`, exact: true }).waitFor();
    }
    // The same name again, in another case: the API's 409, said as it is.
    await create.getByLabel('New folder name').fill(algebra.toUpperCase());
    await create.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('alert').getByText('already exists').waitFor();
    assert.deepEqual(await folderNames(tenant), [algebra, geometry].sort());

    await page.getByRole('button', { name: `Rename ${geometry}`, exact: true }).click();
    const rename = page.getByRole('form', { name: `Rename ${geometry}` });
    await rename.getByLabel(`New name for ${geometry}`).fill(`${geometry} II`);
    await checkPage(page, this, 'renaming a folder');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('button', { name: `Rename ${geometry} II`, exact: true }).waitFor();
    assert.deepEqual(await folderNames(tenant), [algebra, `${geometry} II`].sort());

    // A question filed in Algebra: the folder is not empty.
    const folders = (await get('/api/folders?limit=100', { token: tenant.admin.token, ip: freshIp() })).body.data;
    const algebraId = folders.find((f: { name: string }) => f.name === algebra).id;
    const question = await post(
      '/api/questions',
      {
        question_text: 'Solve x + 1 = 3',
        question_type: 'numeric',
        correct_answer: '2',
        marks: 1,
        difficulty: 'easy',
        folder_id: algebraId,
      },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(question.status, 201, question.text);
    await page.getByRole('button', { name: `Delete ${algebra}`, exact: true }).click();
    const refusal = page.getByRole('alert');
    await refusal.getByText(`The folder "${algebra}" is not empty: it still holds questions`).waitFor();
    await refusal.getByText('Move each of them to another folder').waitFor();
    // The bank now lists what keeps it, to move or delete.
    assert.equal(await page.getByRole('combobox', { name: /^Folder/ }).inputValue(), algebraId);
    await page.getByRole('button', { name: 'Edit Solve x + 1 = 3', exact: true }).waitFor();
    await checkPage(page, this, 'a folder that is not empty');
    assert.deepEqual(await folderNames(tenant), [algebra, `${geometry} II`].sort());

    await page.getByRole('button', { name: `Delete ${geometry} II`, exact: true }).click();
    await page.getByRole('status').getByText(`Folder "${geometry} II" deleted.`).waitFor();
    await page.getByRole('button', { name: `Rename ${geometry} II`, exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(await folderNames(tenant), [algebra]);
    await checkPage(page, this, 'a folder deleted');
    assert.deepEqual(browser().errors, []);
  });
});
