import assert from 'node:assert/strict';
import { as, createTestAs, validTest } from '../exams/fixtures';
import { startOk } from '../attempts/fixtures';
import { expectValidation } from '../support/assertions';
import { createTenant, createUser } from '../support/fixtures';
import { get, patch, post } from '../support/http';
import { drawValues } from '../../functions/src/questionTypes/calculated/formula';

// The types with parts through the API, on the emulators: written and read by an administrator,
// taken by a student who sees no key, scored per part, reviewed with the key, regraded
// (docs/question-types.md).

const BODIES = {
  matching: {
    question_type: 'matching',
    question_text: 'Match each country to its capital',
    marks: 3,
    difficulty: 'easy',
    stems: ['France', 'Italy', 'Norway'],
    options: ['Paris', 'Rome', 'Oslo', 'Bern'],
    matches: ['Paris', 'Rome', 'Oslo'],
  },
  ordering: {
    question_type: 'ordering',
    question_text: 'From the Sun outwards',
    marks: 2,
    difficulty: 'easy',
    options: ['Mercury', 'Venus', 'Earth', 'Mars'],
    ordering_score: 'partial',
  },
  gap_fill: {
    question_type: 'gap_fill',
    question_text: 'The [[1]] of France is [[2]]; water boils at [[3]] °C.',
    marks: 4,
    difficulty: 'medium',
    gaps: [
      { kind: 'drag', answers: [{ answer: 'capital', credit: 100 }] },
      { kind: 'select', options: ['Paris', 'Lyon'], answers: [{ answer: 'Paris', credit: 100 }] },
      { kind: 'numeric', answers: [{ answer: '100', credit: 100, tolerance: 1 }], weight: 2 },
    ],
    drag_options: ['capital', 'port'],
  },
  hottext: {
    question_type: 'hottext',
    question_text: 'Choose the verbs: the [[cat]] [[sleeps]] and [[dreams]].',
    marks: 1,
    difficulty: 'hard',
    correct_answer: 'sleeps|dreams',
    max_choices: 2,
  },
} as const;
type Name = keyof typeof BODIES;

