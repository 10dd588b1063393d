import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { adminDb } from '../support/admin';
import { createTenant, createUser } from '../support/fixtures';
import { freshIp, get, patch, post } from '../support/http';
import { BASE_URL } from '../support/env';
import { publishTest, startOk } from '../attempts/fixtures';
import type { QuestionFixture } from '../exams/fixtures';
import { expectError } from '../support/assertions';
import { multipartBody, postBytes } from '../support/multipart';
import { buildZip } from '../interchange/zipBuilder';

// POST /api/questions/import with the bank formats other systems export:
// GIFT, Aiken, Moodle XML and QTI, over real HTTP. Each file here is our own;
// the real files of other projects are read in test/interchange.

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A fresh Client Admin of the tenant: the import is rate limited per user. */
const admin = async (t: Tenant) => (await createUser('client_admin', t.clientId)).token;

function upload(token: string, filename: string, content: string | Buffer, query = '') {
  const form = multipartBody([{ field: 'file', filename, contentType: 'application/octet-stream', content }]);
  return postBytes(`/api/questions/import${query ? `?${query}` : ''}`, form.body, form.contentType, { token });
}

const questionsOf = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/questions`).get()).docs.map((d) => d.data());
const foldersOf = async (clientId: string) =>
  (await adminDb.collection(`clients/${clientId}/folders`).get()).docs.map((d) => d.data());

/** Makes a file unique, so that no test trips over another's earlier import of the same bytes. */
const tag = () => `// ${randomUUID()}\n`;

const GIFT = `$CATEGORY: $course$/Science/Physics

::Speed of light:: Light in vacuum travels at about how many km/s? {#300000:1000}

::Planets:: Which are gas giants? {
  ~%50%Jupiter#Yes, a gas giant.
  ~%50%Saturn
  ~%-100%Mars#No, rocky.
}

::Moons:: How many moons has Mars? {
  #two
}


$CATEGORY: $course$/Science/Chemistry

::Water:: [html]<p>The formula of <b>water</b> is H<sub>2</sub>O.<script>alert(1)</script></p> {T####Two hydrogens, one oxygen.}
`;

