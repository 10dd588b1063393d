import assert from 'node:assert/strict';
import { parse, type GIFTQuestion } from 'gift-pegjs';
import { giftEscape } from '../../../functions/src/interchange/gift/write';
import { GiftWriter, parseGift, toGift } from '../../../functions/src/questionTypes/bankFormats';
import type { ExportQuestion } from '../../../functions/src/interchange/exportModel';
import {
  ALL,
  choice,
  essay,
  multi,
  multiAllOrNothing,
  numeric,
  numericExact,
  shortAnswer,
  trueFalse,
} from '../samples';
import { expectedDraft, gapFill, hottext, matching, matchingHtml, ordering } from '../partSamples';

// Every exported GIFT file is parsed back with gift-pegjs (the GIFT grammar's
// own parser): each type and field must come out as meant.

/** The questions of a parsed file (categories left out), with the category each was under. */
function parsed(text: string): Array<{ q: any; category: string | null }> {
  let category: string | null = null;
  const out: Array<{ q: any; category: string | null }> = [];
  for (const item of parse(text) as GIFTQuestion[]) {
    if (item.type === 'Category') category = item.title;
    else out.push({ q: item, category });
  }
  return out;
}

const one = (q: ExportQuestion): any => {
  const found = parsed(toGift([q]));
  assert.equal(found.length, 1);
  return found[0].q;
};

