import { type HtmlOptions, richOption, withHtmlChoices } from '../richOptions';
import {
  MEDIA_PLACEHOLDER,
  OPTION_SEPARATOR,
  type AlternativeAnswer,
  type MediaFile,
  type QuestionDraft,
  Refusal,
} from '../model';
import { element, elements, innerHtml, textOf, type XmlElement } from '../xml';
import { htmlLine, MOODLE_GRADES, moodleGradeOf, readExportTags, type ExportTags } from '../conventions';

// Pure: one Moodle XML `<question>` as every type's reader (its type's moodleXml.ts) is given it: its
// fields, files and warnings, and the parts Moodle's types are made of (graded answers, options,
// the text, feedback and marks assembled into a draft), so that a type's reader says only its own.

/** Text as one field of a question holds it, before the question's format is settled. */
export interface FieldText {
  text: string;
  html: boolean;
  /** The files the field carries, by their path (`x.png`, `sub/x.png`). */
  files: Map<string, Uint8Array>;
}

/** What reading the whole file lends each question: its number, the media read so far, a fact of each type. */
export interface ReadContext {
  index: number;
  media: Map<string, MediaFile>;
  /** How a type's options are HTML in an html question (its module's htmlOptions). */
  htmlOptions: (type: string) => HtmlOptions;
}

/** A type's draft before assemble adds what every type has (the text, marks, difficulty). */
export type TypedDraft = Omit<QuestionDraft, 'question_text' | 'marks' | 'difficulty'>;

/** The marks a type's reader gives a question whose file gives none. */
export interface DefaultMarks {
  marks: number;
  /** Said after the marks in the warning ('' for the plain default). */
  why: string;
  /** The marks whatever defaultgrade says (a question that takes no answer has none). */
  fixed?: boolean;
}

/** An `<answer>` with its grade. */
export interface GradedAnswer {
  element: XmlElement;
  /** Percent, snapped to Moodle's grade list. */
  credit: number;
}

/** A grade as the warnings write it. */
export const percent = (credit: number): string => `${credit}%`;

/**
 * The trimmed `<text>` of a field (Moodle trims it too), or the field's own text in very old files.
 * HTML written as elements of the XML (neither escaped nor CDATA, which Moodle accepts) is that
 * markup, written back as HTML, so that it is carried (and sanitized) as escaped HTML is.
 */
export function fieldText(field: XmlElement): string {
  const holder = element(field, 'text');
  if (holder && elements(holder).length > 0) return innerHtml(holder).trim();
  return textOf(holder ?? field).trim();
}

/** A field that is a name rather than a text (a category path, a tag, a short answer): its text alone. */
export function plainFieldText(field: XmlElement): string {
  return textOf(element(field, 'text') ?? field).trim();
}

/** Moodle's formats whose text is not HTML. */
const TEXT_FORMATS = ['plain_text', 'markdown', 'wiki_like'];

/** One question being read: its warnings, what it leaves behind, and its files until they are committed. */
export class QuestionReader {
  /** Settings Moodle has and we do not: one warning lists them all. */
  readonly notCarried: string[] = [];
  private readonly formats = new Set<string>();
  private readonly questionFiles = new Map<string, Uint8Array>();
  private readonly pending = new Map<string, MediaFile>();
  /** The files of the fields kept, so one carried but never referred to is named. */
  private readonly keptFiles = new Map<string, boolean>();
  /** The options read as HTML (the others were read as text). */
  readonly richOptions = new Set<string>();

  constructor(
    readonly question: XmlElement,
    private readonly ctx: ReadContext,
    readonly warnings: string[],
  ) {}

  private readTags?: ExportTags;

  /** The question's tags, read by our export's conventions. */
  get tags(): ExportTags {
    const holder = this.child('tags');
    this.readTags ??= readExportTags(holder ? elements(holder, 'tag').map(plainFieldText).filter(Boolean) : []);
    return this.readTags;
  }

  child(name: string): XmlElement | undefined {
    return element(this.question, name);
  }

  /** The trimmed text of a simple child (`<single>true</single>`), or undefined when absent. */
  value(name: string): string | undefined {
    const found = this.child(name);
    return found ? textOf(found).trim() : undefined;
  }

