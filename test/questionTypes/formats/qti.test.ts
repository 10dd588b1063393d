import assert from 'node:assert/strict';
import { qtiName } from '../../../functions/src/interchange/qti/elements';
import { QUESTION_TYPES } from '../../../functions/src/questionTypes';
import { QTI_MAPPINGS } from '../../../functions/src/questionTypes/formats/qti';

// QTI's table of the question types (questionTypes/formats/qti.ts, from each type's qti.ts): the
// reader and writer name no type, so what they can read and write is what this table holds.

/** The interactions the bank reads, by their QTI 2.1 names. */
const INTERACTIONS = [
  'choiceInteraction',
  'textEntryInteraction',
  'extendedTextInteraction',
  'matchInteraction',
  'associateInteraction',
  'orderInteraction',
  'inlineChoiceInteraction',
  'gapMatchInteraction',
  'hotspotInteraction',
  'selectPointInteraction',
  'positionObjectInteraction',
  'graphicGapMatchInteraction',
  'hottextInteraction',
  'uploadInteraction',
];

/** QTI 3's spelling of a 2.1 name: `choiceInteraction` → `qti-choice-interaction`. */
const qti3 = (name: string) => `qti-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

const readersOf = (interaction: string) =>
  QTI_MAPPINGS.filter((m) => Object.hasOwn(m.readers ?? {}, interaction)).map((m) => m.type);

describe("QTI: the question types' mappings", () => {
  it('has a mapping for every type, in the registry’s order', () => {
    assert.deepEqual(
      QTI_MAPPINGS.map((m) => m.type),
      [...QUESTION_TYPES],
    );
  });

  it('writes every type, or names why QTI holds none of it', () => {
    for (const m of QTI_MAPPINGS) {
      if (typeof m.write === 'function') continue;
      assert.ok(m.write.notWritten.trim() !== '', `${m.type}: a refusal says why`);
    }
    const refused = QTI_MAPPINGS.filter((m) => typeof m.write !== 'function').map((m) => m.type);
    assert.deepEqual(
      refused,
      ['calculated'],
      'QTI draws values only in template items, which the export does not write',
    );
  });

  it('reads each interaction, in either version’s spelling, by exactly one reader', () => {
    for (const interaction of INTERACTIONS)
      for (const spelled of [interaction, qti3(interaction)]) {
        const canonical = qtiName({ name: spelled, attrs: {}, children: [] });
        assert.equal(canonical, interaction, spelled);
        assert.equal(
          readersOf(canonical).length,
          1,
          `${spelled} is read by ${readersOf(canonical).join(', ') || 'none'}`,
        );
      }
  });

  it('reads no interaction beyond those', () => {
    const read = QTI_MAPPINGS.flatMap((m) => Object.keys(m.readers ?? {}));
    assert.deepEqual([...read].sort(), [...INTERACTIONS].sort());
  });

  it('has one type for an item that asks nothing, and one for passages', () => {
    assert.equal(QTI_MAPPINGS.filter((m) => m.noInteraction).length, 1);
    assert.equal(QTI_MAPPINGS.filter((m) => m.passage).length, 1);
  });
});
