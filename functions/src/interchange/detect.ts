import { BankFileRefused, type InterchangeFormat } from './model';

// Pure: which format a bank file is in, and its text. The format comes from
// ?format= when given, else from the file's extension, else from its content;
// the text must be UTF-8 (with or without a BOM), as Moodle demands.

/** How messages name each format. */
export const FORMAT_LABELS: Record<InterchangeFormat, string> = {
  csv: 'CSV',
  gift: 'GIFT',
  aiken: 'Aiken',
  moodle_xml: 'Moodle XML',
  qti: 'QTI',
};

/** The line (1-based) that byte `offset` is on; CRLF, LF and a lone CR each end one. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) line++;
    else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) line++;
  }
  return line;
}

/** Where the first byte that is not UTF-8 is: found a block at a time, then byte by byte within it. */
function firstInvalidByte(bytes: Uint8Array): number {
  const BLOCK = 65536;
  let decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (; start < bytes.length; start += BLOCK) {
    try {
      decoder.decode(bytes.subarray(start, start + BLOCK), { stream: true });
    } catch {
      break;
    }
  }
  // A throw resets the decoder: replay the good blocks, then step one byte at a time.
  decoder = new TextDecoder('utf-8', { fatal: true });
  decoder.decode(bytes.subarray(0, start), { stream: true });
  for (let i = start; i < Math.min(bytes.length, start + BLOCK); i++) {
    try {
      decoder.decode(bytes.subarray(i, i + 1), { stream: true });
    } catch {
      return i;
    }
  }
  return bytes.length;
}

/**
 * The text of a bank file: UTF-8 with or without a BOM, CRLF or a lone CR
 * turned to LF. Anything else (UTF-16, Windows-1252, Latin-1, a binary file)
 * is refused with BankFileRefused, saying so, as Moodle does.
 */
