import assert from 'node:assert/strict';
import { DEMO_QUESTIONS } from '../../../scripts/seed-exams.mjs';
import { createTenant, uniqueName } from '../../support/fixtures';
import { BASE_URL } from '../../support/env';
import { freshIp, post } from '../../support/http';

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** Creates `questions` in the organization and a test of them, published unless told otherwise: its id. */
export async function createTestWith(
  tenant: Tenant,
  {
    questions = DEMO_QUESTIONS,
    publish = true,
    settings = {},
  }: { questions?: Array<Record<string, unknown>>; publish?: boolean; settings?: Record<string, unknown> } = {},
): Promise<{ id: string; test_name: string; question_ids: string[] }> {
  const token = tenant.admin.token;
  const question_ids: string[] = [];
  for (const question of questions) {
    const res = await post('/api/questions', question, { token, ip: freshIp() });
    assert.equal(res.status, 201, res.text);
    question_ids.push(res.body.id);
  }
  const test_name = uniqueName('Browser Test');
  const created = await post(
    '/api/tests',
    {
      test_name,
      timer: 30,
      shuffle: 0,
      allow_review: 1,
      negative_marking: 0,
      status: 'draft',
      question_ids,
      ...settings,
    },
    { token, ip: freshIp() },
  );
  assert.equal(created.status, 201, created.text);
  if (publish) {
    const published = await post(`/api/tests/${created.body.id}/publish`, undefined, { token, ip: freshIp() });
    assert.equal(published.status, 200, published.text);
  }
  return { id: created.body.id, test_name, question_ids };
}

/** POST /api/questions/import as the admin: the status and the JSON body (a 201 reply or the error). */
export async function importFile(
  tenant: Tenant,
  name: string,
  content: string,
  query: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const res = await fetch(`${BASE_URL}/api/questions/import?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tenant.admin.token}`, 'X-Forwarded-For': freshIp() },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** An organization and a published test of the demo questions, made once for the enclosing describe. */
export function tenantWithPublishedTest(): () => { tenant: Tenant; test: Awaited<ReturnType<typeof createTestWith>> } {
  let made: { tenant: Tenant; test: Awaited<ReturnType<typeof createTestWith>> } | undefined;
  before(async () => {
    const tenant = await createTenant();
    made = { tenant, test: await createTestWith(tenant) };
  });
  return () => made!;
}

export { DEMO_QUESTIONS };
