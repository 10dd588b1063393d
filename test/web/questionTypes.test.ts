import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFINITIONS, EMPTY_KEY_DRAFT, TYPE_NAMES, typeLabel } from '../../web/src/questionTypes/definitions';
import { marksText, plural } from '../../web/src/words';
import { FORMULA_HINT } from '../../web/src/questionTypes/calculated/definition';
import { answerOfLine, EMPTY_GAP, sameGapAnswer } from '../../web/src/questionTypes/gapFill/definition';
import {
  answerOfPicks,
  areaName,
  boxOf,
  imagePixel,
  picksOf,
  pointText,
} from '../../web/src/questionTypes/hotspot/definition';
import { dropIndexOf, moved } from '../../web/src/questionTypes/ordering/definition';
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

/** The question types the API names, as the web app's generated types spell them. */
function apiTypes(): string[] {
  const schema = readFileSync(join(web, 'api', 'schema.d.ts'), 'utf8');
  const union = /\bquestion_type: ((?:"[a-z_]+"(?: \| )?)+);/.exec(schema);
  assert.ok(union, 'schema.d.ts names the question types');
  return [...union[1].matchAll(/"([a-z_]+)"/g)].map((m) => m[1]);
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
      takesAnswer: 'boolean',
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
      // Nothing to regrade: marked by a person, or no answer at all.
      const noKey = DEFINITIONS[type].markedByPerson || !DEFINITIONS[type].takesAnswer;
      assert.equal(DEFINITIONS[type].regradeKeyHint === null, noKey, type);
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
      'an essay taking files sends how many it takes and requires',
      'essay',
      { attachments: '3', attachments_required: '1' },
      [],
      { question_type: 'essay', max_words: null, attachments: 3, attachments_required: 1 },
    ],
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
    [
      'a calculated sends its variables as numbers (empty decimals: 0), its formula, tolerance and its type',
      'calculated',
      {
        variables: [
          { name: ' a ', min: '1', max: '10', decimals: '' },
          { name: 'b', min: '0.5', max: '2.5', decimals: '1' },
        ],
        formula: ' {a} * b ',
        tolerance: '0.01',
        tolerance_type: 'relative',
      },
      [],
      {
        question_type: 'calculated',
        variables: [
          { name: 'a', min: 1, max: 10, decimals: 0 },
          { name: 'b', min: 0.5, max: 2.5, decimals: 1 },
        ],
        formula: '{a} * b',
        tolerance: 0.01,
        tolerance_type: 'relative',
      },
    ],
    [
      'a calculated with choices sends them (credits as numbers, empty decimals left out), its formula the full-credit one’s when empty',
      'calculated',
      {
        variables: [{ name: 'x', min: '0', max: '1', decimals: '2' }],
        calculated_choices: [
          { formula: ' x + 1 ', credit: '0', decimals: '' },
          { formula: 'x', credit: '100', decimals: '2' },
        ],
      },
      [],
      {
        question_type: 'calculated',
        variables: [{ name: 'x', min: 0, max: 1, decimals: 2 }],
        formula: 'x',
        tolerance: null,
        tolerance_type: 'absolute',
        choices: [
          { formula: 'x + 1', credit: 0 },
          { formula: 'x', credit: 100, decimals: 2 },
        ],
      },
    ],
    [
      'a calculated with no tolerance sends null, absolute by default',
      'calculated',
      { variables: [{ name: 'x', min: '0', max: '1', decimals: '2' }], formula: 'x' },
      [],
      {
        question_type: 'calculated',
        variables: [{ name: 'x', min: 0, max: 1, decimals: 2 }],
        formula: 'x',
        tolerance: null,
        tolerance_type: 'absolute',
      },
    ],
    [
      'a hotspot choosing areas sends its image, its areas (coordinates as numbers) and no most points',
      'hotspot',
      {
        image: { src: ' /api/media/m1 ', width: '400', height: '300', alt: ' A map ' },
        areas: [
          { shape: 'rect', coords: '10, 20, 110, 120', correct: true, label: ' Lake ' },
          { shape: 'circle', coords: '200 150 30', correct: false, label: '' },
        ],
        select: 'areas',
        max_points: '3',
      },
      [],
      {
        question_type: 'hotspot',
        image: { src: '/api/media/m1', width: 400, height: 300, alt: 'A map' },
        areas: [
          { shape: 'rect', coords: [10, 20, 110, 120], correct: true, label: 'Lake' },
          { shape: 'circle', coords: [200, 150, 30], correct: false },
        ],
        select: 'areas',
      },
    ],
    [
      'a hotspot placing points sends its most points, null when empty',
      'hotspot',
      {
        image: { src: 'https://example.org/map.png', width: '40', height: '30', alt: '' },
        areas: [{ shape: 'poly', coords: '0,0, 10,0, 5,10', correct: true, label: '' }],
        select: 'points',
      },
      [],
      {
        question_type: 'hotspot',
        image: { src: 'https://example.org/map.png', width: 40, height: 30 },
        areas: [{ shape: 'poly', coords: [0, 0, 10, 0, 5, 10], correct: true }],
        select: 'points',
        max_points: null,
      },
    ],
    [
      'a description sends its type alone: no key and no marks',
      'description',
      {},
      [],
      { question_type: 'description' },
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
      'an essay’s files are its counts',
      'essay',
      { correct_answer: null, attachments: 2, attachments_required: 1 },
      { attachments: '2', attachments_required: '1' },
    ],
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
    [
      'a calculated’s formula is its stored key, with its variables and tolerance type',
      'calculated',
      {
        correct_answer: '{a} * b',
        variables: [{ name: 'a', min: 1, max: 10, decimals: 0 }],
        tolerance_type: 'relative',
      },
      {
        variables: [{ name: 'a', min: '1', max: '10', decimals: '0' }],
        formula: '{a} * b',
        tolerance_type: 'relative',
        calculated_choices: [],
      },
    ],
    [
      'a calculated’s choices as text (no decimals: empty)',
      'calculated',
      {
        correct_answer: 'a',
        variables: [],
        choices: [
          { formula: 'a', credit: 100, decimals: 1 },
          { formula: 'a + 1', credit: 0 },
        ],
      },
      {
        variables: [],
        formula: 'a',
        tolerance_type: 'absolute',
        calculated_choices: [
          { formula: 'a', credit: '100', decimals: '1' },
          { formula: 'a + 1', credit: '0', decimals: '' },
        ],
      },
    ],
    [
      'a calculated’s tolerance is absolute when absent',
      'calculated',
      { correct_answer: 'x', variables: [] },
      { variables: [], formula: 'x', tolerance_type: 'absolute', calculated_choices: [] },
    ],
    [
      'a hotspot’s image, areas (coordinates as a comma list), select and most points',
      'hotspot',
      {
        correct_answer: '["1"]',
        image: { src: '/api/media/m1', width: 400, height: 300 },
        areas: [
          { shape: 'rect', coords: [10, 20, 110, 120], correct: true, label: 'Lake' },
          { shape: 'circle', coords: [200, 150, 30], correct: false },
        ],
        select: 'points',
        max_points: 2,
      },
      {
        image: { src: '/api/media/m1', width: '400', height: '300', alt: '' },
        areas: [
          { shape: 'rect', coords: '10, 20, 110, 120', correct: true, label: 'Lake' },
          { shape: 'circle', coords: '200, 150, 30', correct: false, label: '' },
        ],
        select: 'points',
        max_points: '2',
      },
    ],
    ['a description has no key', 'description', { correct_answer: null }, {}],
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
    [
      'a calculated’s variable is named as the service reads names',
      'calculated',
      { variables: [{ name: '2x', min: '0', max: '1', decimals: '' }], formula: 'x' },
      [],
      'Variable 1: name it with a letter, then letters, digits or _ (not pi or e).',
    ],
    [
      'a calculated’s variable is not pi',
      'calculated',
      { variables: [{ name: 'pi', min: '0', max: '1', decimals: '' }], formula: 'pi' },
      [],
      'Variable 1: name it with a letter, then letters, digits or _ (not pi or e).',
    ],
    [
      'a calculated’s choices are two or more',
      'calculated',
      {
        variables: [{ name: 'a', min: '0', max: '1', decimals: '' }],
        formula: 'a',
        calculated_choices: [{ formula: 'a', credit: '100', decimals: '' }],
      },
      [],
      'Write 2 to 10 choices, or none.',
    ],
    [
      'a calculated’s choice credits are 0 to 100',
      'calculated',
      {
        variables: [{ name: 'a', min: '0', max: '1', decimals: '' }],
        formula: 'a',
        calculated_choices: [
          { formula: 'a', credit: '100', decimals: '' },
          { formula: 'a + 1', credit: '150', decimals: '' },
        ],
      },
      [],
      'Choice 2: its credit is from 0 to 100.',
    ],
    [
      'a calculated’s formula is that of a full-credit choice',
      'calculated',
      {
        variables: [{ name: 'a', min: '0', max: '1', decimals: '' }],
        formula: 'a * 2',
        calculated_choices: [
          { formula: 'a', credit: '100', decimals: '' },
          { formula: 'a + 1', credit: '0', decimals: '' },
        ],
      },
      [],
      'The formula is that of a choice with credit 100: the key a review shows.',
    ],
    [
      'a calculated’s min is at most its max',
      'calculated',
      { variables: [{ name: 'a', min: '5', max: '1', decimals: '' }], formula: 'a' },
      [],
      'Variable a: its min is at most its max.',
    ],
    [
      'a calculated’s min and max are numbers',
      'calculated',
      { variables: [{ name: 'a', min: '', max: '1', decimals: '' }], formula: 'a' },
      [],
      'Variable a: its min and max are numbers.',
    ],
    [
      'a calculated’s decimals are 0 to 6',
      'calculated',
      { variables: [{ name: 'a', min: '0', max: '1', decimals: '7' }], formula: 'a' },
      [],
      'Variable a: its decimals are a whole number from 0 to 6.',
    ],
    [
      'a calculated’s variables have different names',
      'calculated',
      {
        variables: [
          { name: 'a', min: '0', max: '1', decimals: '' },
          { name: 'a', min: '0', max: '1', decimals: '' },
        ],
        formula: 'a',
      },
      [],
      'The variable a is named twice: make each name different.',
    ],
    [
      'a new calculated needs its variable named',
      'calculated',
      { formula: '1' },
      [],
      'Variable 1: name it with a letter, then letters, digits or _ (not pi or e).',
    ],
    [
      'a calculated needs a formula',
      'calculated',
      { variables: [{ name: 'a', min: '0', max: '1', decimals: '' }], formula: ' ' },
      [],
      'Write the formula of the right answer.',
    ],
    [
      'a calculated’s formula names only its variables and the allowed functions',
      'calculated',
      { variables: [{ name: 'a', min: '0', max: '1', decimals: '' }], formula: 'sqrt({a}) + eval(b)' },
      [],
      'The formula names “eval”, which is no variable nor an allowed function.',
    ],
    [
      'a calculated’s formula may use numbers with exponents, pi, e and the functions',
      'calculated',
      {
        variables: [{ name: 'a_1', min: '0', max: '1', decimals: '2' }],
        formula: '1e3 * {a_1} ^ 2 + atan2(pi, e) % 2.5',
      },
      [],
      null,
    ],
    [
      'a hotspot’s image is a media address or an http(s) URL',
      'hotspot',
      { image: { src: 'javascript:alert(1)', width: '10', height: '10', alt: '' } },
      [],
      'The image is a /api/media/… address or an http(s) URL.',
    ],
    [
      'a hotspot’s image has whole pixel sides',
      'hotspot',
      { image: { src: '/api/media/m1', width: '10.5', height: '10', alt: '' } },
      [],
      'The image’s width and height are whole pixels, 1 to 10000.',
    ],
    [
      'a hotspot needs an area',
      'hotspot',
      { image: { src: '/api/media/m1', width: '10', height: '10', alt: '' } },
      [],
      'Add at least one area.',
    ],
    [
      'a hotspot’s circle takes x, y, r',
      'hotspot',
      {
        image: { src: '/api/media/m1', width: '10', height: '10', alt: '' },
        areas: [{ shape: 'circle', coords: '1, 2', correct: true, label: '' }],
      },
      [],
      'Area 1: a circle takes x, y, r.',
    ],
    [
      'a hotspot’s coordinates are numbers',
      'hotspot',
      {
        image: { src: '/api/media/m1', width: '10', height: '10', alt: '' },
        areas: [{ shape: 'rect', coords: '1, 2, x, 4', correct: true, label: '' }],
      },
      [],
      'Area 1: its coordinates are numbers, separated by commas.',
    ],
    [
      'a hotspot’s polygon takes 3 points',
      'hotspot',
      {
        image: { src: '/api/media/m1', width: '10', height: '10', alt: '' },
        areas: [{ shape: 'poly', coords: '1, 2, 3, 4', correct: true, label: '' }],
      },
      [],
      'Area 1: a poly takes 3 points or more: x1, y1, x2, y2, x3, y3….',
    ],
    [
      'a hotspot ticks a correct area',
      'hotspot',
      {
        image: { src: '/api/media/m1', width: '10', height: '10', alt: '' },
        areas: [{ shape: 'rect', coords: '1, 2, 3, 4', correct: false, label: '' }],
      },
      [],
      'Tick at least one correct area.',
    ],
    [
      'a hotspot placing points allows a point per correct area',
      'hotspot',
      {
        image: { src: '/api/media/m1', width: '10', height: '10', alt: '' },
        areas: [
          { shape: 'rect', coords: '1, 2, 3, 4', correct: true, label: '' },
          { shape: 'circle', coords: '5, 5, 1', correct: true, label: '' },
        ],
        select: 'points',
        max_points: '1',
      },
      [],
      'The most points a taker may place is a whole number from 2 (the correct areas) to 20.',
    ],
    [
      'a hotspot with an image and a correct area is fine',
      'hotspot',
      {
        image: { src: 'https://example.org/a.png', width: '10', height: '10', alt: '' },
        areas: [{ shape: 'rect', coords: '1, 2, 3, 4', correct: true, label: '' }],
        select: 'points',
      },
      [],
      null,
    ],
    ['a description is not checked', 'description', {}, [], null],
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
    ['a calculated answer shows as typed', 'calculated', '3,5', '3,5', ['3,5']],
    [
      'a calculated right answer is a number as text',
      'calculated',
      '12.3456789012',
      '12.3456789012',
      ['12.3456789012'],
    ],
    ['a hotspot’s areas are said by their numbers', 'hotspot', '["1","3"]', 'Area 1, Area 3', []],
    ['a hotspot’s points are said as points', 'hotspot', '["120,45","3,4"]', 'point (120, 45), point (3, 4)', []],
    ['a hotspot answer that cannot be read shows nothing', 'hotspot', 'Area 1', '', []],
    ['a description has no answer to show', 'description', '', '', []],
  ];
  for (const [name, type, answer, shown, chosen] of answers)
    it(`review: ${name}`, () => {
      assert.equal(DEFINITIONS[type].shownAnswer(answer), shown);
      assert.deepEqual(DEFINITIONS[type].chosenOptions(answer), chosen);
    });

  it('is the only place in web/src that names a type (the generated API types aside)', () => {
    // A type whose name is also a word other fields use (a webhook's description) counts only where a type is meant.
    const words = ['description'];
    const quoted = (types: string[]) => `['"\`](${types.join('|')})['"\`]`;
    const names = new RegExp(
      `${quoted(TYPE_NAMES.filter((t) => !words.includes(t)))}|(?:[!=]==?|case|question_type:?)\\s*${quoted(words)}`,
    );
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

  // Items drawn 20 pixels high, their centres at 10, 30, 50: where a dragged item lands.
  const drops: Array<[string, number, number, number]> = [
    ['above every other item, first', 2, 5, 0],
    ['past the middle of the item above it, before that item', 2, 25, 1],
    ['short of the middle of the item above it, in its own place', 2, 35, 2],
    ['past the middle of the item below it, after that item', 0, 31, 1],
    ['below every other item, last', 0, 90, 2],
    ['over its own centre, in its own place', 1, 30, 1],
  ];
  for (const [name, from, y, expected] of drops)
    it(`drops a dragged item ${name}`, () => assert.equal(dropIndexOf([10, 30, 50], from, y), expected));

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

describe('web questionTypes: a hotspot’s picks and its image', () => {
  it('reads an answer’s picks (blank ones dropped), none when it cannot be read', () => {
    assert.deepEqual(picksOf('["2","","120,45"]'), ['2', '120,45']);
    assert.deepEqual(picksOf(''), []);
    assert.deepEqual(picksOf('2'), []);
  });

  it('writes the picks as a JSON array text, "" (unanswered) when none', () => {
    assert.equal(answerOfPicks(['1', '3']), '["1","3"]');
    assert.equal(answerOfPicks([]), '');
  });

  it('writes a point in whole pixels of the image', () => assert.equal(pointText(120.4, 44.6), '120,45'));

  const pixels: Array<[string, number, number, number, number]> = [
    ['a click on the drawn image is scaled back to the image’s pixels', 100, 200, 400, 200],
    ['a click past the edge stays within the image', 210, 200, 400, 400],
    ['a click before the edge is 0', -3, 200, 400, 0],
  ];
  for (const [name, at, drawn, natural, expected] of pixels)
    it(`pixel: ${name}`, () => assert.equal(imagePixel(at, drawn, natural), expected));

  const boxes: Array<[string, Parameters<typeof boxOf>[0], ReturnType<typeof boxOf>]> = [
    [
      'a circle’s box is its centre ± r',
      { shape: 'circle', coords: [50, 40, 10] },
      { left: 40, top: 30, width: 20, height: 20 },
    ],
    [
      'a rect’s box is its corners, in any order',
      { shape: 'rect', coords: [110, 120, 10, 20] },
      { left: 10, top: 20, width: 100, height: 100 },
    ],
    [
      'a poly’s box holds its points',
      { shape: 'poly', coords: [0, 10, 30, 0, 20, 40] },
      { left: 0, top: 0, width: 30, height: 40 },
    ],
  ];
  for (const [name, area, box] of boxes) it(`box: ${name}`, () => assert.deepEqual(boxOf(area), box));

  it('names an area by its label, else by its number', () => {
    assert.equal(areaName({ label: 'Lake' }, 1), 'Lake');
    assert.equal(areaName({}, 2), 'Area 2');
  });
});

describe('web questionTypes: a calculated’s formula', () => {
  it('may use what the service’s allow-list holds, as docs/question-types.md lists it', () => {
    const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'question-types.md'), 'utf8');
    const listed = /`pi`, `e` and the functions `([a-z0-9 ]+)`/.exec(docs);
    assert.ok(listed, 'docs/question-types.md lists a formula’s functions');
    assert.ok(FORMULA_HINT.endsWith(`pi e ${listed[1]}`), FORMULA_HINT);
  });
});

describe('web questionTypes: the words a page says for a type and a count', () => {
  const labels: Array<[string | null, string]> = [
    ['true_false', 'True/false'],
    ['multiple_choice', 'Multiple choice'],
    ['short_answer', 'Short answer'],
    ['gap_fill', 'Gap fill'],
    ['a_future_type', 'a future type'],
    ['constructor', 'constructor'],
    [null, ''],
  ];
  for (const [type, words] of labels) it(`${type} is said “${words}”`, () => assert.equal(typeLabel(type), words));

  const counts: Array<[number, string]> = [
    [1, '1 mark'],
    [2, '2 marks'],
    [0, '0 marks'],
    [0.5, '0.5 marks'],
    [-0.25, '-0.25 marks'],
  ];
  for (const [marks, words] of counts) it(`${marks} is “${words}”`, () => assert.equal(marksText(marks), words));
  it('a plural that is not noun + s', () => {
    assert.equal(plural(1, 'row has', 'rows have'), '1 row has');
    assert.equal(plural(3, 'row has', 'rows have'), '3 rows have');
  });
});
