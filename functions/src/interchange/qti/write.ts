import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { mediaOfQuestion, type ExportMedia, type ExportQuestion, type ExportTest } from '../exportModel';
import { CATEGORY_SEPARATOR, exportedTitle, formatNumber } from '../conventions';
import { comment, element, textElement, XML_DECLARATION } from '../xmlText';
import { mediaHref, type PartsWriter, textBlock } from './itemParts';
import type { QtiTypeFacts, QtiTypes } from './port';

// Pure (no Firebase): the bank's questions as a QTI 3.0 content package, a zip
// holding imsmanifest.xml, one qti-assessment-item per question
// (items/<id>.xml), their media beside them (items/media/<mediaId>/<name>,
// referred to relatively) and an assessment test: a test's own structure (its
// questions, then one section per pool with a qti-selection), or for a bank
// export one section per run of questions of one folder (sections carry
// categories; a question in no folder sits in an untitled section). Each item's
// declarations, interaction and response processing are its type's (the writer
// the types it is given name: questionTypes/<type>/qti.ts); this is their envelope.
//
// Scores are in marks: SCORE is MAXSCORE (the marks) for a correct answer,
// partial credit is a qti-mapping of points (credit × marks / 100), numeric
// answers compare with qti-equal and their tolerance. Conventions a reader of
// our own packages relies on, beyond the standard: the text's format on the
// wrapper (`data-text-format`: plain text is not HTML), `data-untitled` on the
// question text's wrapper when the item's title was made from the text (the
// question has none), the types' own (an essay's word limit as `data-max-words`…),
// the difficulty in the manifest's LOM
// (educational/difficulty: easy, medium, difficult), a section titled "" for
// questions in no folder. The reader (qti/read.ts) reads them back.

export const QTI_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const QTI_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd';
export const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const CP_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
export const LOM_NS = 'http://ltsc.ieee.org/xsd/LOM';
const LOM_XSD = 'https://purl.imsglobal.org/spec/md/v1p3/schema/xsd/imsmd_loose_v1p3p2.xsd';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** On the question text's wrapper: the item's title is exportedTitle's, made from the text. */
export const UNTITLED_ATTRIBUTE = 'data-untitled';
/** LOM's difficulty vocabulary for ours. */
export const LOM_DIFFICULTY = { easy: 'easy', medium: 'medium', hard: 'difficult' } as const;

/** An NCName-safe identifier for a question (items, resources and item refs share it). */
export const itemIdentifier = (questionId: string): string => `q-${questionId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
export const itemPath = (questionId: string): string => `items/${itemIdentifier(questionId)}.xml`;
/** A passage (a description questions name) as a stimulus beside the items, so its media are referred to alike. */
export const stimulusIdentifier = (questionId: string): string => `s-${questionId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
const stimulusFile = (questionId: string): string => `${stimulusIdentifier(questionId)}.xml`;
export const stimulusPath = (questionId: string): string => `items/${stimulusFile(questionId)}`;
/** A media file's path in the package; items refer to it relative to items/. */
export const mediaPath = (mediaId: string, name: string): string => `items/${mediaHref(mediaId, name)}`;

/** The question's type as it is written, or why not: the types given name every type the bank holds. */
function typeOf(types: QtiTypes, q: ExportQuestion): QtiTypeFacts {
  const type = types.byName.get(q.question_type);
  if (!type) throw new Error(`No QTI mapping for the question type "${q.question_type}"`);
  return type;
}

/** Why QTI gets no item for the question's type (said in a comment of the test), or undefined. */
function notWritten(types: QtiTypes, q: ExportQuestion): string | undefined {
  const { write } = typeOf(types, q);
  return typeof write === 'function' ? undefined : write.notWritten;
}

/** One question (of a type QTI holds: one its type writes) as a qti-assessment-item document. */
function qtiItem(types: QtiTypes, q: ExportQuestion, media: ExportMedia): string {
  const type = typeOf(types, q);
  const notes: string[] = [];
  const untitled: Record<string, string> = q.title ? {} : { [UNTITLED_ATTRIBUTE]: 'true' };
  const parts = (type.write as PartsWriter)(q, media, notes, untitled);
  const general = q.feedback
    ? element(
        'qti-modal-feedback',
        { 'outcome-identifier': 'FEEDBACK_GENERAL', identifier: 'GENERAL', 'show-hide': 'show' },
        element('qti-content-body', {}, textBlock(q, q.feedback, media, notes)),
      )
    : '';
  const passage = q.passage_id
    ? element('qti-assessment-stimulus-ref', {
        identifier: stimulusIdentifier(q.passage_id),
        href: stimulusFile(q.passage_id),
        title: 'Passage',
      })
    : '';
  const body = element(
    'qti-item-body',
    {},
    parts.holdsText
      ? parts.interaction
      : textBlock(q, q.question_text, media, notes, 'div', untitled) + parts.interaction,
  );
  const declarations =
    parts.declarations +
    element(
      'qti-outcome-declaration',
      {
        identifier: 'SCORE',
        cardinality: 'single',
        'base-type': 'float',
        'normal-maximum': formatNumber(q.marks),
        'external-scored': type.scoredByPerson ? 'human' : undefined,
      },
      element('qti-default-value', {}, textElement('qti-value', '0')),
    ) +
    element(
      'qti-outcome-declaration',
      { identifier: 'MAXSCORE', cardinality: 'single', 'base-type': 'float' },
      element('qti-default-value', {}, textElement('qti-value', formatNumber(q.marks))),
    ) +
    (general
      ? element('qti-outcome-declaration', {
          identifier: 'FEEDBACK_GENERAL',
          cardinality: 'single',
          'base-type': 'identifier',
        })
      : '');
  const processing =
    parts.processing +
    (general
      ? element(
          'qti-set-outcome-value',
          { identifier: 'FEEDBACK_GENERAL' },
          element('qti-base-value', { 'base-type': 'identifier' }, 'GENERAL'),
        )
      : '');
  return (
    XML_DECLARATION +
    [...new Set(notes)].map((n) => `${comment(n)}\n`).join('') +
    element(
      'qti-assessment-item',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier: itemIdentifier(q.id),
        title: exportedTitle(q),
        adaptive: 'false',
        'time-dependent': 'false',
      },
      declarations + passage + body + (processing ? element('qti-response-processing', {}, processing) : '') + general,
    ) +
    '\n'
  );
}

