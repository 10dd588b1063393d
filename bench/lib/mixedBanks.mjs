// @ts-check
// Question banks of every type the importers read, at any size: a Moodle XML file cycling through
// fourteen Moodle question types, and a QTI 3.0 content package cycling through the interactions,
// whose items are lengthened so that the package unpacks to a chosen size. What an import bench
// feeds the service; written by hand after Moodle's and QTI's own examples, not by our exporters.
import { crc32, deflateRawSync } from 'node:zlib';

/** A 2 × 2 PNG (every ddmarker question carries the same one: an import stores identical bytes once). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
).toString('base64');

const cdata = (html) => `<![CDATA[${html}]]>`;
const text = (value) => `<text>${value}</text>`;
const name = (label) => `<name>${text(label)}</name><defaultgrade>1</defaultgrade>`;
const stem = (html) => `<questiontext format="html">${text(cdata(html))}</questiontext>`;
const answer = (fraction, value, extra = '') =>
  `<answer fraction="${fraction}" format="html">${text(value)}${extra}</answer>`;

/** One Moodle question per type, `i` making each one its own. */
const MOODLE_KINDS = [
  (i, lead) =>
    `<question type="multichoice">${name(`MC ${i}`)}${stem(`<p>${lead} What is ${i} + 1?</p>`)}<single>true</single>` +
    `${answer(100, i + 1)}${answer(0, i + 2)}${answer(0, i)}</question>`,
  (i, lead) =>
    `<question type="multichoice">${name(`MS ${i}`)}${stem(`<p>${lead} Which are even?</p>`)}<single>false</single>` +
    `${answer(50, i * 2)}${answer(50, i * 2 + 2)}${answer(-100, i * 2 + 1)}</question>`,
  (i, lead) =>
    `<question type="truefalse">${name(`TF ${i}`)}${stem(`<p>${lead} ${i} is a number.</p>`)}` +
    `${answer(100, 'true')}${answer(0, 'false')}</question>`,
  (i, lead) =>
    `<question type="shortanswer">${name(`SA ${i}`)}${stem(`<p>${lead} Name item ${i}.</p>`)}<usecase>0</usecase>` +
    `${answer(100, `item${i}`)}${answer(50, `it${i}`)}</question>`,
  (i, lead) =>
    `<question type="numerical">${name(`NUM ${i}`)}${stem(`<p>${lead} Half of ${i * 2}?</p>`)}` +
    `${answer(100, i, '<tolerance>0.5</tolerance>')}</question>`,
  (i, lead) =>
    `<question type="essay">${name(`ES ${i}`)}${stem(`<p>${lead} Describe item ${i}.</p>`)}` +
    `<responseformat>plain</responseformat></question>`,
  (i, lead) =>
    `<question type="match">${name(`MA ${i}`)}${stem(`<p>${lead} Match the capitals (${i}).</p>`)}<shuffleanswers>true</shuffleanswers>` +
    [
      ['France', 'Paris'],
      ['Italy', 'Rome'],
      ['Spain', 'Madrid'],
    ]
      .map(
        ([q, a]) =>
          `<subquestion format="html">${text(`${q} ${i}`)}<answer>${text(`${a} ${i}`)}</answer></subquestion>`,
      )
      .join('') +
    `<subquestion format="html">${text('')}<answer>${text(`Berlin ${i}`)}</answer></subquestion></question>`,
  (i, lead) =>
    `<question type="ordering">${name(`OR ${i}`)}${stem(`<p>${lead} Put in order (${i}).</p>`)}` +
    `<layouttype>VERTICAL</layouttype><selecttype>ALL</selecttype><selectcount>0</selectcount>` +
    `<gradingtype>LONGEST_ORDERED_SUBSET</gradingtype>` +
    ['one', 'two', 'three', 'four'].map((w, n) => answer(n + 1, `${w} ${i}`)).join('') +
    `</question>`,
  (i, lead) =>
    `<question type="cloze">${name(`CL ${i}`)}<questiontext format="html">${text(
      cdata(
        `<p>${lead} ${i} plus one is {1:NUMERICAL:=${i + 1}:0}; the capital of France is {1:SHORTANSWER:=Paris}; ` +
          `the sky is {1:MULTICHOICE:=blue~green~red}.</p>`,
      ),
    )}</questiontext></question>`,
  (i, lead) =>
    `<question type="gapselect">${name(`GS ${i}`)}${stem(`<p>${lead} The [[1]] sat on the [[2]] (${i}).</p>`)}` +
    `<selectoption>${text('cat')}<group>1</group></selectoption><selectoption>${text('mat')}<group>1</group></selectoption>` +
    `<selectoption>${text('dog')}<group>1</group></selectoption></question>`,
  (i, lead) =>
    `<question type="ddwtos">${name(`DW ${i}`)}${stem(`<p>${lead} Water is [[1]] and ice is [[2]] (${i}).</p>`)}` +
    `<dragbox>${text('liquid')}<group>1</group></dragbox><dragbox>${text('solid')}<group>1</group></dragbox>` +
    `<dragbox>${text('gas')}<group>1</group></dragbox></question>`,
  (i, lead) =>
    `<question type="description">${name(`DE ${i}`)}${stem(`<p>${lead} Read section ${i} first.</p>`)}</question>`,
  (i, lead) =>
    `<question type="calculatedsimple">${name(`CA ${i}`)}${stem(`<p>${lead} What is {a} + {b}? (${i})</p>`)}` +
    `${answer(100, '{a} + {b}', '<tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>2</correctanswerlength>')}` +
    `<dataset_definitions>${['a', 'b']
      .map(
        (v) =>
          `<dataset_definition><status>${text('private')}</status><name>${text(v)}</name><type>calculatedsimple</type>` +
          `<distribution>${text('uniform')}</distribution><minimum>${text(1)}</minimum><maximum>${text(10)}</maximum>` +
          `<decimals>${text(0)}</decimals><itemcount>0</itemcount><dataset_items></dataset_items></dataset_definition>`,
      )
      .join('')}</dataset_definitions></question>`,
  (i, lead) =>
    `<question type="ddmarker">${name(`DM ${i}`)}${stem(`<p>${lead} Mark the top left corner (${i}).</p>`)}` +
    `<file name="grid.png" encoding="base64">${TINY_PNG}</file>` +
    `<drag><no>1</no>${text('corner')}<noofdrags>1</noofdrags></drag>` +
    `<drop><no>1</no><shape>rectangle</shape><coords>0,0;1,1</coords><choice>1</choice></drop></question>`,
];

