import assert from 'node:assert/strict';
import { drawValues } from '../../../functions/src/questionTypes/calculated/formula';
import { choiceTexts, valueText } from '../../../functions/src/questionTypes/calculated/choices';
import { calculated } from '../../../functions/src/questionTypes/calculated/module';
import { QuestionInput, type KeyedQuestion } from '../../../functions/src/questionTypes';
import { normalizeQuestion } from '../../../functions/src/questions/schemas';
import { assertRefusals } from '../refusals';

// Pure: a calculated question with choices (Moodle's calculated multichoice): each choice a formula
// shown as its value for the attempt's draw, in the attempt's order; the chosen value earns its credit.

const variables = [
  { name: 'a', min: 2, max: 9, decimals: 0 },
  { name: 'b', min: 10, max: 20, decimals: 0 },
];
const choices = [
  { formula: '{a} + {b}', credit: 100 },
  { formula: '{a} * {b}', credit: 0 },
  { formula: '{a} + {b} + 0.5', credit: 50, decimals: 1 },
  { formula: '{b} - {a}', credit: 0 },
];
const question: KeyedQuestion = {
  id: 'q1',
  question_type: 'calculated',
  options: [],
  correct_answer: '{a} + {b}',
  tolerance: null,
  marks: 2,
  variables,
  choices,
};
const SEED = 'attempt-1';
const values = drawValues(variables, `calculated:${SEED}:q1`);
const [sum, product, half, difference] = choiceTexts(choices, values);

describe('questionTypes/calculated with choices: shown and marked', () => {
  it('shows each choice as its value (with its decimals, else twelve significant digits)', () => {
    assert.equal(sum, String(values.a + values.b));
    assert.equal(half, (values.a + values.b + 0.5).toFixed(1));
    assert.equal(valueText(0.1 + 0.2), '0.3');
    assert.equal(valueText(2, 2), '2.00');
  });

  it('shows a taker the values in the attempt’s order, the same on every read, never which is right', () => {
    const shown = { id: 'q1', question_text: '{a} + {b}?', options: [], tolerance: null, variables, choices };
    const view = calculated.takerView(shown, SEED);
    assert.deepEqual([...view.options].sort(), [sum, product, half, difference].sort());
    assert.deepEqual(calculated.takerView(shown, SEED).options, view.options);
    assert.equal(view.question_text, `${values.a} + ${values.b}?`);
    const orders = new Set(Array.from({ length: 12 }, (_, k) => calculated.takerView(shown, `s${k}`).options.join()));
    assert.ok(orders.size > 1, 'attempts see other orders');
  });

  const CASES: Array<[string, string, { share: number; wrong?: number }]> = [
    ['the full-credit value', sum, { share: 1 }],
    ['a partial-credit value', half, { share: 0.5 }],
    ['a value worth nothing', product, { share: 0, wrong: 1 }],
    ['the full-credit value written with other digits', `${sum}.0`, { share: 1 }],
    ['no choice’s value', '-1', { share: 0, wrong: 1 }],
    ['not a number', 'twelve', { share: 0, wrong: 1 }],
  ];
  for (const [name, answer, marking] of CASES)
    it(`marks ${name} by the chosen choice’s credit`, () => {
      assert.deepEqual(calculated.mark(question, answer, SEED), marking);
    });

  it('shows a released review the full-credit choice’s value, the bank the formula', () => {
    assert.equal(calculated.shownKey(question, SEED), sum);
    assert.equal(calculated.shownKey(question), '{a} + {b}');
  });

  it('stores the choices as sent (decimals only when set)', () => {
    const parsed = QuestionInput.parse({
      question_type: 'calculated',
      question_text: '{a} + {b}?',
      marks: 2,
      difficulty: 'easy',
      variables,
      formula: '{a} + {b}',
      choices,
    });
    assert.deepEqual(normalizeQuestion(parsed).choices, choices);
  });
});

const valid = {
  question_type: 'calculated',
  question_text: '{a} + {b}?',
  marks: 2,
  difficulty: 'medium',
  variables,
  formula: '{a} + {b}',
  choices,
};

describe('questionTypes/calculated schema, with choices', () => {
  assertRefusals(valid, [
    ['one choice', { choices: [choices[0]] }, 'choices', /at least 2|>=2|too small/i],
    [
      'a choice that does not parse',
      { choices: [choices[0], { formula: 'a +', credit: 0 }] },
      'choices.1.formula',
      /Does not parse/,
    ],
    [
      'a choice naming no variable',
      { choices: [choices[0], { formula: 'a + c', credit: 0 }] },
      'choices.1.formula',
      /"c" is not one of the variables/,
    ],
    [
      'a choice dividing by zero for some draw',
      { choices: [choices[0], { formula: 'a / (b - 10)', credit: 0 }] },
      'choices.1.formula',
      /Is not a finite number for a = 2, b = 10/,
    ],
    [
      'a formula no full-credit choice has',
      { choices: [{ ...choices[0], credit: 50 }, choices[1]] },
      'choices',
      /formula must be the formula of a choice with credit 100/,
    ],
    [
      'two choices showing the same value on a draw',
      { choices: [choices[0], { formula: 'b + a', credit: 0 }] },
      'choices',
      /Two choices show the same value for a = 2, b = 10/,
    ],
    ['a credit above 100', { choices: [choices[0], { formula: 'a * b', credit: 150 }] }, 'choices.1.credit', /100/],
    [
      'decimals out of range',
      { choices: [choices[0], { formula: 'a * b', credit: 0, decimals: 9 }] },
      'choices.1.decimals',
      /6/,
    ],
  ]);
});
