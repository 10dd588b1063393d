import assert from 'node:assert/strict';
import { parseHeader, rowFields, validateRow, type HeaderColumns } from '../../functions/src/questions/csvRows';

// Pure: CSV row → question, no emulator needed.

const HEADER = ['question_text', 'question_type', 'options', 'correct_answer', 'marks', 'difficulty'];
const columns = (cells = HEADER): HeaderColumns => {
  const parsed = parseHeader(cells);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.columns;
};

describe('csvRows.parseHeader', () => {
  it('accepts the columns in any order and case, the optional ones, and blank trailing cells of a spreadsheet', () => {
    assert.deepEqual(
      columns([
        ' Difficulty',
        'MARKS',
        'correct_answer',
        'options',
        'question_type',
        'question_text',
        'folder_id',
        'tolerance',
        'Max_Words',
        '',
        '',
      ]),
      [
        'difficulty',
        'marks',
        'correct_answer',
        'options',
        'question_type',
        'question_text',
        'folder_id',
        'tolerance',
        'max_words',
        null,
        null,
      ],
    );
  });

  it('names unknown, duplicated and missing columns', () => {
    const parsed = parseHeader(['question_text', 'question_text', 'kind', 'options']);
    assert.ok('error' in parsed);
    assert.match(parsed.error, /unknown column "kind"/);
    assert.match(parsed.error, /"question_text" appears twice/);
    assert.match(parsed.error, /missing columns question_type, correct_answer, marks, difficulty/);
  });

  it('refuses a nameless column before named ones, and client_id (never a CSV column)', () => {
    assert.ok('error' in parseHeader([...HEADER.slice(0, 2), '', ...HEADER.slice(2)]));
    assert.ok('error' in parseHeader([...HEADER, 'client_id']));
  });
});

describe('csvRows.rowFields', () => {
  it('splits options on "|", trims cells, reads numbers, and leaves blank cells out', () => {
    assert.deepEqual(
      rowFields(columns([...HEADER, 'tolerance', 'folder_id']), [
        ' Q? ',
        'numeric',
        '',
        '3.5',
        ' 2 ',
        'easy',
        '0.1',
        '',
      ]),
      {
        question_text: 'Q?',
        question_type: 'numeric',
        correct_answer: '3.5',
        marks: 2,
        difficulty: 'easy',
        tolerance: 0.1,
      },
    );
    assert.deepEqual(rowFields(columns(), ['Q', 'multiple_choice', ' a | b |c', 'a', 'two', 'easy']).options, [
      'a',
      'b',
      'c',
    ]);
    assert.equal(rowFields(columns(), ['Q', 'multiple_choice', 'a|b', 'a', 'two', 'easy']).marks, 'two');
  });

  it('reads max_words as a number, and leaves an essay’s blank options and correct_answer out', () => {
    assert.deepEqual(rowFields(columns([...HEADER, 'max_words']), ['Essay?', 'essay', '', '', '3', 'hard', ' 250 ']), {
      question_text: 'Essay?',
      question_type: 'essay',
      marks: 3,
      difficulty: 'hard',
      max_words: 250,
    });
    assert.equal(
      rowFields(columns([...HEADER, 'max_words']), ['Essay?', 'essay', '', '', '3', 'hard', 'many']).max_words,
      'many',
    );
  });
});