/** How many Moodle question types one cycle of the mixed bank holds. */
export const MOODLE_TYPES = MOODLE_KINDS.length;

/** A Moodle XML file of `count` questions, every type in turn, in 20 categories. */
export function moodleMixedBank(count, runId) {
  const perCategory = Math.ceil(count / 20);
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'];
  for (let i = 0; i < count; i++) {
    if (i % perCategory === 0)
      parts.push(
        `<question type="category"><category>${text(`$course$/Bench/${runId}/Part ${i / perCategory + 1}`)}</category></question>\n`,
      );
    parts.push(MOODLE_KINDS[i % MOODLE_KINDS.length](i, runId), '\n');
  }
  parts.push('</quiz>\n');
  return parts.join('');
}

const QTI3 = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';

/** A QTI 3.0 item: one declaration and interaction of each kind in turn, its prompt lengthened by `padding` characters. */
const QTI_KINDS = [
  (i) => ({
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>`,
    body: `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1"><qti-simple-choice identifier="A">${i + 1}</qti-simple-choice><qti-simple-choice identifier="B">${i + 2}</qti-simple-choice><qti-simple-choice identifier="C">${i}</qti-simple-choice></qti-choice-interaction>`,
  }),
  (i) => ({
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair"><qti-correct-response><qti-value>A X</qti-value><qti-value>B Y</qti-value></qti-correct-response></qti-response-declaration>`,
    body: `<qti-match-interaction response-identifier="RESPONSE" max-associations="2"><qti-simple-match-set><qti-simple-associable-choice identifier="A" match-max="1">France ${i}</qti-simple-associable-choice><qti-simple-associable-choice identifier="B" match-max="1">Italy ${i}</qti-simple-associable-choice></qti-simple-match-set><qti-simple-match-set><qti-simple-associable-choice identifier="X" match-max="1">Paris ${i}</qti-simple-associable-choice><qti-simple-associable-choice identifier="Y" match-max="1">Rome ${i}</qti-simple-associable-choice></qti-simple-match-set></qti-match-interaction>`,
  }),
  (i) => ({
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="ordered" base-type="identifier"><qti-correct-response><qti-value>A</qti-value><qti-value>B</qti-value><qti-value>C</qti-value></qti-correct-response></qti-response-declaration>`,
    body: `<qti-order-interaction response-identifier="RESPONSE"><qti-simple-choice identifier="A">first ${i}</qti-simple-choice><qti-simple-choice identifier="B">second ${i}</qti-simple-choice><qti-simple-choice identifier="C">third ${i}</qti-simple-choice></qti-order-interaction>`,
  }),
  (i) => ({
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"><qti-correct-response><qti-value>item${i}</qti-value></qti-correct-response></qti-response-declaration>`,
    body: `<p>Name item ${i}: <qti-text-entry-interaction response-identifier="RESPONSE"/></p>`,
  }),
  (i) => ({
    declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier"><qti-correct-response><qti-value>H2</qti-value></qti-correct-response></qti-response-declaration>`,
    body: `<qti-hottext-interaction response-identifier="RESPONSE" max-choices="1"><p>Pick the verb (${i}): the <qti-hottext identifier="H1">dog</qti-hottext> <qti-hottext identifier="H2">runs</qti-hottext> <qti-hottext identifier="H3">fast</qti-hottext>.</p></qti-hottext-interaction>`,
  }),
];

