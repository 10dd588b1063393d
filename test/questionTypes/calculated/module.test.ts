import assert from 'node:assert/strict';
import { drawValues, evaluateFormula, formulaProblem } from '../../../functions/src/questionTypes/calculated/formula';
import { calculated } from '../../../functions/src/questionTypes/calculated/module';
import { QuestionInput, type KeyedQuestion } from '../../../functions/src/questionTypes';
import { assertRefusals } from '../refusals';

// Pure: a calculated question: values drawn per attempt (the same on every read), the formula's
// value as the key, read by an allow-list of syntax, and refused when some draw has no value.

const variables = [
  { name: 'a', min: 2, max: 9, decimals: 0 },
  { name: 'b', min: 0.5, max: 2.5, decimals: 1 },
];
const question: KeyedQuestion = {
  id: 'q1',
  question_type: 'calculated',
  options: [],
  correct_answer: '{a} * b',
  tolerance: 0.001,
  marks: 2,
  variables,
};

describe('questionTypes/calculated draws and marking', () => {
  it('draws each variable in its range with its decimals, the same for the same seed, others for others', () => {
    const first = drawValues(variables, 'calculated:attempt-1:q1');
    assert.deepEqual(drawValues(variables, 'calculated:attempt-1:q1'), first);
    assert.ok(first.a >= 2 && first.a <= 9 && Number.isInteger(first.a), JSON.stringify(first));
    assert.ok(first.b >= 0.5 && first.b <= 2.5 && Math.round(first.b * 10) === first.b * 10, JSON.stringify(first));
    const seen = new Set(Array.from({ length: 20 }, (_, k) => JSON.stringify(drawValues(variables, `s${k}`))));
    assert.ok(seen.size > 5, 'draws differ between attempts');
  });

  it('marks the formula’s value for the attempt’s draw, within the tolerance, a decimal comma read as a point', () => {
    const key = calculated.shownKey(question, 'attempt-1')!;
    const values = drawValues(variables, 'calculated:attempt-1:q1');
    assert.ok(Math.abs(Number(key) - values.a * values.b) < 1e-9, key);
    assert.deepEqual(calculated.mark(question, key, 'attempt-1'), { share: 1 });
    assert.deepEqual(calculated.mark(question, key.replace('.', ','), 'attempt-1'), { share: 1 });
    assert.deepEqual(calculated.mark(question, String(Number(key) + 0.5), 'attempt-1'), { share: 0, wrong: 1 });
    assert.deepEqual(calculated.mark(question, 'twelve', 'attempt-1'), { share: 0, wrong: 1 });
    const relative = { ...question, tolerance: 0.1, tolerance_type: 'relative' as const };
    assert.deepEqual(calculated.mark(relative, String(Number(key) * 1.05), 'attempt-1'), { share: 1 });
  });

  it('shows the bank its formula, and a taker the text with the attempt’s values', () => {
    assert.equal(calculated.shownKey(question), '{a} * b');
    const values = drawValues(variables, 'calculated:attempt-1:q1');
    const view = calculated.takerView(
      { id: 'q1', question_text: 'Multiply {a} by {b}; {c} stays.', options: [], tolerance: null, variables },
      'attempt-1',
    );
    assert.equal(view.question_text, `Multiply ${values.a} by ${values.b.toFixed(1)}; {c} stays.`);
  });

  it('reads only its allow-list of syntax', () => {
    for (const [formula, problem] of [
      ['a * b + sqrt(a) - pi + e ^ 2 % 3', undefined],
      ['{a} * pi()', undefined],
      ['a *', /Does not parse/],
      ['a * c', /"c" is not one of the variables/],
      ['evaluate("1")', /"evaluate" is not allowed/],
      ['import({}, {})', /not allowed/],
      ['a.constructor', /not allowed/],
      ['f(x) = x', /not allowed/],
      ['[1, 2]', /not allowed/],
      ['a == b ? 1 : 2', /not allowed/],
      ['"text"', /Only numbers/],
    ] as Array<[string, RegExp | undefined]>) {
      const found = formulaProblem(formula, ['a', 'b']);
      if (problem === undefined) assert.equal(found, undefined, formula);
      else assert.match(found ?? '', problem, formula);
    }
    assert.ok(Number.isNaN(evaluateFormula('1 / (a - a)', { a: 1 })));
  });
});

const valid = {
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

describe('questionTypes/calculated schema', () => {
  assertRefusals(valid, [
    ['a formula that does not parse', { formula: 'd /' }, 'formula', /Does not parse/],
    ['a formula naming no variable', { formula: 'd / s' }, 'formula', /"s" is not one of the variables/],
    [
      'a formula dividing by zero for some draw',
      { formula: 'd / (t - 1)' },
      'formula',
      /Is not a finite number for d = 10, t = 1/,
    ],
    [
      'min above max',
      { variables: [{ name: 'd', min: 5, max: 1, decimals: 0 }, valid.variables[1]] },
      'variables.0.max',
      /at least min/,
    ],
    [
      'a variable twice',
      { variables: [valid.variables[0], { ...valid.variables[1], name: 'd' }] },
      'variables.1.name',
      /named twice/,
    ],
    ['a variable called pi', { variables: [{ ...valid.variables[0], name: 'pi' }] }, 'variables.0.name', /constants/],
    ['a correct_answer (its key is formula)', { correct_answer: '3' }, '', /its key is formula/],
  ]);
});

describe('questionTypes/calculated schema, with fields that failed their own checks', () => {
  it('refuses decimals out of range with 400-worthy issues, never a throw (zod still runs the refinement)', () => {
    for (const decimals of [-1, 1e308, 2.5, Number.NaN]) {
      const parsed = QuestionInput.safeParse({
        ...valid,
        variables: [{ ...valid.variables[0], decimals }, valid.variables[1]],
      });
      assert.equal(parsed.success, false, String(decimals));
      assert.ok(
        parsed.error!.issues.some((i) => i.path.join('.') === 'variables.0.decimals'),
        String(decimals),
      );
    }
  });
});
