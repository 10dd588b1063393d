import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseAiken, parseGift, parseMoodleXml, parseQtiXml } from '../../functions/src/questionTypes/bankFormats';
import { decodeBankText, detectFormat } from '../../functions/src/interchange/detect';
import { BankFileRefused, type ParsedBank } from '../../functions/src/interchange/model';
import { readCsvRecords } from '../../functions/src/transfer/csvUpload';
import { importEntries } from '../../functions/src/questions/bankEntries';
import { parseHeader, validateRow, type HeaderColumns } from '../../functions/src/questions/csvRows';

// Pure: an import's reading time grows with its file, never with the square of
// it. Every format is fed the shapes that make a backtracking pattern or a
// naive scan start over again and again (long runs of one special character,
// constructs opened and never closed, deep nesting) at two sizes, beside a
// plain file of the same size. Quadratic work is 16 times slower at 4 times the
// size; linear work is 4 times. The bounds leave room for a loaded machine.

const SMALL = 20_000;
const BIG = 80_000;
/** Time at BIG over time at SMALL: linear is 4, quadratic 16. */
const MAX_GROWTH = 8;
/** Time per byte of a worst shape over a plain file's. */
const MAX_PER_BYTE = 10;
/** Below this a time is noise (a timer tick, a collection). */
const FLOOR_MS = 10;

type Reader = (text: string) => Promise<unknown> | unknown;

/** What an import does with the text of a bank file, short of Firestore: detect, decode, parse, validate, sanitize. */
const bankReader =
  (filename: string, parse: (text: string) => ParsedBank): Reader =>
  (text) => {
    const bytes = Buffer.from(text);
    try {
      const format = detectFormat({ filename, bytes });
      const label = format === 'aiken' ? 'Aiken' : 'GIFT';
      return importEntries(parse(decodeBankText(bytes, label)), new Map());
    } catch (err) {
      // A refusal of the whole file is an answer too; anything else is a crash.
      if (err instanceof BankFileRefused) return err;
      throw err;
    }
  };

/** A CSV upload as the import reads it: csv-parse, then each row checked by the question schema. */
const csvReader: Reader = async (text) => {
  let columns: HeaderColumns | undefined;
  await readCsvRecords({ filename: 'bank.csv', stream: Readable.from([Buffer.from(text)]) }, 5000, (record) => {
    if (!columns) {
      const header = parseHeader(record.cells);
      assert.ok('columns' in header, JSON.stringify(header));
      columns = header.columns;
      return;
    }
    validateRow(record.line, columns, record.cells);
  });
};

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const xmlEscaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const csvQuoted = (s: string) => `"${s.replace(/"/g, '""')}"`;

interface Format {
  name: string;
  read: Reader;
  /** Many ordinary questions, about `size` bytes. */
  plain: (size: number) => string;
  /** Each worst shape: a file of about `size` bytes built around one long run. */
  shapes: Array<[string, (size: number) => string]>;
}

/** One shape per unit, each placed by `place` into an otherwise ordinary file. */
const runsOf = (units: string[], place: (run: string) => string, label: string) =>
  units.map((unit): [string, (size: number) => string] => [
    `${label} ${JSON.stringify(unit)}`,
    (size) => place(fill(unit, size)),
  ]);

const SPECIAL = [
  ' ',
  '\t',
  '<',
  '<a',
  '</a',
  '<br',
  '<!--',
  '&',
  '&#x1',
  '{',
  '\\',
  '=',
  '~',
  '#',
  '%',
  '::',
  '[tag:',
  '*',
  '>',
];
const MARKUP = [' ', '<a', '<!--', '&#x1', '=', '~', '#', '[tag:'];
const XML_SPECIAL = [
  ' ',
  '<',
  '<a b="',
  '&',
  '&#',
  '<!--',
  '<![CDATA[',
  '<?',
  '<p>',
  '</p>',
  '<br',
  '@@PLUGINFILE@@/',
  ']]>',
];
const XML_TEXT = ['<', '&', '<!--', '<a b="', ']]>'];

const giftQuestion = (i: number) => `::Q${i}:: What is ${i} + 1? {=${i + 1} ~${i} ~${i + 2}}\n\n`;
const moodleQuestion = (text: string, i = 0) =>
  `<question type="multichoice"><name><text>Q${i}</text></name><questiontext format="html"><text>${text}</text></questiontext>` +
  `<answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer><single>true</single></question>`;
