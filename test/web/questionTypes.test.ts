import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFINITIONS, EMPTY_KEY_DRAFT, TYPE_NAMES } from '../../web/src/questionTypes/definitions';
import { answerOfLine, EMPTY_GAP, sameGapAnswer } from '../../web/src/questionTypes/gapFill/definition';
import { moved } from '../../web/src/questionTypes/ordering/definition';
import {
  answerOfParts,
  GAP_MARK,
  pairedParts,
  partsOf,
  PHRASE_MARK,
  segmentsOf,
} from '../../web/src/questionTypes/parts';
import type { GapDraft, KeyDraft, QuestionType, QuestionTypeDefinition } from '../../web/src/questionTypes/module';

// Pure: the web app's question type modules, no browser. A type's views (React) are held to their
// interface by the web app's compiler (QuestionTypeModule); here, that every type has a module folder
// with its definition and its views, that the definitions answer as the pages expect, and that no
// page outside questionTypes/ names a type.

const web = join(__dirname, '..', '..', 'web', 'src');
const typesRoot = join(web, 'questionTypes');

/** The types the service has and this app does not edit yet (their questions are answered as a line of text). */
const NOT_IN_THIS_APP = ['calculated'];

/** The question types the API names, as the web app's generated types spell them. */
function apiTypes(): string[] {
  const schema = readFileSync(join(web, 'api', 'schema.d.ts'), 'utf8');
  const union = /\bquestion_type: ((?:"[a-z_]+"(?: \| )?)+);/.exec(schema);
  assert.ok(union, 'schema.d.ts names the question types');
  return [...union[1].matchAll(/"([a-z_]+)"/g)].map((m) => m[1]).filter((t) => !NOT_IN_THIS_APP.includes(t));
}

/** multiple_choice → multipleChoice: the folder of a type. */
const folderOf = (type: string) => type.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

const key = (draft: Partial<KeyDraft>): KeyDraft => ({ ...EMPTY_KEY_DRAFT, ...draft });
const gap = (): GapDraft => ({ ...EMPTY_GAP });
const question = (fields: Record<string, unknown>) =>
  fields as unknown as Parameters<QuestionTypeDefinition['keyDraftOf']>[0];

