import assert from 'node:assert/strict';
import { QuestionInput } from '../../../functions/src/questionTypes';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BankFileRefused, type ParsedBank, type ParsedItem } from '../../../functions/src/interchange/model';
import { parseMoodleXml } from '../../../functions/src/questionTypes/bankFormats';
import { importEntries } from '../../../functions/src/questions/bankEntries';

// Pure: a Moodle XML file → drafts, per-question report and media; no emulator needed.

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const ownFixture = (name: string): ParsedBank =>
  parseMoodleXml(readFileSync(path.join(repoRoot, 'test/fixtures/interchange/moodle-xml', name), 'utf8'));
const byTitle = (bank: ParsedBank, title: string): ParsedItem => {
  const item = bank.items.find((i) => i.title === title);
  assert.ok(item, `no item titled ${title}`);
  return item;
};
const PNG = [0x89, 0x50, 0x4e, 0x47];
const startsWith = (bytes: Uint8Array | undefined, prefix: number[]): boolean =>
  bytes !== undefined && prefix.every((b, i) => bytes[i] === b);
const notCarried = (item: ParsedItem): string => item.warnings.find((w) => w.startsWith('Not carried: ')) ?? '';

describe('moodleXml.parseMoodleXml: choice questions', () => {
  const bank = ownFixture('choices.xml');

  it('reports one item per question, not per category, with its path among all <question> elements', () => {
    assert.equal(bank.format, 'moodle_xml');
    assert.deepEqual(
      bank.items.map((i) => [i.path, i.status]),
      [
        ['question[2]', 'ok'],
        ['question[3]', 'ok'],
        ['question[4]', 'error'],
        ['question[5]', 'error'],
        ['question[6]', 'error'],
        ['question[7]', 'error'],
        ['question[8]', 'error'],
      ],
    );
  });

  it('takes the category path without its context and top, and ignores the category description', () => {
    for (const item of bank.items) assert.deepEqual(item.category, ['Science', 'Chemistry']);
  });

  it('reads single=true as multiple_choice: options as HTML where they say more than text, the 100% answer correct, feedback per option', () => {
    const item = byTitle(bank, 'Water formula');
    assert.equal(item.source_type, 'multichoice');
    assert.deepEqual(item.question, {
      question_type: 'multiple_choice',
      title: 'Water formula',
      options: ['H<sub>2</sub>O', 'HO &amp; H', '<img src="@@PLUGINFILE@@/blue.png" alt=""> CO<sub>2</sub>'],
      correct_answer: 'H<sub>2</sub>O',
      question_text:
        '<p>Which formula names the molecule shown? <img src="@@PLUGINFILE@@/red_dot.png" alt="a red dot"></p>',
      text_format: 'html',
      marks: 2,
      difficulty: 'medium',
      feedback: '<p>Two hydrogen atoms, one oxygen atom.</p>',
      option_feedback: ['Yes: two hydrogen, one oxygen.', '', 'That one is carbon dioxide.'],
    });
  });

  it('carries the question text image and an option image as media under their URL-decoded names made safe', () => {
    const item = byTitle(bank, 'Water formula');
    assert.deepEqual([...bank.media.keys()], ['blue.png', 'red_dot.png']);
    assert.ok(startsWith(bank.media.get('red_dot.png')?.bytes, PNG));
    assert.ok(!item.warnings.some((w) => w.startsWith('Option ')));
  });

  it('warns that partial credit cannot be given in a single-answer question', () => {
    assert.ok(
      byTitle(bank, 'Water formula').warnings.includes(
        'A single-answer question here gives full marks or none: options with other grades (option 2: 50%) score 0',
      ),
    );
  });

  it('names every Moodle setting it leaves behind in one warning', () => {
    assert.equal(
      notCarried(byTitle(bank, 'Water formula')),
      'Not carried: shuffleanswers off (options are always shuffled here); answer numbering "ABCD"; the standard instruction; ' +
        'feedback for correct, incorrect responses; penalty for retries 0.3333333; idnumber "chem-01"; tags (molecules, easy); 1 hint',
    );
  });

  it('reads single=false as multiple_select with option_credits from the fractions, plain text kept plain', () => {
    const item = byTitle(bank, 'Noble gases');
    assert.deepEqual(item.warnings, []);
    assert.deepEqual(item.question, {
      question_type: 'multiple_select',
      title: 'Noble gases',
      options: ['Neon', 'Argon', 'Oxygen'],
      correct_answer: 'Neon|Argon',
      option_credits: [50, 50, -100],
      question_text: 'Pick every noble gas.',
      text_format: 'plain',
      marks: 3,
      difficulty: 'medium',
      option_feedback: ['', '', 'Oxygen reacts readily.'],
    });
  });

  it('makes a grade outside Moodle’s list an error on that question only, in Moodle’s words', () => {
    const item = byTitle(bank, 'A grade Moodle refuses');
    assert.equal(item.status, 'error');
    assert.equal(item.question, undefined);
    assert.match(item.message!, /^"A grade Moodle refuses": Grades \(0\.45, 0\.55\) do not match grade options/);
  });

  it('refuses an option containing "|", a reference to a file not carried, positive grades not adding up to 100%, two 100% answers', () => {
    assert.equal(
      byTitle(bank, 'Pipe in an option').message,
      '"Pipe in an option": Option 1 ("a | b") contains "|", which an option cannot',
    );
    assert.equal(
      byTitle(bank, 'Missing picture').message,
      '"Missing picture": It refers to absent.png, which the file does not carry',
    );
    assert.match(byTitle(bank, 'Positive grades short of 100').message!, /add up to 75%, not 100%/);
    assert.match(byTitle(bank, 'Two right answers').message!, /2 answers are worth 100%/);
  });
});

describe('moodleXml.parseMoodleXml: true/false', () => {
  const bank = ownFixture('truefalse.xml');

  it('reads the category path with a doubled slash as a literal one', () => {
    assert.deepEqual(bank.items[0].category, ['Input/Output', 'Basics']);
  });

  it('takes the answer worth 100% as correct and the answers’ feedback as [True, False] option feedback with its media', () => {
    const keyboards = byTitle(bank, 'Keyboards');
    assert.deepEqual(keyboards.question, {
      question_type: 'true_false',
      title: 'Keyboards',
      options: ['True', 'False'],
      correct_answer: 'True',
      question_text: '<p>A keyboard is an input device.</p>',
      text_format: 'html',
      marks: 1,
      difficulty: 'medium',
      option_feedback: ['<p><img src="@@PLUGINFILE@@/green.png" alt="tick"> Yes.</p>', 'It is: you type on it.'],
    });
    assert.deepEqual([...bank.media.keys()], ['green.png']);
    assert.equal(byTitle(bank, 'Printers').question?.correct_answer, 'False');
  });

  it('warns when a missing defaultgrade becomes 1 mark', () => {
    assert.ok(byTitle(bank, 'Printers').warnings.includes('No defaultgrade: marks 1'));
  });

  it('reads answers not named true/false by position, as Moodle does, with a warning', () => {
    const item = byTitle(bank, 'Old spelling');
    assert.equal(item.question?.correct_answer, 'True');
    assert.match(item.warnings[0], /first was taken as true/);
  });

  it('makes contradictory grades an error', () => {
    assert.equal(byTitle(bank, 'Both right').status, 'error');
  });
});

