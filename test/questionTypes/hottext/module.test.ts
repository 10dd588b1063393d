import assert from 'node:assert/strict';
import { hottext } from '../../../functions/src/questionTypes/hottext/module';
import { assertMarking } from '../cases';
import { assertRefusals } from '../refusals';

// Pure: a hottext question: (right chosen − wrong chosen) ÷ right phrases, and its schema's refusals.

const key = { options: ['The', 'includes', 'were', 'is'], correct_answer: 'includes|were' };

describe('questionTypes/hottext mark', () => {
  assertMarking(hottext, key, [
    ['exactly the right phrases earn the marks', {}, 'includes|were', 1],
    ['in any order and case', {}, 'WERE|includes', 1],
    ['one of two right', {}, 'includes', 0.5],
    ['a wrong phrase takes a right one back', {}, 'includes|were|is', 0.5],
    ['as many wrong as right is wrong', {}, 'includes|is', 'wrong'],
    ['only wrong phrases', {}, 'The', 'wrong'],
  ]);
});

const valid = {
  question_type: 'hottext',
  question_text: 'Find the error: The list [[includes]] eggs, which [[were]] fresh, and milk that [[is]] not.',
  marks: 1,
  difficulty: 'hard',
  correct_answer: 'were',
  max_choices: 1,
};

describe('questionTypes/hottext schema', () => {
  assertRefusals(valid, [
    [
      'a right phrase not marked in the text',
      { correct_answer: 'milk' },
      'correct_answer',
      /not a phrase marked in the text/,
    ],
    [
      'fewer than two phrases',
      { question_text: 'Only [[one]] here', correct_answer: 'one' },
      'question_text',
      /at least 2 phrases/,
    ],
    [
      'a phrase marked twice',
      { question_text: '[[a]] and [[A]] and [[b]]', correct_answer: 'b' },
      'question_text',
      /marked twice/,
    ],
    [
      'max_choices below the right phrases',
      { correct_answer: 'were|is', max_choices: 1 },
      'max_choices',
      /at least the 2 right phrases/,
    ],
    ['options (its phrases are in the text)', { options: ['a', 'b'] }, '', /marked \[\[like this\]\]/],
  ]);

  it('stores its phrases as options in the text’s order and the key in that order', () => {
    const stored = hottext.normalize(
      hottext.input.parse({ ...valid, correct_answer: 'is|includes', max_choices: null }),
    );
    assert.deepEqual(stored.options, ['includes', 'were', 'is']);
    assert.equal(stored.correct_answer, 'includes|is');
  });

  it('refuses to save more phrases than max_choices', () => {
    const question = { question_type: 'hottext', max_choices: 1 };
    assert.match(hottext.answerProblem('were|is', question, 2000)!, /at most 1 phrases; the answer chooses 2/);
    assert.equal(hottext.answerProblem('were', question, 2000), undefined);
  });
});