describe('web questionTypes: the registry of question types', () => {
  it('has a definition for every type the API names, in the API’s order, each under its own name', () => {
    assert.deepEqual(TYPE_NAMES, apiTypes());
    for (const type of TYPE_NAMES) assert.equal(DEFINITIONS[type].type, type);
  });

  it('has, for every type, a module folder with its definition and its views, registered by the front door', () => {
    const door = readFileSync(join(typesRoot, 'index.ts'), 'utf8');
    const folders = readdirSync(typesRoot).filter((name) => statSync(join(typesRoot, name)).isDirectory());
    assert.deepEqual(folders.sort(), TYPE_NAMES.map(folderOf).sort());
    for (const type of TYPE_NAMES) {
      const folder = folderOf(type);
      assert.ok(existsSync(join(typesRoot, folder, 'definition.ts')), `${folder}/definition.ts`);
      const views = readFileSync(join(typesRoot, folder, 'views.tsx'), 'utf8');
      assert.match(views, new RegExp(`export const ${folder}Module: QuestionTypeModule = `), `${folder}/views.tsx`);
      assert.match(door, new RegExp(`import \\{ ${folder}Module \\} from './${folder}/views';`), folder);
      assert.match(door, new RegExp(`\\b${type}: ${folder}Module,`), folder);
    }
  });

  it('gives every type every part of a definition', () => {
    const parts: Record<keyof QuestionTypeDefinition, string> = {
      type: 'string',
      label: 'string',
      hasOptions: 'boolean',
      maxOptions: 'number',
      textInAnswer: 'boolean',
      fixedOptions: 'object',
      legendNote: 'object',
      markedByPerson: 'boolean',
      chosenOptions: 'function',
      shownAnswer: 'function',
      keyDraftOf: 'function',
      keyLabel: 'string',
      keyFieldLabels: 'object',
      keyProblem: 'function',
      bodyOf: 'function',
      regradeKeyHint: 'object',
      toleranceInKey: 'boolean',
      csvExample: 'object',
    };
    for (const type of TYPE_NAMES) {
      const definition = DEFINITIONS[type] as unknown as Record<string, unknown>;
      for (const [part, kind] of Object.entries(parts)) {
        const value = definition[part];
        // An object part may be null (none), a string part never empty.
        assert.ok(
          typeof value === kind || (kind === 'object' && typeof value === 'string'),
          `${type}.${part}: ${typeof value}`,
        );
        if (typeof value === 'string') assert.notEqual(value.trim(), '', `${type}.${part}`);
      }
      assert.deepEqual(Object.keys(definition).sort(), Object.keys(parts).sort(), type);
      const row = DEFINITIONS[type].csvExample;
      if (row !== null) assert.equal(row.question_type, type, `${type}'s CSV row names its type`);
      assert.equal(DEFINITIONS[type].hasOptions, DEFINITIONS[type].maxOptions > 0, type);
      assert.equal(DEFINITIONS[type].regradeKeyHint === null, DEFINITIONS[type].markedByPerson, type);
    }
    const labels = TYPE_NAMES.map((type) => DEFINITIONS[type].label);
    assert.equal(new Set(labels).size, labels.length, 'labels tell the types apart');
  });

  const bodies: Array<[string, QuestionType, Partial<KeyDraft>, string[], object]> = [
    [
      'a multiple choice sends its options and the chosen one',
      'multiple_choice',
      { correct_choice: 'B' },
      ['A', 'B'],
      { question_type: 'multiple_choice', options: ['A', 'B'], correct_answer: 'B' },
    ],
    [
      'a multiple select joins the ticked options by "|", in the options’ order',
      'multiple_select',
      { correct_choices: ['C', 'A', 'gone'] },
      ['A', 'B', 'C'],
      { question_type: 'multiple_select', options: ['A', 'B', 'C'], correct_answer: 'A|C' },
    ],
    [
      'a true / false has its own two options',
      'true_false',
      { truth: 'False', options: 'ignored' },
      [],
      { question_type: 'true_false', options: ['True', 'False'], correct_answer: 'False' },
    ],
    [
      'a short answer sends the typed key',
      'short_answer',
      { correct_text: 'Na' },
      [],
      { question_type: 'short_answer', correct_answer: 'Na' },
    ],
    [
      'a numeric sends its key and a tolerance',
      'numeric',
      { correct_text: '1.41', tolerance: '0.01' },
      [],
      { question_type: 'numeric', correct_answer: '1.41', tolerance: 0.01 },
    ],
    [
      'a numeric with no tolerance sends null',
      'numeric',
      { correct_text: '3', tolerance: ' ' },
      [],
      { question_type: 'numeric', correct_answer: '3', tolerance: null },
    ],
    ['an essay sends its word limit', 'essay', { max_words: '300' }, [], { question_type: 'essay', max_words: 300 }],
    ['an essay with no limit sends null', 'essay', {}, [], { question_type: 'essay', max_words: null }],
    [
      'a matching sends its options, its stems and their matches in the stems’ order (blank rows dropped)',
      'matching',
      {
        matches: [
          { stem: ' France ', match: 'Paris' },
          { stem: '', match: 'Oslo' },
          { stem: 'Italy', match: 'Rome' },
        ],
      },
      ['Paris', 'Rome', 'Oslo'],
      {
        question_type: 'matching',
        options: ['Paris', 'Rome', 'Oslo'],
        stems: ['France', 'Italy'],
        matches: ['Paris', 'Rome'],
      },
    ],
    [
      'an ordering sends its options in the right order, all or nothing by default',
      'ordering',
      {},
      ['first', 'second'],
      { question_type: 'ordering', options: ['first', 'second'] },
    ],
    [
      'an ordering scored in part says so',
      'ordering',
      { ordering_score: 'partial' },
      ['first', 'second'],
      { question_type: 'ordering', options: ['first', 'second'], ordering_score: 'partial' },
    ],
    [
      'a gap fill sends a gap per number the text writes, each saying only what differs from the defaults',
      'gap_fill',
      {
        question_text: 'The capital [[2]] of [[1]] is [[3]], pi is [[4]].',
        gaps: [
          {
            kind: 'text',
            answers: 'France\nfrance | 50',
            options: '',
            tolerance: '',
            case_sensitive: true,
            weight: '2',
          },
          { kind: 'select', answers: 'city', options: 'city\ntown', tolerance: '', case_sensitive: false, weight: '' },
          { kind: 'drag', answers: 'Paris', options: '', tolerance: '', case_sensitive: true, weight: '' },
          {
            kind: 'numeric',
            answers: '3.14\n3 | 50 | 0.5',
            options: '',
            tolerance: '0.01',
            case_sensitive: false,
            weight: '',
          },
        ],
        drag_options: 'Paris\nRome',
        drag_reusable: true,
      },
      [],
      {
        question_type: 'gap_fill',
        gaps: [
          {
            kind: 'text',
            answers: [
              { answer: 'France', credit: 100 },
              { answer: 'france', credit: 50 },
            ],
            case_sensitive: true,
            weight: 2,
          },
          { kind: 'select', answers: [{ answer: 'city', credit: 100 }], options: ['city', 'town'] },
          { kind: 'drag', answers: [{ answer: 'Paris', credit: 100 }] },
          {
            kind: 'numeric',
            answers: [
              { answer: '3.14', credit: 100, tolerance: 0.01 },
              { answer: '3', credit: 50, tolerance: 0.5 },
            ],
          },
        ],
        drag_options: ['Paris', 'Rome'],
        drag_reusable: true,
      },
    ],
    [
      'a gap fill with no drag gap sends no chips, and a new gap for a number the text adds',
      'gap_fill',
      { question_text: '[[1]] and [[2]]', gaps: [], drag_options: 'a\nb' },
      [],
      {
        question_type: 'gap_fill',
        gaps: [
          { kind: 'text', answers: [] },
          { kind: 'text', answers: [] },
        ],
      },
    ],
    [
      'a hottext sends its right phrases joined by "|" in the text’s order, and its limit',
      'hottext',
      {
        question_text: 'The [[ quick ]] brown [[fox]] [[jumps]]',
        correct_choices: ['jumps', 'quick', 'gone'],
        max_choices: '2',
      },
      [],
      { question_type: 'hottext', correct_answer: 'quick|jumps', max_choices: 2 },
    ],
    [
      'a hottext with no limit sends null',
      'hottext',
      { question_text: '[[a]] [[b]]', correct_choices: ['a'] },
      [],
      { question_type: 'hottext', correct_answer: 'a', max_choices: null },
    ],
  ];
  for (const [name, type, draft, options, body] of bodies)
    it(`body: ${name}`, () => assert.deepEqual(DEFINITIONS[type].bodyOf(key(draft), options), body));

  const drafts: Array<[string, QuestionType, Record<string, unknown>, Partial<KeyDraft>]> = [
    [
      'a multiple choice’s key is its chosen option',
      'multiple_choice',
      { correct_answer: 'B' },
      { correct_choice: 'B' },
    ],
    [
      'a multiple select’s key is its ticked options',
      'multiple_select',
      { correct_answer: 'A|C' },
      { correct_choices: ['A', 'C'] },
    ],
    ['a true / false reads False in any case', 'true_false', { correct_answer: 'false' }, { truth: 'False' }],
    ['a true / false reads anything else as True', 'true_false', { correct_answer: 'True' }, { truth: 'True' }],
    ['a short answer’s key is typed', 'short_answer', { correct_answer: 'Na' }, { correct_text: 'Na' }],
    ['a numeric key is typed', 'numeric', { correct_answer: '1.41' }, { correct_text: '1.41' }],
    ['an essay has no key', 'essay', { correct_answer: null }, {}],
    [
      'a matching’s key is a row per stem with its match',
      'matching',
      { stems: ['France', 'Italy'], matches: ['Paris', 'Rome'], correct_answer: '["Paris","Rome"]' },
      {
        matches: [
          { stem: 'France', match: 'Paris' },
          { stem: 'Italy', match: 'Rome' },
        ],
      },
    ],
    ['an ordering’s scoring is all or nothing when absent', 'ordering', {}, { ordering_score: 'all_or_nothing' }],
    ['an ordering scored in part says so', 'ordering', { ordering_score: 'partial' }, { ordering_score: 'partial' }],
    [
      'a gap fill’s gaps are written as the form edits them, saying only what differs from the defaults',
      'gap_fill',
      {
        gaps: [
          {
            kind: 'text',
            answers: [
              { answer: 'France', credit: 100 },
              { answer: 'france', credit: 50 },
            ],
            case_sensitive: true,
            weight: 2,
          },
          {
            kind: 'numeric',
            answers: [
              { answer: '3.14', credit: 100, tolerance: 0.01 },
              { answer: '3', credit: 50, tolerance: 0.5 },
            ],
            weight: 1,
          },
          { kind: 'select', answers: [{ answer: 'city', credit: 100 }], options: ['city', 'town'], weight: 1 },
        ],
        drag_options: ['Paris', 'Rome'],
        drag_reusable: true,
      },
      {
        gaps: [
          {
            kind: 'text',
            answers: 'France\nfrance | 50',
            options: '',
            tolerance: '',
            case_sensitive: true,
            weight: '2',
          },
          {
            kind: 'numeric',
            answers: '3.14\n3 | 50 | 0.5',
            options: '',
            tolerance: '0.01',
            case_sensitive: false,
            weight: '',
          },
          { kind: 'select', answers: 'city', options: 'city\ntown', tolerance: '', case_sensitive: false, weight: '' },
        ],
        drag_options: 'Paris\nRome',
        drag_reusable: true,
      },
    ],
    [
      'a hottext’s key is its right phrases ticked, and its limit',
      'hottext',
      { correct_answer: 'quick|jumps', max_choices: 2 },
      { correct_choices: ['quick', 'jumps'], max_choices: '2' },
    ],
    [
      'a hottext with no limit leaves it empty',
      'hottext',
      { correct_answer: 'a', max_choices: null },
      { correct_choices: ['a'], max_choices: '' },
    ],
  ];
  for (const [name, type, stored, draft] of drafts)
    it(`draft: ${name}`, () => assert.deepEqual(DEFINITIONS[type].keyDraftOf(question(stored)), draft));

  const problems: Array<[string, QuestionType, Partial<KeyDraft>, string[], string | null]> = [
    ['a multiple choice needs a chosen option', 'multiple_choice', {}, ['A', 'B'], 'Choose the correct option.'],
    [
      'a multiple choice’s key must still be an option',
      'multiple_choice',
      { correct_choice: 'C' },
      ['A', 'B'],
      '“C” is no longer an option: choose the correct option again.',
    ],
    [
      'a multiple choice with its key among the options is fine',
      'multiple_choice',
      { correct_choice: 'A' },
      ['A'],
      null,
    ],
    [
      'a multiple select needs a ticked option that is still an option',
      'multiple_select',
      { correct_choices: ['gone'] },
      ['A', 'B'],
      'Tick at least one correct option.',
    ],
    ['a multiple select with one ticked is fine', 'multiple_select', { correct_choices: ['B'] }, ['A', 'B'], null],
    [
      'a numeric key with a decimal comma says to write a point',
      'numeric',
      { correct_text: ' 1,5 ' },
      [],
      'Write the decimals with a point: 1.5.',
    ],
    [
      'a numeric key that is no number says what to write',
      'numeric',
      { correct_text: 'ten' },
      [],
      'Write a number, such as 3.14 or -2 (digits, a point for decimals).',
    ],
    ['a numeric key that is a number is fine', 'numeric', { correct_text: '-2.5e3' }, [], null],
    ['a short answer is not checked', 'short_answer', {}, [], null],
    ['a true / false is not checked', 'true_false', {}, [], null],
    ['an essay is not checked', 'essay', {}, [], null],
    [
      'a matching needs 2 stems',
      'matching',
      { matches: [{ stem: 'a', match: 'A' }] },
      ['A', 'B'],
      'Write at least 2 stems, each with its match.',
    ],
    [
      'a matching’s stems differ',
      'matching',
      {
        matches: [
          { stem: 'a', match: 'A' },
          { stem: 'a ', match: 'B' },
        ],
      },
      ['A', 'B'],
      'The stem “a” is written twice: make each stem different.',
    ],
    [
      'a matching’s every stem has an option as its match',
      'matching',
      {
        matches: [
          { stem: 'a', match: 'A' },
          { stem: 'b', match: 'gone' },
        ],
      },
      ['A', 'B'],
      'Choose the option that matches “b”.',
    ],
    [
      'a matching with every stem matched is fine',
      'matching',
      {
        matches: [
          { stem: 'a', match: 'A' },
          { stem: 'b', match: 'A' },
        ],
      },
      ['A', 'B'],
      null,
    ],
    ['an ordering is not checked beyond its options', 'ordering', {}, ['a', 'b'], null],
    [
      'a gap fill needs gaps in its text',
      'gap_fill',
      { question_text: 'no gaps' },
      [],
      'Write the gaps in the question text as [[1]], [[2]], …',
    ],
    [
      'a gap fill writes each number once',
      'gap_fill',
      { question_text: '[[1]] [[1]]' },
      [],
      '[[1]] is written more than once in the text.',
    ],
    [
      'a gap fill numbers its gaps from 1 with none missing',
      'gap_fill',
      { question_text: '[[1]] [[3]]' },
      [],
      'Gap 2 is not in the text: write [[2]].',
    ],
    [
      'a gap needs an accepted answer',
      'gap_fill',
      { question_text: '[[1]]' },
      [],
      'Gap 1: write its accepted answers, one a line.',
    ],
    [
      'a gap needs a full-credit answer',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), answers: 'x | 50' }] },
      [],
      'Gap 1: one accepted answer must earn full credit (100).',
    ],
    [
      'a select gap’s answers are among its choices',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), kind: 'select', answers: 'c', options: 'a\nb' }] },
      [],
      'Gap 1: “c” is not one of its choices.',
    ],
    [
      'a drag gap needs chips',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), kind: 'drag', answers: 'a' }] },
      [],
      'Write at least 2 chips, one a line.',
    ],
    [
      'a drag gap’s answers are among the chips',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), kind: 'drag', answers: 'c' }], drag_options: 'a\nb' },
      [],
      'Gap 1: “c” is not one of its chips.',
    ],
    [
      'a gap’s weight is greater than 0',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), answers: 'a', weight: '0' }] },
      [],
      'Gap 1: its weight is a number greater than 0.',
    ],
    [
      'a gap fill with every gap answered is fine',
      'gap_fill',
      { question_text: '[[1]]', gaps: [{ ...gap(), answers: 'a' }] },
      [],
      null,
    ],
    [
      'a hottext marks 2 phrases',
      'hottext',
      { question_text: 'one [[a]]' },
      [],
      'Mark at least 2 phrases in the question text, [[like this]].',
    ],
    [
      'a hottext ticks a right phrase',
      'hottext',
      { question_text: '[[a]] [[b]]', correct_choices: ['gone'] },
      [],
      'Tick at least one right phrase.',
    ],
    [
      'a hottext’s limit is at least its right phrases',
      'hottext',
      { question_text: '[[a]] [[b]]', correct_choices: ['a', 'b'], max_choices: '1' },
      [],
      'The most a taker may choose is a whole number, at least the right phrases’ count (2).',
    ],
    [
      'a hottext with a right phrase is fine',
      'hottext',
      { question_text: '[[a]] [[b]]', correct_choices: ['b'] },
      [],
      null,
    ],
  ];
  for (const [name, type, draft, options, problem] of problems)
    it(`key problem: ${name}`, () => assert.equal(DEFINITIONS[type].keyProblem(key(draft), options), problem));

  const answers: Array<[string, QuestionType, string, string, string[]]> = [
    [
      'a multiple select shows its options as a list',
      'multiple_select',
      'Python|Rust',
      'Python, Rust',
      ['Python', 'Rust'],
    ],
    ['a multiple select leaves out empty parts', 'multiple_select', 'Python||', 'Python', ['Python', '', '']],
    ['a multiple choice shows the option', 'multiple_choice', 'Paris', 'Paris', ['Paris']],
    ['a numeric answer shows as typed', 'numeric', '1,41', '1,41', ['1,41']],
    ['a short answer with a "|" is one answer', 'short_answer', 'a|b', 'a|b', ['a|b']],
    ['a matching shows its parts as a list', 'matching', '["Paris","","Rome"]', 'Paris, , Rome', ['Paris', 'Rome']],
    ['a matching answer that cannot be read shows nothing', 'matching', 'Paris', '', []],
    ['an ordering shows its order', 'ordering', '["b","a"]', 'b → a', []],
    ['a gap fill shows its parts as a list', 'gap_fill', '["Paris","3.14"]', 'Paris, 3.14', []],
    ['a hottext shows its phrases as a list', 'hottext', 'quick|jumps', 'quick, jumps', ['quick', 'jumps']],
  ];
  for (const [name, type, answer, shown, chosen] of answers)
    it(`review: ${name}`, () => {
      assert.equal(DEFINITIONS[type].shownAnswer(answer), shown);
      assert.deepEqual(DEFINITIONS[type].chosenOptions(answer), chosen);
    });

  it('is the only place in web/src that names a type (the generated API types aside)', () => {
    const names = new RegExp(`['"\`](${TYPE_NAMES.join('|')})['"\`]`);
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) {
          if (path !== typesRoot) walk(path);
        } else if (/\.tsx?$/.test(entry) && path !== join(web, 'api', 'schema.d.ts'))
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (names.test(line)) found.push(`${relative(web, path)}:${i + 1}: ${line.trim()}`);
            });
      }
    };
    walk(web);
    assert.deepEqual(found, []);
  });
});