describe('moodleXml.parseMoodleXml: short answer, numerical, essay', () => {
  const bank = ownFixture('answers.xml');

  it('reads usecase 1 as case_sensitive, other credited answers as alternatives, and warns of what scores 0', () => {
    const item = byTitle(bank, 'Capital of Peru');
    assert.deepEqual(item.question, {
      question_type: 'short_answer',
      title: 'Capital of Peru',
      correct_answer: 'Lima',
      case_sensitive: true,
      alternatives: [{ answer: 'Ciudad de los Reyes', credit: 83.33333 }],
      question_text: 'Which city is the capital of Peru?',
      text_format: 'html',
      marks: 1,
      difficulty: 'medium',
    });
    assert.deepEqual(item.warnings, [
      'Answer "Cusco" (-50%) cannot take marks away here: it scores 0',
      'Feedback for the answers "*" is not carried (no per-answer feedback here)',
    ]);
  });

  it('reads an escaped \\* as a literal star, and refuses a credited answer with Moodle’s * wildcard', () => {
    assert.equal(byTitle(bank, 'A literal star').question?.correct_answer, '*');
    assert.equal(byTitle(bank, 'A literal star').question?.case_sensitive, false);
    const wildcard = byTitle(bank, 'Wildcard answer');
    assert.equal(wildcard.status, 'error');
    assert.match(wildcard.message!, /"\*een" \(100%\) uses Moodle's \* wildcard/);
  });

  it('reads a numerical answer with its tolerance, other answers as alternatives with theirs, and warns of units', () => {
    const item = byTitle(bank, 'Half of five');
    assert.deepEqual(item.question, {
      question_type: 'numeric',
      title: 'Half of five',
      correct_answer: '2.5',
      tolerance: 0.1,
      alternatives: [{ answer: '2', credit: 50, tolerance: 0.5 }],
      question_text: 'What is half of five?',
      text_format: 'html',
      marks: 4,
      difficulty: 'medium',
      feedback: 'Five divided by two.',
    });
    assert.deepEqual(item.warnings, [
      'Its units (m, cm) are not carried: answers are plain numbers here',
      'Not carried: 2 hints',
    ]);
  });

  it('makes a numerical answer that is not a number an error', () => {
    assert.equal(byTitle(bank, 'Not a number').message, '"Not a number": Answer "twelve" is not a number');
  });

  it('reads an essay’s maxwordlimit as max_words, its attachments, markdown as plain text, and warns of what essays here lack', () => {
    const item = byTitle(bank, 'Seasons');
    assert.deepEqual(item.question, {
      question_type: 'essay',
      title: 'Seasons',
      max_words: 300,
      attachments: 2,
      attachments_required: 1,
      question_text: 'Explain *why* there are seasons.',
      text_format: 'plain',
      marks: 10,
      difficulty: 'medium',
      feedback: 'Tilt <not> distance.',
    });
    assert.deepEqual(item.warnings, [
      'Its attachments may be any type of file in Moodle; here they are PDF, PNG or JPEG only',
      'Its information for graders is not carried (feedback is shown to students, so it is not put there)',
      'Text in markdown format was carried as plain text, not rendered',
      'Not carried: a minimum of 50 words; response template',
    ]);
  });

  it('reads Moodle’s auto-format as HTML with its line breaks, plain parts of an HTML question escaped, and defaultgrade 0 as 1 mark', () => {
    const item = byTitle(bank, 'Weather diary');
    assert.equal(item.question?.question_text, "Describe today's weather.<br />\nMention the wind.");
    assert.equal(item.question?.text_format, 'html');
    assert.equal(item.question?.feedback, '<b>Any</b> honest answer.');
    assert.equal(item.question?.marks, 1);
    assert.ok(item.warnings.includes('defaultgrade 0 is not a positive number of marks: marks 1'));
    assert.equal(item.category, null);
  });
});

describe('moodleXml.parseMoodleXml: an essay’s attachments', () => {
  const essayWith = (fields: string) =>
    parseMoodleXml(
      `<quiz><question type="essay"><name><text>Upload</text></name><questiontext format="plain_text"><text>Show your work</text></questiontext>` +
        `<defaultgrade>2</defaultgrade><responseformat>plain</responseformat>${fields}</question></quiz>`,
    ).items[0];
  const cases: Array<[title: string, fields: string, question: Record<string, number>, warnings: string[]]> = [
    ['none', '<attachments>0</attachments>', {}, []],
    [
      '2, 1 required, of our types',
      '<attachments>2</attachments><attachmentsrequired>1</attachmentsrequired><filetypeslist>.pdf,.png,.jpg,.jpeg</filetypeslist>',
      { attachments: 2, attachments_required: 1 },
      [],
    ],
    [
      'any number (-1): our 5',
      '<attachments>-1</attachments><filetypeslist>.pdf</filetypeslist>',
      { attachments: 5 },
      ['It takes any number of attachments; 5, the most an essay takes here, were carried'],
    ],
    [
      '7: our 5, and 6 required: 5',
      '<attachments>7</attachments><attachmentsrequired>6</attachmentsrequired><filetypeslist>.png</filetypeslist>',
      { attachments: 5, attachments_required: 5 },
      ['It takes 7 attachments; 5, the most an essay takes here, were carried'],
    ],
    [
      'file types we do not take',
      '<attachments>1</attachments><filetypeslist>.docx, .pdf, document</filetypeslist>',
      { attachments: 1 },
      ['Its attachments may be .docx, document in Moodle; here they are PDF, PNG or JPEG only'],
    ],
  ];
  for (const [title, fields, question, warnings] of cases)
    it(title, () => {
      const item = essayWith(fields);
      assert.equal(item.status, 'ok', item.message ?? '');
      const { attachments, attachments_required } = item.question!;
      assert.deepEqual(
        Object.fromEntries(Object.entries({ attachments, attachments_required }).filter(([, v]) => v !== undefined)),
        question,
      );
      assert.deepEqual(item.warnings, warnings);
    });
});

describe('moodleXml.parseMoodleXml: types we do not hold', () => {
  const bank = ownFixture('unsupported.xml');

  it('reports each as unsupported by its Moodle name, never as another type (a description, a drag and drop onto image and a calculated multichoice are ones now)', () => {
    assert.deepEqual(
      bank.items.map((i) => [i.source_type, i.status, i.question?.question_type]),
      [
        ['ddmarker', 'error', undefined],
        ['ddimageortext', 'error', undefined],
        ['calculated', 'error', undefined],
        ['calculatedmulti', 'error', undefined],
        ['description', 'ok', 'description'],
        ['wordselect', 'unsupported', undefined],
        ['(none)', 'error', undefined],
        ['constructor', 'unsupported', undefined],
      ],
    );
    assert.equal(bank.items[1].message, '"Onto image": It has no background image');
    assert.equal(bank.items[4].message, null);
    assert.equal(bank.items[5].message, 'The question type "wordselect" is not one we support: not imported');
    assert.equal(bank.items[6].message, 'This <question> has no type attribute');
  });

  it('reads a random question as the draw it is, noted on the first question of its category (here Moodle’s top)', () => {
    assert.ok(
      bank.items[0].warnings.includes(
        'The category "top" draws 1 of its questions at random (Moodle random questions); all its 8 questions were imported in no folder',
      ),
      bank.items[0].warnings.join('\n'),
    );
  });
});

describe('moodleXml.parseMoodleXml: the types with parts', () => {
  const bank = ownFixture('parts.xml');
  const item = (title: string) => byTitle(bank, title);

  it('reports each by its Moodle type: the ones that map imported, the broken ones errors saying what is wrong', () => {
    assert.deepEqual(
      bank.items.map((i) => [i.title, i.source_type, i.status]),
      [
        ['Sentence', 'gapselect', 'ok'],
        ['Chips', 'ddwtos', 'ok'],
        ['Capitals', 'matching', 'ok'],
        ['No answer', 'matching', 'error'],
        ['Whole order', 'ordering', 'ok'],
        ['Contiguous', 'ordering', 'ok'],
        ['Halves', 'multianswer', 'ok'],
        ['Weightless', 'cloze', 'error'],
        ['Unknown kind', 'cloze', 'error'],
        ['Star', 'cloze', 'error'],
        ['Too far', 'gapselect', 'error'],
        ['Lonely group', 'gapselect', 'error'],
        ['Read this', 'description', 'ok'],
      ],
    );
  });

  it('gapselect: gaps renumbered in text order, each a drop-down of its answer’s group', () => {
    const q = item('Sentence').question!;
    assert.equal(q.question_text, '<p>The [[1]] sat on the [[2]]; the [[3]] sat too.</p>');
    assert.deepEqual(q.gaps, [
      { kind: 'select', answers: [{ answer: 'cat', credit: 100 }], options: ['cat', 'dog'] },
      { kind: 'select', answers: [{ answer: 'mat', credit: 100 }], options: ['mat', 'rug'] },
      { kind: 'select', answers: [{ answer: 'dog', credit: 100 }], options: ['cat', 'dog'] },
    ]);
    assert.equal(q.marks, 3);
    assert.deepEqual(item('Sentence').category, ['Parts']);
  });

  it('ddwtos: drag gaps over all the choices, reusable when one is infinite, groups and partial infinity named', () => {
    const chips = item('Chips');
    assert.deepEqual(chips.question!.gaps, [
      { kind: 'drag', answers: [{ answer: 'Cherry', credit: 100 }] },
      { kind: 'drag', answers: [{ answer: 'Banana', credit: 100 }] },
      { kind: 'drag', answers: [{ answer: 'Cherry', credit: 100 }] },
    ]);
    assert.deepEqual(chips.question!.drag_options, ['Banana', 'Cherry', 'Plum']);
    assert.equal(chips.question!.drag_reusable, true);
    assert.deepEqual(chips.warnings, [
      "The choices' groups are not carried: here any chip may be dropped into any gap",
      '1 of the 3 choices may be used more than once in Moodle; here every chip may',
    ]);
  });

  it('matching: HTML stems as HTML where they say more than text, the answer of a text-less subquestion a distractor; a stem without an answer an error', () => {
    const q = item('Capitals').question!;
    assert.deepEqual(
      [q.stems, q.options, q.matches],
      [
        ['France &amp; <i>Paris</i>', 'Italy &amp; Paris'],
        ['Yes', 'No', 'Maybe'],
        ['Yes', 'No'],
      ],
    );
    assert.deepEqual(item('Capitals').warnings, []);
    assert.equal(item('No answer').message, '"No answer": Subquestion 1 ("Alone") has no answer');
  });

  it('ordering: items in fraction order; ALL_OR_NOTHING whole, a numbered grading type by its name, a subset shown named', () => {
    assert.deepEqual(item('Whole order').question!.options, ['one', 'two', 'three']);
    assert.equal(item('Whole order').question!.ordering_score, 'all_or_nothing');
    assert.deepEqual(item('Whole order').warnings, []);
    const contiguous = item('Contiguous');
    assert.equal(contiguous.question!.ordering_score, 'partial');
    assert.deepEqual(contiguous.warnings, [
      'Moodle shows takers 2 of the items (selecttype RANDOM); here every item is shown',
      "Scored by the longest ordered subset (items in the right relative order, not necessarily adjacent, ÷ items): Moodle's longest contiguous subset counts only items next to each other",
    ]);
  });

  it('cloze in plain text: weights, escapes, a MULTIRESPONSE whose best choice is raised to 100%, a 0% catch-all left out', () => {
    const halves = item('Halves');
    assert.equal(halves.question!.question_text, 'Pick [[1]] and type [[2]] and [[3]].');
    assert.deepEqual(halves.question!.gaps, [
      {
        kind: 'select',
        answers: [
          { answer: 'red', credit: 100 },
          { answer: 'blue', credit: 100 },
        ],
        options: ['red', 'blue', 'green'],
        weight: 2,
      },
      { kind: 'text', answers: [{ answer: 'a}b~c', credit: 100 }] },
      { kind: 'numeric', answers: [{ answer: '2', credit: 100, tolerance: 0.5 }] },
    ]);
    assert.deepEqual(halves.warnings, [
      'Gap 1 (MR): Moodle lets several choices be ticked; here it is a drop-down where one is chosen, each right choice ("red", "blue") accepted, the best (50%) for 100%',
      'Gap 1 (MR): "green" (-50%) cannot take marks away here: they score 0',
      "The answers' feedback of gap 3 is not carried (gaps have no per-answer feedback)",
    ]);
  });

  it('names what is wrong: a weight of 0, a subquestion type cloze has not, a credited wildcard, a gap naming no choice, a group of one', () => {
    assert.deepEqual(
      ['Weightless', 'Unknown kind', 'Star', 'Too far', 'Lonely group'].map((t) => item(t).message),
      [
        '"Weightless": Gap 1 (SA) has weight 0: a gap\'s weight must be more than 0',
        '"Unknown kind": Gap 1 (ESSAY): "ESSAY" is not a subquestion type of Moodle\'s cloze',
        '"Star": Gap 1 (SA): the answer "*" uses Moodle\'s * wildcard, not carried',
        '"Too far": The gap [[3]] names no choice (there are 2)',
        '"Lonely group": Gap 1 ("dog"): its group 2 has one choice, a drop-down needs two',
      ],
    );
  });

  it('imports a description as its text, with no answer and no marks (whatever its defaultgrade)', () => {
    const read = item('Read this');
    assert.equal(read.question?.question_type, 'description');
    assert.equal(read.question?.marks, 0);
    assert.equal(read.question?.correct_answer, undefined);
    assert.ok(!read.warnings.some((w) => /defaultgrade/.test(w)), read.warnings.join('; '));
  });
});

describe('moodleXml.parseMoodleXml: media', () => {
  const bank = ownFixture('media.xml');
  const blue = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC';

  it('appends the old <image>/<image_base64> picture to the text and carries its file', () => {
    const item = byTitle(bank, 'Old picture');
    assert.equal(item.question?.question_text, 'Describe the picture. <img src="@@PLUGINFILE@@/dot.png" />');
    assert.ok(startsWith(bank.media.get('dot.png')?.bytes, PNG));
  });

  it('renames a file whose name is taken by other bytes, shares one with the same bytes, and drops Moodle’s ?time', () => {
    assert.deepEqual([...bank.media.keys()], ['dot.png', 'q2_dot.png']);
    assert.deepEqual(bank.media.get('q2_dot.png')?.bytes, new Uint8Array(Buffer.from(blue, 'base64')));
    assert.equal(
      byTitle(bank, 'Same name, other bytes').question?.question_text,
      '<p><img src="@@PLUGINFILE@@/q2_dot.png"></p>',
    );
    assert.equal(
      byTitle(bank, 'Same name, same bytes').question?.question_text,
      '<p><img src="@@PLUGINFILE@@/q2_dot.png"></p>',
    );
  });

  it('names a carried file nothing refers to, and leaves it out', () => {
    assert.deepEqual(byTitle(bank, 'Same name, other bytes').warnings, [
      'Carries spare.png, which nothing in the question refers to: not imported',
    ]);
    assert.equal(bank.media.has('spare.png'), false);
  });

  it('makes a file that is not base64 an error, and warns of an old <image> the file does not carry', () => {
    assert.equal(byTitle(bank, 'Broken file').message, '"Broken file": The file bad.png is not valid base64');
    assert.match(byTitle(bank, 'Old picture elsewhere').warnings[0], /old <image> http:\/\/example.org\/picture.png/);
  });
});

describe('moodleXml.parseMoodleXml: files refused whole', () => {
  const refused = (xml: string, message: RegExp) =>
    assert.throws(
      () => parseMoodleXml(xml),
      (e: unknown) => e instanceof BankFileRefused && message.test(e.message),
    );

  it('refuses a DOCTYPE with entities that expand without bound (billion laughs)', () => {
    refused(
      '<?xml version="1.0"?>\n<!DOCTYPE quiz [\n <!ENTITY a "aaaaaaaaaa">\n <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n' +
        ' <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n<quiz><question type="essay"><name><text>&c;</text></name></question></quiz>',
      /DOCTYPE or entity declaration is not accepted/,
    );
  });

  it('refuses an external entity', () => {
    refused(
      '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY secret SYSTEM "file:///etc/passwd">]><quiz>&secret;</quiz>',
      /DOCTYPE or entity declaration is not accepted/,
    );
  });

  it('refuses malformed XML and a root other than <quiz>', () => {
    refused('<quiz><question type="essay"></quiz>', /not well-formed XML/);
    refused('<assessmentItem/>', /root element is <assessmentItem>, not <quiz>/);
  });

  it('reads a file with a byte order mark, and decodes character references but not twice', () => {
    const bank = parseMoodleXml(
      '\uFEFF<quiz><question type="essay"><name><text>Caf&#233; &amp;#38;</text></name>' +
        '<questiontext format="plain_text"><text>Why?</text></questiontext><defaultgrade>1</defaultgrade></question></quiz>',
    );
    assert.equal(bank.items[0].title, 'Café &#38;');
    assert.deepEqual(bank.items[0].warnings, []);
  });
});

// Moodle's own test files, read where they are kept (never copied here).
describe('moodleXml.parseMoodleXml on Moodle’s own import fixtures', function () {
  const dir = path.join(
    process.env.INTEROP_FIXTURES ?? path.resolve(repoRoot, '../shared/fixtures/interop'),
    'moodle-xml',
  );
  const moodle = (name: string): ParsedBank => parseMoodleXml(readFileSync(path.join(dir, name), 'utf8'));
  const statuses = (bank: ParsedBank) => bank.items.map((i) => `${i.source_type}:${i.status}`);

  before(function () {
    if (!existsSync(dir)) {
      console.warn(`      (skipped: the interop fixtures are not at ${dir}; set INTEROP_FIXTURES)`);
      this.skip();
    }
  });

  it('covers every file of the folder', () => {
    assert.deepEqual(readdirSync(dir).sort(), [
      'moodle-qtype_ddimageortext__testquestion.moodle.xml',
      'moodle-qtype_ddmarker__testquestion.moodle.xml',
      'moodle-qtype_ordering__testquestion.moodle.xml',
      'moodle__broken_cloze_questions.xml',
      'moodle__error_invalid_grades.xml',
      'moodle__html_chars_in_idnumbers.xml',
      'moodle__multianswer-all-types.xml',
      'moodle__multichoice.xml',
      'moodle__nested_categories_with_questions.xml',
      'moodle__qtype_essay__testquestion.moodle.xml',
      'moodle__qtype_match__testquestion.moodle.xml',
      'moodle__qtype_numerical__testquestion.moodle.xml',
      'moodle__qtype_shortanswer__testquestion.moodle.xml',
      'moodle__sample_questions_with_old_image_tag.xml',
      'moodle__truefalse.xml',
    ]);
  });

  it('multichoice.xml: 1 question, its mp3 and the flags of its options as media, the options images with their text', () => {
    const bank = moodle('moodle__multichoice.xml');
    assert.deepEqual(statuses(bank), ['multichoice:ok']);
    const [item] = bank.items;
    assert.deepEqual(item.category, ['Default for testhead', 'Multichoice']);
    assert.equal(item.question?.question_type, 'multiple_choice');
    const flag = (file: string, alt: string, text: string) =>
      `<img src="@@PLUGINFILE@@/${file}" alt="${alt}" width="30" height="20" /> ${text}`;
    assert.deepEqual(item.question?.options, [
      flag('flag-uk.jpg', 'British Flag', 'English'),
      flag('flag-france.jpg', 'French flag', 'French'),
      flag('flag-german.jpg', 'German flag', 'German'),
      flag('flag-denmark.jpg', 'Denmark flag', 'Danish'),
    ]);
    assert.equal(item.question?.correct_answer, flag('flag-france.jpg', 'French flag', 'French'));
    assert.match(item.question!.question_text, /<a href="@@PLUGINFILE@@\/bonjour\.mp3">/);
    assert.deepEqual(
      [...bank.media.keys()],
      ['flag-uk.jpg', 'flag-france.jpg', 'flag-german.jpg', 'flag-denmark.jpg', 'bonjour.mp3'],
    );
    assert.ok(startsWith(bank.media.get('bonjour.mp3')?.bytes, [0x49, 0x44, 0x33])); // "ID3"
    assert.ok(!item.warnings.some((w) => /^Option \d/.test(w)));
    assert.deepEqual(item.question?.option_feedback, [
      '<p>Sorry, listen again.</p>',
      '<p>Yes, well done!</p>',
      '<p>Sorry, listen again.</p>',
      '<p>Sorry, listen again.</p>',
    ]);
  });

  it('truefalse.xml: 2 questions, the images of text, feedback and answer feedback as 4 shared media files', () => {
    const bank = moodle('moodle__truefalse.xml');
    assert.deepEqual(statuses(bank), ['truefalse:ok', 'truefalse:ok']);
    assert.deepEqual(
      bank.items.map((i) => i.question?.correct_answer),
      ['False', 'True'],
    );
    assert.deepEqual([...bank.media.keys()], ['logo.jpg', 'infos.jpg', 'thumbdown.jpg', 'thumbup.jpg']);
    for (const file of bank.media.values()) assert.ok(startsWith(file.bytes, [0xff, 0xd8, 0xff]), file.name);
    assert.match(bank.items[0].question!.option_feedback![0], /@@PLUGINFILE@@\/thumbdown\.jpg/);
    assert.match(bank.items[0].question!.feedback!, /@@PLUGINFILE@@\/infos\.jpg/);
  });

  it('error_invalid_grades.xml: the question with fraction 33 is an error in Moodle’s words, the file still read', () => {
    const bank = moodle('moodle__error_invalid_grades.xml');
    assert.deepEqual(statuses(bank), ['multichoice:error']);
    assert.match(
      bank.items[0].message!,
      /^"Question with invalid grades : x > 1 & x < 2": Grades \(0\.33\) do not match grade options/,
    );
  });

  it('broken_cloze_questions.xml: each of the 5 cloze questions an error saying what is wrong, the file still read', () => {
    const bank = moodle('moodle__broken_cloze_questions.xml');
    assert.deepEqual(
      bank.items.map((i) => [i.status, i.message]),
      [
        [
          'error',
          '"Multianswer question without subquestions": Its text has no embedded answers ({1:SHORTANSWER:=…}): a cloze question needs at least one',
        ],
        ['error', '"Multichoice subquestion without choices": Gap 1 (MULTICHOICE) has no answers ({1:MULTICHOICE})'],
        [
          'error',
          '"Multichoice subquestion with only one choice": Gap 1 (MULTICHOICE) has only 1 choice: a drop-down needs two',
        ],
        [
          'error',
          '"Multichoice subquestion with no completely correct answer": Gap 1 (MULTICHOICE): no answer is worth 100%',
        ],
        [
          'error',
          '"Numerical subquestion with buggy answer": Gap 1 (NUMERICAL): "zero" is not a number (or a number:tolerance)',
        ],
      ],
    );
  });

  it('nested_categories_with_questions.xml: 5 questions, each in its nested category', () => {
    const bank = moodle('moodle__nested_categories_with_questions.xml');
    assert.deepEqual(statuses(bank), ['truefalse:ok', 'essay:ok', 'truefalse:ok', 'truefalse:ok', 'truefalse:ok']);
    assert.deepEqual(
      bank.items.map((i) => i.category),
      [['Iota'], ['Iota', 'Kappa'], ['Iota', 'Kappa'], ['Iota', 'Kappa', 'Lambda'], ['Iota', 'Mu']],
    );
    assert.ok(
      bank.items[1].warnings.includes("Text in Moodle's auto-format was carried as HTML (its line breaks kept)"),
    );
  });

  it('html_chars_in_idnumbers.xml: 1 question, its idnumber decoded and named as not carried', () => {
    const bank = moodle('moodle__html_chars_in_idnumbers.xml');
    assert.deepEqual(statuses(bank), ['truefalse:ok']);
    assert.deepEqual(bank.items[0].category, ['Alpha']);
    assert.match(notCarried(bank.items[0]), /idnumber "T & F"/);
  });

  it('sample_questions_with_old_image_tag.xml: the cloze as a gap fill, the multichoice with its old image carried', () => {
    const bank = moodle('moodle__sample_questions_with_old_image_tag.xml');
    assert.deepEqual(statuses(bank), ['cloze:ok', 'multichoice:ok']);
    const cloze = bank.items[0].question!;
    assert.equal(cloze.question_type, 'gap_fill');
    assert.deepEqual(
      cloze.gaps!.map((g) => [g.kind, g.answers[0].answer]),
      [
        ['select', 'California'],
        ['select', 'Arizona'],
        ['select', 'California'],
        ['select', 'Arizona'],
        ['text', 'Paris'],
      ],
    );
    assert.match(
      cloze.question_text,
      /The capital of France is \[\[5\]\]\.<br \/> <img src="@@PLUGINFILE@@\/moodle\.png" \/>$/,
    );
    const mcq = bank.items[1].question!;
    assert.match(mcq.question_text, / <img src="@@PLUGINFILE@@\/moodle\.png" \/>$/);
    assert.deepEqual(mcq.options, ['wrong answer', 'another wrong answer', 'right answer']);
    assert.equal(mcq.correct_answer, 'right answer');
    assert.deepEqual([...bank.media.keys()], ['moodle.png']);
    assert.ok(startsWith(bank.media.get('moodle.png')?.bytes, PNG));
  });

  it('qtype_numerical testquestion: 6.25 ± 0.05, its hints named', () => {
    const bank = moodle('moodle__qtype_numerical__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['numerical:ok']);
    assert.equal(bank.items[0].question?.correct_answer, '6.25');
    assert.equal(bank.items[0].question?.tolerance, 0.05);
    assert.equal(bank.items[0].question?.feedback, 'The average is 6.25');
    assert.match(notCarried(bank.items[0]), /2 hints/);
  });

  it('qtype_essay testquestion: max_words 20, the general feedback, the editor format named', () => {
    const bank = moodle('moodle__qtype_essay__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['essay:ok']);
    assert.equal(bank.items[0].question?.max_words, 20);
    assert.equal(bank.items[0].question?.feedback, 'This is general feedback');
    assert.match(notCarried(bank.items[0]), /response format "editor"/);
  });

  it('qtype_shortanswer testquestion: frog, toad at 80%, case-insensitive, the answers’ feedback named', () => {
    const bank = moodle('moodle__qtype_shortanswer__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['shortanswer:ok']);
    const q = bank.items[0].question!;
    assert.equal(q.correct_answer, 'frog');
    assert.equal(q.case_sensitive, false);
    assert.deepEqual(q.alternatives, [{ answer: 'toad', credit: 80 }]);
    assert.match(bank.items[0].warnings.join('\n'), /Feedback for the answers "frog", "toad", "\*" is not carried/);
  });

  it('qtype_match testquestion: 1 matching question, frog/cat/newt, the text-less subquestion’s "insect" a distractor', () => {
    const bank = moodle('moodle__qtype_match__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['matching:ok']);
    const q = bank.items[0].question!;
    assert.equal(q.question_type, 'matching');
    assert.deepEqual(q.stems, ['frog', 'cat', 'newt']);
    assert.deepEqual(q.options, ['amphibian', 'mammal', 'insect']);
    assert.deepEqual(q.matches, ['amphibian', 'mammal', 'amphibian']);
    assert.equal(q.feedback, 'General feedback.');
    // shuffleanswers is ignored without a word: the bank shuffles what it shows.
    assert.ok(!bank.items[0].warnings.some((w) => w.includes('shuffle')));
  });

  it('qtype_ordering testquestion: 1 ordering question, 6 items in fraction order, ABSOLUTE_POSITION scored partial with a warning', () => {
    const bank = moodle('moodle-qtype_ordering__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['ordering:ok']);
    const item = bank.items[0];
    assert.equal(item.title, 'dd-ordering 1');
    assert.deepEqual(item.category, ['Test questions']);
    assert.equal(item.question!.question_text, 'Put these words in order.');
    assert.deepEqual(item.question!.options, ['Modular', 'Object', 'Oriented', 'Dynamic', 'Learning', 'Environment']);
    assert.equal(item.question!.ordering_score, 'partial');
    assert.ok(
      item.warnings.includes(
        "Scored by the longest ordered subset (items in the right relative order, not necessarily adjacent, ÷ items): Moodle's grading type ABSOLUTE_POSITION scores the order its own way",
      ),
    );
    assert.match(notCarried(item), /layout HORIZONTAL.*idnumber "dd1"/);
  });

  it('multianswer-all-types.xml: 1 gap-fill question with 16 gaps, weights summing to 18', () => {
    const bank = moodle('moodle__multianswer-all-types.xml');
    assert.deepEqual(statuses(bank), ['cloze:ok']);
    const item = bank.items[0];
    const q = item.question!;
    assert.equal(item.title, 'All CLOZE types in one question');
    assert.equal(q.question_type, 'gap_fill');
    const gaps = q.gaps!;
    assert.equal(gaps.length, 16);
    assert.deepEqual(
      gaps.map((g) => g.kind),
      [...Array(10).fill('select'), 'numeric', 'numeric', 'numeric', 'text', 'text', 'text'],
    );
    assert.equal(
      gaps.reduce((sum, g) => sum + (g.weight ?? 1), 0),
      18,
    );
    assert.equal(q.marks, 18);
    assert.ok(
      item.warnings.includes("No defaultgrade: marks 18, the sum of its gaps' weights, as Moodle scores a cloze"),
    );
    for (let n = 1; n <= 16; n += 1) assert.equal(q.question_text.split(`[[${n}]]`).length, 2, `[[${n}]] once`);
    assert.match(q.question_text, /Water freezes at 0°C and \[\[11\]\] Farenheit/);
    assert.deepEqual(gaps[0], {
      kind: 'select',
      answers: [{ answer: '50 B.C.', credit: 100 }],
      options: ['200 B.C.', '50 B.C.', '50 A.C.', '200 A.C.'],
    });
    // MULTIRESPONSE: a drop-down accepting each right choice, said in a warning.
    assert.deepEqual(gaps[6], {
      kind: 'select',
      answers: [
        { answer: 'Marge', credit: 100 },
        { answer: 'Lisa', credit: 100 },
      ],
      options: ['Marge', 'Fred', 'Lisa', 'Anna'],
    });
    assert.deepEqual(gaps[7].answers, [
      { answer: 'blue hair', credit: 100 },
      { answer: 'being a soccer mom', credit: 50 },
    ]);
    assert.ok(
      item.warnings.includes(
        'Gap 7 (MULTIRESPONSE): Moodle lets several choices be ticked; here it is a drop-down where one is chosen, each right choice ("Marge", "Lisa") accepted',
      ),
    );
    assert.deepEqual(gaps.slice(10, 13), [
      { kind: 'numeric', answers: [{ answer: '32', credit: 100, tolerance: 0 }] },
      {
        kind: 'numeric',
        answers: [
          { answer: '212', credit: 100, tolerance: 0 },
          { answer: '212', credit: 50, tolerance: 10 },
        ],
      },
      {
        kind: 'numeric',
        weight: 3,
        answers: [
          { answer: '1701', credit: 100, tolerance: 0 },
          { answer: '1701', credit: 66, tolerance: 20 },
          { answer: '1701', credit: 33, tolerance: 50 },
        ],
      },
    ]);
    assert.deepEqual(gaps.slice(13), [
      { kind: 'text', answers: [{ answer: 'Fahrenheit', credit: 100 }] },
      {
        kind: 'text',
        case_sensitive: true,
        // H<sub>2</sub>O as text is the next answer's H2O: one answer.
        answers: [{ answer: 'H2O', credit: 100 }],
      },
      {
        kind: 'text',
        answers: [
          { answer: 'Whisky', credit: 100 },
          { answer: 'Whiskey', credit: 100 },
          { answer: 'Wiskey', credit: 50 },
          { answer: 'Wisky', credit: 25 },
        ],
      },
    ]);
    assert.ok(
      item.warnings.includes(
        'Gap 15 (SHORTANSWER_C): the markup of the answer "H<sub>2</sub>O" was dropped (answers are plain text)',
      ),
    );
    assert.ok(
      item.warnings.includes(
        "The answers' feedback of gaps 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 is not carried (gaps have no per-answer feedback)",
      ),
    );
  });

  it('moodle-qtype_ddmarker__testquestion.moodle.xml: a hotspot placing points on the map, its 4 drop zones the correct areas', () => {
    const bank = moodle('moodle-qtype_ddmarker__testquestion.moodle.xml');
    assert.deepEqual(statuses(bank), ['ddmarker:ok']);
    const [item] = bank.items;
    const q = item.question!;
    assert.equal(q.question_type, 'hotspot');
    assert.equal(q.select, 'points');
    assert.equal(q.max_points, 4);
    assert.match(q.image!.src, /^@@PLUGINFILE@@\/mkmap\.png$/);
    assert.ok(q.image!.width > 322 && q.image!.height > 302, JSON.stringify(q.image));
    assert.deepEqual(
      q.areas!.map((a) => [a.shape, a.coords, a.correct, a.label]),
      [
        ['circle', [322, 213, 10], true, 'OU'],
        ['circle', [144, 84, 10], true, 'Railway station'],
        ['circle', [195, 180, 10], true, 'Railway station'],
        ['circle', [267, 302, 10], true, 'Railway station'],
      ],
    );
    assert.ok(startsWith(bank.media.get('mkmap.png')?.bytes, PNG), 'the map carried as media');
    assert.ok(item.warnings.some((w) => /markers \(OU, Railway station\) are not carried/.test(w)));
    const parsed = QuestionInput.safeParse({ ...q, image: { ...q.image, src: '/api/media/c.map' } });
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });
});

describe('moodleXml.parseMoodleXml: our export’s tags', () => {
  const question = (name: string, tags: string[], body: string) =>
    `<question type="shortanswer"><name><text>${name}</text></name>` +
    '<questiontext format="plain_text"><text>The symbol of iron?</text></questiontext>' +
    `<defaultgrade>1</defaultgrade>${body}` +
    `<tags>${tags.map((t) => `<tag><text>${t}</text></tag>`).join('')}</tags></question>`;
  const answer = '<answer fraction="100"><text>Fe</text></answer>';

  it('reads difficulty, and a name made from the text (tagged untitled) as no title unless it was renamed', () => {
    const bank = parseMoodleXml(
      `<quiz>${question('The symbol of iron?', ['difficulty:hard', 'untitled'], answer)}` +
        `${question('Iron', ['untitled'], answer)}${question('Metals', ['chapter 3'], answer)}</quiz>`,
    );
    const [untitled, renamed, other] = bank.items;
    assert.equal(untitled.title, null);
    assert.equal(untitled.question!.title, undefined);
    assert.equal(untitled.question!.difficulty, 'hard');
    assert.deepEqual(untitled.warnings, []);
    assert.equal(renamed.question!.title, 'Iron');
    assert.deepEqual(other.warnings, ['Not carried: tags (chapter 3)']);
  });

  it('reads an answer without <tolerance> as having none, and 0% answers as alternatives worth 0', () => {
    const bank = parseMoodleXml(
      '<quiz><question type="numerical"><name><text>n</text></name><questiontext><text>2+2?</text></questiontext>' +
        '<defaultgrade>1</defaultgrade><answer fraction="100"><text>4</text></answer><answer fraction="0"><text>5</text><tolerance>0</tolerance></answer>' +
        '<answer fraction="0"><text>*</text></answer></question></quiz>',
    );
    const q = bank.items[0].question!;
    assert.equal(q.tolerance, undefined);
    assert.deepEqual(q.alternatives, [{ answer: '5', credit: 0, tolerance: 0 }]);
    assert.deepEqual(bank.items[0].warnings, []);
  });
});

describe('moodleXml.parseMoodleXml: text written as XHTML elements', () => {
  const dot = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC';
  // Neither escaped nor CDATA: Moodle accepts a <text> whose HTML is elements of the XML.
  const bank = parseMoodleXml(
    '<quiz><question type="multichoice"><name><text>Primes</text></name>' +
      '<questiontext format="html"><text><p>Which is <b>not</b> a prime?</p><img src="@@PLUGINFILE@@/dot.png" alt="a dot"/>' +
      '<p>1 &lt; 2 &amp; <span/>x</p></text>' +
      `<file name="dot.png" path="/" encoding="base64">${dot}</file></questiontext>` +
      '<generalfeedback format="html"><text><p>Nine is <i>3 × 3</i>.</p></text></generalfeedback>' +
      '<defaultgrade>1</defaultgrade><single>true</single>' +
      '<answer fraction="100" format="html"><text><p><b>9</b></p></text><feedback format="html"><text><p>Yes, <em>3 × 3</em>.</p></text></feedback></answer>' +
      '<answer fraction="0"><text>7</text></answer></question></quiz>',
  );
  const [item] = bank.items;

  it('carries the markup as HTML, with its image as media, text escaped as XML escaped it', () => {
    assert.equal(item.status, 'ok', item.message ?? '');
    assert.equal(item.question!.text_format, 'html');
    assert.equal(
      item.question!.question_text,
      '<p>Which is <b>not</b> a prime?</p><img src="@@PLUGINFILE@@/dot.png" alt="a dot"><p>1 &lt; 2 &amp; <span></span>x</p>',
    );
    assert.ok(startsWith(bank.media.get('dot.png')?.bytes, PNG));
    assert.equal(item.question!.feedback, '<p>Nine is <i>3 × 3</i>.</p>');
    assert.deepEqual(item.question!.option_feedback, ['<p>Yes, <em>3 × 3</em>.</p>', '']);
  });

  it('takes an option written as elements as its HTML', () => {
    assert.deepEqual(item.question!.options, ['<b>9</b>', '7']);
    assert.ok(!item.warnings.some((w) => w.startsWith('Option ')), item.warnings.join('\n'));
  });
});

describe('moodleXml.parseMoodleXml → the import: XHTML elements sanitized as escaped HTML is', () => {
  it('stores the markup the allow-list keeps, its media as /api/media/…, and warns of what was removed', () => {
    const bank = parseMoodleXml(
      '<quiz><question type="essay"><name><text>Unsafe</text></name>' +
        '<questiontext format="html"><text><p onclick="steal()">Describe <u>this</u>:</p>' +
        '<img src="@@PLUGINFILE@@/dot.png"/><script>alert(1)</script></text>' +
        '<file name="dot.png" encoding="base64">iVBORw0KGgo=</file></questiontext>' +
        '<defaultgrade>1</defaultgrade></question></quiz>',
    );
    const [entry] = importEntries(bank, new Map([['dot.png', { id: 'org-1.0b5e3c1a-1111-4c4c-8888-000000000001' }]]));
    assert.equal(entry.report.status, 'ok', entry.report.message ?? '');
    assert.equal(
      entry.question!.question_text,
      '<p>Describe <u>this</u>:</p><img src="/api/media/org-1.0b5e3c1a-1111-4c4c-8888-000000000001" />',
    );
    assert.ok(
      entry.report.warnings.includes('Removed from the text: onclick attribute, <script>'),
      entry.report.warnings.join('\n'),
    );
  });
});

describe('moodleXml.parseMoodleXml: random questions (a quiz’s draw from a category)', () => {
  const category = (path: string) =>
    `<question type="category"><category><text>$course$/top/${path}</text></category></question>`;
  const truefalse = (text: string, tags = '') =>
    `<question type="truefalse"><name><text>${text}</text></name><questiontext format="plain_text"><text>${text}</text></questiontext>` +
    `<defaultgrade>1</defaultgrade><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>${tags}</question>`;
  const random = (name: string, subcategories = '0') =>
    `<question type="random"><name><text>${name}</text></name><questiontext format="html"><text>${subcategories}</text></questiontext>` +
    '<generalfeedback format="html"><text></text></generalfeedback><defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber></idnumber></question>';
  const hard = '<tags><tag><text>difficulty:hard</text></tag></tags>';

  it('is no question of its own: the draw is noted on the first question of its category, imported as a folder of all of them', () => {
    const bank = parseMoodleXml(
      `<quiz>${category('Fixed')}${truefalse('Fixed one')}${category('Pool')}${truefalse('A')}${truefalse('B')}${truefalse('C')}` +
        `${random('Random (Pool) 1')}${random('Random (Pool) 2')}</quiz>`,
    );
    assert.deepEqual(
      bank.items.map((i) => [i.title, i.status, i.category]),
      [
        ['Fixed one', 'ok', ['Fixed']],
        ['A', 'ok', ['Pool']],
        ['B', 'ok', ['Pool']],
        ['C', 'ok', ['Pool']],
      ],
    );
    assert.deepEqual(bank.items[1].warnings, [
      'The category "Pool" draws 2 of its questions at random (Moodle random questions); it was imported as a folder of all its 3 questions',
    ]);
    assert.deepEqual(bank.items[0].warnings, []);
  });

  it('reads our export’s subcategory for a pool of one difficulty back as the pool’s folder', () => {
    const bank = parseMoodleXml(
      `<quiz>${category('Sets/hard')}${truefalse('H1', hard)}${truefalse('H2', hard)}${random('Random (Sets / hard) 1')}</quiz>`,
    );
    assert.deepEqual(
      bank.items.map((i) => i.category),
      [['Sets'], ['Sets']],
    );
    assert.deepEqual(bank.items[0].warnings, [
      'The category "Sets" draws 1 of its hard questions at random (Moodle random questions in "Sets / hard", our export’s subcategory for a pool of one difficulty); it was imported as a folder of all its 2 questions',
    ]);
  });

  it('keeps a Moodle category named like a difficulty, says when Moodle drew from subcategories too, and when the file holds none of the category’s questions', () => {
    const bank = parseMoodleXml(
      `<quiz>${category('Physics/hard')}${truefalse('P1')}${random('Any', '1')}${category('Elsewhere')}${random('Other')}</quiz>`,
    );
    assert.deepEqual(
      bank.items.map((i) => i.category),
      [['Physics', 'hard']],
    );
    assert.deepEqual(bank.items[0].warnings, [
      'The category "Physics / hard" draws 1 of its questions at random (Moodle random questions), in Moodle from its subcategories too (a pool here draws from one folder); it was imported as a folder of its one question',
      'The category "Elsewhere" draws 1 of its questions at random (Moodle random questions), but the file holds none of its questions: nothing was imported for it',
    ]);
  });
});

describe('moodleXml.parseMoodleXml: calculated questions (our own fixture, as qformat_xml writes them)', () => {
  const bank = ownFixture('calculated.xml');
  const byName = (title: string) => bank.items.find((i) => i.title === title)!;

  it('reads calculated and simple calculated as our calculated: wildcards as variables, the 100% formula, its tolerance', () => {
    const speed = byName('Speed').question!;
    assert.equal(speed.question_type, 'calculated');
    assert.deepEqual(speed.variables, [
      { name: 'd', min: 10, max: 500, decimals: 0 },
      { name: 't', min: 1, max: 8, decimals: 1 },
    ]);
    assert.equal(speed.formula, '{d} / {t}');
    assert.equal(speed.tolerance, 0.01);
    assert.equal(speed.tolerance_type, 'relative');
    assert.equal(speed.marks, 2);
    const area = byName('Area').question!;
    assert.equal(area.formula, 'pi() * pow({r}, 2)');
    assert.equal(area.tolerance_type, 'absolute');
    for (const draft of [speed, area]) {
      const parsed = QuestionInput.safeParse(draft);
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    }
  });

  it('names what differs: a dataset becomes its range, units are not carried', () => {
    assert.ok(
      byName('Speed').warnings.some((w) =>
        /\{d\}: Moodle picks among its 2 stored values; here each attempt draws one from 10 to 500/.test(w),
      ),
    );
    assert.ok(byName('Area').warnings.some((w) => /units are not carried/.test(w)));
  });

  it('refuses one without datasets or with a wildcard that cannot be a variable, saying why', () => {
    assert.equal(byName('No datasets').status, 'error');
    assert.match(byName('No datasets').message!, /defines no wildcard/);
    assert.match(byName('Bad wildcard').message!, /\{x-y\} cannot be a variable/);
  });
});
