import { parseNumberText } from '../../shared';
import {
  BankFileRefused,
  MEDIA_PLACEHOLDER,
  OPTION_SEPARATOR,
  type AlternativeAnswer,
  type GapDraft,
  type MediaFile,
  type ParsedBank,
  type ParsedItem,
  type QuestionDraft,
  Refusal,
} from '../model';
import { gapsOfText } from './cloze';
import { choicesOf, keyOf, variablesOf } from './calculated';
import { dropZones } from './ddmarker';
import { dropBoxes } from './ddimageortext';
import { labelledImageDraft, PLACED_ON_IMAGE } from '../labelledImage';
import { imageDimensions } from '../imageSize';
import { htmlOptionsOf, richOption, withHtmlChoices } from '../richOptions';
import { element, elements, innerHtml, localName, parseXml, textOf, type XmlElement } from '../xml';
import {
  EXPORT_TAGS,
  isAllOrNothingCredits,
  isTitleFromText,
  readExportTags,
  type ExportTags,
  htmlLine,
  MAX_ESSAY_ATTACHMENTS,
  MOODLE_GRADES,
  moodleGradeOf,
} from '../conventions';

// Pure: a Moodle XML question bank (qformat_xml's `<quiz>`) read into drafts.
// Where Moodle would abort the whole file (an invalid grade) only that question
// is an error; what we cannot carry is named per question, never dropped quietly.
// Tags of our export's conventions (conventions.ts EXPORT_TAGS) are read back:
// difficulty:…, untitled (the <name> was made from the text: no title),
// all_or_nothing (a multiple_select whose grades stand for all-or-nothing
// scoring: no option_credits); other tags are named as not carried.

/** Types we cannot hold, by Moodle's name, as a person would call them. */
const UNSUPPORTED = new Map<string, string>(
  Object.entries({
    randomsamatch: 'Random short-answer matching',
    multichoiceset: 'All-or-nothing multiple choice',
  }),
);

/** Text as one field of a question holds it, before the question's format is settled. */
interface FieldText {
  text: string;
  html: boolean;
  /** The files the field carries, by their path (`x.png`, `sub/x.png`). */
  files: Map<string, Uint8Array>;
}

interface Context {
  index: number;
  media: Map<string, MediaFile>;
}

/** Reads a Moodle XML file; a file that is not one (or any DOCTYPE, entity or malformed XML) throws BankFileRefused. */
export function parseMoodleXml(text: string): ParsedBank {
  const root = parseXml(text.replace(/^\uFEFF/, ''), 'the Moodle XML file');
  if (localName(root) !== 'quiz')
    throw new BankFileRefused(`Not a Moodle XML file: its root element is <${root.name}>, not <quiz>`);
  const media = new Map<string, MediaFile>();
  const items: ParsedItem[] = [];
  const draws = new Map<string, RandomDraw>();
  let category: string[] | null = null;
  elements(root, 'question').forEach((question, i) => {
    const type = (question.attrs.type ?? '').trim();
    if (type === 'category') {
      category = categorySegments(question);
      return;
    }
    if (type === 'random') {
      addRandom(draws, question, category);
      return;
    }
    items.push(readItem(question, type, category, { index: i + 1, media }));
  });
  for (const draw of draws.values()) noteDraw(draw, items);
  return { format: 'moodle_xml', items, media };
}

// A random question is a quiz's draw from its category, not a question: a pool here is a test's
// (pools-essays-regrading.md), which a bank import cannot make. As a QTI section's selection is,
// the draw is noted on the first question of its category, and the category becomes a folder
// holding all of them: the folder a test's pool then draws from.

/** The random questions of one category: how many (each draws one question), and how they were written. */
interface RandomDraw {
  category: string[] | null;
  count: number;
  /** Every one named as our export names them (`Random (<category>) <n>`). */
  ours: boolean;
  /** Moodle's questiontext "1": the draw takes the subcategories' questions too. */
  subcategories: boolean;
}

/** A category as a note names it; no category is Moodle's own "top". */
const categoryLabel = (category: readonly string[] | null): string => `"${category ? category.join(' / ') : 'top'}"`;

function addRandom(draws: Map<string, RandomDraw>, question: XmlElement, category: string[] | null): void {
  const key = JSON.stringify(category);
  const draw = draws.get(key) ?? { category, count: 0, ours: true, subcategories: false };
  const name = plainFieldText(element(question, 'name') ?? question);
  draw.count += 1;
  draw.ours &&= category !== null && name.startsWith(`Random (${category.join(' / ')}) `);
  const text = element(question, 'questiontext');
  draw.subcategories ||= text !== undefined && !['', '0'].includes(plainFieldText(text));
  draws.set(key, draw);
}

const DIFFICULTIES = new Set(['easy', 'medium', 'hard']);

/**
 * The difficulty of a pool our export wrote as a subcategory named after it (a random question
 * cannot filter by difficulty): only when the random questions are named as ours and every
 * question of the category is of that difficulty.
 */
