import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeBankText, detectFormat, giftOrAiken, xmlRootName } from '../../functions/src/interchange/detect';
import { BankFileRefused, type InterchangeFormat } from '../../functions/src/interchange/model';

// Pure: a bank file's text and format, no emulator needed.

const repoRoot = path.resolve(__dirname, '..', '..');
const ownFixtures = path.join(repoRoot, 'test', 'fixtures', 'interchange', 'aiken');
const interop = process.env.INTEROP_FIXTURES ?? path.resolve(repoRoot, '../shared/fixtures/interop');

const bytes = (text: string) => new TextEncoder().encode(text);
const own = (name: string) => new Uint8Array(readFileSync(path.join(ownFixtures, name)));
const refused = (message: RegExp, where?: string) => (error: unknown) => {
  assert.ok(error instanceof BankFileRefused, `not a BankFileRefused: ${String(error)}`);
  assert.match(error.message, message);
  if (where !== undefined) assert.equal(error.where, where);
  return true;
};

const NOT_UTF8 = 'The file you selected does not use UTF-8 character encoding. GIFT format files must use UTF-8.';

describe('interchange/detect decodeBankText', () => {
  it('decodes UTF-8 and keeps every character', () => {
    assert.equal(decodeBankText(bytes('Café – ünïcode ✓ 日本\n'), 'GIFT'), 'Café – ünïcode ✓ 日本\n');
  });

  it('drops a UTF-8 BOM', () => {
    const text = decodeBankText(own('bom.txt'), 'Aiken');
    assert.ok(text.startsWith('How many legs'));
  });

  it('turns CRLF and a lone CR into LF', () => {
    assert.equal(
      decodeBankText(own('crlf.txt'), 'Aiken'),
      'How many sides has a triangle?\nA) Three\nB) Four\nANSWER: A\n',
    );
    assert.equal(decodeBankText(bytes('a\rb\r\nc\n'), 'GIFT'), 'a\nb\nc\n');
  });

  it("refuses bytes that are not UTF-8 with Moodle's message naming the format, and the line of the first bad byte", () => {
    assert.throws(
      () => decodeBankText(own('windows-1252.txt'), 'Aiken'),
      (error: unknown) => {
        assert.ok(error instanceof BankFileRefused);
        assert.equal(
          error.message,
          'The file you selected does not use UTF-8 character encoding. Aiken format files must use UTF-8.',
        );
        assert.equal(error.where, 'line 2');
        return true;
      },
    );
  });

  it('finds the first bad byte past the first block of the file', () => {
    const good = 'x'.repeat(70_000) + '\n\n';
    const file = new Uint8Array([...bytes(good), 0xff, 0x0a]);
    assert.throws(() => decodeBankText(file, 'GIFT'), refused(/does not use UTF-8/, 'line 3'));
  });

  it('refuses an overlong or truncated UTF-8 sequence', () => {
    assert.throws(() => decodeBankText(new Uint8Array([0x61, 0xc0, 0xaf]), 'GIFT'), refused(/does not use UTF-8/));
    assert.throws(() => decodeBankText(new Uint8Array([0x61, 0xe2, 0x82]), 'GIFT'), refused(/does not use UTF-8/));
  });

  it('refuses UTF-16 with a BOM, either byte order, saying it is UTF-16', () => {
    assert.throws(
      () => decodeBankText(own('utf-16.txt'), 'Aiken'),
      refused(/^The file you selected uses UTF-16 character encoding\. Aiken format files must use UTF-8\.$/),
    );
    const bigEndian = new Uint8Array([0xfe, 0xff, 0x00, 0x41]);
    assert.throws(() => decodeBankText(bigEndian, 'GIFT'), refused(/uses UTF-16 .* GIFT format files must use UTF-8/));
  });

  it('refuses UTF-16 without a BOM by its NUL characters', () => {
    assert.throws(
      () => decodeBankText(own('utf-16le-no-bom.txt'), 'Aiken'),
      refused(/NUL characters.*UTF-16.*Aiken format files must use UTF-8/, 'line 1'),
    );
  });
});

