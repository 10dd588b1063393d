import { numeric } from '../../../functions/src/questionTypes/numeric/module';
import { assertMarking } from '../cases';

// Pure: a numeric question's marking, as a table: the tolerance, the decimal comma, alternatives.

describe('questionTypes/numeric mark', () => {
  assertMarking(numeric, { correct_answer: '1.1', tolerance: 0.1 }, [
    ['the key earns the marks', {}, '1.1', 1],
    ['within the tolerance, at its edge', {}, '1.0', 1],
    ['past the tolerance is wrong', {}, '0.99', 'wrong'],
    ['a decimal comma reads as a point', {}, '1,1', 1],
    ['a comma that may group thousands is no number', { correct_answer: '1234', tolerance: null }, '1,234', 'wrong'],
    ['no tolerance: one double apart is equal', { correct_answer: '0.30000000000000004', tolerance: null }, '0.3', 1],
    ['no tolerance: a near miss is wrong', { correct_answer: '4294967296', tolerance: null }, '4294967300', 'wrong'],
    ['not a number is wrong', {}, 'one', 'wrong'],
    [
      'an alternative within its own tolerance earns its credit',
      { alternatives: [{ answer: '2', credit: 40, tolerance: 0.5 }] },
      '2.4',
      0.4,
    ],
    [
      'an alternative without a tolerance must be exact',
      { alternatives: [{ answer: '2', credit: 40 }] },
      '2.4',
      'wrong',
    ],
  ]);
});
