import assert from 'node:assert/strict';
import {
  matchingDistractors,
  decimalText,
  exportedTitle,
  fixedPointText,
  htmlLine,
  htmlText,
  isTitleFromText,
  MOODLE_GRADES,
  moodleGradeOf,
  nearestMoodleGrade,
} from '../../functions/src/interchange/conventions';

// The conventions the readers and the writers share, each by a table of cases:
// a grade is read back as the one written, a number's text as the key, a title
// made from the text as no title.

describe('interchange/conventions Moodle grades', () => {
  const read: [number, number | undefined][] = [
    [100, 100],
    [-100, -100],
    [33.3333, 33.33333],
    [-33.33333, -33.33333],
    [0, 0],
    [-0.0005, 0],
    [14.2857, 14.28571],
    [35, undefined],
    [Number.NaN, undefined],
  ];
  for (const [written, grade] of read)
    it(`reads ${written}% as ${grade === undefined ? 'no grade of Moodle' : `${grade}%`}`, () =>
      assert.equal(moodleGradeOf(written), grade));

  it('reads back every grade the writers write, of either sign', () => {
    for (const grade of MOODLE_GRADES) {
      assert.equal(moodleGradeOf(nearestMoodleGrade(grade)), grade);
      assert.equal(moodleGradeOf(nearestMoodleGrade(-grade)), grade === 0 ? 0 : -grade);
    }
  });
});

describe('interchange/conventions numbers as decimal text', () => {
  const keys: [string, string][] = [
    ['1e3', '1000'],
    ['.5', '0.5'],
    [' 2.50 ', '2.50'],
    ['1e-7', '0.0000001'],
    ['abc', 'abc'],
  ];
  for (const [key, text] of keys)
    it(`writes the key "${key}" as "${text}"`, () => assert.equal(decimalText(key), text));

  const fixed: [bigint, number, string][] = [
    [125n, 2, '1.25'],
    [1250n, 3, '1.25'],
    [5n, 3, '0.005'],
    [-5n, 1, '-0.5'],
    [0n, 2, '0'],
  ];
  for (const [value, scale, text] of fixed)
    it(`writes ${value} at scale ${scale} as "${text}"`, () => assert.equal(fixedPointText(value, scale), text));
});

describe('interchange/conventions HTML as text', () => {
  it('keeps line breaks, decodes references and says markup was lost (htmlText)', () => {
    assert.deepEqual(htmlText('<b>a</b><br>b &amp; &#x41;<!-- note -->'), { text: 'a\nb & A', lost: true });
    assert.deepEqual(htmlText('plain &lt;text&gt;'), { text: 'plain <text>', lost: false });
  });

  it('makes one line and names the images and formatting it had (htmlLine)', () => {
    assert.deepEqual(htmlLine('<p>a <em>b</em></p><p><img src="x.png" alt="X"></p>'), {
      text: 'a b',
      images: [{ src: 'x.png', alt: 'X' }],
      formatting: ['em'],
    });
  });

  it('reads a title made from HTML text back as that text (isTitleFromText)', () => {
    const q = { question_text: '<p>What is&nbsp;<b>2 + 2</b>?</p>', text_format: 'html' as const };
    assert.equal(exportedTitle(q), 'What is 2 + 2 ?');
    assert.equal(isTitleFromText(exportedTitle(q), q), true);
    assert.equal(isTitleFromText('Another name', q), false);
  });
});

describe('conventions.matchingDistractors: a matching question’s options as GIFT and Moodle XML list them', () => {
  const cases: Array<[string, string[], string[], { distractors: string[]; reordered: boolean }]> = [
    ['matches in order, no distractor', ['a', 'b'], ['a', 'b'], { distractors: [], reordered: false }],
    ['matches then a distractor', ['a', 'b', 'x'], ['a', 'b'], { distractors: ['x'], reordered: false }],
    ['an option matched twice listed once', ['a', 'x'], ['a', 'a'], { distractors: ['x'], reordered: false }],
    ['a distractor first: reordered', ['x', 'a', 'b'], ['a', 'b'], { distractors: ['x'], reordered: true }],
    ['matches out of the stems’ order: reordered', ['b', 'a'], ['a', 'b'], { distractors: [], reordered: true }],
  ];
  for (const [name, options, matches, expected] of cases)
    it(name, () => {
      assert.deepEqual(matchingDistractors({ options, matches }), expected);
    });
});
