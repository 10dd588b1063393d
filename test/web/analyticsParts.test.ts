import assert from 'node:assert/strict';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, post } from '../support/http';
import { browserPerTest, checkPage, signInAs } from './support/browser';
import { createTestWith, DEMO_QUESTIONS, QUESTIONS_WITH_PARTS } from './support/exams';

// The analytics page's figures per part: a table per question with parts, a row per part (its
// answers, its facility, the choices made), none for a question without parts.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

// A matching (France → Paris, Italy → Rome), an ordering (Mercury, Venus, Earth) and a question without parts.
const QUESTIONS = [...QUESTIONS_WITH_PARTS.slice(0, 2), DEMO_QUESTIONS[0]];

/** A new student of the organization answers the test's questions so, and submits. */
async function sitAndSubmit(tenant: Tenant, testId: string, questionIds: string[], answers: string[]): Promise<void> {
  const student = await createUser('student', tenant.clientId);
  const started = await post('/api/attempts', { test_id: testId }, { token: student.token, ip: freshIp() });
  assert.equal(started.status, 201, started.text);
  const attemptId: string = started.body.attempt_id;
  const saved = await post(
    `/api/attempts/${attemptId}/answers`,
    { answers: answers.map((student_answer, i) => ({ question_id: questionIds[i], student_answer })) },
    { token: student.token, ip: freshIp() },
  );
  assert.equal(saved.status, 200, saved.text);
  const submitted = await post(`/api/attempts/${attemptId}/submit`, undefined, { token: student.token, ip: freshIp() });
  assert.equal(submitted.status, 200, submitted.text);
}

describe('web app: analytics per part of a question with parts', function () {
  this.timeout(180_000);
  const browser = browserPerTest();
  let tenant: Tenant;
  let test: Awaited<ReturnType<typeof createTestWith>>;
  before(async function () {
    this.timeout(120_000);
    tenant = await createTenant();
    test = await createTestWith(tenant, { questions: QUESTIONS });
    const right = String(DEMO_QUESTIONS[0].correct_answer);
    await sitAndSubmit(tenant, test.id, test.question_ids, ['["Paris","Rome"]', '["Mercury","Venus","Earth"]', right]);
    await sitAndSubmit(tenant, test.id, test.question_ids, ['["Paris","Oslo"]', '["Venus","Mercury","Earth"]', right]);
  });

  it('shows a table per question with parts: answered, facility and the choices made per part', async function () {
    const visitor = browser();
    const { page } = visitor;
    await signInAs(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/admin/tests/${test.id}/analytics`);
    await page.getByRole('heading', { name: 'Per part', level: 2 }).waitFor();

    const matching = page.getByRole('table', { name: /^Question 1: Match each country/ });
    const cells = (table: typeof matching, part: string) =>
      table
        .getByRole('row', { name: new RegExp(`^${part}\\b`) })
        .getByRole('cell')
        .allInnerTexts();
    const [franceAnswered, franceFacility, franceChoices] = await cells(matching, 'France');
    assert.deepEqual([franceAnswered, franceFacility], ['2', '1']);
    assert.deepEqual(franceChoices.split('\n'), ['Paris: 2', 'Rome: 0', 'Oslo: 0']);
    const [italyAnswered, italyFacility, italyChoices] = await cells(matching, 'Italy');
    assert.deepEqual([italyAnswered, italyFacility], ['2', '0.5']);
    assert.deepEqual(italyChoices.split('\n'), ['Paris: 0', 'Rome: 1', 'Oslo: 1']);

    // An ordering's item counts when it stands in its own place; it has no choices.
    const ordering = page.getByRole('table', { name: /^Question 2: Put the planets/ });
    assert.deepEqual(await cells(ordering, 'Mercury'), ['2', '0.5', '—']);
    assert.deepEqual(await cells(ordering, 'Earth'), ['2', '1', '—']);
    assert.equal(await page.getByRole('table', { name: /^Question 3:/ }).count(), 0);
    await checkPage(page, this, 'analytics per part');
    assert.deepEqual(visitor.errors, []);
  });
});
