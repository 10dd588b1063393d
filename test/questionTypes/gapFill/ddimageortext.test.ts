import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QuestionInput } from '../../../functions/src/questionTypes';
import { parseMoodleXml } from '../../../functions/src/questionTypes/bankFormats';

// Moodle's drag and drop onto image: the labels placed on the image as a gap fill, one drag gap per
// drop box, so that which label goes where (the key) is kept (docs/question-types.md).

const interop = process.env.INTEROP_FIXTURES ?? path.resolve(__dirname, '../../../../shared/fixtures/interop');
const FIXTURE = path.join(interop, 'moodle-xml/moodle-qtype_ddimageortext__testquestion.moodle.xml');
/** A 1×1 PNG, as a background Moodle carries. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const question = (body: string, background = `<file name="bg.png" encoding="base64">${PNG_1X1}</file>`) =>
  `<quiz><question type="ddimageortext"><name><text>Onto</text></name>` +
  `<questiontext format="html"><text><![CDATA[<p>Label it.</p>]]></text></questiontext>` +
  `<defaultgrade>2</defaultgrade>${background}${body}</question></quiz>`;
const drag = (no: number, text: string, extra = '') =>
  `<drag><no>${no}</no><text><![CDATA[${text}]]></text><draggroup>1</draggroup>${extra}</drag>`;
const drop = (no: number, choice: number, x = 10 * no, y = 5, text = '') =>
  `<drop><text>${text}</text><no>${no}</no><choice>${choice}</choice><xleft>${x}</xleft><ytop>${y}</ytop></drop>`;
const read = (xml: string) => parseMoodleXml(xml).items[0];
/** A draft as the import stores it: its files' placeholders become stored media. */
const asStored = (q: unknown): unknown =>
  JSON.parse(JSON.stringify(q).replaceAll('@@PLUGINFILE@@/', '/api/media/org.'));

describe('moodleXml ddimageortext: labels on an image as a gap fill', () => {
  it('moodle-qtype_ddimageortext__testquestion.moodle.xml: 1 question, 8 drop boxes, each keyed to its label', function () {
    if (!existsSync(FIXTURE)) return this.skip();
    const bank = parseMoodleXml(readFileSync(FIXTURE, 'utf8'));
    assert.deepEqual(
      bank.items.map((i) => [i.source_type, i.status]),
      [['ddimageortext', 'ok']],
    );
    const q = bank.items[0].question!;
    assert.equal(q.question_type, 'gap_fill');
    assert.equal(q.gaps!.length, 8);
    assert.ok(q.gaps!.every((g) => g.kind === 'drag'));
    // The key, drop by drop: box 1 (53,17) ← "mountain belt", box 2 (172,2) ← "continental shelf", box 3 (363,31) ← "ocean trench".
    assert.deepEqual(
      q.gaps!.map((g) => g.answers[0].answer),
      [
        'mountain belt',
        'continental shelf',
        'ocean trench',
        'abyssal plain',
        'continental slope',
        'continental rise',
        'island arc',
        'mid-ocean ridge',
      ],
    );
    assert.equal(q.drag_options!.length, 8, 'the <br/> of each label a space: "island arc"');
    assert.ok(q.drag_options!.includes('island arc'));
    assert.match(q.question_text, /<img src="@@PLUGINFILE@@\/oceanfloorbase\.jpg" alt="" width="\d+" height="\d+" \/>/);
    assert.match(q.question_text, /<li>Box 1 at x 53, y 17: \[\[1\]\]<\/li><li>Box 2 at x 172, y 2: \[\[2\]\]<\/li>/);
    assert.deepEqual([...bank.media.keys()].sort(), ['oceanflooranswer.jpg', 'oceanfloorbase.jpg']);
    const parsed = QuestionInput.safeParse(asStored(q));
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });

  const CASES: Array<{ name: string; body: string; background?: string; status: string; expect: RegExp | string[] }> = [
    {
      name: 'a drop box with its own text is named by it',
      body: drag(1, 'a') + drag(2, 'b') + drop(1, 2, 3, 4, 'North'),
      status: 'ok',
      expect: ['Box 1 (North): [[1]]'],
    },
    {
      name: 'an image drag with a text is that text, warned',
      body: drag(1, 'lung', '<file name="lung.png" encoding="base64">AAAA</file>') + drop(1, 1),
      status: 'ok',
      expect: ['The image drags 1 ("lung") are carried as their text: labels here are texts'],
    },
    {
      name: 'an image drag without text is unsupported, by name',
      body: drag(1, '', '<file name="lung.png" encoding="base64">AAAA</file>') + drop(1, 1),
      status: 'unsupported',
      expect: /Drag 1 is an image without text/,
    },
    {
      name: 'a drop box expecting a drag the question lacks is an error',
      body: drag(1, 'a') + drop(1, 9),
      status: 'error',
      expect: /Drop box 1 expects drag 9/,
    },
    { name: 'no drop boxes is an error', body: drag(1, 'a'), status: 'error', expect: /no drop zones/ },
    { name: 'no drags is an error', body: drop(1, 1), status: 'error', expect: /no drags/ },
    {
      name: 'no background image is an error',
      body: drag(1, 'a') + drop(1, 1),
      background: '',
      status: 'error',
      expect: /no background image/,
    },
    {
      name: 'a box without its place is an error',
      body: drag(1, 'a') + '<drop><no>1</no><choice>1</choice><xleft>x</xleft><ytop>1</ytop></drop>',
      status: 'error',
      expect: /Drop box 1 has no place/,
    },
    {
      name: 'an infinite drag makes every label reusable, warned when not all are',
      body: drag(1, 'a', '<infinite/>') + drag(2, 'b') + drop(1, 1) + drop(2, 1),
      status: 'ok',
      expect: ['1 of the 2 drags may be used more than once in Moodle; here every label may'],
    },
  ];
  for (const c of CASES)
    it(c.name, () => {
      const item = read(question(c.body, c.background));
      assert.equal(item.status, c.status, item.message ?? '');
      if (c.expect instanceof RegExp) return assert.match(item.message!, c.expect);
      const seen = [item.question!.question_text, ...item.warnings].join('\n');
      for (const e of c.expect) assert.ok(seen.includes(e), `${e} in ${seen}`);
      const parsed = QuestionInput.safeParse(asStored(item.question));
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    });

  it('scores as Moodle does: marks as given, each box one gap of equal weight, a reused label reusable', () => {
    const item = read(question(drag(1, 'a', '<infinite/>') + drag(2, 'b') + drop(1, 1) + drop(2, 1)));
    assert.equal(item.question!.marks, 2);
    assert.equal(item.question!.drag_reusable, true);
    assert.deepEqual(
      item.question!.gaps!.map((g) => [g.answers, g.weight]),
      [
        [[{ answer: 'a', credit: 100 }], undefined],
        [[{ answer: 'a', credit: 100 }], undefined],
      ],
    );
  });
});
