import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTenant, uniqueName } from '../support/fixtures';
import { api, freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

// Invitations in Chromium: the class page says who cannot sign in yet and makes their links (CSV and
// printable sheet); a student opens its link, chooses a password and lands signed in; a used link says so.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A student made without a password (it cannot sign in yet), and its link. */
async function invited(tenant: Tenant) {
  const email = `web-invite-${randomUUID().slice(0, 10)}@invitations.example`;
  const res = await post(
    '/api/users',
    { email, display_name: 'Zoë Invitée', role: 'student' },
    { token: tenant.admin.token, ip: freshIp() },
  );
  assert.equal(res.status, 201, res.text);
  return { uid: res.body.uid as string, email, link: res.body.invitation_link as string };
}

describe('web app: invitation links', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('the class page marks who cannot sign in yet; the teacher downloads the CSV and opens the printable sheet', async function () {
    const student = await invited(tenant);
    const name = uniqueName('Invited class');
    const made = await post('/api/classes', { name, code: null }, { token: tenant.admin.token, ip: freshIp() });
    for (const uid of [student.uid, tenant.student.uid])
      await api('PUT', `/api/classes/${made.body.id}/members/${uid}`, { token: tenant.admin.token, ip: freshIp() });
    const { page } = browser();
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/classes/${encodeURIComponent(made.body.id)}`);
    await page.getByRole('cell', { name: student.email, exact: true }).waitFor();
    await page.getByText('Cannot sign in yet', { exact: true }).waitFor();
    assert.match((await page.getByTestId('cannot-sign-in-count').textContent()) ?? '', /^1 student /);
    await checkPage(page, this, 'class with a student who cannot sign in');
    await page.getByRole('button', { name: 'Invitations for students who cannot sign in yet' }).click();
    await page.getByText('1 new link').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the links (CSV)' }).click(),
    ]);
    const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
    assert.ok(csv.startsWith('\uFEFFname,email,class,invitation_link,expires_at\n'), csv.slice(0, 80));
    assert.ok(csv.includes(`Zoë Invitée,${student.email},${name},`));
    // The printable sheet: the slips under the action, alone on the printed page (the print stylesheet).
    const slips = page.getByRole('region', { name: 'Invitation slips' });
    assert.equal(await slips.locator('.slip').count(), 1);
    assert.match((await slips.locator('.slip').textContent()) ?? '', /Zoë Invitée[\s\S]*\/invitation#token=/);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('heading', { level: 1 }).first().isVisible(), false, 'only the slips print');
    assert.ok(await slips.isVisible());
    await page.emulateMedia({ media: 'screen' });
  });

  it('a student opens its link, chooses a password and lands signed in; the used link then says so', async function () {
    const student = await invited(tenant);
    const { page } = browser();
    await page.goto(new URL(student.link).pathname + new URL(student.link).hash);
    await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the secret leaves the address bar');
    await checkPage(page, this, 'invitation page');
    await page.getByLabel('New password').fill('a-password-of-mine');
    await page.getByLabel('The same password again').fill('a-password-of-mine');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.getByRole('heading', { name: 'Your tests', level: 1 }).waitFor();

    const again = browser().page;
    await again.goto(new URL(student.link).pathname + new URL(student.link).hash);
    await again.getByTestId('invitation-refusal').waitFor();
    assert.equal(await again.getByTestId('invitation-refusal').getAttribute('data-reason'), 'used');
  });
});
