import { shortAnswer } from '../../../functions/src/questionTypes/shortAnswer/module';
import { assertMarking } from '../cases';

// Pure: a short answer question's marking, as a table: case folded or kept, and alternatives.

const alternatives = [
  { answer: 'V. Hugo', credit: 50 },
  { answer: 'Hugo', credit: 75 },
  { answer: 'Zola', credit: 0 },
];

describe('questionTypes/shortAnswer mark', () => {
  assertMarking(shortAnswer, { correct_answer: 'Victor Hugo' }, [
    ['the key earns the marks', {}, 'Victor Hugo', 1],
    ['case and spacing never make it wrong', {}, '  victor   HUGO ', 1],
    ['anything else is wrong', {}, 'Hugo', 'wrong'],
    ['case sensitive: case kept', { case_sensitive: true }, 'victor hugo', 'wrong'],
    ['case sensitive: spacing still collapsed', { case_sensitive: true }, ' Victor  Hugo ', 1],
    ['an alternative earns its credit', { alternatives }, 'v. hugo', 0.5],
    [
      'the best alternative matching',
      { alternatives: [...alternatives, { answer: 'hugo', credit: 25 }] },
      'Hugo',
      0.75,
    ],
    ['the key before any alternative', { alternatives }, 'Victor Hugo', 1],
    ['an alternative of credit 0 is wrong', { alternatives }, 'Zola', 'wrong'],
    ['case sensitive alternatives', { alternatives, case_sensitive: true }, 'hugo', 'wrong'],
  ]);
});
