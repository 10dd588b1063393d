import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAiken } from '../../../functions/src/questionTypes/bankFormats';
import { decodeBankText } from '../../../functions/src/interchange/detect';
import type { ParsedItem } from '../../../functions/src/interchange/model';

// Pure: Aiken text → ParsedBank, no emulator needed.

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const ownFixtures = path.join(repoRoot, 'test', 'fixtures', 'interchange', 'aiken');
const interop = process.env.INTEROP_FIXTURES ?? path.resolve(repoRoot, '../shared/fixtures/interop');

const readOwn = (name: string) => decodeBankText(readFileSync(path.join(ownFixtures, name)), 'Aiken');

/** What the per-question report shows of an item: enough to compare with one assertion. */
const summary = (item: ParsedItem) => ({ line: item.line, status: item.status, message: item.message });
const okQuestions = (items: ParsedItem[]) => items.filter((i) => i.status === 'ok').map((i) => i.question);

describe('interchange/aiken parseAiken', () => {
  it('reads a question, its options and its ANSWER line as a plain-text multiple_choice of 1 mark, medium', () => {
    const bank = parseAiken(readOwn('questions.txt'));
    assert.equal(bank.format, 'aiken');
    assert.equal(bank.media.size, 0);
    assert.deepEqual(bank.items[0], {
      line: 1,
      title: null,
      source_type: 'multichoice',
      status: 'ok',
      message: null,
      warnings: [],
      category: null,
      question: {
        question_type: 'multiple_choice',
        question_text: 'Which planet is closest to the Sun?',
        text_format: 'plain',
        options: ['Venus', 'Mercury', 'Mars', 'Earth'],
        correct_answer: 'Mercury',
        marks: 1,
        difficulty: 'medium',
      },
    });
  });

  it('takes "A." as well as "A)" and keeps markup and "&" literally (the text is plain)', () => {
    const [, second] = parseAiken(readOwn('questions.txt')).items;
    assert.equal(second.line, 8);
    assert.equal(
      second.question?.question_text,
      'A page may start with <!doctype html> & still say "hello" to everyone:',
    );
    assert.equal(second.question?.text_format, 'plain');
    assert.deepEqual(second.question?.options, ['True', 'False']);
    assert.equal(second.question?.correct_answer, 'True');
  });

  it("reports Moodle's errors with Moodle's words and lines, keeping the 3 good questions", () => {
    const bank = parseAiken(readOwn('errors.txt'));
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'error', message: 'Question must have at least 2 answers on line 3' },
      { line: 5, status: 'error', message: 'Question not started on line 5' },
      { line: 7, status: 'error', message: 'Question not started on line 7' },
      { line: 9, status: 'ok', message: null },
      { line: 14, status: 'error', message: 'Question not completed before next question start on line 18' },
      { line: 18, status: 'ok', message: null },
      { line: 23, status: 'ok', message: null },
    ]);
    assert.ok(bank.items.every((i) => (i.status === 'ok') === (i.question !== undefined)));
  });

  it('makes a line outside any question an item of its own: error, no title, source_type aiken, no question', () => {
    const notStarted = parseAiken(readOwn('errors.txt')).items[1];
    assert.deepEqual(notStarted, {
      line: 5,
      title: null,
      source_type: 'aiken',
      status: 'error',
      message: 'Question not started on line 5',
      warnings: [],
      category: null,
    });
  });

  it('accepts an option without a space after its label, and keeps < > & in options as written', () => {
    const [, second, third] = okQuestions(parseAiken(readOwn('errors.txt')).items);
    assert.deepEqual(second?.options, ['Wrong, written without a space', 'Right, written without a space']);
    assert.equal(second?.correct_answer, 'Right, written without a space');
    assert.equal(third?.question_text, 'The third question that imports keeps <, > and & as they are');
    assert.deepEqual(third?.options, ['Right (<, > and &)', 'Wrong (<, > and &)']);
  });

  it('reads CRLF and a BOM left in the text the same as LF', () => {
    const crlf = parseAiken(readFileSync(path.join(ownFixtures, 'crlf.txt'), 'utf8'));
    assert.deepEqual(okQuestions(crlf.items)[0]?.options, ['Three', 'Four']);
    assert.equal(okQuestions(crlf.items)[0]?.question_text, 'How many sides has a triangle?');
    const bom = parseAiken(readFileSync(path.join(ownFixtures, 'bom.txt'), 'utf8'));
    assert.equal(okQuestions(bom.items)[0]?.question_text, 'How many legs has a spider?');
    assert.equal(bom.items[0].line, 1);
  });

  it('refuses an option containing "|" on that question only', () => {
    const bank = parseAiken('Pick one\nA) this | that\nB) other\nANSWER: B\n\nNext\nA) x\nB) y\nANSWER: A\n');
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'error', message: 'Option A contains "|", which an option cannot contain, on line 2' },
      { line: 6, status: 'ok', message: null },
    ]);
  });

  it('makes an ANSWER letter that names no option an error (Moodle would build a broken question)', () => {
    const bank = parseAiken('Pick one\nA) x\nB) y\nANSWER: E\n\nAgain\nA) x\nB) y\nANSWER:\n');
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'error', message: 'ANSWER: E is not one of the options (A to B) on line 4' },
      { line: 6, status: 'error', message: 'ANSWER names no option on line 9' },
    ]);
  });

  it('makes an empty option or a label given twice an error on that question', () => {
    const bank = parseAiken('Pick one\nA)\nB) y\nANSWER: B\n\nAgain\nA) x\nA) y\nANSWER: A\n');
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'error', message: 'Option A has no text on line 2' },
      { line: 6, status: 'error', message: 'Option A is given twice, on line 7 and line 8' },
    ]);
  });

  it('reports a question left open at the end of the file (Moodle drops it silently)', () => {
    const bank = parseAiken('Done\nA) x\nB) y\nANSWER: A\n\nUnfinished\nA) x\nB) y\n');
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'ok', message: null },
      { line: 6, status: 'error', message: 'Question not completed before the end of the file on line 8' },
    ]);
  });

  it('keeps a question text of several lines before the options as one text, with a warning', () => {
    const [item] = parseAiken('First line of the text\nsecond line\nA) x\nB) y\nANSWER: b\n').items;
    assert.equal(item.status, 'ok');
    assert.equal(item.question?.question_text, 'First line of the text\nsecond line');
    assert.equal(item.question?.correct_answer, 'y');
    assert.deepEqual(item.warnings, [
      'The question text runs over 2 lines (from line 1); Aiken gives it one line, so they were kept as one text',
    ]);
  });

  it('matches the answer by its label when the labels skip a letter, with a warning', () => {
    const [item] = parseAiken('Pick\nA) x\nC) y\nANSWER: C\n').items;
    assert.equal(item.question?.correct_answer, 'y');
    assert.deepEqual(item.warnings, [
      'The options are labelled A, C, not A, B, C… in order; ANSWER: C was matched by its label',
    ]);
  });

  it('gives an empty bank for an empty or blank file', () => {
    assert.deepEqual(parseAiken('').items, []);
    assert.deepEqual(parseAiken('\n  \n\t\n').items, []);
  });
});

