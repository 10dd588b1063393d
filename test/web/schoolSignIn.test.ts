import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminAuth } from '../support/admin';
import { createSuperAdmin, createTenant } from '../support/fixtures';
import { freshIp, post } from '../support/http';
import { browserPerTest, checkPage } from './support/browser';
import { createTestWith } from './support/exams';
import { signInInPopup, standInForGoogle } from './support/providerPopup';

// Signing in with a school's Google or Microsoft account in Chromium: the sign-in page's buttons open
// Firebase Auth's popup (the Auth emulator's account picker), and the app joins the school the email
// belongs to (POST /api/users/me/join). A roster's student finds their own account, not a second one.

const uniqueDomain = () => `school-${randomUUID().slice(0, 8)}.example.edu`;

describe('web app: signing in with a school account', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let domain: string;
  before(async () => {
    tenant = await createTenant();
    domain = uniqueDomain();
    const superAdmin = await createSuperAdmin();
    const bound = await post(
      `/api/clients/${tenant.clientId}/domains`,
      { domain },
      { token: superAdmin.token, ip: freshIp() },
    );
    assert.equal(bound.status, 201, bound.text);
  });
  beforeEach(() => standInForGoogle(browser().context));

  it('a roster student signs in with Google and lands on their own account, with their school’s tests', async function () {
    const email = `zoe.${randomUUID().slice(0, 6)}@${domain}`;
    const made = await post(
      '/api/users',
      { email, display_name: 'Zoë Rosterová', role: 'student' },
      { token: tenant.admin.token, ip: freshIp() },
    );
    assert.equal(made.status, 201, made.text);
    const test = await createTestWith(tenant);
    const { page } = browser();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in with your school account' }).waitFor();
    await checkPage(page, this, 'sign-in with the school buttons');

    await signInInPopup(page, 'Sign in with Google', email, 'Zoe From Google');
    // The school's published test on the home page: the roster's organization, joined without a password.
    await page.getByRole('heading', { name: test.test_name }).waitFor();
    await page.getByRole('navigation', { name: 'Account' }).getByText('student').waitFor();
    await checkPage(page, this, 'signed in with Google');
    const account = await adminAuth.getUser(made.body.uid);
    assert.ok(
      account.providerData.some((p) => p.providerId === 'google.com'),
      'the roster’s account holds the Google identity',
    );
    assert.equal((await adminAuth.getUsers([{ email }])).users.length, 1, 'one account of the email');
    assert.deepEqual(browser().errors, []);
  });

  it('a Microsoft account of a domain no school bound is told so, and can sign out', async function () {
    const { page } = browser();
    await page.goto('/');
    await signInInPopup(page, 'Sign in with Microsoft', `sam@${uniqueDomain()}`, 'Sam Nobody');
    await page.getByRole('heading', { name: 'You cannot sign in yet' }).waitFor();
    await page.getByText(/is not registered with any school here; ask your school/).waitFor();
    await checkPage(page, this, 'school account refused');
    await page
      .getByRole('region', { name: 'You cannot sign in yet' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await page.getByRole('heading', { name: 'Sign in with your school account' }).waitFor();
  });
});