const WORDS = 'the quick brown fox jumps over the lazy dog while a student reads the passage again ';

/** One item's XML, with its own stylesheet. */
function qtiItem(i, runId) {
  const { declaration, body } = QTI_KINDS[i % QTI_KINDS.length](i);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<qti-assessment-item xmlns="${QTI3}" identifier="item-${i}" title="Item ${i}" adaptive="false" time-dependent="false">` +
    `${declaration}<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>` +
    `<qti-stylesheet href="style-${i}.css" type="text/css"/><qti-item-body><p>${runId} item ${i}. ${WORDS.repeat(12)}</p>${body}</qti-item-body>` +
    `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/></qti-assessment-item>\n`
  );
}

/** A stylesheet of about `bytes` (authoring tools write one per item; text, so a zip packs it small). */
function stylesheet(i, bytes) {
  const rule = (n) => `.item-${i} .block-${n} { margin: 0 0 ${n % 9}px; color: #${['333', '555', '777'][n % 3]}; }\n`;
  const rules = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const line = rule(n);
    rules.push(line);
    size += line.length;
  }
  return rules.join('');
}

/** A zip (deflate) of `entries` [path, text], written by hand: the service's own reader is what is measured. */
function zipOf(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [path, content] of entries) {
    const data = Buffer.from(content, 'utf8');
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(path, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += header.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A QTI 3.0 content package of `items` items, each with its own stylesheet, that unpacks to about
 * `unpackedBytes`. Its bulk is the stylesheets: a question's text is at most 2,000 characters, and
 * media past 20 MB is refused, so a package this large that imports is mostly markup. At most 499
 * items (a package holds at most 1,000 entries: the manifest, and an item and its stylesheet each).
 * @returns {{ zip: Buffer, unpacked: number }}
 */
export function qtiPackage(items, unpackedBytes, runId) {
  const entries = [];
  const resources = [];
  for (let i = 0; i < items; i++) {
    const path = `items/item-${i}.xml`;
    const item = qtiItem(i, runId);
    entries.push([path, item], [`items/style-${i}.css`, stylesheet(i, unpackedBytes / items - item.length)]);
    resources.push(
      `<resource identifier="R${i}" type="imsqti_item_xmlv3p0" href="${path}"><file href="${path}"/><file href="items/style-${i}.css"/></resource>`,
    );
  }
  const manifest =
    `<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="bench-${runId}">` +
    `<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata><organizations/>` +
    `<resources>${resources.join('')}</resources></manifest>\n`;
  entries.unshift(['imsmanifest.xml', manifest]);
  return { zip: zipOf(entries), unpacked: entries.reduce((sum, [, content]) => sum + Buffer.byteLength(content), 0) };
}