  /** A text field with its files; `html` also for Moodle's auto-format, whose line breaks become <br>. */
  field(holder: XmlElement | undefined, defaultFormat: string): FieldText {
    if (!holder) return { text: '', html: defaultFormat !== 'plain_text', files: new Map() };
    const format = holder.attrs.format?.trim() || defaultFormat;
    const files = this.readFiles(holder);
    let text = fieldText(holder);
    if (text !== '') this.formats.add(format);
    let html = true;
    if (format === 'moodle_auto_format') text = text.replace(/\r?\n/g, '<br />\n');
    else if (format === 'plain_text' || format === 'markdown' || format === 'wiki_like') html = false;
    return { text, html, files };
  }

  /** The format the question text is written in: Moodle's default for its other fields. */
  get textFormat(): string {
    return this.child('questiontext')?.attrs.format?.trim() || 'html';
  }

  private readFiles(holder: XmlElement): Map<string, Uint8Array> {
    const files = new Map<string, Uint8Array>();
    for (const file of elements(holder, 'file')) {
      const name = (file.attrs.name ?? '').trim();
      if (name === '') {
        this.warnings.push('A <file> without a name was left out');
        continue;
      }
      const path = `${(file.attrs.path ?? '/').replace(/^\/+/, '')}${name}`;
      if (files.has(path)) continue; // Moodle keeps the first of two files of one path
      const encoding = (file.attrs.encoding ?? 'base64').trim();
      if (encoding !== 'base64') throw new Refusal(`The file ${path} is in encoding "${encoding}", not base64`);
      files.set(path, decodeBase64(textOf(file), path));
    }
    for (const [path, bytes] of files) if (!this.questionFiles.has(path)) this.questionFiles.set(path, bytes);
    return files;
  }

  /** The question's own file (a drag-and-drop question's background): its media placeholder and bytes. */
  backgroundImage(): { src: string; path: string; bytes: Uint8Array } | undefined {
    const files = this.readFiles(this.question);
    const [path, bytes] = [...files][0] ?? [];
    if (path === undefined || bytes === undefined) return undefined;
    const field: FieldText = { text: '', html: true, files };
    this.keep(field);
    return { src: this.resolveMedia(field, `@@PLUGINFILE@@/${encodeURIComponent(path)}`), path, bytes };
  }