describe('csvRows.validateRow', () => {
  it('validates every type with the POST schema', () => {
    const rows = [
      ['Capital?', 'multiple_choice', 'Paris|Rome', 'paris', '1', 'easy'],
      ['Primes?', 'multiple_select', '2|3|4', '3|2', '2', 'medium'],
      ['Sky blue?', 'true_false', '', 'TRUE', '1', 'hard'],
      ['Sky blue?', 'true_false', 'True|False', 'false', '1', 'hard'],
      ['Gold?', 'short_answer', '', 'Au', '1', 'easy'],
      ['Pi?', 'numeric', '', '3.14', '1', 'easy'],
      ['Discuss.', 'essay', '', '', '5', 'hard'],
    ];
    for (const [i, cells] of rows.entries()) {
      const result = validateRow(i + 2, columns(), cells);
      assert.ok(result.ok, JSON.stringify(result));
    }
  });

  it('names the line, the field and the problem of each error, in the documented shape', () => {
    const result = validateRow(7, columns(), ['', 'multiple_choice', 'a|A', 'b', '0', 'extreme']);
    assert.ok(!result.ok);
    const fields = result.errors.map((e) => e.field);
    assert.deepEqual([...new Set(fields)].sort(), ['difficulty', 'marks', 'question_text']);
    for (const e of result.errors) {
      assert.equal(e.row, 7);
      assert.equal(e.path, `row 7.${e.field}`);
      assert.ok(e.message.length > 0);
    }
  });

  it('reports a wrong answer and duplicate options once the row is otherwise valid', () => {
    const result = validateRow(3, columns(), ['Q', 'multiple_choice', 'a|A|b', 'c', '1', 'easy']);
    assert.ok(!result.ok);
    assert.deepEqual(result.errors.map((e) => e.path).sort(), ['row 3.correct_answer', 'row 3.options']);
    assert.match(result.errors.find((e) => e.field === 'options')!.message, /option 2/);
  });

  it('names tolerance on a question that is not numeric, and an unknown type', () => {
    const tolerance = validateRow(4, columns([...HEADER, 'tolerance']), [
      'Q',
      'short_answer',
      '',
      'a',
      '1',
      'easy',
      '1',
    ]);
    assert.ok(!tolerance.ok);
    assert.deepEqual(
      tolerance.errors.map((e) => e.path),
      ['row 4.tolerance'],
    );
    const type = validateRow(5, columns(), ['Q', 'cloze', '', 'a', '1', 'easy']);
    assert.ok(!type.ok);
    assert.deepEqual(
      type.errors.map((e) => e.path),
      ['row 5.question_type'],
    );
  });
});

describe('csvRows.validateRow, essays', () => {
  const withMaxWords = () => columns([...HEADER, 'max_words']);

  it('takes an essay row with or without max_words, as a question with no options and no answer key', () => {
    const limited = validateRow(2, withMaxWords(), [
      'Discuss the causes of the war.',
      'essay',
      '',
      '',
      '10',
      'hard',
      '500',
    ]);
    assert.ok(limited.ok, JSON.stringify(limited));
    assert.deepEqual(limited.question, {
      question_text: 'Discuss the causes of the war.',
      question_type: 'essay',
      marks: 10,
      difficulty: 'hard',
      max_words: 500,
    });
    const open = validateRow(3, withMaxWords(), ['Describe your summer.', 'essay', '', '', '5', 'easy', '']);
    assert.ok(open.ok, JSON.stringify(open));
    assert.equal(open.question.question_type === 'essay' && open.question.max_words, undefined);
  });

  it('refuses an essay row with a correct_answer or options, naming the column', () => {
    const answered = validateRow(4, withMaxWords(), ['Discuss.', 'essay', '', 'The answer', '5', 'easy', '']);
    assert.ok(!answered.ok);
    assert.deepEqual(answered.errors, [
      {
        path: 'row 4.correct_answer',
        row: 4,
        field: 'correct_answer',
        message: 'An essay has no correct_answer; it is graded by a person',
      },
    ]);
    const options = validateRow(5, withMaxWords(), ['Discuss.', 'essay', 'a|b', '', '5', 'easy', '']);
    assert.ok(!options.ok);
    assert.deepEqual(
      options.errors.map((e) => e.path),
      ['row 5.options'],
    );
  });

  it('refuses max_words out of range, not a number, or on a question that is not an essay', () => {
    for (const cell of ['0', '10001', '2.5', 'many']) {
      const result = validateRow(6, withMaxWords(), ['Discuss.', 'essay', '', '', '5', 'easy', cell]);
      assert.ok(!result.ok, cell);
      assert.deepEqual(
        result.errors.map((e) => e.path),
        ['row 6.max_words'],
        cell,
      );
    }
    const other = validateRow(7, withMaxWords(), ['Gold?', 'short_answer', '', 'Au', '1', 'easy', '100']);
    assert.ok(!other.ok);
    assert.deepEqual(
      other.errors.map((e) => [e.path, e.message]),
      [['row 7.max_words', 'max_words is allowed only for essays']],
    );
  });
});