/** A passage (a description its items name) as a qti-assessment-stimulus document. */
export function qtiStimulus(q: ExportQuestion, media: ExportMedia): string {
  const notes: string[] = [];
  const untitled: Record<string, string> = q.title ? {} : { [UNTITLED_ATTRIBUTE]: 'true' };
  const body = element('qti-stimulus-body', {}, textBlock(q, q.question_text, media, notes, 'div', untitled));
  return (
    XML_DECLARATION +
    [...new Set(notes)].map((n) => `${comment(n)}\n`).join('') +
    element(
      'qti-assessment-stimulus',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier: stimulusIdentifier(q.id),
        title: exportedTitle(q),
      },
      body,
    ) +
    '\n'
  );
}

/** The media a question's item refers to that the package carries. */
function itemMedia(q: ExportQuestion, media: ExportMedia): Array<{ id: string; path: string; bytes: Uint8Array }> {
  return mediaOfQuestion(q).flatMap((id) => {
    const file = media.get(id);
    return file ? [{ id, path: mediaPath(id, file.name), bytes: file.bytes }] : [];
  });
}

interface Section {
  title: string;
  ids: string[];
  select?: number;
}

const itemRef = (id: string) =>
  element('qti-assessment-item-ref', { identifier: itemIdentifier(id), href: itemPath(id) });

function assessmentTest(identifier: string, title: string, sections: Section[], shuffle: boolean): string {
  const body = sections
    .map((s, i) =>
      element(
        'qti-assessment-section',
        { identifier: `section-${i + 1}`, title: s.title, visible: s.title ? 'true' : 'false' },
        (s.select !== undefined ? element('qti-selection', { select: String(s.select) }) : '') +
          (shuffle ? element('qti-ordering', { shuffle: 'true' }) : '') +
          s.ids.map(itemRef).join(''),
      ),
    )
    .join('');
  return (
    XML_DECLARATION +
    element(
      'qti-assessment-test',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier,
        title,
      },
      element(
        'qti-outcome-declaration',
        { identifier: 'SCORE', cardinality: 'single', 'base-type': 'float' },
        element('qti-default-value', {}, textElement('qti-value', '0')),
      ) +
        element(
          'qti-test-part',
          { identifier: 'part-1', 'navigation-mode': 'nonlinear', 'submission-mode': 'simultaneous' },
          body,
        ) +
        element(
          'qti-outcome-processing',
          {},
          element(
            'qti-set-outcome-value',
            { identifier: 'SCORE' },
            element('qti-sum', {}, element('qti-test-variables', { 'variable-identifier': 'SCORE' })),
          ),
        ),
    ) +
    '\n'
  );
}

export const TEST_PATH = 'test.xml';
const TEST_RESOURCE = 'test';

/** How many zip entries may wait for the output before add() waits: bounds what the writer holds. */
const MAX_QUEUED = 8;