describe('interchange/aiken parseAiken on the interop fixtures', () => {
  const dir = path.join(interop, 'aiken');
  before(function () {
    if (!existsSync(dir)) {
      console.warn(`    (skipped: no interop fixtures at ${dir}; set INTEROP_FIXTURES)`);
      this.skip();
    }
  });
  const read = (name: string) => decodeBankText(readFileSync(path.join(dir, name)), 'Aiken');

  it('moodle__questions.aiken.txt: 2 questions, the HTML-looking text kept literally', () => {
    const bank = parseAiken(read('moodle__questions.aiken.txt'));
    assert.deepEqual(bank.items.map(summary), [
      { line: 1, status: 'ok', message: null },
      { line: 8, status: 'ok', message: null },
    ]);
    const [first, second] = okQuestions(bank.items);
    assert.equal(first?.options?.length, 4);
    assert.equal(first?.correct_answer, first?.options?.[1]);
    assert.match(second?.question_text ?? '', /<html class="cool"> & images:$/);
    assert.equal(second?.text_format, 'plain');
    assert.equal(second?.correct_answer, 'True');
  });

  it('moodle__aiken_errors.txt: exactly 3 questions and the 4 errors of Moodle, each with its line', () => {
    const bank = parseAiken(read('moodle__aiken_errors.txt'));
    assert.equal(okQuestions(bank.items).length, 3);
    assert.deepEqual(
      bank.items.filter((i) => i.status === 'error').map((i) => i.message),
      [
        'Question must have at least 2 answers on line 3',
        'Question not started on line 5',
        'Question not started on line 7',
        'Question not completed before next question start on line 18',
      ],
    );
    assert.deepEqual(
      bank.items.map((i) => i.line),
      [1, 5, 7, 9, 14, 18, 23],
    );
    const [, noSpace, htmlChars] = okQuestions(bank.items);
    assert.deepEqual(noSpace?.options, ['Incorrect (No space)', 'Correct (No space)']);
    assert.equal(noSpace?.correct_answer, 'Correct (No space)');
    assert.deepEqual(htmlChars?.options, ['Correct (< > &)', 'Incorrect (< > &)']);
  });
});