describe('csvRows optional columns of the bank’s optional fields', () => {
  const header = [
    ...HEADER,
    'title',
    'text_format',
    'feedback',
    'option_feedback',
    'option_credits',
    'alternatives',
    'case_sensitive',
    'tolerance',
  ];
  const row = (cells: string[]) => validateRow(2, columns(header), cells);

  it('reads title, text_format, feedback, option_feedback and option_credits ("|"-separated)', () => {
    const result = row([
      'Pick the primes',
      'multiple_select',
      '2|3|4',
      '2|3',
      '2',
      'easy',
      'Primes',
      'plain',
      'Both 2 and 3',
      'Yes||No',
      '50|50|-100',
      '',
      '',
      '',
    ]);
    assert.ok(result.ok && result.question.question_type === 'multiple_select', JSON.stringify(result));
    assert.deepEqual(
      [
        result.question.title,
        result.question.feedback,
        result.question.option_feedback,
        result.question.option_credits,
      ],
      ['Primes', 'Both 2 and 3', ['Yes', '', 'No'], [50, 50, -100]],
    );
  });

  it('reads alternatives as answer:credit entries, numeric ones with an optional :tolerance, an answer holding ":" split at the last', () => {
    const short = row([
      'Time?',
      'short_answer',
      '',
      '10:30',
      '1',
      'easy',
      '',
      '',
      '',
      '',
      '',
      '10:30 am:50|half past ten:25',
      'true',
      '',
    ]);
    assert.ok(short.ok && short.question.question_type === 'short_answer', JSON.stringify(short));
    assert.deepEqual(short.question.alternatives, [
      { answer: '10:30 am', credit: 50 },
      { answer: 'half past ten', credit: 25 },
    ]);
    assert.equal(short.question.case_sensitive, true);
    const numeric = row(['Pi?', 'numeric', '', '3.14', '1', 'easy', '', '', '', '', '', '3:50:0.2|3.1:25', '', '0.01']);
    assert.ok(numeric.ok && numeric.question.question_type === 'numeric', JSON.stringify(numeric));
    assert.deepEqual(numeric.question.alternatives, [
      { answer: '3', credit: 50, tolerance: 0.2 },
      { answer: '3.1', credit: 25 },
    ]);
  });

  it('names the column and the entry of a bad cell: a credit that is not a number, case_sensitive not true/false, an alternative without credit', () => {
    const result = row(['Q?', 'short_answer', '', 'x', '1', 'easy', '', 'html5', '', '', '', 'y', 'yes', '']);
    assert.ok(!result.ok);
    const fields = result.errors.map((e) => e.field);
    for (const field of ['text_format', 'alternatives', 'case_sensitive']) assert.ok(fields.includes(field), field);
    const credits = row(['Q?', 'multiple_select', 'a|b', 'a', '1', 'easy', '', '', '', '', '100|lots', '', '', '']);
    assert.ok(!credits.ok);
    assert.deepEqual(
      credits.errors.map((e) => [e.field, e.message.startsWith('entry 2')]),
      [['option_credits', true]],
    );
  });

  it('names option_credits on a question that is not multiple_select', () => {
    const result = row(['Q?', 'multiple_choice', 'a|b', 'a', '1', 'easy', '', '', '', '', '100|0', '', '', '']);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => [e.field, e.message]),
      [['option_credits', 'option_credits is allowed only for multiple_select questions']],
    );
  });
});