function exportedPoolDifficulty(draw: RandomDraw, members: readonly ParsedItem[]): string | undefined {
  const last = draw.category?.[draw.category.length - 1];
  if (!draw.ours || !last || !DIFFICULTIES.has(last) || draw.category!.length < 2) return undefined;
  return members.length > 0 && members.every((m) => m.question?.difficulty === last) ? last : undefined;
}

function noteDraw(draw: RandomDraw, items: ParsedItem[]): void {
  const key = JSON.stringify(draw.category);
  const members = items.filter((i) => JSON.stringify(i.category) === key);
  const difficulty = exportedPoolDifficulty(draw, members);
  const folder = difficulty ? draw.category!.slice(0, -1) : draw.category;
  for (const member of members) member.category = folder;
  const drawn = `draws ${draw.count} of its ${difficulty ? `${difficulty} ` : ''}questions at random (Moodle random questions${
    difficulty ? ` in ${categoryLabel(draw.category)}, our export’s subcategory for a pool of one difficulty` : ''
  })${draw.subcategories ? ', in Moodle from its subcategories too (a pool here draws from one folder)' : ''}`;
  const [first] = members;
  if (first) {
    const all = members.length === 1 ? 'its one question' : `all its ${members.length} questions`;
    const imported = folder ? `it was imported as a folder of ${all}` : `${all} were imported in no folder`;
    first.warnings.push(`The category ${categoryLabel(folder)} ${drawn}; ${imported}`);
  } else
    items[0]?.warnings.push(
      `The category ${categoryLabel(folder)} ${drawn}, but the file holds none of its questions: nothing was imported for it`,
    );
}

/** Stands for a literal slash while a category path is split (a private-use character no name has). */
const SLASH = '\uE000';

/** `$course$/top/A/B` → ['A', 'B']: the context and Moodle's `top` are not folders; `//` is a literal slash. */
function categorySegments(question: XmlElement): string[] | null {
  const holder = element(question, 'category');
  if (!holder) return null;
  const path = plainFieldText(holder).replace(/\/\//g, SLASH);
  const segments = path
    .split('/')
    .map((s) => s.replaceAll(SLASH, '/').trim())
    .filter((s) => s !== '');
  if (segments.length > 0 && /^\$[a-z0-9]+\$$/i.test(segments[0])) segments.shift();
  if (segments[0] === 'top') segments.shift();
  return segments.length > 0 ? segments : null;
}

function readItem(question: XmlElement, type: string, category: string[] | null, ctx: Context): ParsedItem {
  const warnings: string[] = [];
  const name = readTitle(question);
  const title = name.title;
  const base = { path: `question[${ctx.index}]`, title, source_type: type || '(none)', category, warnings };
  const named = (): ParsedItem => {
    if (name.warning) warnings.unshift(name.warning);
    return { ...base, status: 'error', message: '' };
  };
  if (type === '') return { ...named(), message: 'This <question> has no type attribute' };
  const read = READERS.get(type);
  if (!read) {
    const label = UNSUPPORTED.get(type);
    return {
      ...named(),
      status: 'unsupported',
      message: label
        ? `${label} is not a question type we support (Moodle type "${type}"): not imported`
        : `The question type "${type}" is not one we support: not imported`,
    };
  }
  const reader = new QuestionReader(question, ctx, warnings);
  try {
    const draft = read(reader);
    const tags = reader.tags;
    if (tags.difficulty) draft.difficulty = tags.difficulty;
    // A name our export made from the text (tagged untitled) is no title, unless it was renamed since.
    const untitled = tags.untitled === true && name.raw !== null && isTitleFromText(name.raw, draft);
    if (untitled) {
      reader.finish();
      return { ...base, title: null, status: 'ok', message: null, question: draft };
    }
    if (name.warning) warnings.unshift(name.warning);
    if (title !== null) draft.title = title;
    reader.finish();
    return { ...base, status: 'ok', message: null, question: draft };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ...named(), status: error.status, message: (title ? `"${title}": ` : '') + error.message };
  }
}

/** The name as written, and as a title: plain text (Moodle strips tags from names), saying what markup was lost. */
function readTitle(question: XmlElement): { raw: string | null; title: string | null; warning?: string } {
  const name = element(question, 'name');
  if (!name) return { raw: null, title: null };
  const raw = fieldText(name);
  if (!/<[a-zA-Z/!]/.test(raw)) return { raw, title: raw || null };
  const { text, formatting } = htmlLine(raw);
  return {
    raw,
    title: text || null,
    warning:
      formatting.length > 0
        ? `The name's markup (${formatting.join(', ')}) was dropped: titles are plain text`
        : undefined,
  };
}

/**
 * The trimmed `<text>` of a field (Moodle trims it too), or the field's own text in very old files.
 * HTML written as elements of the XML (neither escaped nor CDATA, which Moodle accepts) is that
 * markup, written back as HTML, so that it is carried (and sanitized) as escaped HTML is.
 */
function fieldText(field: XmlElement): string {
  const holder = element(field, 'text');
  if (holder && elements(holder).length > 0) return innerHtml(holder).trim();
  return textOf(holder ?? field).trim();
}