describe('POST /api/questions/import (GIFT, Aiken, Moodle XML, QTI)', function () {
  this.timeout(60_000);
  let t: Tenant;
  before(async () => {
    t = await createTenant();
  });

  describe('a GIFT file', () => {
    it('refuses the whole file by default for a question it cannot import, reporting every question by line and writing nothing', async () => {
      const before = (await questionsOf(t.clientId)).length;
      const res = await upload(await admin(t), 'bank.gift', tag() + GIFT);
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.body.questions.map((q: any) => [q.index, q.title, q.status, q.question_type]),
        [
          [1, 'Speed of light', 'ok', 'numeric'],
          [2, 'Planets', 'ok', 'multiple_select'],
          [3, 'Moons', 'error', null],
          [4, 'Water', 'ok', 'true_false'],
        ],
        res.text,
      );
      assert.match(res.body.questions[2].message, /"two" is not a number/);
      assert.equal(res.body.questions[2].line, 12);
      assert.equal((await questionsOf(t.clientId)).length, before, 'nothing written');
    });

    it('a dry run in partial mode reports every question in file order, with its line, type and warnings', async () => {
      const res = await upload(await admin(t), 'bank.gift', tag() + GIFT, 'mode=partial&dry_run=true');
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(
        res.body.questions.map((q: any) => [q.index, q.line, q.title, q.status, q.question_type]),
        [
          [1, 4, 'Speed of light', 'ok', 'numeric'],
          [2, 6, 'Planets', 'ok', 'multiple_select'],
          [3, 12, 'Moons', 'error', null],
          [4, 19, 'Water', 'ok', 'true_false'],
        ],
        res.text,
      );
      assert.deepEqual(res.body.questions[3].warnings, ['Removed from the text: <script>']);
    });

    it('in partial mode imports exactly the supported questions, with partial credit, feedback, sanitized HTML and category folders', async () => {
      const t2 = await createTenant();
      const res = await upload(await admin(t2), 'bank.gift', tag() + GIFT, 'mode=partial');
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported, 3);
      assert.equal(res.body.failed, 1);
      assert.equal(res.body.question_ids.length, 3);
      const stored = await questionsOf(t2.clientId);
      assert.equal(stored.length, 3);
      const planets = stored.find((q) => q.title === 'Planets')!;
      assert.deepEqual(planets.option_credits, [50, 50, -100]);
      assert.equal(planets.option_feedback[0], 'Yes, a gas giant.');
      const water = stored.find((q) => q.title === 'Water')!;
      assert.equal(water.text_format, 'html');
      assert.doesNotMatch(water.question_text, /script|alert/);
      assert.match(water.question_text, /<b>water<\/b>/);
      assert.equal(water.feedback, 'Two hydrogens, one oxygen.');
      assert.ok(
        res.body.questions[3].warnings.some((w: string) => /script/i.test(w)),
        `the removed script is a warning: ${res.text}`,
      );
      const folders = await foldersOf(t2.clientId);
      assert.deepEqual(folders.map((f) => f.name).sort(), ['Science / Chemistry', 'Science / Physics']);
      const physics = folders.find((f) => f.name === 'Science / Physics')!;
      assert.equal(stored.find((q) => q.title === 'Speed of light')!.folder_id, physics.id);
    });

    it('files questions into an existing folder of the same name (case and spacing aside) instead of creating another', async () => {
      const t3 = await createTenant();
      const token = await admin(t3);
      const first = await upload(token, 'a.gift', `${tag()}$CATEGORY: Algebra\n::One:: 1+1? {=2 ~3}\n`);
      assert.equal(first.status, 201, first.text);
      const second = await upload(token, 'b.gift', `${tag()}$CATEGORY:  algebra \n::Two:: 2+2? {=4 ~5}\n`);
      assert.equal(second.status, 201, second.text);
      const folders = await foldersOf(t3.clientId);
      assert.equal(folders.length, 1, JSON.stringify(folders));
      const stored = await questionsOf(t3.clientId);
      assert.ok(stored.every((q) => q.folder_id === folders[0].id));
    });

    it('with ?folder_id= files every question in that folder; another organization’s folder is 403', async () => {
      const t4 = await createTenant();
      const other = await createTenant();
      const token = await admin(t4);
      const created = await post('/api/folders', { name: 'Imported' }, { token });
      assert.equal(created.status, 201, created.text);
      const res = await upload(
        token,
        'c.gift',
        `${tag()}$CATEGORY: Elsewhere\n::Q:: 1? {=1 ~2}\n`,
        `folder_id=${created.body.id}`,
      );
      assert.equal(res.status, 201, res.text);
      assert.equal((await questionsOf(t4.clientId))[0].folder_id, created.body.id);
      assert.equal((await foldersOf(t4.clientId)).length, 1, 'no folder made for the category');
      const theirs = await post('/api/folders', { name: 'Theirs' }, { token: other.admin.token });
      assert.equal(theirs.status, 201, theirs.text);
      const foreign = await upload(token, 'd.gift', `${tag()}::Q:: 1? {=1 ~2}\n`, `folder_id=${theirs.body.id}`);
      expectError(foreign, 403, 'FORBIDDEN');
    });

    it('a dry run reports and writes nothing: no question, no folder, no import record', async () => {
      const t5 = await createTenant();
      const res = await upload(await admin(t5), 'bank.gift', tag() + GIFT, 'mode=partial&dry_run=true');
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.dry_run, true);
      assert.equal(res.body.imported, 3);
      assert.equal(res.body.questions.length, 4);
      assert.equal((await questionsOf(t5.clientId)).length, 0);
      assert.equal((await foldersOf(t5.clientId)).length, 0);
    });

    it('a numeric answer that is not a number is an error on that question, never "accept anything"', async () => {
      const res = await upload(await admin(t), 'n.gift', `${tag()}::Bad:: How many? {#abc}\n\n::Good:: 2? {#2}\n`);
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.body.questions.map((q: any) => [q.title, q.status]),
        [
          ['Bad', 'error'],
          ['Good', 'ok'],
        ],
      );
      assert.match(res.body.questions[0].message, /abc|number/i);
    });

    it('refuses a file that is not UTF-8, saying so', async () => {
      const latin1 = Buffer.from(`${tag()}::Q:: Gr\xf6\xdfe? {=ja ~nein}\n`, 'latin1');
      const res = await upload(await admin(t), 'latin.gift', latin1);
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.message, /UTF-8/);
    });

    it('refuses 5,001 questions whole', async () => {
      const lines = Array.from({ length: 5001 }, (_, i) => `::Q${i}:: ${i}+1? {=${i + 1} ~0}\n`).join('\n');
      const res = await upload(await admin(t), 'many.gift', tag() + lines);
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.message, /5000|5,000/);
    });

    it('refuses a 6 MB file with 413', async () => {
      const res = await upload(await admin(t), 'big.gift', Buffer.alloc(6 * 1024 * 1024, 'a'));
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('a refusal reports the whole file (the real files of other projects)', () => {
    const interop = join(__dirname, '..', '..', '..', 'shared', 'fixtures', 'interop');
    // Each real file with one question the bank refuses added, so that it mixes good and refused ones.
    const giftWithABadQuestion = () =>
      Buffer.concat([
        readFileSync(join(interop, 'gift', 'moodle__questions.gift.txt')),
        Buffer.from('\n\n::Bad count:: How many? {#many}\n'),
      ]);
    const moodleWithAnUnsupportedQuestion = () =>
      Buffer.from(
        readFileSync(join(interop, 'moodle-xml', 'moodle__sample_questions_with_old_image_tag.xml'), 'utf8').replace(
          '</quiz>',
          '<question type="ddimageortext"><name><text>Onto the image</text></name><questiontext><text>Drag the labels.</text></questiontext></question></quiz>',
        ),
      );
    // TAO's own ordering, packaged beside a drawing item, which no type here can hold.
    const taoPackage = () =>
      buildZip({
        'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="tao-items"><organizations/><resources>
<resource identifier="history" type="imsqti_item_xmlv2p1" href="items/history.xml"><file href="items/history.xml"/></resource>
<resource identifier="drawing" type="imsqti_item_xmlv2p1" href="items/drawing.xml"><file href="items/drawing.xml"/></resource>
</resources></manifest>`,
        'items/history.xml': readFileSync(join(interop, 'qti21', 'tao__sample-history.xml')),
        'items/drawing.xml': `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="drawing" title="Draw" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="file"/>
<itemBody><p>Draw a triangle.</p><drawingInteraction responseIdentifier="RESPONSE"><object type="image/png" data="canvas.png"/></drawingInteraction></itemBody>
</assessmentItem>`,
      });
    const csvWithABadRow = () =>
      Buffer.concat([
        readFileSync(join(__dirname, '..', '..', 'examples', 'questions.csv')),
        Buffer.from('\nWhich is odd?,multiple_choice,1|2,3,1,easy,,\n'),
      ]);
    const files: Array<{ format: string; name: string; bytes: () => Buffer | Promise<Buffer>; query?: string }> = [
      {
        format: 'GIFT',
        name: 'moodle__questions.gift.txt',
        bytes: giftWithABadQuestion,
        query: 'format=gift',
      },
      {
        format: 'Aiken',
        name: 'moodle__aiken_errors.txt',
        bytes: () => readFileSync(join(interop, 'aiken', 'moodle__aiken_errors.txt')),
        query: 'format=aiken',
      },
      {
        format: 'Moodle XML',
        name: 'moodle__sample_questions_with_old_image_tag.xml',
        bytes: moodleWithAnUnsupportedQuestion,
      },
      {
        format: 'QTI',
        name: 'tao-items.zip',
        bytes: taoPackage,
      },
      { format: 'CSV', name: 'questions.csv', bytes: csvWithABadRow },
    ];
    for (const file of files) {
      it(`${file.format}: the 400 lists every question in file order, the ok ones too, as the partial dry run does`, async () => {
        const t9 = await createTenant();
        const token = await admin(t9);
        const query = file.query ? `${file.query}&` : '';
        const bytes = await file.bytes();
        const refused = await upload(token, file.name, bytes, file.query ?? '');
        expectError(refused, 400, 'VALIDATION_ERROR');
        const checked = await upload(token, file.name, bytes, `${query}mode=partial&dry_run=true`);
        assert.equal(checked.status, 201, checked.text);
        assert.ok(
          checked.body.questions.some((q: any) => q.status === 'ok') &&
            checked.body.questions.some((q: any) => q.status !== 'ok'),
          `the file mixes good and refused questions: ${checked.text}`,
        );
        assert.deepEqual(refused.body.questions, checked.body.questions);
        assert.equal(refused.body.questions_total, undefined);
        assert.equal((await questionsOf(t9.clientId)).length, 0, 'nothing written');
      });
    }
  });

  describe('a long category', () => {
    it('makes a folder that can be renamed to its own name (at most 100 characters, as the folder API counts them)', async () => {
      const t10 = await createTenant();
      const token = await admin(t10);
      const category = `Course/${'Chapter '.repeat(10)}/${'x'.repeat(98)}`;
      const res = await upload(token, 'long.gift', `${tag()}$CATEGORY: ${category}\n\n::Q:: 1? {=1 ~2}\n`);
      assert.equal(res.status, 201, res.text);
      const [folder] = await foldersOf(t10.clientId);
      assert.ok(folder.name.startsWith('… / '), folder.name);
      const renamed = await patch(`/api/folders/${folder.id}`, { name: folder.name }, { token });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.name, folder.name);
    });
  });

  describe('examples/bank.gift (the walkthrough’s file)', () => {
    it('imports six questions (a matching among them) into their category folders in partial mode, refusing the one whose answer is not a number', async () => {
      const t0 = await createTenant();
      const file = readFileSync(join(__dirname, '..', '..', 'examples', 'bank.gift'));
      const res = await upload(await admin(t0), 'bank.gift', file, 'mode=partial');
      assert.equal(res.status, 201, res.text);
      assert.deepEqual([res.body.imported, res.body.failed], [6, 1]);
      assert.deepEqual(
        res.body.questions.filter((q: any) => q.status !== 'ok').map((q: any) => [q.line, q.title, q.status]),
        [[26, 'Moons', 'error']],
      );
      assert.deepEqual((await foldersOf(t0.clientId)).map((f) => f.name).sort(), [
        'Science / Chemistry',
        'Science / Physics',
        'Writing',
      ]);
    });
  });

  describe('an Aiken file', () => {
    it('imports its questions as multiple choice, text shown as written', async () => {
      const t6 = await createTenant();
      const aiken = `Which tag is <b>bold</b> & strong?\nA) <b>\nB) <i>\nANSWER: A\n\nWhat is 2+2?\nA. 3\nB. 4\nANSWER: B\n\n${tag().replace('// ', 'X')}`;
      const res = await upload(await admin(t6), 'quiz.txt', aiken, 'format=aiken&mode=partial');
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.imported, 2, res.text);
      const stored = await questionsOf(t6.clientId);
      const tags = stored.find((q) => q.question_text.startsWith('Which tag'))!;
      assert.equal(tags.question_type, 'multiple_choice');
      assert.equal(tags.question_text, 'Which tag is <b>bold</b> & strong?');
      assert.notEqual(tags.text_format, 'html');
      assert.equal(tags.correct_answer, '<b>');
    });
  });

  describe('a Moodle XML file', () => {
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const xml = (body: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${randomUUID()} -->\n<quiz>${body}</quiz>`;
    const question = (name: string, text: string, files = '') => `
  <question type="truefalse">
    <name><text>${name}</text></name>
    <questiontext format="html"><text><![CDATA[${text}]]></text>${files}</questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>`;

    it('stores the images it carries and serves them at /api/media/{id} to the organization’s admins', async () => {
      const t7 = await createTenant();
      const token = await admin(t7);
      const res = await upload(
        token,
        'img.xml',
        xml(
          question(
            'Pixel',
            '<p>Is this a pixel? <img src="@@PLUGINFILE@@/dot.png" alt="dot"></p>',
            `<file name="dot.png" path="/" encoding="base64">${PNG.toString('base64')}</file>`,
          ),
        ),
      );
      assert.equal(res.status, 201, res.text);
      const [stored] = await questionsOf(t7.clientId);
      const match = /\/api\/media\/([^"]+)"/.exec(stored.question_text);
      assert.ok(match, stored.question_text);
      const media = await fetch(`${process.env.API_BASE_URL ?? 'http://127.0.0.1:5000'}/api/media/${match[1]}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(media.status, 200);
      assert.equal(media.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await media.arrayBuffer()), PNG);
    });

    it('makes a question whose "image" is really a script, or whose file is missing, an error, and stores no media on a refusal', async () => {
      const t8 = await createTenant();
      const res = await upload(
        await admin(t8),
        'bad.xml',
        xml(
          question(
            'Script',
            '<img src="@@PLUGINFILE@@/x.png">',
            `<file name="x.png" path="/" encoding="base64">${Buffer.from('<script>alert(1)</script>').toString('base64')}</file>`,
          ) + question('Missing', '<img src="@@PLUGINFILE@@/gone.png">'),
        ),
      );
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.body.questions.map((q: any) => q.status),
        ['error', 'error'],
      );
      assert.match(res.body.questions[0].message, /x\.png/);
      assert.match(res.body.questions[1].message, /gone\.png/);
      assert.equal((await adminDb.collection(`clients/${t8.clientId}/media`).get()).size, 0);
    });

    it('Moodle’s multichoice.xml: its link to the mp3 kept as a link to /api/media/{id}, which a taker reads while the attempt holds the question and no other organization can', async function () {
      const fixture = join(__dirname, '../../../shared/fixtures/interop/moodle-xml/moodle__multichoice.xml');
      if (!existsSync(fixture)) this.skip();
      const [t9, other] = await Promise.all([createTenant(), createTenant()]);
      const token = await admin(t9);
      const res = await upload(token, 'multichoice.xml', readFileSync(fixture));
      assert.equal(res.status, 201, res.text);
      const [doc] = (await adminDb.collection(`clients/${t9.clientId}/questions`).get()).docs;
      const stored = { ...(doc.data() as QuestionFixture), id: doc.id };
      const link = /<a href="\/api\/media\/([^"]+)"[^>]*>Listen to this greeting:<\/a>/.exec(stored.question_text);
      assert.ok(link, stored.question_text);
      const mediaId = link[1];
      const { test } = await publishTest(token, t9.clientId, { questions: [stored] });
      const student = await createUser('student', t9.clientId);
      const attempt = await startOk(student.token, { test_id: test.id });
      const read = (who: string, attemptId?: string) =>
        fetch(`${BASE_URL}/api/media/${mediaId}${attemptId ? `?attempt_id=${encodeURIComponent(attemptId)}` : ''}`, {
          headers: { Authorization: `Bearer ${who}`, 'X-Forwarded-For': freshIp() },
        });
      const heard = await read(student.token, attempt.attempt_id);
      assert.equal(heard.status, 200, await heard.clone().text());
      assert.equal(heard.headers.get('content-type'), 'audio/mpeg');
      assert.deepEqual([...Buffer.from(await heard.arrayBuffer()).subarray(0, 3)], [0x49, 0x44, 0x33]); // "ID3"
      const stranger = await createUser('student', other.clientId);
      assert.equal((await read(stranger.token, attempt.attempt_id)).status, 403);
      assert.equal((await read(await admin(other))).status, 404);
    });

    it('refuses a DOCTYPE (an XML bomb or an external entity) whole', async () => {
      for (const body of [
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><quiz>&lol2;</quiz>',
        '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><quiz>&xxe;</quiz>',
      ]) {
        const res = await upload(await admin(t), 'bomb.xml', body);
        expectError(res, 400, 'VALIDATION_ERROR');
        assert.match(res.body.message, /DOCTYPE|entit/i);
      }
    });
  });

  describe('a QTI package', () => {
    /** A zip whose one entry is named `name` (stored raw, so any name at all can be written). */
    function zipOf(entries: Array<{ name: string; data: Buffer; deflate?: boolean }>): Buffer {
      const locals: Buffer[] = [];
      const centrals: Buffer[] = [];
      let offset = 0;
      for (const e of entries) {
        const name = Buffer.from(e.name, 'utf8');
        const data = e.deflate ? deflateRawSync(e.data) : e.data;
        const local = Buffer.alloc(30);
        local.writeUInt32LE(0x04034b50, 0);
        local.writeUInt16LE(20, 4);
        local.writeUInt16LE(e.deflate ? 8 : 0, 8);
        local.writeUInt32LE(0, 14); // crc unchecked by the size guard
        local.writeUInt32LE(data.length, 18);
        local.writeUInt32LE(e.data.length, 22);
        local.writeUInt16LE(name.length, 26);
        const central = Buffer.alloc(46);
        central.writeUInt32LE(0x02014b50, 0);
        central.writeUInt16LE(20, 4);
        central.writeUInt16LE(20, 6);
        central.writeUInt16LE(e.deflate ? 8 : 0, 10);
        central.writeUInt32LE(data.length, 20);
        central.writeUInt32LE(e.data.length, 24);
        central.writeUInt16LE(name.length, 28);
        central.writeUInt32LE(offset, 42);
        locals.push(local, name, data);
        centrals.push(central, name);
        offset += 30 + name.length + data.length;
      }
      const dir = Buffer.concat(centrals);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(dir.length, 12);
      end.writeUInt32LE(offset, 16);
      return Buffer.concat([...locals, dir, end]);
    }

    it('refuses a zip with an entry leaving the package', async () => {
      const res = await upload(
        await admin(t),
        'slip.zip',
        zipOf([{ name: '../evil.txt', data: Buffer.from(randomUUID()) }]),
      );
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('refuses a zip bomb (over 50 MB unpacked) without unpacking it', async () => {
      const bomb = zipOf([{ name: 'imsmanifest.xml', data: Buffer.alloc(60 * 1024 * 1024, 0x20), deflate: true }]);
      assert.ok(bomb.length < 5 * 1024 * 1024, `the bomb is small (${bomb.length} bytes)`);
      const res = await upload(await admin(t), 'bomb.zip', bomb);
      expectError(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.message, /50 MB|unpack/i);
    });
  });

  describe('who may import', () => {
    it('a Student is refused with 403', async () => {
      const student = await createUser('student', t.clientId);
      const res = await upload(student.token, 'bank.gift', tag() + GIFT);
      expectError(res, 403, 'FORBIDDEN');
      const list = await get(`/api/questions`, { token: student.token });
      assert.equal(list.status, 403);
    });
  });
});