const clozeQuestion = (text: string) =>
  `<question type="cloze"><name><text>C</text></name><questiontext format="html"><text>${text}</text></questiontext></question>`;
const gapselectQuestion = (text: string) =>
  `<question type="gapselect"><name><text>G</text></name><questiontext format="html"><text>${text}</text></questiontext>` +
  `<selectoption><text>a</text><group>1</group></selectoption><selectoption><text>b</text><group>1</group></selectoption></question>`;
const moodle = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>${body}</quiz>`;
const qti = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i" title="t">` +
  `<responseDeclaration identifier="R" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>` +
  `<itemBody>${body}<choiceInteraction responseIdentifier="R" maxChoices="1"><simpleChoice identifier="A">a</simpleChoice>` +
  `<simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody></assessmentItem>`;
const many = (one: (i: number) => string, size: number) => {
  let text = '';
  for (let i = 0; text.length < size; i++) text += one(i);
  return text;
};
const CSV_HEADER = 'question_text,question_type,options,correct_answer,marks,difficulty,text_format,alternatives\n';

const FORMATS: Format[] = [
  {
    name: 'GIFT',
    read: bankReader('bank.gift', parseGift),
    plain: (size) => many(giftQuestion, size),
    shapes: [
      ...runsOf(MARKUP, (run) => `// ${run}x\n::T:: Text {=a ~b}\n`, 'a comment of'),
      ...runsOf(SPECIAL, (run) => `::T:: ${run}x {=a ~b}\n`, 'a text of'),
      ...runsOf(MARKUP, (run) => `::T:: [moodle]Text {=a ~b#${run}x}\n`, 'a feedback of'),
      ...runsOf(['\n', '\n \n'], (run) => `::T:: Text {=a ~b}${run}`, 'a tail of'),
    ],
  },
  {
    name: 'Aiken',
    read: bankReader('bank.txt', parseAiken),
    plain: (size) => many((i) => `What is ${i} + 1?\nA) ${i}\nB) ${i + 1}\nANSWER: B\n\n`, size),
    shapes: [
      ...runsOf(
        [' ', '\t', 'A) ', 'ANSWER', ':', '\n', '{', '::'],
        (run) => `Q ${run}x\nA) a\nB) b\nANSWER: A\n`,
        'a text of',
      ),
      ...runsOf([' ', 'A)', ':'], (run) => `Q\nA) a${run}\nB) b\nANSWER:${run}A\n`, 'an option of'),
    ],
  },
  {
    name: 'Moodle XML',
    read: bankReader('bank.xml', parseMoodleXml),
    plain: (size) => moodle(many((i) => moodleQuestion(`What is ${i} + 1?`, i), size)),
    shapes: [
      ...runsOf(
        XML_SPECIAL,
        (run) => moodle(moodleQuestion(`<![CDATA[${run.replace(/]]>/g, ']]')}x]]>`)),
        'HTML in CDATA of',
      ),
      ...runsOf(XML_TEXT, (run) => moodle(moodleQuestion(xmlEscaped(run))), 'escaped text of'),
      ...runsOf(
        ['a', '/', '?', ' '],
        (run) => moodle(moodleQuestion(xmlEscaped(`<a href="http://a${run} x">l</a>`))),
        'a link of',
      ),
      [
        'elements nested deep',
        (size) => moodle(moodleQuestion(`${'<b>'.repeat(size / 7)}x${'</b>'.repeat(size / 7)}`)),
      ],
      ['spacing in a tag', (size) => moodle(`<question${fill(' ', size)}/>`)],
      ...runsOf(
        ['{1:SA:', '{', '{1:MC:=a~', '\\', '~', '#', '%50%', '[[1]]', '{1:SA}'],
        (run) => moodle(clozeQuestion(xmlEscaped(`${run}x {1:SA:=a~b#c}`))),
        'a cloze text of',
      ),
      ...runsOf(
        ['[[', '[[1', '[[1]]'],
        (run) => moodle(gapselectQuestion(xmlEscaped(`${run}x`))),
        'a gapselect text of',
      ),
    ],
  },
  {
    name: 'QTI',
    read: bankReader('item.xml', (text) => parseQtiXml(text)),
    plain: (size) => qti(many((i) => `<p>What is ${i} + 1? A sum of two numbers.</p>`, size)),
    shapes: [
      ...runsOf(XML_TEXT, (run) => qti(`<p>${xmlEscaped(run)}x</p>`), 'escaped text of'),
      ...runsOf(['?', '../', ' '], (run) => qti(`<img src="${xmlEscaped(run)}x" alt=""/>`), 'an image source of'),
      ['elements nested deep', (size) => qti(`${'<div>'.repeat(size / 11)}x${'</div>'.repeat(size / 11)}`)],
    ],
  },
  {
    name: 'CSV',
    read: csvReader,
    plain: (size) =>
      CSV_HEADER + many((i) => `What is ${i} + 1?,multiple_choice,${i}|${i + 1},${i + 1},1,easy,plain,\n`, size),
    shapes: [
      ...runsOf(
        [' ', '"', '<', '<a', '<!--', '&', '|', ':'],
        (run) => `${CSV_HEADER}${csvQuoted(`${run}x`)},multiple_choice,a|b,a,1,easy,html,\n`,
        'an HTML text of',
      ),
      ...runsOf(
        ['|', ':', ' ', 'a:'],
        (run) => `${CSV_HEADER}Q,short_answer,,a,1,easy,plain,${csvQuoted(`a:${run}`)}\n`,
        'alternatives of',
      ),
    ],
  },
];