describe('interchange/detect xmlRootName', () => {
  it('skips the declaration, comments, processing instructions and a DOCTYPE, and drops a prefix', () => {
    const text =
      '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<?pi x?>\n<!DOCTYPE x [ <!ENTITY a "b"> ]>\n<q:quiz xmlns:q="u">';
    assert.equal(xmlRootName(text), 'quiz');
  });

  it('is null for text that does not start with an element', () => {
    assert.equal(xmlRootName('Question {=a ~b}'), null);
    assert.equal(xmlRootName('<?xml version="1.0"'), null);
  });
});

describe('interchange/detect giftOrAiken', () => {
  it('takes answer blocks for GIFT: choices, an essay, true/false, numeric', () => {
    assert.equal(giftOrAiken('Q {=a ~b}\n\nE {}\n\nT {T}\n\nF {FALSE#no}\n\nN {#3:1}'), 'gift');
  });

  it('takes ANSWER lines for Aiken, even with braces in the text', () => {
    assert.equal(giftOrAiken('What is {1, 2} ∪ {3}?\nA) {1, 2, 3}\nB) {}\nANSWER: A'), 'aiken');
  });

  it('ignores escaped braces and // comment lines', () => {
    assert.equal(giftOrAiken('// {=not a block}\nQ \\{=x\\}\nA) a\nB) b\nANSWER: A'), 'aiken');
  });

  it('takes a file with only a category or a title for GIFT, and gives null with neither mark', () => {
    assert.equal(giftOrAiken('$CATEGORY: top/maths\n'), 'gift');
    assert.equal(giftOrAiken('Just some words\nand more'), null);
  });
});