/**
 * Writes a QTI 3.0 package question by question (for a streamed export): each
 * add() waits while the zip holds more than a few entries its reader has not
 * taken, so memory stays bounded by a few questions and their media however
 * many are written. finish() adds the test and the manifest.
 */
export class QtiPackageWriter {
  private readonly zip = new ZipFile();
  readonly output: NodeJS.ReadableStream;
  private readonly resources: string[] = [];
  /** Each question written, in order, with its category's name ('' for none). */
  private readonly categoryOf = new Map<string, string>();
  /** mediaId → the name its file was written under. */
  private readonly mediaNames = new Map<string, string>();
  /** What was left out and why: comments of the test. */
  private readonly notWritten: string[] = [];
  /** The passages the questions written name. */
  private readonly named = new Set<string>();
  /** Descriptions, written at finish(), with the media their documents refer to. */
  private readonly held = new Map<string, { q: ExportQuestion; media: ExportMedia }>();
  private queued = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly types: QtiTypes) {
    const out = new PassThrough();
    this.zip.outputStream.pipe(out);
    this.output = out;
  }

  private addEntry(bytes: Uint8Array | string, path: string, compress: boolean): void {
    this.queued += 1;
    let buffer: Buffer | undefined = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
    this.zip.addReadStreamLazy(path, { compress, size: buffer.length, mtime: EPOCH }, (cb) => {
      // The zip starts this entry: every entry before it has been written to the output.
      this.queued -= 1;
      const ready = this.waiting;
      this.waiting = [];
      ready.forEach((resolve) => resolve());
      // yazl keeps this function with its entry until the zip ends: let go of the bytes, or the package is held whole.
      const data = buffer!;
      buffer = undefined;
      cb(null, Readable.from([data]));
    });
  }

  /**
   * Adds the questions' items and media; resolves once the zip has room for more. A description's
   * document waits for finish(): it is a stimulus if a question names it as its passage, else an item.
   */
  async add(questions: readonly ExportQuestion[], media: ExportMedia): Promise<void> {
    for (const q of questions) {
      if (this.categoryOf.has(q.id)) continue;
      const cannot = notWritten(this.types, q);
      if (cannot) {
        this.notWritten.push(`not exported: "${exportedTitle(q)}" is ${cannot}`);
        continue;
      }
      media = this.writeMedia(q, media);
      if (q.passage_id) this.named.add(q.passage_id);
      if (q.question_type === this.types.passageType) this.held.set(q.id, { q, media });
      else {
        const files = itemMedia(q, media);
        this.addEntry(qtiItem(this.types, q, media), itemPath(q.id), true);
        this.resources.push(resourceXml(q, files));
      }
      this.categoryOf.set(q.id, (q.category ?? []).join(CATEGORY_SEPARATOR));
      while (this.queued > MAX_QUEUED) await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The passages questions named that add() was not given (the export reads them and gives them to addPassages). */
  missingPassages(): string[] {
    return [...this.named].filter((id) => !this.held.has(id));
  }

  /** Passages the questions name that are not themselves exported: written as stimuli only. */
  addPassages(passages: readonly ExportQuestion[], media: ExportMedia): void {
    for (const q of passages) if (!this.held.has(q.id)) this.held.set(q.id, { q, media: this.writeMedia(q, media) });
  }

  /** The question's media files not yet in the package, written; the media map its document refers to them by. */
  private writeMedia(q: ExportQuestion, given: ExportMedia): ExportMedia {
    // Media already in the package are referred to by the name they were written under.
    const known = new Map(given);
    for (const id of mediaOfQuestion(q)) {
      const name = this.mediaNames.get(id);
      if (name !== undefined && !known.has(id)) known.set(id, { name, content_type: '', bytes: new Uint8Array() });
    }
    // A file several questions share is in the package once.
    for (const file of itemMedia(q, known))
      if (!this.mediaNames.has(file.id)) {
        this.mediaNames.set(file.id, known.get(file.id)!.name);
        this.addEntry(file.bytes, file.path, false);
      }
    return known;
  }

  /** The descriptions held back: each a stimulus if a question names it, else an item like any question. */
  private writeHeld(): void {
    for (const { q, media } of this.held.values()) {
      const files = itemMedia(q, media);
      if (this.named.has(q.id)) {
        this.addEntry(qtiStimulus(q, media), stimulusPath(q.id), true);
        this.resources.push(stimulusResourceXml(q, files));
        // A passage is shown beside its questions, not asked on its own.
        this.categoryOf.delete(q.id);
      } else {
        // Its type writes it, like any question.
        this.addEntry(qtiItem(this.types, q, media), itemPath(q.id), true);
        this.resources.push(resourceXml(q, files));
      }
    }
  }

  /** Sections for questions in this order: one per run of questions of one category. */
  private categoryRuns(ids: readonly string[]): Section[] {
    const sections: Section[] = [];
    for (const id of ids) {
      const title = this.categoryOf.get(id);
      if (title === undefined) continue;
      const last = sections[sections.length - 1];
      if (last && last.title === title && last.select === undefined) last.ids.push(id);
      else sections.push({ title, ids: [id] });
    }
    return sections;
  }

  /**
   * The assessment test and the manifest; ends the zip. A test's: its questions by category in its
   * order, then a section per pool with its draw as qti-selection. A bank export's: every question by category.
   */
  finish(test?: ExportTest): void {
    this.writeHeld();
    const testXml = test
      ? assessmentTest(
          `test-${test.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`,
          test.title,
          [
            ...this.categoryRuns(test.question_ids),
            ...test.pools.map((p) => ({
              title: p.category.join(CATEGORY_SEPARATOR),
              ids: p.question_ids.filter((id) => this.categoryOf.has(id)),
              select: p.draw,
            })),
          ].filter((s) => s.ids.length > 0),
          test.shuffle,
        )
      : assessmentTest('question-bank', 'Question bank', this.categoryRuns([...this.categoryOf.keys()]), false);
    const noted = testXml.replace(
      XML_DECLARATION,
      XML_DECLARATION + this.notWritten.map((n) => `${comment(n)}\n`).join(''),
    );
    this.zip.addBuffer(Buffer.from(noted, 'utf8'), TEST_PATH, { mtime: EPOCH });
    const dependencies = [...this.categoryOf.keys()].map((id) =>
      element('dependency', { identifierref: itemIdentifier(id) }),
    );
    const testResource = element(
      'resource',
      { identifier: TEST_RESOURCE, type: 'imsqti_test_xmlv3p0', href: TEST_PATH },
      element('file', { href: TEST_PATH }) + dependencies.join(''),
    );
    this.zip.addBuffer(Buffer.from(manifestXml([testResource, ...this.resources]), 'utf8'), 'imsmanifest.xml', {
      mtime: EPOCH,
    });
    this.zip.end();
  }
}

// Entries carry a fixed date: the same questions make the same package.
const EPOCH = new Date(Date.UTC(2000, 0, 1));

function stimulusResourceXml(q: ExportQuestion, files: Array<{ path: string }>): string {
  return element(
    'resource',
    { identifier: stimulusIdentifier(q.id), type: 'imsqti_stimulus_xmlv3p0', href: stimulusPath(q.id) },
    element('file', { href: stimulusPath(q.id) }) + files.map((f) => element('file', { href: f.path })).join(''),
  );
}

function resourceXml(q: ExportQuestion, files: Array<{ path: string }>): string {
  const lom = element(
    'imsmd:lom',
    {},
    element(
      'imsmd:educational',
      {},
      element(
        'imsmd:difficulty',
        {},
        textElement('imsmd:source', 'LOMv1.0') + textElement('imsmd:value', LOM_DIFFICULTY[q.difficulty]),
      ),
    ),
  );
  return element(
    'resource',
    { identifier: itemIdentifier(q.id), type: 'imsqti_item_xmlv3p0', href: itemPath(q.id) },
    element('metadata', {}, lom) +
      element('file', { href: itemPath(q.id) }) +
      files.map((f) => element('file', { href: f.path })).join('') +
      (q.passage_id ? element('dependency', { identifierref: stimulusIdentifier(q.passage_id) }) : ''),
  );
}

function manifestXml(resources: string[]): string {
  return (
    XML_DECLARATION +
    element(
      'manifest',
      {
        xmlns: CP_NS,
        'xmlns:imsmd': LOM_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${CP_NS} ${CP_XSD} ${LOM_NS} ${LOM_XSD}`,
        identifier: 'MANIFEST-question-export',
      },
      element('metadata', {}, textElement('schema', 'QTI Package') + textElement('schemaversion', '3.0.0')) +
        element('organizations') +
        element('resources', {}, resources.join('')),
    ) +
    '\n'
  );
}

/** The questions (and a test's structure) as a QTI 3.0 package, whole in memory, each written as `types` say. */
export async function writeQtiPackage(
  types: QtiTypes,
  questions: readonly ExportQuestion[],
  media: ExportMedia = new Map(),
  test?: ExportTest,
): Promise<Buffer> {
  const writer = new QtiPackageWriter(types);
  const chunks: Buffer[] = [];
  const collected = new Promise<Buffer>((resolve, reject) => {
    writer.output.on('data', (chunk: Buffer) => chunks.push(chunk));
    writer.output.on('end', () => resolve(Buffer.concat(chunks)));
    writer.output.on('error', reject);
  });
  await writer.add(questions, media);
  writer.finish(test);
  return collected;
}
