import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseGift } from '../../../functions/src/questionTypes/bankFormats';
import type { ParsedItem } from '../../../functions/src/interchange/model';

// Pure: GIFT text → ParsedBank, no emulator needed.

const repoRoot = path.join(__dirname, '..', '..', '..');
const ownFixtures = path.join(repoRoot, 'test', 'fixtures', 'interchange', 'gift');
const interop = process.env.INTEROP_FIXTURES ?? path.resolve(repoRoot, '../shared/fixtures/interop');

const own = (name: string) => parseGift(readFileSync(path.join(ownFixtures, name), 'utf8')).items;
const byTitle = (items: ParsedItem[], title: string): ParsedItem => {
  const found = items.filter((i) => i.title === title);
  assert.equal(found.length, 1, `one question titled ${title}`);
  return found[0];
};
const ok = (item: ParsedItem) => {
  assert.equal(item.status, 'ok', `${item.title ?? item.line}: ${item.message}`);
  return item.question!;
};

describe('parseGift', () => {
  it('reads each GIFT kind and starts each question on its own line', () => {
    const items = own('types.gift');
    assert.deepEqual(
      items.map((i) => [i.line, i.title, i.source_type, i.status]),
      [
        [4, 'Diary', 'Essay', 'ok'],
        [7, 'Rivers', 'Matching', 'ok'],
        [16, 'Planet', 'MC', 'ok'],
        [24, 'Primes', 'MC', 'ok'],
        [33, 'Dice', 'Numerical', 'ok'],
        [36, 'Pet', 'Short', 'ok'],
        [43, 'Sky', 'TF', 'ok'],
        [48, 'Dup title', 'TF', 'ok'],
        [50, 'Dup title', 'TF', 'ok'],
      ],
    );
    assert.deepEqual(ok(items[1]), {
      question_type: 'matching',
      title: 'Rivers',
      question_text: 'Pair each <i>river</i> with its country.',
      text_format: 'html',
      marks: 1,
      difficulty: 'medium',
      // Each stem in its own format as text; "= -> Amazon", without a stem, a distractor.
      stems: [
        'The longest river in France.',
        'It flows through Cairo.',
        'It crosses Vienna.',
        'It runs through London.',
      ],
      options: ['Loire', 'Nile', 'Danube', 'Thames', 'Amazon'],
      matches: ['Loire', 'Nile', 'Danube', 'Thames'],
    });
    assert.deepEqual(items[1].warnings, ['Stem 4 is written in Markdown: carried as plain text']);
    assert.deepEqual(ok(items[0]), {
      question_type: 'essay',
      question_text: 'Describe your weekend.',
      text_format: 'plain',
      title: 'Diary',
      marks: 1,
      difficulty: 'medium',
    });
  });

  it('reads one "=" as multiple choice with each answer’s feedback, in the question’s format', () => {
    const q = ok(byTitle(own('types.gift'), 'Planet'));
    assert.equal(q.question_type, 'multiple_choice');
    assert.deepEqual(q.options, ['Mercury', 'Venus', 'Earth']);
    assert.equal(q.correct_answer, 'Mercury');
    // The question is plain, so the [html] feedback loses its markup, with a warning.
    assert.deepEqual(q.option_feedback, ['yes, well done', 'no, it is the second', 'no, we live on the third']);
    assert.deepEqual(byTitle(own('types.gift'), 'Planet').warnings, [
      'The feedback of option 2: HTML markup removed (the question is plain text)',
    ]);
  });

  it('reads weights without "=" as multiple select with option credits from -100 to 100', () => {
    const q = ok(byTitle(own('types.gift'), 'Primes'));
    assert.equal(q.question_type, 'multiple_select');
    assert.deepEqual(q.options, ['two', 'four', 'three', 'nine']);
    assert.equal(q.correct_answer, 'two|three');
    assert.deepEqual(q.option_credits, [50, -100, 50, -100]);
    assert.deepEqual(q.option_feedback, ['right', 'four is 2 × 2', 'right', 'nine is 3 × 3']);
  });

  it('rounds weights of a third to hundredths that add up to 100, and says so', () => {
    const [item] = own('weights.gift');
    const q = ok(item);
    assert.equal(q.question_text, 'Which of these are primary colours of light:');
    assert.deepEqual(q.option_credits, [33.34, 33.33, -100, 33.33, -100]);
    assert.equal(q.correct_answer, 'Red|Green|Blue');
    assert.equal(item.warnings.length, 1);
    assert.match(item.warnings[0], /rounded/);
  });

  it('keeps text after the answer block as Moodle does, with the blank in its place and a warning', () => {
    const items = own('types.gift');
    const dice = byTitle(items, 'Dice');
    const q = ok(dice);
    assert.equal(q.question_text, 'Roll a number from 2 to 6. _____";');
    assert.equal(q.correct_answer, '4');
    assert.equal(q.tolerance, 2);
    assert.ok(dice.warnings.some((w) => /missing-word/.test(w)));
    assert.ok(dice.warnings.some((w) => w.includes('"Not on a die"') && /not carried/.test(w)));
    assert.equal(ok(byTitle(items, 'Sky')).question_text, 'The sky is green._____";');
  });

  it('reads short answers with partial credit as alternatives, and drops a 0% "*" catch-all with a warning', () => {
    const pet = byTitle(own('types.gift'), 'Pet');
    const q = ok(pet);
    assert.equal(q.question_type, 'short_answer');
    assert.equal(q.correct_answer, 'Cat');
    assert.deepEqual(q.alternatives, [{ answer: 'Kitten', credit: 50 }]);
    assert.equal(q.case_sensitive, undefined);
    assert.deepEqual(pet.warnings, [
      'Answer "*" (a wildcard worth 0%, there only for its feedback) is not carried',
      'The feedback of "Cat", "Kitten" is not carried: a short answer has no per-answer feedback',
    ]);
  });

  it('reads true/false with the feedback of each choice and the general feedback', () => {
    const items = own('types.gift');
    const sky = ok(byTitle(items, 'Sky'));
    assert.equal(sky.question_type, 'true_false');
    assert.equal(sky.correct_answer, 'False');
    assert.deepEqual(sky.options, ['True', 'False']);
    // The first "#" is for the wrong choice (True here), the second for the right one.
    assert.deepEqual(sky.option_feedback, ['It is blue, not green.', 'Right, it is not green.']);
    assert.equal(sky.feedback, 'Rayleigh scattering makes it blue.');
    const [t, tTrue] = items.filter((i) => i.title === 'Dup title').map(ok);
    assert.equal(t.correct_answer, 'True');
    assert.equal(tTrue.correct_answer, 'True');
    assert.equal(t.option_feedback, undefined);
  });

  it('sets the category of the questions that follow, without Moodle’s $course$ and top, and reads escapes in HTML', () => {
    const items = own('category.gift');
    assert.deepEqual(
      items.map((i) => [i.title, i.status, i.category]),
      [
        ['Capitals', 'ok', ['Sample questions']],
        ['Anthem', 'ok', ['Sample questions']],
        ['Learner', 'ok', ['Sample questions']],
        ['Acronym', 'ok', ['Sample questions']],
        ['Later', 'ok', ['Unit 2: Review/Recap', 'Week 1']],
      ],
    );
    const anthem = ok(items[1]);
    assert.equal(anthem.text_format, 'html');
    assert.equal(
      anthem.question_text,
      '<a href="http://example.org/anthem.mp3">Hear this anthem:</a><br />Which country is it from?',
    );
    assert.equal(anthem.correct_answer, 'France');
    const learner = items[2];
    assert.deepEqual(ok(learner), {
      question_type: 'short_answer',
      question_text: 'Someone who learns is a ...',
      text_format: 'html',
      title: 'Learner',
      correct_answer: 'learner',
      marks: 1,
      difficulty: 'medium',
    });
    assert.deepEqual(learner.warnings, [], 'an empty feedback loses nothing');
    assert.match(ok(items[3]).question_text, /<span style="font-style: italic;">/);
  });

  it('unescapes \\~ \\= \\# \\{ \\} \\: and \\\\, keeps a lone backslash, and reads \\n as a line break', () => {
    const [escapes, slashes] = own('escapes.gift');
    const q = ok(escapes);
    assert.deepEqual(q.options, ['~', '=', '#', '{', '}', ':', '\\']);
    assert.equal(q.correct_answer, '\\');
    assert.equal(q.option_feedback![6], 'Right: a lone \\ is itself,\nbut it escapes the others.');
    assert.equal(q.option_feedback![4], '} must be escaped.');
    assert.equal(ok(slashes).question_text, 'One \\ two \\\\ and\na break');
  });

  it('reads numbers, tolerances and ranges exactly, and several answers as alternatives with credit', () => {
    const items = own('numeric.gift');
    const answers = items.map((i) => {
      const q = i.question;
      return q && [q.correct_answer, q.tolerance];
    });
    assert.deepEqual(answers.slice(0, 7), [
      ['1989', undefined],
      ['-3', undefined],
      ['2.7183', 0.0005],
      ['-2.72', 0.005],
      ['2.7185', 0.0005],
      ['-2.7185', 0.0005],
      ['5', 3],
    ]);
    assert.deepEqual(ok(items[7]).alternatives, [{ answer: '1989', tolerance: 1, credit: 50 }]);
    assert.equal(ok(items[7]).tolerance, 0);
    const continents = byTitle(items, 'Continents');
    const q = ok(continents);
    assert.equal(q.text_format, 'html');
    assert.equal(q.correct_answer, '7');
    assert.deepEqual(q.alternatives, [
      { answer: '6', tolerance: 0, credit: 0 },
      { answer: '5', tolerance: 0, credit: 0 },
    ]);
    assert.match(continents.warnings.join(), /feedback of "6:0", "7:0", "5:0" is not carried/);
  });

  it('makes a numeric answer that is not a number an error on its question, never "accept anything"', () => {
    const item = byTitle(own('numeric.gift'), 'Not a number');
    assert.equal(item.status, 'error');
    assert.equal(item.source_type, 'Numerical');
    assert.match(item.message!, /"many" is not a number/);
    assert.equal(item.question, undefined);
    assert.equal(parseGift('Q {#abc}').items[0].status, 'error');
    assert.equal(parseGift('Q {#3:abc}').items[0].status, 'error');
    assert.equal(parseGift('Q {#5..1}').items[0].status, 'error');
  });

  it('refuses, question by question, what it cannot carry and still reads the rest', () => {
    const items = own('refused.gift');
    assert.deepEqual(
      items.map((i) => [i.line, i.title, i.status]),
      [
        [3, null, 'ok'],
        [5, 'Pipe', 'error'],
        [7, 'Open', 'error'],
        [9, 'Twice', 'error'],
        [11, 'Wild', 'error'],
        [13, 'Short sum', 'error'],
        [15, 'Two rights', 'error'],
        [17, 'Fine', 'ok'],
      ],
    );
    const [, pipe, open, twice, wild, sum, two] = items.map((i) => i.message!);
    assert.equal(items[0].source_type, 'Description');
    assert.equal(items[0].question?.question_type, 'description');
    assert.equal(items[0].question?.marks, 0);
    assert.match(pipe, /"a\|b".*"\|"/);
    assert.match(open, /line 7.*not closed/);
    assert.match(twice, /second answer block/);
    assert.match(wild, /wildcard "\*"/);
    assert.match(sum, /add up to 70%/);
    assert.match(two, /2 answers are marked "="/);
  });

  it('carries [html] and [plain] as they are, [moodle] and [markdown] with a warning naming the format', () => {
    const items = own('formats.gift');
    const formatOf = (title: string) => {
      const item = byTitle(items, title);
      return [ok(item).text_format, ok(item).question_text, item.warnings];
    };
    assert.deepEqual(formatOf('Html'), ['html', '<p>Is <b>this</b> bold?</p>', []]);
    assert.deepEqual(formatOf('Auto'), [
      'html',
      'Is <b>this</b> bold?<br>\nIt is.',
      ["The text is in Moodle's auto-format ([moodle]): carried as html, line breaks as <br>"],
    ]);
    assert.deepEqual(formatOf('Auto plain'), [
      'plain',
      'No tags in this one.',
      ["The text is in Moodle's auto-format ([moodle]): carried as plain text"],
    ]);
    assert.deepEqual(formatOf('Markdown'), [
      'plain',
      'Is **this** bold?',
      ['The text is in Markdown ([markdown]): carried as plain text, its Markdown shown as written'],
    ]);
    assert.deepEqual(formatOf('Plain'), ['plain', 'Is <b>this</b> shown as written?', []]);
    assert.equal(formatOf('Untagged')[0], 'html');
    const options = byTitle(items, 'Options');
    assert.deepEqual(ok(options).options, ['bold & brave', '*calm*', 'plain']);
    assert.deepEqual(options.warnings, [
      'Option 1: HTML markup removed (options are plain text)',
      'Option 2 is written in Markdown: carried as plain text',
    ]);
  });

  it('reads CRLF line endings as LF, skipping comments and blank lines for the line numbers', () => {
    const items = own('crlf.gift');
    assert.deepEqual(
      items.map((i) => [i.line, i.title, i.status]),
      [
        [1, 'Windows', 'ok'],
        [8, 'Next', 'ok'],
      ],
    );
    assert.deepEqual(ok(items[0]).options, ['yes', 'no']);
    assert.deepEqual(parseGift('').items, []);
  });
});

