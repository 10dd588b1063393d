import assert from 'node:assert/strict';
import { multipleChoice } from '../../../functions/src/questionTypes/multipleChoice/module';
import { assertMarking } from '../cases';

// Pure: a multiple choice question's marking, as a table.

describe('questionTypes/multipleChoice mark', () => {
  assertMarking(multipleChoice, { options: ['Paris', 'Rome', 'New  York'], correct_answer: 'Paris' }, [
    ['the key earns the marks', {}, 'Paris', 1],
    ['whatever its case and spacing', {}, ' pARIS\t', 1],
    ['after NFKC (full-width letters match)', {}, 'Ｐａｒｉｓ', 1],
    ['spacing inside an option collapsed', { correct_answer: 'New  York' }, 'new york', 1],
    ['another option is wrong', {}, 'Rome', 'wrong'],
    ['two options are wrong', {}, 'Paris|Rome', 'wrong'],
    ['no option is wrong', {}, 'Lyon', 'wrong'],
  ]);
});

describe('questionTypes/multipleChoice answers', () => {
  it('counts an answer as one choice, and takes answers up to the limit', () => {
    assert.deepEqual(multipleChoice.answerParts('Paris|Rome'), ['Paris|Rome']);
    assert.equal(multipleChoice.answerProblem('x'.repeat(5), { question_type: 'multiple_choice' }, 5), undefined);
    assert.equal(
      multipleChoice.answerProblem('x'.repeat(6), { question_type: 'multiple_choice' }, 5),
      'At most 5 characters for a multiple_choice question',
    );
  });
});
