import assert from 'node:assert/strict';
import {
  choiceOf,
  importGate,
  importTitle,
  type ImportMode,
  type LastSend,
  sentPartial,
} from '../../web/src/admin/shared/importGate';

const file = { name: 'roster.csv', size: 10, lastModified: 1 } as File;
const check = (failed: number, refused = false): LastSend => ({ dryRun: true, refused, failed });

describe('web importGate: the check-then-import flow of the roster and question imports', () => {
  it('a choice is the file and its options; no file is no choice', () => {
    assert.equal(choiceOf(null, 'csv'), '');
    assert.equal(choiceOf(file), 'roster.csv\u000010\u00001');
    assert.notEqual(choiceOf(file, 'csv'), choiceOf(file, 'gift'));
  });

  const partials: [boolean, ImportMode, boolean][] = [
    [true, 'all_or_nothing', true],
    [true, 'partial', true],
    [false, 'all_or_nothing', false],
    [false, 'partial', true],
  ];
  for (const [dryRun, mode, partial] of partials)
    it(`a ${dryRun ? 'check' : 'send'} in ${mode} asks for partial: ${partial}`, () =>
      assert.equal(sentPartial(dryRun, mode), partial));

  const k = choiceOf(file);
  const gates: [string, LastSend | null, ImportMode, string, { wouldRefuse: boolean; canImport: boolean }][] = [
    ['nothing checked yet', null, 'all_or_nothing', '', { wouldRefuse: false, canImport: false }],
    ['a clean check', check(0), 'all_or_nothing', k, { wouldRefuse: false, canImport: true }],
    ['a check with failures, all or nothing', check(2), 'all_or_nothing', k, { wouldRefuse: true, canImport: false }],
    ['a check with failures, partial', check(2), 'partial', k, { wouldRefuse: false, canImport: true }],
    ['a check refused whole', check(2, true), 'all_or_nothing', '', { wouldRefuse: false, canImport: false }],
    [
      'after an import',
      { dryRun: false, refused: false, failed: 1 },
      'all_or_nothing',
      '',
      { wouldRefuse: false, canImport: false },
    ],
  ];
  for (const [name, last, mode, checked, gate] of gates)
    it(`gate: ${name}`, () => assert.deepEqual(importGate(last, mode, checked, k), gate));

  it('gate: another file than the one checked cannot be imported', () =>
    assert.equal(importGate(check(0), 'partial', k, choiceOf(file, 'other')).canImport, false));

  const titles: [{ wouldRefuse: boolean; canImport: boolean }, string | undefined][] = [
    [{ wouldRefuse: true, canImport: false }, 'All or nothing would refuse this file'],
    [{ wouldRefuse: false, canImport: false }, 'Check the file first'],
    [{ wouldRefuse: false, canImport: true }, undefined],
  ];
  for (const [gate, title] of titles)
    it(`title: ${title ?? 'none when Import is enabled'}`, () => assert.equal(importTitle(gate), title));
});