describe('question types with parts through the API', function () {
  this.timeout(60_000);
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  const ids = {} as Record<Name, string>;

  before(async () => {
    tenant = await createTenant();
    for (const [name, body] of Object.entries(BODIES)) {
      const res = await post('/api/questions', body, as(tenant.admin.token));
      assert.equal(res.status, 201, res.text);
      ids[name as Name] = res.body.id;
    }
  });

  it('shows an administrator each question with its fields and its key as correct_answer writes it', async () => {
    const read = async (name: Name) => (await get(`/api/questions/${ids[name]}`, as(tenant.admin.token))).body;
    const matching = await read('matching');
    assert.deepEqual(matching.stems, ['France', 'Italy', 'Norway']);
    assert.deepEqual(matching.matches, ['Paris', 'Rome', 'Oslo']);
    assert.equal(matching.correct_answer, '["Paris","Rome","Oslo"]');
    const ordering = await read('ordering');
    assert.equal(ordering.correct_answer, '["Mercury","Venus","Earth","Mars"]');
    assert.equal(ordering.ordering_score, 'partial');
    const gapFill = await read('gap_fill');
    assert.equal(gapFill.correct_answer, '["capital","Paris","100"]');
    assert.deepEqual(gapFill.gaps[2], {
      kind: 'numeric',
      answers: [{ answer: '100', credit: 100, tolerance: 1 }],
      weight: 2,
    });
    assert.deepEqual(gapFill.options, []);
    const hottext = await read('hottext');
    assert.deepEqual(hottext.options, ['cat', 'sleeps', 'dreams']);
    assert.equal(hottext.max_choices, 2);
  });

  it('refuses a key that does not fit its type with 400 and the field path, writing nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...BODIES.matching, matches: ['Paris', 'Rome', 'Madrid'] }, 'body.matches.2'],
      [{ ...BODIES.matching, matches: ['Paris'] }, 'body.matches'],
      [{ ...BODIES.gap_fill, gaps: BODIES.gap_fill.gaps.slice(0, 2) }, 'body.question_text'],
      [{ ...BODIES.gap_fill, drag_options: ['port', 'city'] }, 'body.gaps.0.answers.0.answer'],
      [{ ...BODIES.hottext, correct_answer: 'mouse' }, 'body.correct_answer'],
      [{ ...BODIES.ordering, correct_answer: 'Mercury' }, 'body'],
    ];
    const before = (await get('/api/questions?limit=100', as(tenant.admin.token))).body.data.length;
    for (const [body, path] of cases)
      expectValidation(await post('/api/questions', body, as(tenant.admin.token)), [path]);
    assert.equal((await get('/api/questions?limit=100', as(tenant.admin.token))).body.data.length, before);
  });

  it('changes a matching’s matches by PATCH, and refuses a correct_answer for it', async () => {
    const { body: created } = await post('/api/questions', BODIES.matching, as(tenant.admin.token));
    const changed = await patch(
      `/api/questions/${created.id}`,
      { matches: ['Rome', 'Paris', 'Oslo'] },
      as(tenant.admin.token),
    );
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.correct_answer, '["Rome","Paris","Oslo"]');
    expectValidation(await patch(`/api/questions/${created.id}`, { correct_answer: 'Rome' }, as(tenant.admin.token)), [
      'body',
    ]);
  });

  it('is taken without keys, scored per part, reviewed with the key, and regraded', async () => {
    const order: Name[] = ['matching', 'ordering', 'gap_fill', 'hottext'];
    const draft = await createTestAs(
      tenant.admin.token,
      validTest(
        order.map((name) => ids[name]),
        { shuffle: 0, allow_review: 1 },
      ),
    );
    const published = await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token));
    assert.equal(published.status, 200, published.text);
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: draft.id });
    const shown = new Map<string, any>(started.test_details.questions.map((q: any) => [q.id, q]));

    const matching = shown.get(ids.matching);
    assert.deepEqual(matching.stems, ['France', 'Italy', 'Norway']);
    const ordering = shown.get(ids.ordering);
    assert.deepEqual([...ordering.options].sort(), ['Earth', 'Mars', 'Mercury', 'Venus']);
    const again = await get(`/api/attempts/${started.attempt_id}`, as(student.token));
    assert.deepEqual(
      again.body.test_details.questions.find((q: any) => q.id === ids.ordering).options,
      ordering.options,
      'the same order on every read',
    );
    assert.deepEqual(shown.get(ids.gap_fill).gaps, [
      { kind: 'drag' },
      { kind: 'select', options: ['Paris', 'Lyon'] },
      { kind: 'numeric' },
    ]);
    assert.deepEqual(shown.get(ids.gap_fill).drag_options, ['capital', 'port']);
    assert.equal(shown.get(ids.hottext).max_choices, 2);
    const text = JSON.stringify(started.test_details);
    for (const secret of ['matches', 'correct_answer', 'answers', 'credit', 'ordering_score', 'weight'])
      assert.ok(!text.includes(`"${secret}"`), `no ${secret} reaches a taker`);

    const path = `/api/attempts/${started.attempt_id}/answers`;
    const save = (name: Name, answer: string) =>
      post(path, { question_id: ids[name], student_answer: answer }, as(student.token));
    for (const [name, answer] of [
      ['matching', '["Paris","Oslo","Oslo"]'],
      ['ordering', '["Venus","Earth","Mars","Mercury"]'],
      ['gap_fill', '["capital","Lyon","100,4"]'],
      ['hottext', 'sleeps|dreams'],
    ] as Array<[Name, string]>)
      assert.equal((await save(name, answer)).status, 200);
    const tooMany = await save('hottext', 'cat|sleeps|dreams');
    expectValidation(tooMany, [], ['at most 2 phrases']);

    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.score, 7.5);
    const review = (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body.review;
    const awarded = new Map(review.map((r: any) => [r.question_id, r.marks_awarded]));
    assert.equal(awarded.get(ids.matching), 2, 'two of three stems');
    assert.equal(awarded.get(ids.ordering), 1.5, 'three of four in order');
    assert.equal(awarded.get(ids.gap_fill), 3, 'the drag and the weighted numeric gap, not the select');
    assert.equal(awarded.get(ids.hottext), 1);

    const reviewed = review.find((r: any) => r.question_id === ids.matching);
    assert.equal(reviewed.correct_answer, '["Paris","Rome","Oslo"]');
    assert.equal(reviewed.student_answer, '["Paris","Oslo","Oslo"]');

    const regraded = await post(
      `/api/tests/${draft.id}/versions/1/regrade`,
      { question_id: ids.matching, correct_answer: '["Paris","Oslo","Oslo"]' },
      as(tenant.admin.token),
    );
    assert.equal(regraded.status, 200, regraded.text);
    const after = (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body;
    assert.equal(after.review.find((r: any) => r.question_id === ids.matching).marks_awarded, 3);
    assert.equal(after.score, 8.5);
    const refused = await post(
      `/api/tests/${draft.id}/versions/1/regrade`,
      { question_id: ids.matching, correct_answer: '["Paris","Madrid","Oslo"]' },
      as(tenant.admin.token),
    );
    expectValidation(refused, ['body.matches.1']);
  });

  it('draws a calculated question’s values per attempt: the taker sees them in the text, the review its own right answer', async () => {
    const body = {
      question_type: 'calculated',
      question_text: 'A car drives {d} km in {t} h. Its speed in km/h?',
      marks: 2,
      difficulty: 'medium',
      variables: [
        { name: 'd', min: 10, max: 100, decimals: 0 },
        { name: 't', min: 1, max: 4, decimals: 1 },
      ],
      formula: 'd / t',
      tolerance: 0.01,
      tolerance_type: 'relative',
    };
    const created = await post('/api/questions', body, as(tenant.admin.token));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.correct_answer, 'd / t');
    expectValidation(await post('/api/questions', { ...body, formula: 'd / (t - 1)' }, as(tenant.admin.token)), [
      'body.formula',
    ]);
    const draft = await createTestAs(tenant.admin.token, validTest([created.body.id], { shuffle: 0, allow_review: 1 }));
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: draft.id });
    const values = drawValues(body.variables, `calculated:${started.attempt_id}:${created.body.id}`);
    const [shown] = started.test_details.questions;
    assert.equal(shown.question_text, `A car drives ${values.d} km in ${values.t.toFixed(1)} h. Its speed in km/h?`);
    const right = values.d / values.t;
    const saved = await post(
      `/api/attempts/${started.attempt_id}/answers`,
      { question_id: created.body.id, student_answer: (right * 1.005).toFixed(4) },
      as(student.token),
    );
    assert.equal(saved.status, 200, saved.text);
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.body.score, 2, 'within 1 % of the right answer');
    const [item] = (await get(`/api/attempts/${started.attempt_id}`, as(student.token))).body.review;
    assert.ok(Math.abs(Number(item.correct_answer) - right) < 1e-9, item.correct_answer);
  });

  it('shows a description with no answer and no marks: a save for it is refused, the total leaves it out, analytics hold', async () => {
    const passage = await post(
      '/api/questions',
      { question_type: 'description', question_text: 'Read: Paris is the capital of France.', difficulty: 'easy' },
      as(tenant.admin.token),
    );
    assert.equal(passage.status, 201, passage.text);
    assert.equal(passage.body.marks, 0);
    assert.equal(passage.body.correct_answer, null);
    expectValidation(
      await post(
        '/api/questions',
        { question_type: 'description', question_text: 'x', difficulty: 'easy', marks: 2 },
        as(tenant.admin.token),
      ),
      ['body.marks'],
    );
    const draft = await createTestAs(
      tenant.admin.token,
      validTest([passage.body.id, ids.matching], { shuffle: 0, allow_review: 1 }),
    );
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: draft.id });
    assert.equal(started.test_details.total_marks, 3);
    assert.equal(started.test_details.questions[0].question_type, 'description');
    const path = `/api/attempts/${started.attempt_id}/answers`;
    expectValidation(
      await post(path, { question_id: passage.body.id, student_answer: 'read it' }, as(student.token)),
      [],
      ['A description takes no answer'],
    );
    await post(path, { question_id: ids.matching, student_answer: '["Paris","Rome","Oslo"]' }, as(student.token));
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.body.score, 3);
    assert.equal(submitted.body.total_marks, 3);
    const analytics = await get(`/api/analytics/tests/${draft.id}`, as(tenant.admin.token));
    assert.equal(analytics.status, 200, analytics.text);
    const described = analytics.body.questions.find((q: any) => q.question_id === passage.body.id);
    assert.equal(described.facility_index, null);
    const matched = analytics.body.questions.find((q: any) => q.question_id === ids.matching);
    assert.deepEqual(
      matched.parts.map((p: any) => [p.label, p.times_answered, p.facility_index]),
      [
        ['France', 1, 1],
        ['Italy', 1, 1],
        ['Norway', 1, 1],
      ],
    );
  });

  it('asks a hotspot on an image: the taker placing points sees no area, the points are scored by the areas', async () => {
    const body = {
      question_type: 'hotspot',
      question_text: 'Place a point on each railway station',
      marks: 2,
      difficulty: 'medium',
      image: { src: `/api/media/${tenant.clientId}.map`, width: 400, height: 300, alt: 'A town map' },
      areas: [
        { shape: 'circle', coords: [144, 84, 10], correct: true, label: 'North station' },
        { shape: 'rect', coords: [180, 170, 210, 190], correct: true, label: 'Central' },
        { shape: 'circle', coords: [322, 213, 10], correct: false, label: 'University' },
      ],
      select: 'points',
      max_points: 3,
    };
    const created = await post('/api/questions', body, as(tenant.admin.token));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.correct_answer, '["1","2"]');
    expectValidation(
      await post(
        '/api/questions',
        { ...body, areas: [{ shape: 'circle', coords: [395, 84, 10], correct: true }] },
        as(tenant.admin.token),
      ),
      ['body.areas.0.coords'],
    );
    const draft = await createTestAs(tenant.admin.token, validTest([created.body.id], { shuffle: 0, allow_review: 1 }));
    assert.equal((await post(`/api/tests/${draft.id}/publish`, undefined, as(tenant.admin.token))).status, 200);
    const student = await createUser('student', tenant.clientId);
    const started = await startOk(student.token, { test_id: draft.id });
    const [shown] = started.test_details.questions;
    assert.deepEqual(shown.image, body.image);
    assert.equal(shown.select, 'points');
    assert.equal(shown.areas, undefined, 'no area is shown to a taker placing points');
    const path = `/api/attempts/${started.attempt_id}/answers`;
    expectValidation(
      await post(
        path,
        { question_id: created.body.id, student_answer: '["1,1","2,2","3,3","4,4"]' },
        as(student.token),
      ),
      [],
      ['at most 3 points'],
    );
    await post(path, { question_id: created.body.id, student_answer: '["145,85","322,213"]' }, as(student.token));
    const submitted = await post(`/api/attempts/${started.attempt_id}/submit`, undefined, as(student.token));
    assert.equal(submitted.body.score, 1, 'one station of two');
  });
});