describe('interchange/detect detectFormat', () => {
  const detect = (filename: string | undefined, text: string, explicit?: InterchangeFormat) =>
    detectFormat({ filename, bytes: bytes(text), explicit });
  const aiken = 'Q\nA) a\nB) b\nANSWER: A\n';
  const gift = '::T:: Q {=a ~b}\n';

  it('lets ?format= win over the extension and the content', () => {
    assert.equal(detect('bank.csv', gift, 'aiken'), 'aiken');
    assert.equal(detect(undefined, '', 'qti'), 'qti');
  });

  it('takes .csv, .gift and .zip by their extension, in any case', () => {
    assert.equal(detect('bank.CSV', aiken), 'csv');
    assert.equal(detect('bank.Gift', aiken), 'gift');
    assert.equal(detect('C:\\exports\\package.ZIP', 'not a zip'), 'qti');
  });

  it('tells GIFT from Aiken by content in a .txt file, and refuses one with neither', () => {
    assert.equal(detect('bank.txt', aiken), 'aiken');
    assert.equal(detect('bank.txt', gift), 'gift');
    assert.throws(() => detect('notes.txt', 'Hello\n'), refused(/GIFT or Aiken.*\?format=gift or \?format=aiken/));
  });

  it('tells Moodle XML from QTI in a .xml file by its root element', () => {
    const xml = (root: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="x"></${root}>`;
    assert.equal(detect('bank.xml', xml('quiz')), 'moodle_xml');
    for (const root of [
      'assessmentItem',
      'assessmentTest',
      'qti-assessment-item',
      'qti-assessment-test',
      'questestinterop',
    ])
      assert.equal(detect('item.xml', xml(root)), 'qti', root);
  });

  it('refuses a .xml file of another kind naming its root, and a manifest alone asking for the package', () => {
    assert.throws(() => detect('page.xml', '<html><body/></html>'), refused(/root element <html>.*\?format=/));
    assert.throws(() => detect('imsmanifest.xml', '<manifest/>'), refused(/IMS manifest alone.*\.zip/));
    assert.throws(() => detect('empty.xml', ''), refused(/not XML with a root element/));
  });

  it('sniffs a file without a known extension: a zip, XML, our CSV header, GIFT or Aiken', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]);
    assert.equal(detectFormat({ filename: undefined, bytes: zip }), 'qti');
    assert.equal(detect('upload', '<?xml version="1.0"?><quiz/>'), 'moodle_xml');
    assert.equal(detect('upload.dat', '<qti-assessment-item/>'), 'qti');
    assert.equal(detect(undefined, '"question_text",question_type,options\nQ,essay,\n'), 'csv');
    assert.equal(detect(undefined, aiken), 'aiken');
    assert.equal(detect('', gift), 'gift');
  });

  it('takes a GIFT question that starts with HTML for GIFT, not XML', () => {
    assert.equal(detect(undefined, '<p>Which?</p> {=a ~b}\n'), 'gift');
  });

  it('refuses what it cannot tell, naming the accepted formats and ?format=', () => {
    assert.throws(
      () => detect('data.json', '{"a": 1}'),
      refused(/Cannot tell the format of "data\.json": accepted are CSV .*GIFT .*Aiken .*Moodle XML .*QTI .*\?format=/),
    );
    assert.throws(() => detect(undefined, ''), refused(/Cannot tell the format of The file/));
    assert.throws(() => detect('upload', '<?xml version="1.0"?><html/>'), refused(/root element <html>/));
  });
});

describe('interchange/detect on the interop fixtures', () => {
  before(function () {
    if (!existsSync(interop)) {
      console.warn(`    (skipped: no interop fixtures at ${interop}; set INTEROP_FIXTURES)`);
      this.skip();
    }
  });

  /** Every fixture's format, by its folder; the parsers' expected-output JSON is no bank file. */
  const expected = (folder: string, file: string): InterchangeFormat | 'refused' => {
    if (file.endsWith('.json')) return 'refused';
    return (
      {
        aiken: 'aiken',
        gift: 'gift',
        'moodle-xml': 'moodle_xml',
        qti12: 'qti',
        qti21: 'qti',
        qti30: 'qti',
        'qti-package': 'qti',
      } as const
    )[folder as 'aiken'];
  };
  const fixtures = () =>
    readdirSync(interop, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(interop, d.name)).map((file) => ({ folder: d.name, file })));

  const outcome = (filename: string | undefined, file: Uint8Array) => {
    try {
      return detectFormat({ filename, bytes: file });
    } catch (error) {
      if (error instanceof BankFileRefused) return 'refused';
      throw error;
    }
  };

  it('detects every fixture by its name, and the same by its content alone', () => {
    const found = fixtures();
    assert.ok(found.length >= 25, `only ${found.length} fixtures found`);
    for (const { folder, file } of found) {
      const content = new Uint8Array(readFileSync(path.join(interop, folder, file)));
      const want = expected(folder, file);
      assert.ok(want, `no expectation for ${folder}/${file}`);
      assert.equal(outcome(file, content), want, `${folder}/${file} by name`);
      assert.equal(outcome(undefined, content), want, `${folder}/${file} by content`);
    }
  });

  it("refuses moodle__questions_encoding_windows-1252.gift.txt with Moodle's message", () => {
    const file = readFileSync(path.join(interop, 'gift', 'moodle__questions_encoding_windows-1252.gift.txt'));
    assert.equal(detectFormat({ filename: 'moodle__questions_encoding_windows-1252.gift.txt', bytes: file }), 'gift');
    assert.throws(
      () => decodeBankText(file, 'GIFT'),
      (error: unknown) => {
        assert.ok(error instanceof BankFileRefused);
        assert.equal(error.message, NOT_UTF8);
        assert.match(error.where ?? '', /^line \d+$/);
        return true;
      },
    );
  });

  it('decodes every other text fixture as UTF-8', () => {
    for (const { folder, file } of fixtures()) {
      // A content package is a zip, read by its entries: no text to decode.
      if (file.includes('windows-1252') || file.endsWith('.zip')) continue;
      assert.doesNotThrow(
        () => decodeBankText(readFileSync(path.join(interop, folder, file)), folder),
        `${folder}/${file}`,
      );
    }
  });
});
