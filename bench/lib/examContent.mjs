// @ts-check
// The exam the hot-path and hall benchmarks give: 16 questions of the six first types (or 40, of
// those six or of every type: `bankOf`), with the answers students give, and reading saved answers
// back from an attempt.

// ---- the test: 16 questions of every type, with the answers students give.
// `answers(i)`: the i-th student's answer (deterministic mix of right, wrong and differently spelled).
export function questionBank(runId) {
  const mc = (n, options, key, marks) => ({
    body: {
      question_text: `Hot path ${runId} MC ${n}`,
      question_type: 'multiple_choice',
      options,
      correct_answer: key,
      marks,
      difficulty: 'easy',
    },
    answers: (i) => (i % 4 === 0 ? options.find((o) => o !== key) : i % 4 === 1 ? ` ${key.toUpperCase()} ` : key),
  });
  const ms = (n, options, key, marks) => ({
    body: {
      question_text: `Hot path ${runId} MS ${n}`,
      question_type: 'multiple_select',
      options,
      correct_answer: key,
      marks,
      difficulty: 'medium',
    },
    answers: (i) => (i % 3 === 0 ? key.split('|')[0] : key.split('|').reverse().join('|')),
  });
  const tf = (n, key, marks) => ({
    body: {
      question_text: `Hot path ${runId} TF ${n}`,
      question_type: 'true_false',
      options: ['True', 'False'],
      correct_answer: key,
      marks,
      difficulty: 'easy',
    },
    answers: (i) => (i % 5 === 0 ? (key === 'True' ? 'False' : 'True') : key.toLowerCase()),
  });
  const sa = (n, key, marks) => ({
    body: {
      question_text: `Hot path ${runId} SA ${n}`,
      question_type: 'short_answer',
      correct_answer: key,
      marks,
      difficulty: 'hard',
    },
    answers: (i) => (i % 3 === 0 ? 'no idea' : `  ${key.toUpperCase().replace(' ', '   ')} `),
  });
  const num = (n, key, tolerance, marks) => ({
    body: {
      question_text: `Hot path ${runId} NUM ${n}`,
      question_type: 'numeric',
      correct_answer: key,
      tolerance,
      marks,
      difficulty: 'medium',
    },
    answers: (i) => (i % 4 === 0 ? '1,000' : String(Number(key) + (i % 2 ? tolerance / 2 : 0))),
  });
  return [
    mc(1, ['Paris', 'Berlin', 'Rome', 'Madrid'], 'Paris', 2),
    mc(2, ['3', '4', '5'], '4', 1),
    mc(3, ['Oxygen', 'Gold', 'Iron'], 'Gold', 1.5),
    mc(4, ['Mercury', 'Venus', 'Mars'], 'Mars', 1),
    ms(1, ['2', '3', '4', '5'], '2|3|5', 3),
    ms(2, ['red', 'green', 'blue', 'black'], 'red|blue', 2),
    ms(3, ['a', 'b', 'c'], 'a|c', 2),
    tf(1, 'True', 1),
    tf(2, 'False', 1),
    tf(3, 'True', 0.5),
    sa(1, 'Au', 2),
    sa(2, 'New Delhi', 2),
    sa(3, 'H2O', 1),
    num(1, '42', 0, 2),
    num(2, '3.14', 0.01, 2),
    num(3, '-7.5', 0.5, 1),
  ];
}

