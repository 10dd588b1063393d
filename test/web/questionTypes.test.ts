import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFINITIONS, TYPE_NAMES } from '../../web/src/questionTypes/definitions';
import type { KeyDraft, QuestionType, QuestionTypeDefinition } from '../../web/src/questionTypes/module';

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

const EMPTY_KEY: KeyDraft = {
  options: '',
  correct_choice: '',
  correct_choices: [],
  correct_text: '',
  truth: 'True',
  tolerance: '',
  max_words: '',
};
const key = (draft: Partial<KeyDraft>): KeyDraft => ({ ...EMPTY_KEY, ...draft });
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
      assert.equal(DEFINITIONS[type].csvExample.question_type, type, `${type}'s CSV row names its type`);
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