/** A field that is a name rather than a text (a category path, a tag, a short answer): its text alone. */
function plainFieldText(field: XmlElement): string {
  return textOf(element(field, 'text') ?? field).trim();
}

/** One question being read: its warnings, what it leaves behind, and its files until they are committed. */
class QuestionReader {
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
    private readonly ctx: Context,
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
}

type Reader = (r: QuestionReader) => QuestionDraft;

/** The parts every type has: the text, the general and option feedback (all HTML if any is, plain ones escaped), marks. */
function assemble(
  r: QuestionReader,
  draft: Omit<QuestionDraft, 'question_text' | 'marks' | 'difficulty'>,
  optionFeedback: FieldText[] = [],
  /** The question text as the type reads it (a cloze's embedded answers become its gaps). */
  rewriteText: (text: FieldText) => string = (text) => text.text,
  /** The marks without a defaultgrade (asked once the text is read), and why they are those. */
  defaultMarks: () => DefaultMarks = () => ({ marks: 1, why: '' }),
): QuestionDraft {
  const format = r.textFormat;
  const read = r.field(r.child('questiontext'), 'html');
  const text = { ...read, text: rewriteText(read) };
  const legacy = legacyImage(r);
  const feedback = r.field(r.child('generalfeedback'), format);
  const fields = [text, feedback, ...optionFeedback];
  const html = fields.some((f) => f.html && (f.text !== '' || f === text)) || legacy !== undefined;
  fields.forEach((f) => r.keep(f));
  const asDraft = (f: FieldText): string => (html ? r.resolveMedia(f, f.html ? f.text : escapeHtml(f.text)) : f.text);
  let questionText = asDraft(text);
  if (legacy) questionText += ` <img src="${r.resolveMedia(text, legacy)}" />`;
  const result: QuestionDraft = withHtmlChoices(
    {
      ...draft,
      question_text: questionText,
      text_format: html ? 'html' : 'plain',
      marks: readMarks(r, defaultMarks()),
      difficulty: 'medium',
    },
    r.richOptions,
    htmlOptionsOf(draft.question_type),
  );
  const general = asDraft(feedback);
  if (general !== '') result.feedback = general;
  if (optionFeedback.some((f) => f.text !== '')) result.option_feedback = optionFeedback.map(asDraft);
  return result;
}

/** Moodle 1.9's `<image>` + `<image_base64>`: the file carried, a reference to append to the text. */
function legacyImage(r: QuestionReader): string | undefined {
  const name = r.value('image');
  const data = r.child('image_base64');
  if (!name && !data) return undefined;
  if (!name || !data || textOf(data).trim() === '') {
    r.warnings.push(
      name
        ? `The old <image> ${name} is not carried in the file (a course file of Moodle 1.9): left out`
        : 'An <image_base64> without its <image> name was left out',
    );
    return undefined;
  }
  const path = r.addLegacyImage(name, decodeBase64(textOf(data), name));
  return MEDIA_PLACEHOLDER + encodeURIComponent(path);
}

interface DefaultMarks {
  marks: number;
  /** Said after the marks in the warning ('' for the plain default). */
  why: string;
  /** The marks whatever defaultgrade says (a description has none). */
  fixed?: boolean;
}

/** A description's marks: none, whatever its defaultgrade (Moodle writes 0). */
const NO_MARKS: DefaultMarks = { marks: 0, why: '', fixed: true };

function readMarks(r: QuestionReader, fallback: DefaultMarks): number {
  if (fallback.fixed) return fallback.marks;
  const given = r.value('defaultgrade');
  const marks = given === undefined || given === '' ? undefined : Number(given);
  if (marks !== undefined && Number.isFinite(marks) && marks > 0) return marks;
  const instead = `marks ${fallback.marks}${fallback.why}`;
  r.warnings.push(
    given === undefined || given === ''
      ? `No defaultgrade: ${instead}`
      : `defaultgrade ${given} is not a positive number of marks: ${instead}`,
  );
  return fallback.marks;
}

interface Answer {
  element: XmlElement;
  /** Percent, snapped to Moodle's grade list. */
  credit: number;
}

