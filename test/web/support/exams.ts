import assert from 'node:assert/strict';
import { DEMO_QUESTIONS } from '../../../scripts/seed-exams.mjs';
import { createTenant, uniqueName } from '../../support/fixtures';
import { BASE_URL } from '../../support/env';
import { freshIp, get, post } from '../../support/http';

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

/** One question of each type with parts but the newest: a matching, an ordering, a gap fill and a hottext. */
export const QUESTIONS_WITH_PARTS = [
  {
    question_text: 'Match each country with its capital',
    question_type: 'matching',
    marks: 2,
    difficulty: 'easy',
    stems: ['France', 'Italy'],
    options: ['Paris', 'Rome', 'Oslo'],
    matches: ['Paris', 'Rome'],
  },
  {
    question_text: 'Put the planets in order from the Sun',
    question_type: 'ordering',
    marks: 1,
    difficulty: 'easy',
    options: ['Mercury', 'Venus', 'Earth'],
  },
  {
    question_text: 'France’s capital is [[1]], pi is [[2]], [[3]] is red, [[4]] is ours and [[5]] circles it.',
    question_type: 'gap_fill',
    marks: 5,
    difficulty: 'easy',
    gaps: [
      { kind: 'text', answers: [{ answer: 'Paris', credit: 100 }] },
      { kind: 'numeric', answers: [{ answer: '3.14', credit: 100, tolerance: 0.01 }] },
      { kind: 'select', answers: [{ answer: 'Mars', credit: 100 }], options: ['Mars', 'Venus'] },
      { kind: 'drag', answers: [{ answer: 'Earth', credit: 100 }] },
      { kind: 'drag', answers: [{ answer: 'Moon', credit: 100 }] },
    ],
    drag_options: ['Earth', 'Moon', 'Sun'],
  },
  {
    question_text: '<p>The quick brown [[fox]] <em>[[jumps]]</em> over the lazy [[dog]].</p>',
    text_format: 'html',
    question_type: 'hottext',
    marks: 2,
    difficulty: 'easy',
    correct_answer: 'fox|dog',
    max_choices: 2,
  },
];

// A 2×2 red PNG, stored by importing a Moodle XML question that shows it (the one way a test stores a file).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DwnwGMgRQAH+4D/dJQfRoAAAAASUVORK5CYII=';

/** A small image stored in the organization's media: its media id (its address is /api/media/<id>). */
export async function storedImage(tenant: Tenant): Promise<string> {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>${uniqueName('Dot')}</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>What colour is the dot?</p><p><img src="@@PLUGINFILE@@/dot.png" alt="the dot"></p>]]></text>
      <file name="dot.png" path="/" encoding="base64">${PNG}</file>
    </questiontext>
    <defaultgrade>1</defaultgrade>
    <single>true</single>
    <answer fraction="100" format="plain_text"><text>Red</text></answer>
    <answer fraction="0" format="plain_text"><text>Blue</text></answer>
  </question>
</quiz>
`;
  const imported = await importFile(tenant, 'dot.xml', xml);
  assert.equal(imported.status, 201, JSON.stringify(imported.body));
  const stored = await get(`/api/questions/${imported.body.question_ids[0]}`, {
    token: tenant.admin.token,
    ip: freshIp(),
  });
  const mediaId = /\/api\/media\/([^"?]+)"/.exec(stored.body.question_text)?.[1];
  assert.ok(mediaId, stored.body.question_text);
  return mediaId;
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