async function timeOf(read: Reader, text: string): Promise<number> {
  const start = process.hrtime.bigint();
  await read(text);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface Measure {
  smallMs: number;
  bigMs?: number;
  /** Why it is slower than linear, or null. */
  slow: string | null;
}

/** One shape at both sizes against the plain file's time per byte; the big size is skipped when the small one is already far too slow. */
async function measure(read: Reader, make: (size: number) => string, perByte: number): Promise<Measure> {
  const bound = (bytes: number) => MAX_PER_BYTE * perByte * bytes + FLOOR_MS;
  const small = make(SMALL);
  const smallMs = await timeOf(read, small);
  if (smallMs > 4 * bound(small.length))
    return {
      smallMs,
      slow: `${smallMs.toFixed(0)} ms at ${small.length} bytes, where ${bound(small.length).toFixed(0)} is the bound`,
    };
  const big = make(BIG);
  const bigMs = await timeOf(read, big);
  const growth = Math.max(bigMs, FLOOR_MS) / Math.max(smallMs, FLOOR_MS);
  if (growth > MAX_GROWTH)
    return { smallMs, bigMs, slow: `${smallMs.toFixed(0)} → ${bigMs.toFixed(0)} ms at 4× the size` };
  if (bigMs > bound(big.length))
    return {
      smallMs,
      bigMs,
      slow: `${bigMs.toFixed(0)} ms at ${big.length} bytes, where ${bound(big.length).toFixed(0)} is the bound`,
    };
  return { smallMs, bigMs, slow: null };
}

describe('interchange: reading time grows linearly with the file', function () {
  this.timeout(120_000);
  const figures: string[] = [];
  after(() => {
    if (process.env.LINEAR_TIME_REPORT) console.log(figures.join('\n'));
  });

  for (const format of FORMATS) {
    it(`${format.name}: every worst shape within ${MAX_GROWTH}× the time at 4× the size, and ${MAX_PER_BYTE}× a plain file's time per byte`, async () => {
      const plainText = format.plain(BIG);
      await timeOf(format.read, plainText); // warm up: the grammar, the sanitizer, the JIT
      const plainMs = Math.max(
        Math.min(await timeOf(format.read, plainText), await timeOf(format.read, plainText)),
        FLOOR_MS,
      );
      const perByte = plainMs / plainText.length;
      figures.push(`${format.name} plain: ${plainMs.toFixed(1)} ms at ${plainText.length} bytes`);
      const slow: string[] = [];
      for (const [shape, make] of format.shapes) {
        // Measured again when slow: a loaded machine slows one measurement, quadratic work slows every one.
        let result = await measure(format.read, make, perByte);
        for (let retry = 0; retry < 2 && result.slow !== null; retry++)
          result = await measure(format.read, make, perByte);
        figures.push(`${format.name} ${shape}: ${result.smallMs.toFixed(1)} / ${result.bigMs?.toFixed(1) ?? '-'} ms`);
        if (result.slow !== null) slow.push(`${shape}: ${result.slow}`);
      }
      assert.deepEqual(
        slow,
        [],
        `slower than linear (a plain file: ${plainMs.toFixed(0)} ms at ${plainText.length} bytes)`,
      );
    });
  }
});