/** The types with parts and the others after the six: 24 questions, with the answers students give (null: none). */
function newTypes(runId) {
  const text = (kind, n) => `Hot path ${runId} ${kind} ${n}`;
  const matching = (n) => ({
    body: {
      question_text: text('MATCH', n),
      question_type: 'matching',
      stems: ['France', 'Italy', 'Norway', 'Spain'],
      options: ['Paris', 'Rome', 'Oslo', 'Madrid', 'Bern'],
      matches: ['Paris', 'Rome', 'Oslo', 'Madrid'],
      marks: 4,
      difficulty: 'easy',
    },
    answers: (i) => JSON.stringify(i % 3 === 0 ? ['Paris', 'Oslo', 'Rome', ''] : ['paris', 'Rome', 'Oslo', 'Madrid']),
  });
  const ordering = (n) => ({
    body: {
      question_text: text('ORDER', n),
      question_type: 'ordering',
      options: ['Mercury', 'Venus', 'Earth', 'Mars', 'Jupiter'],
      ordering_score: n % 2 ? 'partial' : 'all_or_nothing',
      marks: 2,
      difficulty: 'medium',
    },
    answers: (i) =>
      JSON.stringify(
        i % 4 === 0
          ? ['Venus', 'Mercury', 'Earth', 'Mars', 'Jupiter']
          : ['Mercury', 'Venus', 'Earth', 'Mars', 'Jupiter'],
      ),
  });
  const gapFill = (n) => ({
    body: {
      question_text: text('GAP', n) + ': the [[1]] of France is [[2]]; water boils at [[3]] °C, in [[4]].',
      question_type: 'gap_fill',
      gaps: [
        { kind: 'drag', answers: [{ answer: 'capital', credit: 100 }] },
        { kind: 'select', options: ['Paris', 'Lyon', 'Nice'], answers: [{ answer: 'Paris', credit: 100 }] },
        { kind: 'numeric', answers: [{ answer: '100', credit: 100, tolerance: 1 }], weight: 2 },
        {
          kind: 'text',
          answers: [
            { answer: 'Celsius', credit: 100 },
            { answer: 'centigrade', credit: 50 },
          ],
        },
      ],
      drag_options: ['capital', 'port', 'river'],
      marks: 5,
      difficulty: 'hard',
    },
    answers: (i) =>
      JSON.stringify(i % 3 === 0 ? ['port', 'Paris', '99,5', 'centigrade'] : ['capital', 'paris', '100', 'celsius']),
  });
  const hottext = (n) => ({
    body: {
      question_text: text('HOT', n) + ': the [[cat]] [[sleeps]] while the [[dog]] [[barks]].',
      question_type: 'hottext',
      correct_answer: 'sleeps|barks',
      max_choices: 3,
      marks: 2,
      difficulty: 'medium',
    },
    answers: (i) => (i % 4 === 0 ? 'sleeps|dog' : 'barks|sleeps'),
  });
  const calculated = (n) => ({
    body: {
      question_text: text('CALC', n) + ': a car drives {d} km in {t} h. Its speed in km/h?',
      question_type: 'calculated',
      variables: [
        { name: 'd', min: 10, max: 500, decimals: 0 },
        { name: 't', min: 1, max: 8, decimals: 1 },
      ],
      formula: 'd / t',
      tolerance: 0.01,
      tolerance_type: 'relative',
      marks: 2,
      difficulty: 'medium',
    },
    answers: (i) => String(40 + i),
  });
  const hotspot = (n) => ({
    body: {
      question_text: text('SPOT', n) + ': place a point on each station',
      question_type: 'hotspot',
      image: { src: 'https://example.org/map.png', width: 400, height: 300 },
      areas: [
        { shape: 'circle', coords: [144, 84, 10], correct: true },
        { shape: 'rect', coords: [180, 170, 210, 190], correct: true },
        { shape: 'poly', coords: [300, 200, 380, 200, 340, 280], correct: false },
      ],
      select: 'points',
      max_points: 3,
      marks: 2,
      difficulty: 'hard',
    },
    answers: (i) => JSON.stringify(i % 2 ? ['145,85', '190,180'] : ['145,85', '340,240']),
  });
  const description = {
    body: {
      question_text: text('READ', 1) + ': read the map before the next questions.',
      question_type: 'description',
      difficulty: 'easy',
    },
    answers: null,
  };
  return [
    ...[1, 2, 3, 4].flatMap((n) => [matching(n), ordering(n), gapFill(n), hottext(n), calculated(n)]),
    hotspot(1),
    hotspot(2),
    hotspot(3),
    description,
  ];
}

/**
 * The exam of a bench: `classic` (the 16 questions of questionBank), `six40` (40 questions of the six
 * first types) or `mixed40` (40 of every type: the 16, then matching, ordering, gap fill, hot text,
 * calculated, hotspot and a description).
 */
export function bankOf(runId, kind = 'classic') {
  const classic = questionBank(runId);
  if (kind === 'classic') return classic;
  if (kind === 'mixed40') return [...classic, ...newTypes(runId)];
  if (kind === 'six40')
    return Array.from({ length: 40 }, (_, i) => {
      const q = classic[i % classic.length];
      return {
        ...q,
        body: { ...q.body, question_text: `${q.body.question_text} (${Math.floor(i / classic.length) + 1})` },
      };
    });
  throw new Error(`unknown bank ${kind}: classic, six40 or mixed40`);
}

/** The answers saved in a GET /api/attempts/{id} reply, as question_id → student_answer (either shape an API might use). */
export function savedAnswers(reply) {
  const answers = reply?.answers ?? reply?.saved_answers;
  const out = {};
  if (Array.isArray(answers)) for (const a of answers) out[a.question_id] = a.student_answer;
  else if (answers && typeof answers === 'object')
    for (const [k, v] of Object.entries(answers)) out[k] = typeof v === 'string' ? v : v?.student_answer;
  else return null;
  return out;
}
