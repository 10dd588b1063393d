import assert from 'node:assert/strict';
import { parse } from '../../functions/node_modules/csv-parse/dist/cjs/sync.cjs';
import {
  FIXED_COLUMNS,
  headerRow,
  questionHeader,
  questionHeaders,
  resultRow,
  shortText,
  studentNameOf,
  studentsToName,
  toCsv,
  classesCell,
  CSV_BOM,
  questionLabel,
  type ExportedAttempt,
  type RowContext,
} from '../../functions/src/analytics/resultsRows';

// The results export's rows and CSV text, without Firestore.

const QUESTIONS = [
  { id: 'q1', question_text: 'Capital of France?' },
  { id: 'q2', question_text: 'Primes?' },
  { id: 'q3', question_text: 'Spell cat' },
];

const attempt = (overrides: Partial<ExportedAttempt> = {}): ExportedAttempt => ({
  id: 'a1',
  student_id: 's1',
  guest: false,
  guest_name: null,
  score: 3,
  total_marks: 4,
  percentage: 75,
  started_at: '2025-01-02T03:03:05.000Z',
  submitted_at: '2025-01-02T03:04:05.000Z',
  auto_submitted: false,
  results: [
    { question_id: 'q1', answered: true, correct: true, marks_awarded: 1 },
    { question_id: 'q2', answered: true, correct: true, marks_awarded: 2 },
    { question_id: 'q3', answered: false, correct: false, marks_awarded: 0 },
  ],
  ...overrides,
});

const names = new Map([['s1', { name: 'Ada Lovelace', email: 'ada@school.example', candidate_number: 'C-017' }]]);
const ctx: RowContext = {
  people: names,
  timeZone: 'Europe/Paris',
  audience: [],
  classNames: new Map([
    ['c1', '9C Maths'],
    ['c2', 'Chess club'],
  ]),
};
/** The person and time columns of the default attempt: Ada, in Paris an hour ahead of UTC in January. */
const ADA = ['Ada Lovelace', 'ada@school.example', '', 'C-017'];
const TIMES = ['2025-01-02 04:03:05', '2025-01-02 04:04:05', '2025-01-02T03:04:05.000Z'];
const parsed = (text: string): string[][] => parse(text);

describe('shortText and questionHeader', () => {
  it('collapses spacing, trims, and cuts a long text to 60 characters ending with …', () => {
    assert.equal(shortText('  What\n is\t 2 + 2? '), 'What is 2 + 2?');
    assert.equal(shortText('x'.repeat(60)), 'x'.repeat(60));
    assert.equal(shortText('x'.repeat(61)), `${'x'.repeat(59)}…`);
    assert.equal(Array.from(shortText('😀'.repeat(80))).length, 60, 'counted in characters, never splitting one');
    assert.equal(questionHeader(3, 'Spell cat'), 'Q3 · Spell cat');
    assert.equal(questionHeader(1, '   '), 'Q1');
  });

  it('heads the fixed columns, then one column per question in the version’s order', () => {
    assert.deepEqual(headerRow(QUESTIONS), [
      ...FIXED_COLUMNS,
      'Q1 · Capital of France?',
      'Q2 · Primes?',
      'Q3 · Spell cat',
    ]);
    assert.deepEqual(FIXED_COLUMNS, [
      'attempt_id',
      'student_id',
      'student_name',
      'student_email',
      'classes',
      'candidate_number',
      'score',
      'total_marks',
      'percentage',
      'Started (UTC)',
      'Submitted (UTC)',
      'submitted_at',
      'auto_submitted',
      'grading',
      'focus_lost_count',
      'focus_back_count',
      'paste_count',
      'fullscreen_exit_count',
      'offline_count',
      'online_count',
      'reload_count',
      'integrity_events_total',
    ]);
  });
});

describe('questionLabel', () => {
  const cases: Array<[string, { question_text: string; title?: string; text_format?: string }, string]> = [
    ['a plain text as it is', { question_text: 'Is 2 < 3?' }, 'Is 2 < 3?'],
    [
      'HTML made one line of text',
      { question_text: '<p>Testing Iota Question</p>', text_format: 'html' },
      'Testing Iota Question',
    ],
    [
      'entities decoded',
      { question_text: '<p>Zo&euml; &amp; Pe&ntilde;a&nbsp;say &lt;hi&gt;</p>', text_format: 'html' },
      'Zoë & Peña say <hi>',
    ],
    [
      'paragraphs and breaks spaced',
      { question_text: '<p>One</p><p>Two<br>three</p>', text_format: 'html' },
      'One Two three',
    ],
    ['markup in a legacy text without a format read as HTML', { question_text: '<p>Old</p>' }, 'Old'],
    [
      'the title when there is one',
      { question_text: '<p>Long text</p>', title: ' Iota ', text_format: 'html' },
      'Iota',
    ],
  ];
  for (const [name, question, label] of cases) it(name, () => assert.equal(questionLabel(question), label));
  it('heads the column with it', () =>
    assert.deepEqual(
      questionHeaders([{ id: 'q4', question_text: '<p>Testing Iota Question</p>', text_format: 'html' }], 4),
      ['Q4 · Testing Iota Question'],
    ));
});

