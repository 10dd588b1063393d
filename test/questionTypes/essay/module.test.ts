import assert from 'node:assert/strict';
import { essay, wordCount } from '../../../functions/src/questionTypes/essay/module';
import { EssayInput, essayExtras } from '../../../functions/src/questionTypes/essay/schema';

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

describe('questionTypes/essay attachments', () => {
  const base = { question_type: 'essay', question_text: 'Show your working', marks: 5, difficulty: 'medium' } as const;
  const cases: Array<[title: string, fields: Record<string, unknown>, stored: Record<string, unknown> | string]> = [
    ['none by default', {}, {}],
    ['0 is none, stored as nothing', { attachments: 0 }, {}],
    ['null is none', { attachments: null, attachments_required: null }, {}],
    ['up to 5 files', { attachments: 5 }, { attachments: 5 }],
    ['some of them required', { attachments: 3, attachments_required: 2 }, { attachments: 3, attachments_required: 2 }],
    ['0 required is stored as nothing', { attachments: 2, attachments_required: 0 }, { attachments: 2 }],
    ['more than 5 is refused', { attachments: 6 }, 'attachments'],
    ['a fraction is refused', { attachments: 1.5 }, 'attachments'],
    ['a negative count is refused', { attachments: -1 }, 'attachments'],
    ['more required than allowed is refused', { attachments: 1, attachments_required: 2 }, 'attachments_required'],
    ['required with none allowed is refused', { attachments_required: 1 }, 'attachments_required'],
  ];
  for (const [title, fields, stored] of cases)
    it(`${title}`, () => {
      const parsed = EssayInput.safeParse({ ...base, ...fields });
      if (typeof stored === 'string') {
        assert.equal(parsed.success, false);
        assert.deepEqual(
          parsed.error!.issues.map((i) => i.path.join('.')),
          [stored],
        );
        return;
      }
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
      assert.deepEqual(essayExtras(parsed.data), stored);
    });

  it('a taker sees how many files it may and must attach; one taking none sees nothing of them', () => {
    const question = { id: 'q1', question_text: 'x', options: [], tolerance: null, max_words: null };
    assert.deepEqual(essay.takerView({ ...question, attachments: 3, attachments_required: 1 }, 'seed'), {
      options: [],
      max_words: null,
      attachments: 3,
      attachments_required: 1,
    });
    assert.deepEqual(essay.takerView({ ...question, attachments: 2 }, 'seed'), {
      options: [],
      max_words: null,
      attachments: 2,
      attachments_required: 0,
    });
    assert.deepEqual(essay.takerView(question, 'seed'), { options: [], max_words: null });
  });
});