describe('parseGift: the interop fixtures', function () {
  const dir = path.join(interop, 'gift');
  const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  before(function () {
    if (!existsSync(dir)) {
      console.warn(`    skipped: no interop fixtures at ${dir} (set INTEROP_FIXTURES)`);
      this.skip();
    }
  });

  it('moodle__questions.gift.txt: 9 questions, all carried, matching with its distractor', () => {
    const items = parseGift(read('moodle__questions.gift.txt')).items;
    assert.equal(items.length, 9);
    assert.deepEqual(
      items.map((i) => [i.title, i.source_type, i.status, i.question?.question_type]),
      [
        ['Q8', 'Essay', 'ok', 'essay'],
        ['Moodle activities', 'Matching', 'ok', 'matching'],
        ['Q2', 'MC', 'ok', 'multiple_choice'],
        ['colours', 'MC', 'ok', 'multiple_select'],
        ['Q5', 'Numerical', 'ok', 'numeric'],
        ['Shortanswer', 'Short', 'ok', 'short_answer'],
        ['Q1', 'TF', 'ok', 'true_false'],
        ['2-08 TSL', 'TF', 'ok', 'true_false'],
        ['2-08 TSL', 'TF', 'ok', 'true_false'],
      ],
    );
    const [, activities, q2, colours, q5, short, q1, t, tTrue] = items.map((i) => i.question);
    assert.deepEqual(activities!.options, ['Forum', 'Choice', 'Database', 'Wiki', 'Chat']);
    assert.deepEqual(activities!.matches, ['Forum', 'Choice', 'Database', 'Wiki']);
    assert.deepEqual(q2!.option_feedback, ['right; good!', "wrong, it's yellow", "wrong, it's yellow"]);
    assert.deepEqual(colours!.option_credits, [50, -100, 50, -100]);
    assert.equal(colours!.correct_answer, 'yellow|off-beige');
    assert.deepEqual([q5!.correct_answer, q5!.tolerance], ['3', 2]);
    // The stray `";` after the closing brace stays question text, as in Moodle.
    assert.equal(q5!.question_text, 'What is a number from 1 to 5? _____";');
    assert.equal(q1!.question_text, '42 is the Absolute Answer to everything._____";');
    assert.deepEqual(short!.alternatives, [{ answer: 'Cat', credit: 50 }]);
    assert.ok(items[5].warnings.some((w) => w.includes('"*"')));
    assert.equal(q1!.correct_answer, 'False');
    assert.deepEqual(q1!.option_feedback, ['42 is the Ultimate Answer.', 'You gave the right answer.']);
    assert.equal(q1!.feedback, "This is, of course, a Hitchiker's Guide to the Galaxy reference.");
    assert.equal(t!.correct_answer, 'True');
    assert.equal(tTrue!.correct_answer, 'True');
  });

  it('moodle__examples.gift.txt: all 43 questions import, the 3 matching ones with their pairs', () => {
    const items = parseGift(read('moodle__examples.gift.txt')).items;
    assert.equal(items.length, 43);
    assert.deepEqual(
      items.filter((i) => i.status !== 'ok').map((i) => [i.line, i.message]),
      [],
    );
    const count = (type: string) => items.filter((i) => i.question!.question_type === type).length;
    assert.deepEqual(
      ['multiple_choice', 'multiple_select', 'short_answer', 'numeric', 'true_false', 'matching'].map(count),
      [16, 2, 9, 8, 5, 3],
    );
    const matching = items.filter((i) => i.question!.question_type === 'matching').map((i) => i.question!);
    assert.deepEqual(
      matching.map((q) => [q.stems, q.matches]),
      [
        [
          ['subquestion1', 'subquestion2', 'subquestion3'],
          ['subanswer1', 'subanswer2', 'subanswer3'],
        ],
        [
          ['Canada', 'Italy', 'Japan', 'India'],
          ['Ottawa', 'Rome', 'Tokyo', 'New Delhi'],
        ],
        [
          ['Canada', 'Italy', 'Japan'],
          ['Ottawa', 'Rome', 'Tokyo'],
        ],
      ],
    );
    for (const q of matching) assert.deepEqual(q.options, q.matches);
  });

  it('moodle__questions_in_category.gift.txt: 4 questions in "Default for New Features", matching carried', () => {
    const items = parseGift(read('moodle__questions_in_category.gift.txt')).items;
    assert.deepEqual(
      items.map((i) => [i.title, i.status, i.category]),
      [
        ['Moodle activities', 'ok', ['Default for New Features']],
        ['Greeting', 'ok', ['Default for New Features']],
        ['Moodle user', 'ok', ['Default for New Features']],
        ['Moodle acronym', 'ok', ['Default for New Features']],
      ],
    );
    assert.match(
      items[1].question!.question_text,
      /^<a href="http:\/\/demo\.moodle\.net\/file\.php\/5\/media\/bonjour\.mp3">Listen to this greeting:<\/a>/,
    );
    assert.equal(items[1].question!.correct_answer, 'French');
    assert.equal(items[2].question!.correct_answer, 'Moodler');
    assert.deepEqual(items[2].warnings, []);
    assert.equal(items[3].question!.correct_answer, 'True');
  });

  it('giftpegjs__escapeAll.gift: the escaped control characters and a lone backslash, as gift-pegjs expects', () => {
    const [item] = parseGift(read('giftpegjs__escapeAll.gift')).items;
    const expected = JSON.parse(read('giftpegjs__escapeAll.expected.json'))[0];
    const q = ok(item);
    assert.equal(item.title, expected.title);
    assert.equal(q.question_text, expected.stem.text);
    assert.deepEqual(
      q.options,
      expected.choices.map((c: { text: { text: string } }) => c.text.text),
    );
    assert.equal(q.correct_answer, '\\');
    // Moodle keeps the feedback's line break where gift-pegjs joins the lines with a space.
    assert.deepEqual(
      q.option_feedback!.map((f) => f.replace(/\n/g, ' ')),
      expected.choices.map((c: { feedback: { text: string } }) => c.feedback.text),
    );
  });

  it('giftpegjs__numerical1.gift: numbers, tolerances, ranges by their midpoint, and partial credit', () => {
    const items = parseGift(read('giftpegjs__numerical1.gift')).items;
    const expected = JSON.parse(read('giftpegjs__numerical1.expected.json'));
    assert.equal(items.length, expected.length);
    assert.deepEqual(
      items.map((i) => [ok(i).correct_answer, ok(i).tolerance]),
      [
        ['1822', undefined],
        ['-1', undefined],
        ['3.1415', 0.0005],
        ['-3.142', 0.001],
        ['3.1415', 0.0005],
        ['-3.1415', 0.0005],
        ['3', 2],
        ['0', 5],
        ['1822', 0],
        ['9', 0],
      ],
    );
    assert.deepEqual(items[8].question!.alternatives, [{ answer: '1822', tolerance: 2, credit: 50 }]);
    assert.equal(items[9].title, expected[9].title);
    assert.equal(items[9].question!.question_text, expected[9].stem.text);
    assert.equal(items[9].question!.text_format, 'html');
    assert.deepEqual(items[9].question!.alternatives, [
      { answer: '5', tolerance: 0, credit: 0 },
      { answer: '23', tolerance: 0, credit: 0 },
    ]);
    // The blank of the missing-word form, where gift-pegjs has it.
    items.forEach((item, i) =>
      assert.equal(item.question!.question_text.includes('_____'), expected[i].hasEmbeddedAnswers),
    );
  });

  it('giftpegjs__multipleAnswersFloat.gift: three weights of 33.33333% still reach 100%', () => {
    const [item] = parseGift(read('giftpegjs__multipleAnswersFloat.gift')).items;
    const q = ok(item);
    assert.equal(q.question_type, 'multiple_select');
    assert.equal(q.correct_answer, 'Africa|Asia|Antarctica');
    const positives = q.option_credits!.filter((c) => c > 0);
    assert.equal(Math.round(positives.reduce((s, c) => s + c, 0) * 100), 10_000);
    assert.deepEqual(
      q.option_credits!.filter((c) => c < 0),
      [-100, -100],
    );
    assert.match(item.warnings.join(), /rounded/);
  });

  it('giftpegjs__categorySpecialCharacter.gift: a category name with ":" names the folder of the next question', () => {
    const items = parseGift(`${read('giftpegjs__categorySpecialCharacter.gift')}\n\nNext {T}`).items;
    assert.deepEqual(
      items.map((i) => i.category),
      [['Default for Unit 1: Topic']],
    );
  });

  it('giftpegjs__mcHTMLComment.gift: [moodle] answers as plain options, HTML general feedback with its escapes', () => {
    const [item] = parseGift(read('giftpegjs__mcHTMLComment.gift')).items;
    const q = ok(item);
    assert.equal(q.text_format, 'html');
    assert.match(q.question_text, /¿En qué supuestos podría/);
    assert.equal(q.options!.length, 3);
    assert.equal(q.correct_answer, 'Nunca.');
    assert.match(q.feedback!, /^<p><span style="color: #ff6600;"><strong>Artículo 5/);
    assert.match(q.feedback!, /<\/p>\n<p><em>/, 'a literal \\n is a line break');
    assert.match(q.feedback!, /href="http:\/\/www\.formacioncnp\.es/);
    assert.deepEqual(item.warnings, []);
  });

  it('giftpegjs__totara_moodle_backslash.gift: \\\\ becomes \\', () => {
    const [item] = parseGift(read('giftpegjs__totara_moodle_backslash.gift')).items;
    // The file holds 4 and 8 backslashes (the PHP test's source, copied as it is).
    assert.equal(ok(item).question_text, 'A \\\\ B \\\\\\\\ C');
    assert.equal(item.title, 'double backslash');
  });

  it('reads every GIFT file of the folder but the windows-1252 one (the decoder refuses that one)', () => {
    const files = readdirSync(dir).filter((f) => !f.endsWith('.json') && !f.includes('windows-1252'));
    assert.equal(files.length, 9);
    for (const file of files) assert.doesNotThrow(() => parseGift(read(file)), file);
  });

  it('giftpegjs__categorySpecialCharacter.gift: a category alone, with a colon in its name, is no question and no error', () => {
    assert.deepEqual(parseGift(read('giftpegjs__categorySpecialCharacter.gift')).items, []);
  });
});

describe('parseGift: our export’s tags', () => {
  it('reads difficulty, marks, max_words and case_sensitive tags from the comment lines before a question', () => {
    const [essay, short] = parseGift(
      [
        '// [tag:difficulty:hard] [tag:marks:2.5] [tag:max_words:250]',
        'Describe a lens.{}',
        '',
        '// [tag:difficulty:easy] [tag:case_sensitive]',
        'The symbol of iron?{=Fe}',
      ].join('\n'),
    ).items;
    assert.deepEqual(essay.warnings, []);
    assert.deepEqual([ok(essay).difficulty, ok(essay).marks, ok(essay).max_words], ['hard', 2.5, 250]);
    assert.deepEqual([ok(short).difficulty, ok(short).case_sensitive], ['easy', true]);
  });

  it('reads a multiple_select tagged all_or_nothing with the stand-in weights as one without option_credits', () => {
    const [tagged, changed] = parseGift(
      [
        '// [tag:all_or_nothing]',
        'Vowels?{~%50%a ~%-100%b ~%50%e}',
        '',
        '// [tag:all_or_nothing]',
        'Vowels?{~%60%a ~%-100%b ~%40%e}',
      ].join('\n'),
    ).items;
    assert.equal(ok(tagged).correct_answer, 'a|e');
    assert.equal(ok(tagged).option_credits, undefined);
    assert.deepEqual(tagged.warnings, []);
    assert.deepEqual(ok(changed).option_credits, [60, -100, 40]);
    assert.ok(changed.warnings.some((w) => /all_or_nothing tag was ignored/.test(w)));
  });

  it('names tags of no convention of ours as not carried, and reads \\* in a short answer as a literal star', () => {
    const [item] = parseGift('// [tag:chapter 3]\nWhat is 2\\\\*3 written with a star?{=2\\\\*3}').items;
    assert.equal(ok(item).correct_answer, '2*3');
    assert.deepEqual(item.warnings, ['Not carried: tags (chapter 3)']);
  });
});