describe('interchange/export/gift toGift', () => {
  it('parses back, with gift-pegjs, to one question per bank question and the categories in effect', () => {
    const found = parsed(toGift(ALL));
    assert.deepEqual(
      found.map((f) => f.q.type),
      ['MC', 'MC', 'MC', 'TF', 'Short', 'Numerical', 'Numerical', 'Essay'],
    );
    assert.deepEqual(
      found.map((f) => f.category),
      [
        '$course$/top/Science/Physics//Optics',
        '$course$/top/Science/Physics//Optics',
        '$course$/top',
        '$course$/top/Science/Physics//Optics',
        '$course$/top/Science/Physics//Optics',
        '$course$/top/Science/Physics//Optics',
        '$course$/top/Science/Physics//Optics',
        '$course$/top/Essays',
      ],
    );
  });

  it('writes a multiple_choice with its title, HTML text, escapes, one = answer, html-marked options (HTML as the text is), per-option and general feedback', () => {
    const q = one(choice);
    assert.equal(q.title, 'Focal: length');
    assert.deepEqual(q.stem, { format: 'html', text: choice.question_text });
    assert.deepEqual(
      q.choices.map((c: any) => [c.isCorrect, c.weight, c.text.format, c.text.text, c.feedback?.text ?? null]),
      [
        [true, null, 'html', 'Convex', 'Right: it bends light inwards'],
        [false, null, 'html', 'Concave', 'No: it spreads light'],
        [false, null, 'html', '%50 of both', null],
        [false, null, 'html', '[html]<b>neither</b>', 'No'],
      ],
    );
    assert.deepEqual(q.globalFeedback, { format: 'html', text: choice.feedback });
    assert.deepEqual(q.tags, ['difficulty:hard', 'marks:2']);
  });

  it('writes a multiple_select with no = answer and each option credit as a %weight%, rounded to Moodle grades and said so', () => {
    const text = toGift([multi]);
    assert.match(text, /\/\/ option credits rounded to Moodle's grades: -33 → -33\.33333/);
    const q = one(multi);
    assert.equal(q.type, 'MC');
    assert.deepEqual(q.stem, { format: 'plain', text: 'Which are primes?\nPick all.' });
    assert.deepEqual(
      q.choices.map((c: any) => [c.isCorrect, c.weight, c.text.text, c.feedback?.text]),
      [
        [false, 50, '2', 'yes'],
        [false, 50, '3', 'yes'],
        [false, -33.33333, '4', 'even'],
        [false, -100, '9', 'square'],
      ],
    );
    assert.equal(q.globalFeedback.text, multi.feedback);
  });

  it('writes an all-or-nothing multiple_select as equal shares of 100 and -100 per wrong option, with a comment', () => {
    const text = toGift([multiAllOrNothing]);
    assert.match(text, /scored all or nothing here/);
    assert.deepEqual(
      one(multiAllOrNothing).choices.map((c: any) => c.weight),
      [50, -100, 50],
    );
  });

  it('writes a true_false with the wrong answer’s feedback first and the right one’s second, and general feedback', () => {
    const q = one(trueFalse);
    assert.equal(q.isTrue, true);
    // gift-pegjs names the two positions trueFeedback and falseFeedback; GIFT means "if wrong", "if right".
    assert.equal(q.trueFeedback.text, 'It is faster');
    assert.equal(q.falseFeedback.text, 'Yes, much faster');
    assert.equal(q.globalFeedback.text, trueFalse.feedback);
    assert.deepEqual(q.tags, ['difficulty:easy', 'marks:2']);
    const falseOne = one({ ...trueFalse, correct_answer: 'False', option_feedback: ['Not so', ''], feedback: 'g' });
    assert.equal(falseOne.isTrue, false);
    assert.equal(falseOne.trueFeedback.text, 'Not so');
    assert.equal(falseOne.falseFeedback, null);
    assert.equal(falseOne.globalFeedback.text, 'g');
  });

  it('writes a short_answer with its alternatives as =%credit% answers and case sensitivity as a tag', () => {
    const q = one(shortAnswer);
    assert.equal(q.type, 'Short');
    assert.deepEqual(
      q.choices.map((c: any) => [c.isCorrect, c.weight, c.text.text]),
      [
        [true, null, 'Paris'],
        [true, 100, 'Paris, France'],
        [true, 33.33333, 'Lutèce'],
      ],
    );
    assert.deepEqual(q.tags, ['difficulty:medium', 'marks:2', 'case_sensitive']);
    assert.equal(q.globalFeedback.text, shortAnswer.feedback);
  });

  it('writes a numeric as {#value:tolerance} in decimal, with alternatives and their own tolerance', () => {
    const q = one(numeric);
    assert.deepEqual(
      q.choices.map((c: any) => [c.weight, c.text]),
      [
        [null, { type: 'range', number: 300000, range: 1000 }],
        [50, { type: 'range', number: 300, range: 1 }],
      ],
    );
    assert.deepEqual(q.tags, ['difficulty:hard', 'marks:1.5']);
    assert.deepEqual(one(numericExact).choices, { type: 'simple', number: 0.5 });
    assert.deepEqual(one({ ...numericExact, tolerance: 0 }).choices, { type: 'range', number: 0.5, range: 0 });
  });

  it('writes an essay as {} with its word limit as a tag and general feedback', () => {
    const q = one(essay);
    assert.equal(q.type, 'Essay');
    assert.deepEqual(q.tags, ['difficulty:hard', 'marks:2', 'max_words:250']);
    assert.equal(q.globalFeedback.text, essay.feedback);
  });

  it('says above an essay taking files that GIFT cannot say them, and the question still parses', () => {
    const text = toGift([{ ...essay, attachments: 2 }]);
    assert.match(text, /\/\/ its 2 attached files \(GIFT cannot say them\): not written/);
    assert.equal(one({ ...essay, attachments: 2 }).type, 'Essay');
  });

  it('keeps media as /api/media links (GIFT has no files) and says so above the question', () => {
    const text = toGift([choice]);
    assert.match(text, /\/\/ media: GIFT cannot carry files/);
    assert.equal(one(choice).stem.text.includes('<img src="/api/media/img1"'), true);
  });

  it('writes a test’s pools as comments, and a file of them still parses', () => {
    const text = toGift([numeric], [{ category: ['Pool A'], difficulty: 'easy', draw: 2, question_ids: ['nu1'] }]);
    assert.match(text, /^\/\/ pool 1: each attempt draws 2 of the 1 questions of "Pool A" \(easy\)/);
    assert.equal(parsed(text).length, 1);
  });

  it('writes the category again only when it changes, across writes', () => {
    const writer = new GiftWriter();
    const first = writer.write([numeric]);
    const second = writer.write([numericExact, multiAllOrNothing]);
    assert.equal((first.match(/\$CATEGORY/g) ?? []).length, 1);
    assert.equal((second.match(/\$CATEGORY/g) ?? []).length, 1);
    assert.match(second, /\$CATEGORY: \$course\$\/top\n/);
  });

  it('never writes "->" between the braces (a matching question): options become HTML, and a lossy case is noted', () => {
    const q = one({ ...choice, options: ['a -> b', 'c'], correct_answer: 'c', option_feedback: ['x -> y', ''] });
    assert.equal(q.type, 'MC');
    assert.deepEqual(q.choices[0].text, { format: 'html', text: 'a -&gt; b' });
    assert.equal(q.choices[0].feedback.text, 'x -&gt; y');
    const text = toGift([{ ...shortAnswer, correct_answer: 'p->q' }]);
    assert.match(text, /\/\/ "->" cannot appear between GIFT braces/);
    assert.equal(one({ ...shortAnswer, correct_answer: 'p->q' }).type, 'Short');
  });

  it('escapes \\ ~ = # { } : and line ends', () => {
    assert.equal(giftEscape('a\\b~c=d#e{f}g:h\r\ni\nj'), 'a\\\\b\\~c\\=d\\#e\\{f\\}g\\:h\\ni\\nj');
  });
});

describe('interchange/export/gift toGift: the types with parts', () => {
  it('writes a matching question as =stem -> match pairs, a distractor as "= -> option"', () => {
    const text = toGift([matching]);
    assert.match(
      text,
      /::Capitals::\[plain\]Match each country with its capital\.\{\n\t=France -> Paris\n\t=Italy -> Rome\n\t=Spain -> Madrid\n\t= -> Berlin\n\t####Berlin is in Germany\.\n\}/,
    );
    const q = one(matching);
    assert.equal(q.type, 'Matching');
    assert.deepEqual(
      q.matchPairs.map((p: any) => [p.subquestion.text, p.subanswer]),
      [
        ['France', 'Paris'],
        ['Italy', 'Rome'],
        ['Spain', 'Madrid'],
        ['', 'Berlin'],
      ],
    );
  });

  it('writes a comment, not a question, for what GIFT cannot say: ordering, gap_fill, hottext, a stem holding "->"', () => {
    const text = toGift([ordering, gapFill, hottext, { ...matching, stems: ['a -> b', 'c', 'd'] }]);
    assert.deepEqual(
      text.split('\n').filter((l) => l.startsWith('// not exported')),
      [
        '// not exported: "Planets" is an ordering question, which GIFT cannot say',
        '// not exported: "Water" is a gap-fill question, which GIFT cannot say (its one answer block is one gap)',
        '// not exported: "Verbs" is a hottext question, which GIFT cannot say',
        '// not exported: "Capitals" is a matching question with "->" in a stem, which GIFT reads as the end of the stem',
      ],
    );
    assert.deepEqual(parsed(text), []);
  });

  it('notes that a matching question’s options are listed matches first, when they were not', () => {
    assert.match(
      toGift([{ ...matching, options: ['Berlin', 'Madrid', 'Paris', 'Rome'] }]),
      /\/\/ the options' order is not carried: GIFT lists the matches, then the distractors\n/,
    );
  });
});

describe('GIFT round trip of matching: exported, then read, gives the same question', () => {
  for (const q of [matching, matchingHtml]) {
    it(q.title!, () => {
      const [item] = parseGift(toGift([q])).items;
      assert.equal(item.status, 'ok', item.message ?? '');
      assert.deepEqual(item.question, expectedDraft(q));
      assert.deepEqual(item.category, q.category);
      assert.deepEqual(item.warnings, []);
    });
  }
});
