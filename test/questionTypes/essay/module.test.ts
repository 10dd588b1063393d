import assert from 'node:assert/strict';
import { essay, wordCount } from '../../../functions/src/questionTypes/essay/module';

// Pure: an essay has no key, and its answers are held to its word limit.

describe('questionTypes/essay', () => {
  const cases: Array<
    [title: string, maxWords: number | null | undefined, answer: string, problem: string | undefined]
  > = [
    ['no limit takes any words', null, 'one two three', undefined],
    ['an absent limit is no limit', undefined, 'one two three', undefined],
    ['at the limit', 3, 'one two three', undefined],
    ['past the limit', 2, 'one two three', 'This essay takes at most 2 words; the answer has 3'],
    ['its length is not its own to refuse', 1, 'x'.repeat(50), undefined],
  ];
  for (const [title, maxWords, answer, problem] of cases)
    it(`answerProblem: ${title}`, () => {
      assert.equal(essay.answerProblem(answer, { question_type: 'essay', max_words: maxWords }, 10), problem);
    });

  it('shows no key, and counts words between white space', () => {
    assert.equal(essay.shownKey({ correct_answer: '' }), null);
    assert.equal(wordCount('  one\t\ttwo\n\nthree  '), 3);
  });
});
