import assert from 'node:assert/strict';
import { multipleSelect } from '../../../functions/src/questionTypes/multipleSelect/module';
import { assertMarking } from '../cases';

// Pure: a multiple select question's marking, as a table: all or nothing, or option credits.

const options = ['A', 'B', 'C', 'D'];

describe('questionTypes/multipleSelect mark, all or nothing', () => {
  assertMarking(multipleSelect, { options, correct_answer: 'A|C' }, [
    ['exactly the key earns the marks', {}, 'A|C', 1],
    ['in any order, case and spacing', {}, ' c | a ', 1],
    ['a repeat counts once, empty parts are ignored', {}, 'a||c|a|', 1],
    ['a missing option is wrong', {}, 'A', 'wrong'],
    ['an extra option is wrong', {}, 'A|B|C', 'wrong'],
    ['a choice matching no option is wrong', {}, 'A|C|Z', 'wrong'],
    ['only separators are wrong', {}, ' | ', 'wrong'],
  ]);
});

describe('questionTypes/multipleSelect mark, with option credits', () => {
  assertMarking(multipleSelect, { options, correct_answer: 'A|C', option_credits: [50, -50, 50, 0] }, [
    ['the key earns the marks', {}, 'A|C', 1],
    ['one right option earns its share', {}, 'A', 0.5],
    ['a negative credit lowers the sum', {}, 'A|B|C', 0.5],
    ['never below 0 (never wrong)', {}, 'B', 0],
    ['never above the marks', { option_credits: [100, 0, 100, 0] }, 'A|C', 1],
    ['a choice matching no option adds 0', {}, 'A|Z', 0.5],
    ['an empty list of credits is all or nothing', { option_credits: [] }, 'A', 'wrong'],
  ]);
});

describe('questionTypes/multipleSelect answers', () => {
  it('counts every choice of an answer', () => {
    assert.deepEqual(multipleSelect.answerParts('A|C'), ['A', 'C']);
  });
});
