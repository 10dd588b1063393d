import assert from 'node:assert/strict';
import { folderNameOf } from '../../functions/src/questions/bankEntries';
import { MAX_FOLDER_NAME, RenameFolderBody } from '../../functions/src/folders/schemas';
import { isWellFormedText } from '../../functions/src/shared/text';

// Pure: a bank file's category path made the name of a folder, which the
// folder API must accept as it is (PATCH /api/folders/{id} with its own name).
// The API counts a name's characters as code points (zod's max): an emoji is one.

const long = (letter: string, length: number) => letter.repeat(length);
const EMOJI = '\u{1F600}'; // one character, two UTF-16 units
const characters = (text: string) => [...text].length;

describe('questions/bankEntries folderNameOf', () => {
  const cases: Array<{ case: string; segments: string[] | null; name: string | null; warned: boolean }> = [
    { case: 'no category', segments: null, name: null, warned: false },
    { case: 'only blank segments', segments: [' ', ''], name: null, warned: false },
    {
      case: 'segments joined with " / ", trimmed',
      segments: [' Science ', 'Physics'],
      name: 'Science / Physics',
      warned: false,
    },
    {
      case: 'exactly the limit: kept whole',
      segments: [long('a', 47), long('b', 50)],
      name: `${long('a', 47)} / ${long('b', 50)}`,
      warned: false,
    },
    {
      case: 'one segment past the limit: its end, after "… / "',
      segments: [long('x', 150)],
      name: `… / ${long('x', MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'a long last segment: the earlier ones dropped',
      segments: ['Top', long('y', 120)],
      name: `… / ${long('y', MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'emoji within the limit in characters, past it in UTF-16 units: kept whole',
      segments: [EMOJI.repeat(60)],
      name: EMOJI.repeat(60),
      warned: false,
    },
    {
      case: 'emoji past the limit: the last that fit, counted as characters',
      segments: [EMOJI.repeat(150)],
      name: `… / ${EMOJI.repeat(MAX_FOLDER_NAME - 4)}`,
      warned: true,
    },
    {
      case: 'many short segments: the last ones that fit (9 of "Level 2x": 96 characters after "… / ")',
      segments: Array.from({ length: 30 }, (_, i) => `Level ${i}`),
      name: `… / ${Array.from({ length: 30 }, (_, i) => `Level ${i}`)
        .slice(-9)
        .join(' / ')}`,
      warned: true,
    },
  ];
  for (const c of cases) {
    it(`${c.case}`, () => {
      const folder = folderNameOf(c.segments);
      assert.equal(folder.name, c.name);
      assert.equal(folder.warning !== undefined, c.warned, folder.warning);
    });
  }

  const accepted: Array<{ case: string; segments: string[] }> = [
    { case: 'one segment of 150 letters', segments: [long('x', 150)] },
    { case: 'a segment of 99 then one of 99', segments: [long('a', 99), long('b', 99)] },
    { case: 'emoji past the limit', segments: [EMOJI.repeat(150)] },
    { case: 'emoji after one letter, past the limit', segments: [`a${EMOJI.repeat(120)}`] },
    { case: 'emoji segments', segments: [EMOJI.repeat(40), `b${EMOJI.repeat(40)}`, EMOJI.repeat(40)] },
    { case: 'a long segment starting with spaces inside', segments: [`x${' '.repeat(120)}y`] },
  ];
  for (const c of accepted) {
    it(`makes a name the folder API accepts as it is: ${c.case}`, () => {
      const { name } = folderNameOf(c.segments);
      assert.ok(name !== null);
      const parsed = RenameFolderBody.safeParse({ name });
      assert.ok(parsed.success, `${characters(name)} characters: ${JSON.stringify(parsed.error?.issues)}`);
      assert.equal(parsed.data.name, name, 'the API keeps the name as the import made it');
      assert.ok(characters(name) <= MAX_FOLDER_NAME, `${characters(name)} characters`);
      assert.ok(isWellFormedText(name), 'no surrogate pair cut in two');
    });
  }
});