describe('classesCell', () => {
  it('names the student’s classes of the test’s audience, sorted, or all of them for a test open to everyone', () => {
    const known = new Map([
      ['c1', '9C Maths'],
      ['c2', 'Chess club'],
    ]);
    assert.equal(classesCell(['c2', 'c1'], [], known), '9C Maths; Chess club');
    assert.equal(classesCell(['c2', 'c1'], ['c1'], known), '9C Maths');
    assert.equal(classesCell(['gone'], [], known), '', 'a deleted class names nothing');
    assert.equal(classesCell(undefined, [], known), '');
  });
});

describe('student names', () => {
  it('names a Guest’s attempt by its guest_name and anyone else’s by the profile, empty when neither exists', () => {
    assert.equal(studentNameOf(attempt(), names), 'Ada Lovelace');
    assert.equal(studentNameOf(attempt({ student_id: 'nobody' }), names), '');
    assert.equal(studentNameOf(attempt({ guest: true, guest_name: 'Visitor', student_id: 's1' }), names), 'Visitor');
    assert.equal(studentNameOf(attempt({ guest: true, guest_name: null }), names), '');
  });

  it('reads profiles only for non-guest students, each once', () => {
    const page = [
      attempt({ student_id: 'b' }),
      attempt({ student_id: 'a' }),
      attempt({ student_id: 'b' }),
      attempt({ student_id: 'g', guest: true }),
    ];
    assert.deepEqual(studentsToName(page), ['b', 'a']);
  });
});

describe('resultRow', () => {
  it('holds the student, the attempt’s figures and times in the zone, and each question’s marks awarded, empty when unanswered', () => {
    assert.deepEqual(resultRow(attempt({ class_ids: ['c2', 'c1'] }), QUESTIONS, ctx), [
      'a1',
      's1',
      'Ada Lovelace',
      'ada@school.example',
      '9C Maths; Chess club',
      'C-017',
      3,
      4,
      75,
      ...TIMES.slice(0, 2),
      TIMES[2],
      false,
      null,
      ...[0, 0, 0, 0, 0, 0, 0, 0],
      1,
      2,
      null,
    ]);
  });

  it('counts the attempt’s integrity events per type and in all, beside its score (0 without events)', () => {
    const counts = { focus_lost: 3, focus_back: 2, paste: 1, fullscreen_exit: 0, offline: 1, online: 1, reload: 0 };
    const row = resultRow(attempt(), QUESTIONS, ctx, new Map([['a1', { total: 8, counts }]]));
    const at = FIXED_COLUMNS.indexOf('focus_lost_count');
    assert.deepEqual(row.slice(at, at + 8), [3, 2, 1, 0, 1, 1, 0, 8]);
    assert.equal(row[FIXED_COLUMNS.indexOf('score')], 3);
  });

  it('keeps 0 for an answered wrong question and negative marks as numbers', () => {
    const row = resultRow(
      attempt({
        score: 0,
        results: [
          { question_id: 'q1', answered: true, correct: false, marks_awarded: 0 },
          { question_id: 'q2', answered: true, correct: false, marks_awarded: -0.5 },
          { question_id: 'q3', answered: false, correct: false, marks_awarded: 0 },
        ],
      }),
      QUESTIONS,
      ctx,
    );
    assert.deepEqual(row.slice(FIXED_COLUMNS.length), [0, -0.5, null]);
  });

  it('computes the percentage of an attempt stored before percentage was kept, and follows the version’s questions, not the results’ order', () => {
    const old = attempt({
      percentage: undefined,
      score: 1,
      total_marks: 3,
      results: [...attempt().results!].reverse(),
    });
    const row = resultRow(old, QUESTIONS, ctx);
    assert.equal(row[FIXED_COLUMNS.indexOf('percentage')], 33.3333);
    assert.deepEqual(row.slice(FIXED_COLUMNS.length), [1, 2, null]);
    assert.deepEqual(resultRow(attempt({ results: null }), QUESTIONS, ctx).slice(FIXED_COLUMNS.length), [
      null,
      null,
      null,
    ]);
  });
});