describe('web questionTypes: answers with parts and marked texts', () => {
  const parts: Array<[string, string, number, string[]]> = [
    ['a blank answer is every part blank', '', 3, ['', '', '']],
    ['an answer holds one string per part', '["Paris","","Rome"]', 3, ['Paris', '', 'Rome']],
    ['an answer of another length is every part blank', '["Paris"]', 2, ['', '']],
    ['an answer that is no JSON array of strings is every part blank', '[1,2]', 2, ['', '']],
    ['an answer that is no JSON is every part blank', 'Paris', 1, ['']],
  ];
  for (const [name, answer, count, expected] of parts)
    it(`parts: ${name}`, () => assert.deepEqual(partsOf(answer, count), expected));

  it('an answer whose every part is blank is unanswered (""), any other the JSON array text', () => {
    assert.equal(answerOfParts(['', '']), '');
    assert.equal(answerOfParts(['Paris', '']), '["Paris",""]');
  });

  it('splits a text at its gaps and at its phrases, numbering the marks in the text’s order', () => {
    assert.deepEqual(segmentsOf('a [[2]] b [[1]]', GAP_MARK), [
      { text: 'a ' },
      { mark: 0, inner: '2' },
      { text: ' b ' },
      { mark: 1, inner: '1' },
    ]);
    assert.deepEqual(segmentsOf('[[quick]] fox', PHRASE_MARK), [{ mark: 0, inner: 'quick' }, { text: ' fox' }]);
    assert.deepEqual(segmentsOf('[[x]] is no gap', GAP_MARK), [{ text: '[[x]] is no gap' }]);
  });

  it('pairs an answer’s parts with the key’s, a part right only when given and agreeing', () => {
    assert.deepEqual(
      pairedParts({ student_answer: '["Paris",""]', correct_answer: '["Paris","Rome"]' }, (i) => `Gap ${i + 1}`),
      [
        { label: 'Gap 1', answer: 'Paris', key: 'Paris', right: true },
        { label: 'Gap 2', answer: '', key: 'Rome', right: false },
      ],
    );
    assert.deepEqual(
      pairedParts({ student_answer: 'unreadable', correct_answer: '["a"]' }, () => 'Part'),
      [{ label: 'Part', answer: '', key: 'a', right: false }],
    );
  });

  it('moves an item, the others keeping their order', () => {
    assert.deepEqual(moved(['a', 'b', 'c'], 2, 1), ['a', 'c', 'b']);
    assert.deepEqual(moved(['a', 'b', 'c'], 0, 1), ['b', 'a', 'c']);
  });

  const lines: Array<[string, string, GapDraft['kind'], string, object]> = [
    ['an answer alone earns full credit', 'Paris', 'text', '', { answer: 'Paris', credit: 100 }],
    ['"answer | credit" names its credit', 'Lyon | 50', 'text', '', { answer: 'Lyon', credit: 50 }],
    ['a "|" not followed by a number is the answer’s', 'a|b', 'text', '', { answer: 'a|b', credit: 100 }],
    [
      'a numeric answer takes the gap’s tolerance',
      '3.14',
      'numeric',
      '0.01',
      { answer: '3.14', credit: 100, tolerance: 0.01 },
    ],
    [
      'a numeric answer may name its own',
      '3 | 50 | 0.5',
      'numeric',
      '0.01',
      { answer: '3', credit: 50, tolerance: 0.5 },
    ],
    ['a tolerance of 0 is left out', '3', 'numeric', '0', { answer: '3', credit: 100 }],
  ];
  for (const [name, line, kind, tolerance, expected] of lines)
    it(`gap answer line: ${name}`, () =>
      assert.deepEqual(answerOfLine(line, { ...EMPTY_GAP, kind, tolerance }), expected));

  const same: Array<[string, string, string, GapDraft['kind'], boolean]> = [
    ['a number by its value, a decimal comma read', '3,50', '3.5', 'numeric', true],
    ['a typed text ignoring case and spacing', ' paris  ', 'Paris', 'text', true],
    ['a choice exactly', 'paris', 'Paris', 'select', false],
  ];
  for (const [name, answer, key, kind, expected] of same)
    it(`gap review: ${name}`, () => assert.equal(sameGapAnswer(answer, key, kind), expected));
});