export function decodeBankText(bytes: Uint8Array, formatLabel: string): string {
  const mustBe = `${formatLabel} format files must use UTF-8.`;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new BankFileRefused(`The file you selected uses UTF-16 character encoding. ${mustBe}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BankFileRefused(
      `The file you selected does not use UTF-8 character encoding. ${mustBe}`,
      `line ${lineAt(bytes, firstInvalidByte(bytes))}`,
    );
  }
  // UTF-16 without a BOM decodes as "valid" UTF-8 full of NULs; no text file has one.
  const nul = text.indexOf('\u0000');
  if (nul >= 0)
    throw new BankFileRefused(
      `The file you selected contains NUL characters: it is not UTF-8 text (UTF-16, or not a text file). ${mustBe}`,
      `line ${text.slice(0, nul).split(/\r\n|\r|\n/).length}`,
    );
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

const QTI_ROOTS = new Set([
  'assessmentItem',
  'assessmentTest',
  'assessmentSection',
  'qti-assessment-item',
  'qti-assessment-test',
  'qti-assessment-section',
  // QTI 1.2: detected as QTI so that the QTI reader refuses it naming the version.
  'questestinterop',
]);

/** The local name of the root element of XML text, or null if the text does not start like XML. */
export function xmlRootName(text: string): string | null {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at);
      if (end < 0) return null;
      at = end + 2;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at);
      if (end < 0) return null;
      at = end + 3;
    } else if (text.startsWith('<!', at)) {
      // A DOCTYPE, maybe with an internal subset in [ ]; the XML reader refuses it later.
      let depth = 0;
      let i = at + 2;
      for (; i < text.length; i++) {
        if (text[i] === '[') depth++;
        else if (text[i] === ']') depth--;
        else if (text[i] === '>' && depth <= 0) break;
      }
      if (i >= text.length) return null;
      at = i + 1;
    } else break;
  }
  const root = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(at, at + 200));
  return root ? root[1].slice(root[1].indexOf(':') + 1) : null;
}

function formatOfRoot(root: string): InterchangeFormat | 'manifest' | null {
  if (root === 'quiz') return 'moodle_xml';
  if (QTI_ROOTS.has(root)) return 'qti';
  if (root === 'manifest') return 'manifest';
  return null;
}

const ACCEPTED =
  'CSV (.csv), GIFT (.gift or .txt), Aiken (.txt), Moodle XML (.xml), QTI (an .xml item or a .zip content package)';
const SAY_WHICH = 'or say which with ?format=csv, gift, aiken, moodle_xml or qti';

function xmlFormat(root: string | null, name: string): InterchangeFormat {
  const format = root === null ? null : formatOfRoot(root);
  if (format === 'manifest')
    throw new BankFileRefused(
      `${name} is an IMS manifest alone: import the whole QTI content package (the .zip with imsmanifest.xml and its items)`,
    );
  if (format) return format;
  throw new BankFileRefused(
    root === null
      ? `${name} is not XML with a root element; accepted are ${ACCEPTED}, ${SAY_WHICH}`
      : `${name} has the root element <${root}>, which is neither Moodle XML (<quiz>) nor QTI (<qti-assessment-item>, <assessmentItem>…); ${SAY_WHICH}`,
  );
}

/** A GIFT answer block: "{" then "}" (an essay), "=", "~", "#", "%" or T/F/TRUE/FALSE; not an escaped "\{". */
const GIFT_BLOCK = /(?<!\\)\{\s*(?:\}|[=~#%]|(?:TRUE|FALSE|T|F)\s*[}#])/gi;
/** Spacing within the line only: `\s*` would run on over every blank line below, from every line start. */
const GIFT_MARK = /^[^\S\n\r\u2028\u2029]*(?:\$CATEGORY:|::)/m;
const AIKEN_ANSWER = /^[ \t]*ANSWER\s*:/gim;
/** Lines that are no GIFT question's: // comments, and Aiken's option lines (an option may read "{}"). */
const NOT_GIFT_TEXT = /^[ \t]*(?:\/\/|[A-Z][).]).*$/gm;

/** GIFT or Aiken, by counting each one's mark of a question: answer blocks against ANSWER lines. */
export function giftOrAiken(text: string): 'gift' | 'aiken' | null {
  const giftText = text.replace(NOT_GIFT_TEXT, '');
  const gift = (giftText.match(GIFT_BLOCK) ?? []).length;
  const aiken = (text.match(AIKEN_ANSWER) ?? []).length;
  if (aiken > gift) return 'aiken';
  if (gift > 0) return 'gift';
  if (GIFT_MARK.test(giftText)) return 'gift';
  return null;
}

/** Our CSV's header: a first line naming question_text and question_type among its cells. */
function looksLikeOurCsv(text: string): boolean {
  const first = text.slice(0, text.search(/\r|\n|$/));
  const cells = first.split(',').map((c) => c.trim().replace(/^"|"$/g, '').trim().toLowerCase());
  return cells.includes('question_text') && cells.includes('question_type');
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const ZIP_MAGIC = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
];

/** Only for telling the format: bad bytes become U+FFFD here; decodeBankText refuses them later. */
const sniffText = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

/**
 * The format of an uploaded bank file, as the contract orders it: `?format=`
 * wins; else the extension (.csv, .gift, .txt → GIFT or Aiken by content,
 * .xml → by root element, .zip → a QTI package); else the content. A file
 * whose format cannot be told is refused, naming the formats and ?format=.
 */
export function detectFormat(input: {
  filename: string | undefined;
  bytes: Uint8Array;
  explicit?: InterchangeFormat;
}): InterchangeFormat {
  if (input.explicit) return input.explicit;
  const filename = input.filename?.trim() ?? '';
  const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const name = base === '' ? 'The file' : `"${base}"`;

  switch (extension) {
    case 'csv':
      return 'csv';
    case 'gift':
      return 'gift';
    case 'zip':
      return 'qti';
    case 'xml':
      return xmlFormat(xmlRootName(sniffText(input.bytes)), name);
    case 'txt': {
      const format = giftOrAiken(sniffText(input.bytes));
      if (format) return format;
      throw new BankFileRefused(
        `Cannot tell whether ${name} is GIFT or Aiken: it has neither GIFT answer blocks ({…}) nor Aiken "ANSWER:" lines; say which with ?format=gift or ?format=aiken`,
      );
    }
  }

  if (ZIP_MAGIC.some((magic) => startsWith(input.bytes, magic))) return 'qti';
  const text = sniffText(input.bytes);
  const root = xmlRootName(text);
  if (root !== null) {
    const format = formatOfRoot(root);
    // "<?xml" says XML for sure; a bare "<" may be a GIFT or Aiken question starting with HTML.
    if (format !== null || /^\uFEFF?\s*<\?xml/.test(text)) return xmlFormat(root, name);
  }
  if (looksLikeOurCsv(text)) return 'csv';
  const format = giftOrAiken(text);
  if (format) return format;
  throw new BankFileRefused(
    `Cannot tell the format of ${name}: accepted are ${ACCEPTED}; name the file with one of these extensions ${SAY_WHICH}`,
  );
}
