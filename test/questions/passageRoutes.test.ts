import assert from 'node:assert/strict';
import { as, createTestAs, validTest } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import { expectError, expectValidation } from '../support/assertions';
import { createTenant, createUser } from '../support/fixtures';
import { del, freshIp, get, patch, post, debugCost } from '../support/http';
import { BASE_URL } from '../support/env';
import { multipartBody, postBytes } from '../support/multipart';

// Passages through the API, on the emulators: a question names a description of its organization
// by passage_id; the version freezes the passage; a taker is given it once, beside the questions
// that share it (docs/question-types.md, "Passages").

const PASSAGE = {
  question_type: 'description',
  question_text: '<p>The fox ran <strong>quickly</strong> across the field.</p>',
  text_format: 'html',
  difficulty: 'easy',
  title: 'The fox (passage)',
};
const trueFalse = (text: string, extra: Record<string, unknown> = {}) => ({
  question_type: 'true_false',
  question_text: text,
  correct_answer: 'True',
  marks: 1,
  difficulty: 'easy',
  ...extra,
});

describe('passages through the API', function () {
  this.timeout(60_000);
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let other: Awaited<ReturnType<typeof createTenant>>;
  let passageId: string;

  const create = async (body: Record<string, unknown>, token = tenant.admin.token) => {
    const res = await post('/api/questions', body, as(token));
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  before(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    passageId = (await create(PASSAGE)).id;
  });

  it('a question names a passage of its organization: stored, shown, changed and cleared', async () => {
    const question = await create(trueFalse('The fox ran.', { passage_id: passageId }));
    assert.equal(question.passage_id, passageId);
    assert.equal((await get(`/api/questions/${question.id}`, as(tenant.admin.token))).body.passage_id, passageId);
    const cleared = await patch(`/api/questions/${question.id}`, { passage_id: null }, as(tenant.admin.token));
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.passage_id, undefined);
    const named = await patch(`/api/questions/${question.id}`, { passage_id: passageId }, as(tenant.admin.token));
    assert.equal(named.body.passage_id, passageId);
  });

  it('refuses with 400 at passage_id: another organization’s, a missing id, a question that asks something, a passage naming a passage', async () => {
    const theirs = (await create(PASSAGE, other.admin.token)).id;
    const asking = (await create(trueFalse('Asks something'))).id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [trueFalse('Q', { passage_id: theirs }), 'no question of this organization'],
      [trueFalse('Q', { passage_id: 'no-such-question' }), 'no question of this organization'],
      [trueFalse('Q', { passage_id: asking }), 'Must name a description'],
      [{ ...PASSAGE, passage_id: passageId }, 'itself a passage'],
    ];
    for (const [body, mention] of cases)
      expectValidation(await post('/api/questions', body, as(tenant.admin.token)), ['body.passage_id'], [mention]);
    const question = await create(trueFalse('Q'));
    for (const [change, mention] of [
      [{ passage_id: theirs }, 'no question of this organization'],
      [{ passage_id: question.id }, 'its own passage'],
    ] as const)
      expectValidation(
        await patch(`/api/questions/${question.id}`, change, as(tenant.admin.token)),
        ['body.passage_id'],
        [mention],
      );
    const second = (await create(PASSAGE)).id;
    expectValidation(
      await patch(`/api/questions/${second}`, { passage_id: passageId }, as(tenant.admin.token)),
      ['body.passage_id'],
      ['itself a passage'],
    );
  });

  it('a passage still named is neither deleted nor made a question that asks something (409); once free, it is deleted', async () => {
    const passage = (await create(PASSAGE)).id;
    const question = (await create(trueFalse('Named', { passage_id: passage }))).id;
    expectError(await del(`/api/questions/${passage}`, as(tenant.admin.token)), 409, 'CONFLICT');
    const retyped = await patch(
      `/api/questions/${passage}`,
      { question_type: 'true_false', correct_answer: 'True', marks: 1 },
      as(tenant.admin.token),
    );
    expectError(retyped, 409, 'CONFLICT');
    assert.match(retyped.body.message, new RegExp(question));
    // Its text may change: published versions keep what they froze.
    const edited = await patch(
      `/api/questions/${passage}`,
      { question_text: '<p>New text</p>' },
      as(tenant.admin.token),
    );
    assert.equal(edited.status, 200, edited.text);
    assert.equal((await patch(`/api/questions/${question}`, { passage_id: null }, as(tenant.admin.token))).status, 200);
    assert.equal((await del(`/api/questions/${passage}`, as(tenant.admin.token))).status, 204);
  });

  it('a taker gets each passage once, frozen with the version, the questions sharing it together, at no extra read', async () => {
    const passage = (await create(PASSAGE)).id;
    const loose = await Promise.all(['One', 'Two', 'Three', 'Four'].map((t) => create(trueFalse(t))));
    const shared = await Promise.all(['Fox A', 'Fox B'].map((t) => create(trueFalse(t, { passage_id: passage }))));
    const ids = [loose[0].id, shared[0].id, loose[1].id, loose[2].id, shared[1].id, loose[3].id];
    const draft = await createTestAs(tenant.admin.token, validTest(ids, { shuffle: 1 }));
    const published = await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token));
    assert.equal(published.status, 200, published.text);
    // The bank's passage changes after the publish: the sitting keeps the text it froze.
    await patch(`/api/questions/${passage}`, { question_text: '<p>Changed later</p>' }, as(tenant.admin.token));

    for (let i = 0; i < 2; i++) {
      const student = await createUser('student', tenant.clientId);
      const started = await startOk(student.token, { test_id: draft.id });
      const details = started.test_details;
      assert.deepEqual(details.passages, [{ id: passage, question_text: PASSAGE.question_text, text_format: 'html' }]);
      const order: string[] = details.questions.map((q: any) => q.id);
      const at = order.indexOf(shared[0].id);
      assert.equal(order[at + 1], shared[1].id, `the passage's questions together: ${order.join(',')}`);
      assert.deepEqual(
        details.questions.filter((q: any) => q.passage_id).map((q: any) => q.id),
        [shared[0].id, shared[1].id],
      );
      assert.ok(!JSON.stringify(details).includes(PASSAGE.title), 'no title reaches a taker');
      const read = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
      assert.deepEqual(read.body.test_details.passages, details.passages);
      assert.deepEqual(
        read.body.test_details.questions.map((q: any) => q.id),
        order,
      );
    }

    // The read path costs what a test without passages costs.
    const plain = await createTestAs(tenant.admin.token, validTest(loose.map((q: any) => q.id)));
    await post(`/api/tests/${plain.id}/publish`, undefined, as(tenant.admin.token));
    const student = await createUser('student', tenant.clientId);
    const withPassage = await startOk(student.token, { test_id: draft.id });
    const other = await createUser('student', tenant.clientId);
    const without = await startOk(other.token, { test_id: plain.id });
    // Each read twice: the second finds what any earlier reader of the instance left cached (the caller's account check).
    const readTwice = async (id: string, token: string) => {
      await get(`/api/attempts/${id}`, { token, ip: freshIp() });
      return get(`/api/attempts/${id}`, { token, ip: freshIp() });
    };
    const readWith = await readTwice(withPassage.attempt_id, student.token);
    const readWithout = await readTwice(without.attempt_id, other.token);
    assert.equal(readWith.status, 200);
    assert.ok(debugCost(readWith).reads > 0, 'the emulator reports the cost (X-Debug-Cost)');
    assert.ok(
      debugCost(readWith).reads <= debugCost(readWithout).reads,
      `${debugCost(readWith).reads} reads with a passage, ${debugCost(readWithout).reads} without`,
    );
  });

  it('a test exported as QTI 3 carries its passage as a stimulus, and importing the package links the questions again', async () => {
    const passage = (await create({ ...PASSAGE, title: 'Exported fox' })).id;
    const shared = await Promise.all(['Fox one', 'Fox two'].map((t) => create(trueFalse(t, { passage_id: passage }))));
    const draft = await createTestAs(tenant.admin.token, validTest(shared.map((q: any) => q.id)));
    const exported = await fetch(`${BASE_URL}/api/tests/${draft.id}/export?format=qti`, {
      headers: { Authorization: `Bearer ${tenant.admin.token}`, 'X-Forwarded-For': freshIp() },
    });
    assert.equal(exported.status, 200);
    const zip = Buffer.from(await exported.arrayBuffer());
    const upload = multipartBody([
      { field: 'file', filename: 'test.zip', contentType: 'application/zip', content: zip },
    ]);
    const imported = await postBytes('/api/questions/import', upload.body, upload.contentType, {
      token: other.admin.token,
    });
    assert.equal(imported.status, 201, imported.text);
    assert.deepEqual(
      imported.body.questions.map((q: any) => [q.question_type, q.status]),
      [
        ['description', 'ok'],
        ['true_false', 'ok'],
        ['true_false', 'ok'],
      ],
    );
    const read = await Promise.all(
      imported.body.question_ids.map(
        async (id: string) => (await get(`/api/questions/${id}`, as(other.admin.token))).body,
      ),
    );
    const description = read.find((q: any) => q.question_type === 'description');
    assert.equal(description.title, 'Exported fox');
    assert.equal(description.passage_id, undefined);
    const asking = read.filter((q: any) => q.question_type !== 'description');
    assert.deepEqual(
      asking.map((q: any) => q.passage_id),
      [description.id, description.id],
    );
  });
});
