import assert from 'node:assert/strict';
import { QUESTION_TYPES } from '../../../functions/src/questionTypes';
import { MOODLE_XML_MAPPINGS } from '../../../functions/src/questionTypes/formats/moodleXml';
import { parseMoodleXml } from '../../../functions/src/questionTypes/bankFormats';

// Pure: the table the Moodle XML kit reads and writes through. Every type says what it is in Moodle
// XML (a writer, or why Moodle cannot hold it), and every Moodle type we read has one reader, so
// that a new type cannot be missed by the format and no Moodle type is read two ways.

/** The Moodle types our import reads, as Moodle names them in `<question type="…">`. */
const MOODLE_TYPES_READ = [
  'multichoice',
  'truefalse',
  'shortanswer',
  'numerical',
  'essay',
  'match',
  'matching',
  'ordering',
  'multianswer',
  'cloze',
  'gapselect',
  'ddwtos',
  'ddimageortext',
  'ddmarker',
  'calculated',
  'calculatedsimple',
  'calculatedmulti',
  'description',
];

/** Each Moodle type read, with the types that read it. */
function readers(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [type, mapping] of Object.entries(MOODLE_XML_MAPPINGS))
    for (const moodleType of Object.keys(mapping.reads))
      found.set(moodleType, [...(found.get(moodleType) ?? []), type]);
  return found;
}

describe('Moodle XML: the table of the types’ mappings', () => {
  it('has a mapping for every type of the registry, and for nothing else', () => {
    assert.deepEqual(Object.keys(MOODLE_XML_MAPPINGS).sort(), [...QUESTION_TYPES].sort());
  });

  it('writes every type, or names why Moodle cannot hold it', () => {
    for (const [type, { write }] of Object.entries(MOODLE_XML_MAPPINGS))
      assert.ok(
        typeof write === 'function' || (typeof write.cannot === 'string' && write.cannot !== ''),
        `${type} neither writes nor names why it cannot be written`,
      );
  });

  it('reads each Moodle type by exactly one type', () => {
    const twice = [...readers()].filter(([, types]) => types.length > 1);
    assert.deepEqual(twice, []);
  });

  it('reads every Moodle type the import has read', () => {
    assert.deepEqual([...readers().keys()].sort(), [...MOODLE_TYPES_READ].sort());
  });

  it('reads a Moodle type no type reads as not supported', () => {
    const [item] = parseMoodleXml(
      '<quiz><question type="essayrubric"><name><text>R</text></name></question></quiz>',
    ).items;
    assert.equal(item.status, 'unsupported');
    assert.equal(item.message, 'The question type "essayrubric" is not one we support: not imported');
  });
});
