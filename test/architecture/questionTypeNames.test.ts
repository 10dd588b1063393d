import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { QUESTION_TYPES } from '../../functions/src/questionTypes';

// A question type is named only in its own folder (functions/src/questionTypes/): everything else
// asks the registry. A string literal that is a type's name, anywhere else in functions/src, is a
// switch on a type waiting to be missed by the next one.

const source = join(__dirname, '..', '..', 'functions', 'src');

/** Folders that still name types, each with why: to be emptied, not added to. */
const ALLOWED: Record<string, string> = {};

/**
 * Literals that are a format's own word and name no type, each in the one file where it stands, with
 * why: a type switch anywhere else, or another literal in the same file, is still found.
 */
const FORMAT_WORDS: Record<string, string> = {
  "interchange/qti/html.ts: 'hottext'": "QTI 2.1's <hottext> element, among those spelled in lower case as HTML's are",
  "interchange/qti/read.ts: 'ordering'": "a QTI test section's <ordering shuffle>, whether its items are shuffled",
  "interchange/model.ts: 'numeric'": "a gap's kind (text, numeric, select, drag), which gap fill's mappings fill",
  "shared/wallClock.ts: 'numeric'": "Intl.DateTimeFormat's year: 'numeric' (four digits)",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Type names that are also the names of fields elsewhere (a test's `description`): counted only on a line about a type. */
const ALSO_FIELD_NAMES = new Set(['description']);

/** Each `file:line: literal` naming a type as a whole string literal ('essay', "numeric", `true_false`). */
function namings(root: string, skip: (file: string) => boolean): string[] {
  const literal = new RegExp(`(['"\`])(${QUESTION_TYPES.join('|')})\\1`, 'g');
  return tsFiles(root).flatMap((path) => {
    const file = relative(root, path).split('\\').join('/');
    if (skip(file)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        [...line.matchAll(literal)]
          .filter((m) => !ALSO_FIELD_NAMES.has(m[2]) || /type/i.test(line))
          .map((m) => `${file}:${i + 1}: ${m[0]}`),
      );
  });
}

describe('question type names', () => {
  it('no file of functions/src outside questionTypes/ names a type (but the allowed folders and format words)', () => {
    const found = namings(
      source,
      (file) => file.startsWith('questionTypes/') || Object.keys(ALLOWED).some((folder) => file.startsWith(folder)),
    ).filter((naming) => !(naming.replace(/:\d+:/, ':') in FORMAT_WORDS));
    assert.deepEqual(found, [], `ask the registry (questionTypes/) instead:\n${found.join('\n')}`);
  });

  it('each format word still stands where it is allowed, once (a stale one leaves the list)', () => {
    const found = namings(source, (file) => file.startsWith('questionTypes/')).map((n) => n.replace(/:\d+:/, ':'));
    for (const word of Object.keys(FORMAT_WORDS))
      assert.equal(found.filter((n) => n === word).length, 1, `${word}: ${FORMAT_WORDS[word]}`);
  });

  it('the allowed folders still name types (an emptied one leaves the list)', () => {
    for (const folder of Object.keys(ALLOWED))
      assert.ok(
        namings(join(source, folder), () => false).length > 0,
        `${folder} names no type any more: take it off ALLOWED`,
      );
  });

  it('the check finds a naming where there is one', () => {
    assert.ok(namings(join(source, 'questionTypes'), () => false).length >= QUESTION_TYPES.length);
  });
});
