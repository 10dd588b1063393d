// @ts-check
// The exam the hot-path and hall benchmarks give: 16 questions of every type, with
// the answers students give, and reading saved answers back from an attempt.

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