/** The answers with their grades; any grade outside Moodle's list makes the question an error, as Moodle's import would. */
function gradedAnswers(r: QuestionReader): Answer[] {
  const invalid: string[] = [];
  const answers = elements(r.question, 'answer').map((answer) => {
    const written = answer.attrs.fraction ?? (element(answer, 'fraction') ? textOf(element(answer, 'fraction')!) : '0');
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

const percent = (credit: number): string => `${credit}%`;

const multichoice: Reader = (r) => {
  const format = r.textFormat;
  const answers = gradedAnswers(r);
  const options = answers.map((a, i) => optionText(r, a.element, format, `Option ${i + 1}`));
  const feedback = answers.map((a) => r.field(element(a.element, 'feedback'), format));
  const single = !['false', '0', ''].includes(r.value('single') ?? 'true');
  noteChoiceSettings(r);
  if (single) {
    const full = answers.flatMap((a, i) => (a.credit === 100 ? [i] : []));
    if (full.length === 0) throw new Refusal('No answer is worth 100%: a single-answer question needs one');
    if (full.length > 1)
      throw new Refusal(
        `${full.length} answers are worth 100%: a multiple choice question has exactly one correct option`,
      );
    const partial = answers.flatMap((a, i) =>
      a.credit !== 100 && a.credit !== 0 ? [`option ${i + 1}: ${percent(a.credit)}`] : [],
    );
    if (partial.length > 0)
      r.warnings.push(
        `A single-answer question here gives full marks or none: options with other grades (${partial.join(', ')}) score 0`,
      );
    return assemble(r, { question_type: 'multiple_choice', options, correct_answer: options[full[0]] }, feedback);
  }
  const positive = answers.reduce((sum, a) => sum + Math.max(a.credit, 0), 0);
  if (Math.abs(positive - 100) >= 0.5)
    throw new Refusal(`The positive grades add up to ${+positive.toFixed(5)}%, not 100%, as Moodle requires`);
  const correct = options.filter((_, i) => answers[i].credit > 0).join(OPTION_SEPARATOR);
  const credits = answers.map((a) => a.credit);
  let allOrNothing = false;
  if (r.tags.allOrNothing) {
    // Our export's stand-in for a question scored all or nothing, which Moodle cannot say.
    allOrNothing = isAllOrNothingCredits({ options, correct_answer: correct }, credits);
    if (!allOrNothing)
      r.warnings.push(
        `The ${EXPORT_TAGS.allOrNothing} tag was ignored: the grades are not those it stands for (an equal share per right option, -100% per wrong one)`,
      );
  }
  return assemble(
    r,
    {
      question_type: 'multiple_select',
      options,
      correct_answer: correct,
      ...(allOrNothing ? {} : { option_credits: credits }),
    },
    feedback,
  );
};

function noteChoiceSettings(r: QuestionReader): void {
  const shuffle = r.value('shuffleanswers');
  if (shuffle !== undefined && ['false', '0'].includes(shuffle))
    r.notCarried.push('shuffleanswers off (options are always shuffled here)');
  const numbering = r.value('answernumbering');
  if (numbering && numbering !== 'none') r.notCarried.push(`answer numbering "${numbering}"`);
  if (r.value('showstandardinstruction') === '1') r.notCarried.push('the standard instruction');
  r.noteCombinedFeedback();
}

/** Moodle's formats whose text is not HTML. */
const TEXT_FORMATS = ['plain_text', 'markdown', 'wiki_like'];

/**
 * An option (or a stem, an item: `what`) of an html question as HTML when it says more than its text
 * (an image, a formula, formatting), its files carried as the question text's are.
 */
function richOptionOf(r: QuestionReader, answer: XmlElement, answerFormat: string, raw: string): string | undefined {
  if (TEXT_FORMATS.includes(r.textFormat)) return undefined;
  const html = richOption(answerFormat === 'moodle_auto_format' ? raw.replace(/\r?\n/g, ' ') : raw);
  if (html === undefined) return undefined;
  const field = r.field(answer, answerFormat);
  r.keep(field);
  const option = r.resolveMedia(field, html);
  r.richOptions.add(option);
  return option;
}

/** An option (or a stem, an item: `what`): HTML when it says more than its text in an html question, else plain text (HTML turned to text, saying what was lost); a "|" cannot be stored. */
function optionText(
  r: QuestionReader,
  answer: XmlElement,
  format: string,
  what: string,
  /** What such texts are, for messages. */
  kind = 'options',
): string {
  const raw = fieldText(answer);
  const answerFormat = answer.attrs.format?.trim() || format;
  let text = raw;
  const rich = TEXT_FORMATS.includes(answerFormat) ? undefined : richOptionOf(r, answer, answerFormat, raw);
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
      r.warnings.push(
        `${what}: ${lost.join(' and ')} ${lost.length > 1 ? 'were' : 'was'} dropped (${kind} are plain text)`,
      );
    if (text === '' && converted.images.length > 0) {
      const alt = converted.images.map((i) => i.alt.trim()).find(Boolean);
      if (!alt) throw new Refusal(`${what} is only an image, and ${kind} are plain text`);
      r.warnings.push(`${what} was only an image: its alt text "${alt}" is the option`);
      text = alt;
    }
  }
  if (text.includes(OPTION_SEPARATOR))
    throw new Refusal(`${what} ("${text}") contains "${OPTION_SEPARATOR}", which an option cannot`);
  return text;
}

const truefalse: Reader = (r) => {
  const format = r.textFormat;
  const answers = elements(r.question, 'answer');
  if (answers.length === 0) throw new Refusal('It has no true and false answers');
  let trueIsCorrect: boolean | undefined;
  const verdicts = new Set<boolean>();
  const feedback: FieldText[] = [r.field(undefined, format), r.field(undefined, format)];
  let byPosition = false;
  answers.forEach((answer, i) => {
    let which = plainFieldText(answer);
    if (which !== 'true' && which !== 'false') {
      byPosition = true;
      which = i === 0 ? 'true' : 'false';
    }
    const full = Number(answer.attrs.fraction ?? 0) === 100;
    trueIsCorrect = which === 'true' ? full : !full;
    verdicts.add(trueIsCorrect);
    feedback[which === 'true' ? 0 : 1] = r.field(element(answer, 'feedback'), format);
  });
  if (verdicts.size > 1)
    throw new Refusal('Its grades do not say whether true or false is correct (exactly one must be worth 100%)');
  if (byPosition)
    r.warnings.push(
      'Its answers are not named "true" and "false": the first was taken as true, the second as false, as Moodle does',
    );
  return assemble(
    r,
    { question_type: 'true_false', options: ['True', 'False'], correct_answer: trueIsCorrect ? 'True' : 'False' },
    feedback,
  );
};

/** What short and numeric answers share: the first 100% answer is the key, other credited ones alternatives. */
function keyAndAlternatives(
  r: QuestionReader,
  accept: (answer: Answer, text: string) => AlternativeAnswer | undefined,
): { key: AlternativeAnswer; alternatives: AlternativeAnswer[] } {
  const answers = gradedAnswers(r);
  const accepted: AlternativeAnswer[] = [];
  const lostFeedback: string[] = [];
  for (const answer of answers) {
    const text = plainFieldText(answer.element);
    const feedbackHolder = element(answer.element, 'feedback');
    if (feedbackHolder && fieldText(feedbackHolder) !== '') lostFeedback.push(`"${text}"`);
    if (answer.credit < 0) {
      r.warnings.push(`Answer "${text}" (${percent(answer.credit)}) cannot take marks away here: it scores 0`);
      continue;
    }
    // A 0% answer matching anything says what the bank does anyway (any other answer scores 0);
    // it is there for its feedback, named above when it has some.
    if (answer.credit === 0 && /^(\*|)$/.test(text)) continue;
    const taken = accept(answer, text);
    if (taken) accepted.push(taken);
  }
  if (lostFeedback.length > 0)
    r.warnings.push(`Feedback for the answers ${lostFeedback.join(', ')} is not carried (no per-answer feedback here)`);
  const keyAt = accepted.findIndex((a) => a.credit === 100);
  if (keyAt < 0) throw new Refusal('No answer is worth 100%, as Moodle requires');
  const [key] = accepted.splice(keyAt, 1);
  return { key, alternatives: accepted };
}

const shortanswer: Reader = (r) => {
  const caseSensitive = !['0', '', 'false'].includes(r.value('usecase') ?? '0');
  const { key, alternatives } = keyAndAlternatives(r, (answer, text) => {
    // Moodle's `*` matches any characters (`\*` is a literal one); our comparison is exact, so it cannot be carried.
    if (/(^|[^\\])\*/.test(text)) {
      if (answer.credit === 0) {
        r.warnings.push(`The answer "${text}" (a wildcard worth 0%, there for its feedback) is not carried`);
        return undefined;
      }
      throw new Refusal(
        `Answer "${text}" (${percent(answer.credit)}) uses Moodle's * wildcard, which cannot be matched here`,
      );
    }
    return { answer: text.replace(/\\\*/g, '*'), credit: answer.credit };
  });
  const draft: Omit<QuestionDraft, 'question_text' | 'marks' | 'difficulty'> = {
    question_type: 'short_answer',
    correct_answer: key.answer,
    case_sensitive: caseSensitive,
  };
  if (alternatives.length > 0) draft.alternatives = alternatives;
  return assemble(r, draft);
};

const numerical: Reader = (r) => {
  const { key, alternatives } = keyAndAlternatives(r, (answer, text) => {
    if (text === '*' || text === '')
      throw new Refusal(`It accepts any answer (*) for ${percent(answer.credit)}, which cannot be carried`);
    if (parseNumberText(text) === undefined) throw new Refusal(`Answer "${text}" is not a number`);
    // Moodle always writes <tolerance>; without one the answer has none (the bank's null, read as 0).
    const holder = element(answer.element, 'tolerance');
    if (!holder) return { answer: text, credit: answer.credit };
    const tolerance = Math.abs(Number(textOf(holder).trim() || 0));
    if (!Number.isFinite(tolerance)) throw new Refusal(`The tolerance of answer "${text}" is not a number`);
    return { answer: text, credit: answer.credit, tolerance };
  });
  const unitsHolder = r.child('units');
  const units = unitsHolder
    ? elements(unitsHolder, 'unit')
        .map((u) => textOf(element(u, 'unit_name') ?? u).trim())
        .filter(Boolean)
    : [];
  if (units.length > 0)
    r.warnings.push(`Its units (${units.join(', ')}) are not carried: answers are plain numbers here`);
  const instructions = r.child('instructions');
  if (instructions && fieldText(instructions) !== '') r.notCarried.push('unit instructions');
  const draft: Omit<QuestionDraft, 'question_text' | 'marks' | 'difficulty'> = {
    question_type: 'numeric',
    correct_answer: key.answer,
  };
  if (key.tolerance !== undefined) draft.tolerance = key.tolerance;
  if (alternatives.length > 0) draft.alternatives = alternatives;
  return assemble(r, draft);
};

/** The file types an essay's attachments may be here, as Moodle's filetypeslist names them. */
const ATTACHMENT_FILE_TYPES = new Set([
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.jpe',
  'application/pdf',
  'image/png',
  'image/jpeg',
]);

/**
 * An essay's attachments: Moodle's count (-1: any number) within our 0 to 5, its required count within
 * that; the file types it names that are not PDF, PNG or JPEG (or none named: any) are said not carried.
 */
function essayAttachments(r: QuestionReader): Pick<QuestionDraft, 'attachments' | 'attachments_required'> {
  const given = Number(r.value('attachments') ?? 0);
  if (!Number.isInteger(given) || given === 0) return {};
  const most = given < 0 || given > MAX_ESSAY_ATTACHMENTS ? MAX_ESSAY_ATTACHMENTS : given;
  if (most !== given)
    r.warnings.push(
      `It takes ${given < 0 ? 'any number of' : given} attachments; ${MAX_ESSAY_ATTACHMENTS}, the most an essay takes here, were carried`,
    );
  const required = Math.max(0, Math.min(most, Number(r.value('attachmentsrequired') ?? 0) || 0));
  const types = (r.value('filetypeslist') ?? '')
    .split(/[\s,;]+/u)
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const others = types.filter((t) => !ATTACHMENT_FILE_TYPES.has(t));
  if (types.length === 0 || others.length > 0)
    r.warnings.push(
      `Its attachments may be ${types.length === 0 ? 'any type of file' : others.join(', ')} in Moodle; here they are PDF, PNG or JPEG only`,
    );
  return required > 0 ? { attachments: most, attachments_required: required } : { attachments: most };
}

const essay: Reader = (r) => {
  const draft: Omit<QuestionDraft, 'question_text' | 'marks' | 'difficulty'> = { question_type: 'essay' };
  const max = r.value('maxwordlimit');
  if (max) {
    const words = Number(max);
    if (Number.isInteger(words) && words > 0) draft.max_words = words;
    else r.warnings.push(`maxwordlimit "${max}" is not a positive whole number: no word limit`);
  }
  const min = r.value('minwordlimit');
  if (min) r.notCarried.push(`a minimum of ${min} words`);
  const responseFormat = r.value('responseformat');
  if (responseFormat && responseFormat !== 'plain')
    r.notCarried.push(`response format "${responseFormat}" (answers are plain text here)`);
  if (r.value('responserequired') === '1') r.notCarried.push('response required');
  const lines = r.value('responsefieldlines');
  if (lines) r.notCarried.push(`${lines} response lines`);
  Object.assign(draft, essayAttachments(r));
  const graderInfo = r.child('graderinfo');
  if (graderInfo && fieldText(graderInfo) !== '')
    r.warnings.push(
      'Its information for graders is not carried (feedback is shown to students, so it is not put there)',
    );
  const template = r.child('responsetemplate');
  if (template && fieldText(template) !== '') r.notCarried.push('response template');
  return assemble(r, draft);
};

// ---- The types with parts (docs/question-types.md)

/** Moodle's `matching` (qtype_match): a subquestion without text is a distractor; the answers are plain text. */
const matching: Reader = (r) => {
  const stems: string[] = [];
  const matches: string[] = [];
  const options: string[] = [];
  elements(r.question, 'subquestion').forEach((sub, i) => {
    const answer = element(sub, 'answer');
    const option = answer ? optionText(r, answer, 'plain_text', `The answer of subquestion ${i + 1}`) : '';
    const stem = optionText(r, sub, r.textFormat, `Subquestion ${i + 1}`, 'stems');
    if (option === '') {
      if (stem !== '') throw new Refusal(`Subquestion ${i + 1} ("${stem}") has no answer`);
      return;
    }
    if (!options.includes(option)) options.push(option);
    if (stem === '') return;
    stems.push(stem);
    matches.push(option);
  });
  if (stems.length === 0) throw new Refusal('It has no subquestions with text to match');
  r.noteCombinedFeedback();
  return assemble(r, { question_type: 'matching', stems, options, matches });
};

/** qtype_ordering's grading types, by the numbers older versions wrote. */
const ORDERING_GRADING = [
  'ALL_OR_NOTHING',
  'ABSOLUTE_POSITION',
  'RELATIVE_NEXT_EXCLUDE_LAST',
  'RELATIVE_NEXT_INCLUDE_LAST',
  'RELATIVE_ONE_PREVIOUS_AND_NEXT',
  'RELATIVE_ALL_PREVIOUS_AND_NEXT',
  'LONGEST_ORDERED_SUBSET',
  'LONGEST_CONTIGUOUS_SUBSET',
  'RELATIVE_TO_CORRECT',
];

/** Moodle's grading type as ours: all or nothing, or else the longest ordered subset, saying what differs. */
function orderingScore(r: QuestionReader): 'all_or_nothing' | 'partial' {
  const written = r.value('gradingtype') ?? '';
  const grading = /^-?\d+$/.test(written) ? (ORDERING_GRADING[Number(written) + 1] ?? written) : written.toUpperCase();
  if (grading === 'ALL_OR_NOTHING') return 'all_or_nothing';
  if (grading === 'LONGEST_ORDERED_SUBSET') return 'partial';
  const how =
    grading === 'LONGEST_CONTIGUOUS_SUBSET'
      ? "Moodle's longest contiguous subset counts only items next to each other"
      : grading === ''
        ? 'the file names no grading type'
        : `Moodle's grading type ${grading} scores the order its own way`;
  r.warnings.push(
    `Scored by the longest ordered subset (items in the right relative order, not necessarily adjacent, ÷ items): ${how}`,
  );
  return 'partial';
}

/** qtype_ordering: the items in the right order (by their `fraction`, which is the position), scored whole or in part. */
const ordering: Reader = (r) => {
  const answers = elements(r.question, 'answer').map((element, i) => {
    const position = Number(element.attrs.fraction ?? i + 1);
    return { element, i, position: Number.isFinite(position) ? position : i + 1 };
  });
  if (answers.length === 0) throw new Refusal('It has no items to order');
  answers.sort((a, b) => a.position - b.position || a.i - b.i);
  const options = answers.map((a) => optionText(r, a.element, r.textFormat, `Item ${a.i + 1}`, 'items'));
  const selecttype = r.value('selecttype');
  if (selecttype && selecttype.toUpperCase() !== 'ALL' && selecttype !== '0')
    r.warnings.push(
      `Moodle shows takers ${r.value('selectcount') ?? 'some'} of the items (selecttype ${selecttype}); here every item is shown`,
    );
  // Items are listed one under another here, as Moodle's VERTICAL layout (0 in older files) does.
  const layout = r.value('layouttype');
  if (layout && !['VERTICAL', '0'].includes(layout.toUpperCase())) r.notCarried.push(`layout ${layout}`);
  r.noteCombinedFeedback();
  return assemble(r, { question_type: 'ordering', options, ordering_score: orderingScore(r) });
};

/** Moodle's cloze (`multianswer`): each embedded answer is a gap (cloze.ts). */
const cloze: Reader = (r) => {
  let gaps: GapDraft[] = [];
  // Moodle scores a cloze out of the sum of its gaps' weights.
  const draft = assemble(
    r,
    { question_type: 'gap_fill' },
    [],
    (text) => {
      const read = gapsOfText(text.text, text.html, r.warnings);
      gaps = read.gaps;
      return read.text;
    },
    () => ({
      marks: gaps.reduce((sum, gap) => sum + (gap.weight ?? 1), 0),
      why: ", the sum of its gaps' weights, as Moodle scores a cloze",
    }),
  );
  return { ...draft, gaps };
};

/** A choice of gapselect (`selectoption`) or ddwtos (`dragbox`): its text, its group, and whether it may be used again. */
interface GapChoice {
  text: string;
  group: string;
  infinite: boolean;
}

function gapChoices(r: QuestionReader, tag: string): GapChoice[] {
  const choices = elements(r.question, tag).map((choice, i) => ({
    text: optionText(r, choice, r.textFormat, `Choice ${i + 1}`, 'choices'),
    group: textOf(element(choice, 'group') ?? choice).trim() || '1',
    infinite: element(choice, 'infinite') !== undefined,
  }));
  if (choices.length === 0) throw new Refusal(`It has no choices (<${tag}>)`);
  return choices;
}

/** gapselect and ddwtos: `[[n]]` in the text is a gap whose answer is choice n; renumbered `[[1]]`… in text order. */
function placedChoices(
  r: QuestionReader,
  tag: string,
): { choices: GapChoice[]; places: GapChoice[]; rewrite: (text: FieldText) => string } {
  const choices = gapChoices(r, tag);
  const places: GapChoice[] = [];
  const rewrite = (text: FieldText) => {
    const numbered = text.text.replace(/\[\[(\d+)\]\]/g, (_whole, n: string) => {
      const choice = choices[Number(n) - 1];
      if (!choice) throw new Refusal(`The gap [[${n}]] names no choice (there are ${choices.length})`);
      places.push(choice);
      return `[[${places.length}]]`;
    });
    if (places.length === 0) throw new Refusal('Its text has no gaps ([[1]], [[2]]…)');
    return numbered;
  };
  return { choices, places, rewrite };
}

/** Moodle's gapselect ("Select missing words"): each gap a drop-down of the choices of its answer's group. */
const gapselect: Reader = (r) => {
  const { choices, places, rewrite } = placedChoices(r, 'selectoption');
  r.noteCombinedFeedback();
  const draft = assemble(r, { question_type: 'gap_fill' }, [], rewrite);
  const gaps = places.map((choice, i): GapDraft => {
    const options = [...new Set(choices.filter((c) => c.group === choice.group).map((c) => c.text))];
    if (options.length < 2)
      throw new Refusal(
        `Gap ${i + 1} ("${choice.text}"): its group ${choice.group} has one choice, a drop-down needs two`,
      );
    return { kind: 'select', answers: [{ answer: choice.text, credit: 100 }], options };
  });
  return { ...draft, gaps };
};

/** Moodle's ddwtos ("Drag and drop into text"): drag gaps over one set of chips. */
const ddwtos: Reader = (r) => {
  const { choices, places, rewrite } = placedChoices(r, 'dragbox');
  r.noteCombinedFeedback();
  const draft = assemble(r, { question_type: 'gap_fill' }, [], rewrite);
  const dragOptions = [...new Set(choices.map((c) => c.text))];
  if (dragOptions.length < choices.length) r.warnings.push('Choices of the same text are one chip here');
  if (new Set(choices.map((c) => c.group)).size > 1)
    r.warnings.push("The choices' groups are not carried: here any chip may be dropped into any gap");
  const infinite = choices.filter((c) => c.infinite).length;
  if (infinite > 0 && infinite < choices.length)
    r.warnings.push(
      `${infinite} of the ${choices.length} choices may be used more than once in Moodle; here every chip may`,
    );
  const gaps = places.map((choice): GapDraft => ({ kind: 'drag', answers: [{ answer: choice.text, credit: 100 }] }));
  return { ...draft, gaps, drag_options: dragOptions, ...(infinite > 0 ? { drag_reusable: true } : {}) };
};

/** A formula over wildcards drawn per attempt (calculated, simple calculated): its datasets become ranges. */
const calculated: Reader = (r) => {
  const variables = variablesOf(r.question, r.warnings, r.tags.drawnFromRange);
  const key = keyOf(gradedAnswers(r), r.warnings);
  const units = r.child('units');
  if (units && elements(units, 'unit').length > 0)
    r.warnings.push('Its units are not carried: answers are plain numbers here');
  if (r.value('synchronize') === '1') r.notCarried.push('datasets shared with other questions (synchronize)');
  return assemble(r, { question_type: 'calculated', variables, ...key });
};

/** A choice among formulas' values (calculated multichoice): calculated with choices, its datasets ranges as calculated's. */
const calculatedmulti: Reader = (r) => {
  const variables = variablesOf(r.question, r.warnings, r.tags.drawnFromRange);
  const single = !['false', '0'].includes(r.value('single') ?? 'true');
  const { choices, formula } = choicesOf(gradedAnswers(r), single, r.warnings);
  const withFeedback = elements(r.question, 'answer').some((a) => {
    const feedback = element(a, 'feedback');
    return feedback !== undefined && fieldText(feedback) !== '';
  });
  if (withFeedback) r.notCarried.push("the answers' feedback");
  if (r.value('synchronize') === '1') r.notCarried.push('datasets shared with other questions (synchronize)');
  noteChoiceSettings(r);
  return assemble(r, { question_type: 'calculated', variables, formula, choices });
};

/** Markers dropped on an image: a hotspot placing points, its drop zones the correct areas. */
const ddmarker: Reader = (r) => {
  const background = r.backgroundImage();
  if (!background) throw new Refusal('It has no background image');
  const size = imageDimensions(background.bytes);
  if (!size) throw new Refusal('Its background image is not an image whose size can be read');
  const { areas, maxPoints, markers } = dropZones(r.question);
  if (!r.tags.anyMarker)
    r.warnings.push(
      `Its markers (${markers.join(', ')}) are not carried: a point placed in any drop zone counts, whichever marker Moodle expects there`,
    );
  if (r.child('showmisplaced')) r.notCarried.push('highlighting misplaced markers');
  r.noteCombinedFeedback();
  return assemble(r, {
    question_type: 'hotspot',
    image: { src: background.src, ...size },
    areas,
    select: 'points',
    max_points: maxPoints,
  });
};

/** Labels dropped on an image: a gap fill, the image in its text and a drag gap per drop box (labelledImage.ts). */
const ddimageortext: Reader = (r) => {
  const background = r.backgroundImage();
  if (!background) throw new Refusal('It has no background image');
  const size = imageDimensions(background.bytes);
  const { zones, labels, reusable } = dropBoxes(r.question, r.warnings);
  let placed: ReturnType<typeof labelledImageDraft> | undefined;
  const draft = assemble(r, { question_type: 'gap_fill' }, [], (text) => {
    const src = `${MEDIA_PLACEHOLDER}${encodeURIComponent(background.path)}`;
    placed = labelledImageDraft(text.text, { src, ...size }, zones, labels, reusable);
    return placed.question_text;
  });
  r.warnings.push(PLACED_ON_IMAGE);
  r.noteCombinedFeedback();
  return { ...draft, ...placed!, question_text: draft.question_text };
};

/** Text and media shown among the questions: no answer, no marks. */
const description: Reader = (r) => assemble(r, { question_type: 'description' }, [], undefined, () => NO_MARKS);

const READERS = new Map<string, Reader>(
  Object.entries({
    description,
    calculated,
    calculatedsimple: calculated,
    calculatedmulti,
    ddmarker,
    ddimageortext,
    multichoice,
    truefalse,
    shortanswer,
    numerical,
    essay,
    matching,
    match: matching,
    ordering,
    cloze,
    multianswer: cloze,
    gapselect,
    ddwtos,
  }),
);

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