describe('pending essays and pools', () => {
  const ESSAY = [
    { id: 'q1', question_text: 'Capital of France?' },
    { id: 'e1', question_text: 'Explain photosynthesis' },
  ];
  const graded = (marks: number | null): ExportedAttempt =>
    ({
      ...attempt({
        score: 1 + (marks ?? 0),
        total_marks: 11,
        percentage: marks === null ? null : Math.round(((1 + marks) / 11) * 1e6) / 1e4,
        results: [
          { question_id: 'q1', answered: true, correct: true, marks_awarded: 1 },
          {
            question_id: 'e1',
            answered: true,
            correct: false,
            marks_awarded: marks ?? 0,
            ...(marks === null ? { pending: true } : {}),
          },
        ],
      }),
      grading: marks === null ? 'pending' : 'complete',
    }) as ExportedAttempt;
  const at = (name: string) => (FIXED_COLUMNS as readonly string[]).indexOf(name);

  it('says pending in the grading column and awaiting grading in the ungraded essay’s cell, the percentage empty: unlike an essay graded 0', () => {
    assert.notEqual(at('grading'), -1, 'a grading column');
    const pending = resultRow(graded(null), ESSAY, ctx);
    const zero = resultRow(graded(0), ESSAY, ctx);
    assert.deepEqual([pending[at('grading')], pending[at('score')], pending[at('percentage')]], ['pending', 1, null]);
    assert.deepEqual(pending.slice(FIXED_COLUMNS.length), [1, 'awaiting grading']);
    assert.deepEqual([zero[at('grading')], zero[at('percentage')]], ['complete', 9.0909]);
    assert.deepEqual(zero.slice(FIXED_COLUMNS.length), [1, 0]);
    assert.equal(resultRow(attempt(), QUESTIONS, ctx)[at('grading')], null, 'an attempt without essays: empty');
  });

  it('says not drawn for every question the attempt did not draw, apart from one drawn and left unanswered (empty)', () => {
    const universe = [
      { id: 'f1', question_text: 'Fixed' },
      ...['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, question_text: id })),
    ];
    const drew = attempt({
      score: 3,
      results: [
        { question_id: 'f1', answered: true, correct: true, marks_awarded: 2 },
        { question_id: 'p3', answered: true, correct: true, marks_awarded: 1 },
        { question_id: 'p1', answered: false, correct: false, marks_awarded: 0 },
      ],
    });
    const cells = resultRow(drew, universe, ctx).slice(FIXED_COLUMNS.length);
    assert.deepEqual(cells, [2, null, 'not drawn', 1, 'not drawn']);
    assert.deepEqual(headerRow(universe).slice(FIXED_COLUMNS.length), [
      'Q1 · Fixed',
      'Q2 · p1',
      'Q3 · p2',
      'Q4 · p3',
      'Q5 · p4',
    ]);
  });

  it('a Guest: its name, and no email, class nor candidate number', () => {
    const row = resultRow(attempt({ guest: true, guest_name: 'Zoë', class_ids: ['c1'] }), QUESTIONS, ctx);
    assert.deepEqual(row.slice(2, 6), ['Zoë', '', '', '']);
  });
});

describe('toCsv', () => {
  it('writes a header and rows that parse back to the same cells, booleans as true/false, records ended by CRLF', async () => {
    const text = await toCsv([
      headerRow(QUESTIONS, 'Europe/Paris'),
      resultRow(attempt(), QUESTIONS, ctx),
      resultRow(attempt({ auto_submitted: true }), QUESTIONS, ctx),
    ]);
    assert.ok(!text.startsWith(CSV_BOM), 'the export writes the BOM once, before the header');
    assert.ok(text.endsWith('\r\n'));
    assert.equal(text.split('\r\n').length, 4, 'three records, each ended by CRLF');
    assert.deepEqual(parsed(text), [
      headerRow(QUESTIONS, 'Europe/Paris'),
      ['a1', 's1', ...ADA, '3', '4', '75', ...TIMES, 'false', '', ...Array<string>(8).fill('0'), '1', '2', ''],
      ['a1', 's1', ...ADA, '3', '4', '75', ...TIMES, 'true', '', ...Array<string>(8).fill('0'), '1', '2', ''],
    ]);
    assert.equal(await toCsv([]), '');
  });

  it('prefixes a quote to a text beginning with =, +, -, @, tab or carriage return, and only to text', async () => {
    const dangerous = ['=HYPERLINK("http://x")', '+1+2', '-2+3', '@SUM(A1)', '\tTab', '\rReturn', '＝1+1'];
    const rows = dangerous.map((name) =>
      resultRow(attempt({ guest: true, guest_name: name, score: 0 }), QUESTIONS, ctx),
    );
    const cells = parsed(await toCsv(rows)).map((row) => row[2]);
    assert.deepEqual(
      cells,
      dangerous.map((name) => `'${name}`),
    );
    const negative = parsed(
      await toCsv([
        resultRow(
          attempt({ results: [{ question_id: 'q1', answered: true, correct: false, marks_awarded: -0.25 }] }),
          QUESTIONS,
          ctx,
        ),
      ]),
    );
    assert.equal(negative[0][FIXED_COLUMNS.length], '-0.25', 'a negative mark stays a number');
    const harmless = parsed(
      await toCsv([resultRow(attempt({ guest: true, guest_name: 'Ann = Bob, "the" 2nd\nline\r' }), QUESTIONS, ctx)]),
    );
    assert.equal(harmless.length, 1, 'line breaks inside a cell are quoted, never a new row');
    assert.equal(harmless[0][2], 'Ann = Bob, "the" 2nd\nline\r');
  });
});