  /** A file referred to by the old `<image>` tag, as Moodle 1.9 wrote it. */
  addLegacyImage(name: string, bytes: Uint8Array): string {
    const path = name.replace(/\//g, '_');
    this.questionFiles.set(path, bytes);
    return path;
  }

  /** A field the draft keeps: its files are imported if referred to, named if not. */
  keep(field: FieldText): void {
    for (const path of field.files.keys()) if (!this.keptFiles.has(path)) this.keptFiles.set(path, false);
  }

  /** Draft HTML: `@@PLUGINFILE@@/x` references resolved against the field's own files, then the question's. */
  resolveMedia(field: FieldText, html: string): string {
    // A `?time=…` Moodle sometimes appends is left out with the rest of the Moodle URL.
    return html.replace(/@@PLUGINFILE@@\/([^"'<>\s?#)]*)(\?[^"'<>\s#)]*)?/g, (_, raw: string) => {
      const path = safeDecode(raw).replace(/^\/+/, '');
      const bytes = field.files.get(path) ?? this.questionFiles.get(path);
      if (!bytes) throw new Refusal(`It refers to ${path}, which the file does not carry`);
      this.keptFiles.set(path, true);
      // Percent-encoded so that the placeholder ends where the name does (the import decodes it back).
      return MEDIA_PLACEHOLDER + encodeURIComponent(this.mediaKey(path, bytes)).replace(/[!'()*]/g, percentEncoded);
    });
  }

  /** The media name for a file: its own name unless another file already has it with other bytes. */
  private mediaKey(path: string, bytes: Uint8Array): string {
    const base = path.replace(/[\s"'<>&?#%\\/]|\p{Cc}/gu, '_');
    const renamed = new RegExp(`^q\\d+_(\\d+_)?${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    for (const file of [...this.pending.values(), ...this.ctx.media.values()])
      if ((file.name === base || renamed.test(file.name)) && sameBytes(file.bytes, bytes)) {
        this.pending.set(file.name, file);
        return file.name;
      }
    const candidates = [base, `q${this.ctx.index}_${base}`];
    for (let n = 2; ; n++) {
      const key = candidates.shift() ?? `q${this.ctx.index}_${n}_${base}`;
      if (!this.pending.has(key) && !this.ctx.media.has(key)) {
        this.pending.set(key, { name: key, bytes });
        return key;
      }
    }
  }

  /** The question's warnings completed and its media committed: called only when it is imported. */
  finish(): void {
    const lost = [...this.keptFiles].filter(([, used]) => !used).map(([path]) => path);
    if (lost.length > 0)
      this.warnings.push(`Carries ${lost.join(', ')}, which nothing in the question refers to: not imported`);
    if (this.formats.has('moodle_auto_format'))
      this.warnings.push("Text in Moodle's auto-format was carried as HTML (its line breaks kept)");
    for (const format of ['markdown', 'wiki_like'])
      if (this.formats.has(format))
        this.warnings.push(`Text in ${format} format was carried as plain text, not rendered`);
    for (const format of this.formats)
      if (!['html', 'plain_text', 'moodle_auto_format', 'markdown', 'wiki_like'].includes(format))
        this.warnings.push(`Text format "${format}" is unknown: read as HTML, as Moodle does`);
    this.noteCommonSettings();
    if (this.notCarried.length > 0) this.warnings.push(`Not carried: ${this.notCarried.join('; ')}`);
    for (const [key, file] of this.pending) this.ctx.media.set(key, file);
  }

  private noteCommonSettings(): void {
    const penalty = Number(this.value('penalty') ?? 0);
    if (penalty > 0) this.notCarried.push(`penalty for retries ${+penalty.toFixed(7)}`);
    if ((this.value('hidden') ?? '0') !== '0') this.notCarried.push('hidden');
    const idnumber = this.value('idnumber');
    if (idnumber) this.notCarried.push(`idnumber "${idnumber}"`);
    const tags = this.tags;
    if (tags.others.length > 0) this.notCarried.push(`tags (${tags.others.join(', ')})`);
    if (tags.invalid.length > 0) this.notCarried.push(`tags of no value we know (${tags.invalid.join(', ')})`);
    const hints = elements(this.question, 'hint').filter((h) => fieldText(h) !== '').length;
    if (hints > 0) this.notCarried.push(`${hints} hint${hints === 1 ? '' : 's'}`);
  }

  /** correctfeedback, partiallycorrectfeedback, incorrectfeedback: we have no place for them. */
  noteCombinedFeedback(): void {
    const given = [
      ['correctfeedback', 'correct'],
      ['partiallycorrectfeedback', 'partially correct'],
      ['incorrectfeedback', 'incorrect'],
    ]
      .filter(([tag]) => {
        const holder = this.child(tag);
        return holder !== undefined && fieldText(holder) !== '';
      })
      .map(([, label]) => label);
    if (given.length > 0) this.notCarried.push(`feedback for ${given.join(', ')} responses`);
  }

  /** A field's trimmed text (fieldText): what a type's reader compares to '' or reads as a value. */
  fieldText(field: XmlElement): string {
    return fieldText(field);
  }

  /** A field that is a name rather than a text (plainFieldText). */
  plainFieldText(field: XmlElement): string {
    return plainFieldText(field);
  }

  /** The parts every type has: the text, the general and option feedback (all HTML if any is, plain ones escaped), marks. */
  assemble(
    draft: TypedDraft,
    optionFeedback: FieldText[] = [],
    /** The question text as the type reads it (a cloze's embedded answers become its gaps). */
    rewriteText: (text: FieldText) => string = (text) => text.text,
    /** The marks without a defaultgrade (asked once the text is read), and why they are those. */
    defaultMarks: () => DefaultMarks = () => ({ marks: 1, why: '' }),
  ): QuestionDraft {
    const format = this.textFormat;
    const read = this.field(this.child('questiontext'), 'html');
    const text = { ...read, text: rewriteText(read) };
    const legacy = this.legacyImage();
    const feedback = this.field(this.child('generalfeedback'), format);
    const fields = [text, feedback, ...optionFeedback];
    const html = fields.some((f) => f.html && (f.text !== '' || f === text)) || legacy !== undefined;
    fields.forEach((f) => this.keep(f));
    const asDraft = (f: FieldText): string =>
      html ? this.resolveMedia(f, f.html ? f.text : escapeHtml(f.text)) : f.text;
    let questionText = asDraft(text);
    if (legacy) questionText += ` <img src="${this.resolveMedia(text, legacy)}" />`;
    const result: QuestionDraft = withHtmlChoices(
      {
        ...draft,
        question_text: questionText,
        text_format: html ? 'html' : 'plain',
        marks: this.readMarks(defaultMarks()),
        difficulty: 'medium',
      },
      this.richOptions,
      this.ctx.htmlOptions(draft.question_type),
    );
    const general = asDraft(feedback);
    if (general !== '') result.feedback = general;
    if (optionFeedback.some((f) => f.text !== '')) result.option_feedback = optionFeedback.map(asDraft);
    return result;
  }

  /** Moodle 1.9's `<image>` + `<image_base64>`: the file carried, a reference to append to the text. */
  private legacyImage(): string | undefined {
    const name = this.value('image');
    const data = this.child('image_base64');
    if (!name && !data) return undefined;
    if (!name || !data || textOf(data).trim() === '') {
      this.warnings.push(
        name
          ? `The old <image> ${name} is not carried in the file (a course file of Moodle 1.9): left out`
          : 'An <image_base64> without its <image> name was left out',
      );
      return undefined;
    }
    const path = this.addLegacyImage(name, decodeBase64(textOf(data), name));
    return MEDIA_PLACEHOLDER + encodeURIComponent(path);
  }

  private readMarks(fallback: DefaultMarks): number {
    if (fallback.fixed) return fallback.marks;
    const given = this.value('defaultgrade');
    const marks = given === undefined || given === '' ? undefined : Number(given);
    if (marks !== undefined && Number.isFinite(marks) && marks > 0) return marks;
    const instead = `marks ${fallback.marks}${fallback.why}`;
    this.warnings.push(
      given === undefined || given === ''
        ? `No defaultgrade: ${instead}`
        : `defaultgrade ${given} is not a positive number of marks: ${instead}`,
    );
    return fallback.marks;
  }

  /** The answers with their grades; any grade outside Moodle's list makes the question an error, as Moodle's import would. */
  gradedAnswers(): GradedAnswer[] {
    const invalid: string[] = [];
    const answers = elements(this.question, 'answer').map((answer) => {
      const written =
        answer.attrs.fraction ?? (element(answer, 'fraction') ? textOf(element(answer, 'fraction')!) : '0');
      const value = Number(written.trim());
      const snapped = moodleGradeOf(value);
      if (snapped === undefined) invalid.push(Number.isFinite(value) ? String(value / 100) : `"${written}"`);
      return { element: answer, credit: snapped ?? 0 };
    });
    if (invalid.length > 0)
      throw new Refusal(
        `Grades (${invalid.join(', ')}) do not match grade options: Moodle accepts only ${MOODLE_GRADES.join(', ')} percent and their negatives`,
      );
    if (answers.length === 0) throw new Refusal('It has no answers');
    return answers;
  }

  /** The settings of Moodle's choices (multichoice, calculated multichoice) we do not carry. */
  noteChoiceSettings(): void {
    const shuffle = this.value('shuffleanswers');
    if (shuffle !== undefined && ['false', '0'].includes(shuffle))
      this.notCarried.push('shuffleanswers off (options are always shuffled here)');
    const numbering = this.value('answernumbering');
    if (numbering && numbering !== 'none') this.notCarried.push(`answer numbering "${numbering}"`);
    if (this.value('showstandardinstruction') === '1') this.notCarried.push('the standard instruction');
    this.noteCombinedFeedback();
  }

  /**
   * An option (or a stem, an item: `what`) of an html question as HTML when it says more than its text
   * (an image, a formula, formatting), its files carried as the question text's are.
   */
  private richOptionOf(answer: XmlElement, answerFormat: string, raw: string): string | undefined {
    if (TEXT_FORMATS.includes(this.textFormat)) return undefined;
    const html = richOption(answerFormat === 'moodle_auto_format' ? raw.replace(/\r?\n/g, ' ') : raw);
    if (html === undefined) return undefined;
    const field = this.field(answer, answerFormat);
    this.keep(field);
    const option = this.resolveMedia(field, html);
    this.richOptions.add(option);
    return option;
  }

  /** An option (or a stem, an item: `what`): HTML when it says more than its text in an html question, else plain text (HTML turned to text, saying what was lost); a "|" cannot be stored. */
  optionText(
    answer: XmlElement,
    format: string,
    what: string,
    /** What such texts are, for messages. */
    kind = 'options',
  ): string {
    const raw = fieldText(answer);
    const answerFormat = answer.attrs.format?.trim() || format;
    let text = raw;
    const rich = TEXT_FORMATS.includes(answerFormat) ? undefined : this.richOptionOf(answer, answerFormat, raw);
    // HTML's "|" is stored &#124; (the bank's schema writes it so).
    if (rich !== undefined) return rich;
    if (!TEXT_FORMATS.includes(answerFormat)) {
      const converted = htmlLine(answerFormat === 'moodle_auto_format' ? raw.replace(/\r?\n/g, ' ') : raw);
      text = converted.text;
      const lost = converted.images.map(
        (image) => `its image ${safeDecode(image.src.replace(/^@@PLUGINFILE@@\//, '').replace(/\?.*$/, ''))}`,
      );
      if (converted.formatting.length > 0) lost.push(`its formatting (${converted.formatting.join(', ')})`);
      if (lost.length > 0)
        this.warnings.push(
          `${what}: ${lost.join(' and ')} ${lost.length > 1 ? 'were' : 'was'} dropped (${kind} are plain text)`,
        );
      if (text === '' && converted.images.length > 0) {
        const alt = converted.images.map((i) => i.alt.trim()).find(Boolean);
        if (!alt) throw new Refusal(`${what} is only an image, and ${kind} are plain text`);
        this.warnings.push(`${what} was only an image: its alt text "${alt}" is the option`);
        text = alt;
      }
    }
    if (text.includes(OPTION_SEPARATOR))
      throw new Refusal(`${what} ("${text}") contains "${OPTION_SEPARATOR}", which an option cannot`);
    return text;
  }

  /** What Moodle's typed answers (short and numerical) share: the first 100% answer is the key, other credited ones alternatives. */
  keyAndAlternatives(accept: (answer: GradedAnswer, text: string) => AlternativeAnswer | undefined): {
    key: AlternativeAnswer;
    alternatives: AlternativeAnswer[];
  } {
    const answers = this.gradedAnswers();
    const accepted: AlternativeAnswer[] = [];
    const lostFeedback: string[] = [];
    for (const answer of answers) {
      const text = plainFieldText(answer.element);
      const feedbackHolder = element(answer.element, 'feedback');
      if (feedbackHolder && fieldText(feedbackHolder) !== '') lostFeedback.push(`"${text}"`);
      if (answer.credit < 0) {
        this.warnings.push(`Answer "${text}" (${percent(answer.credit)}) cannot take marks away here: it scores 0`);
        continue;
      }
      // A 0% answer matching anything says what the bank does anyway (any other answer scores 0);
      // it is there for its feedback, named above when it has some.
      if (answer.credit === 0 && /^(\*|)$/.test(text)) continue;
      const taken = accept(answer, text);
      if (taken) accepted.push(taken);
    }
    if (lostFeedback.length > 0)
      this.warnings.push(
        `Feedback for the answers ${lostFeedback.join(', ')} is not carried (no per-answer feedback here)`,
      );
    const keyAt = accepted.findIndex((a) => a.credit === 100);
    if (keyAt < 0) throw new Refusal('No answer is worth 100%, as Moodle requires');
    const [key] = accepted.splice(keyAt, 1);
    return { key, alternatives: accepted };
  }
}

function decodeBase64(text: string, name: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw new Refusal(`The file ${name} is not valid base64`);
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

/** A character's percent-encoding (those encodeURIComponent leaves). */
function percentEncoded(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** Moodle URL-encodes file names in references. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const escapeHtml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r?\n/g, '<br />\n');
