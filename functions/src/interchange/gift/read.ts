import peggy from 'peggy';
import { EXPORT_TAGS, readExportTags, type ExportTags, htmlText } from '../conventions';
import { hasMarkup } from '../markup';
import { type ParsedBank, type ParsedItem, type QuestionDraft, Refusal } from '../model';
import { withHtmlChoices } from '../richOptions';
import { isBlankFirst } from './answers';
import { GIFT_GRAMMAR, type GiftQuestion, type GiftText } from './grammar';
import {
  GIFT_KINDS,
  type GiftFieldTag,
  type GiftKind,
  type GiftReaderType,
  type GiftType,
  type GiftTypes,
} from './port';

// Pure: a GIFT file (Moodle's text format) → ParsedBank. The file is cut into
// questions the way Moodle cuts it (a blank line ends a question; a line
// starting with // is a comment; lines are trimmed), each question is read by
// the peggy grammar in grammar.ts, told apart as Moodle tells GIFT's kinds of
// question apart, and read by the type that reads its kind (GiftTypes, each
// type's questionTypes/<type>/gift.ts), following Moodle's own reader
// (question/format/gift/format.php) except where Moodle is silently wrong.
//
// What every question's parts map to (what a kind's answers become is its type's):
//   ::title::                  → title (and ParsedItem.title); none → absent / null
//   [html] / [plain]           → text_format html / plain (always set). [moodle]: html if the text
//                                has tags (line breaks → <br>), else plain, with a warning; [markdown]:
//                                plain, with a warning. No tag: plain, or html with a warning if the
//                                text has tags (Moodle's default format renders them).
//   ####x (end of a block)     → feedback (general)
//   $CATEGORY: a/b             → category ["a","b"] of the questions that follow (`//` in a name is a
//                                literal "/"; a leading $course$/$cat$/$module$/$system$ and then `top`
//                                are dropped: they name Moodle contexts, not folders)
//   // [tag:x] comment lines   → Moodle's question tags. Our export's (conventions.ts EXPORT_TAGS):
//                                difficulty:…, marks:…, and the tags that carry a type's own fields
//                                (its fieldTags, read by its reader); others are warned
// feedback and option_feedback are written in the question's text_format. An [html] question's
// options and stems are HTML when they show more than text (an image, a formula), else escaped text.

let parser: peggy.Parser | undefined;
/** Built on first use (about 20 ms), not at every cold start. */
const giftParser = (): peggy.Parser => (parser ??= peggy.generate(GIFT_GRAMMAR));

/** A GIFT file read with the question types (`types`: what each kind of question becomes). */
export function readGift(text: string, types: GiftTypes): ParsedBank {
  const items: ParsedItem[] = [];
  let category: string[] | null = null;
  for (const block of splitBlocks(text)) {
    const first = block.lines[0];
    if (/^\$CATEGORY:/.test(first)) {
      category = categorySegments(unescapeGift(first.slice('$CATEGORY:'.length)));
      block.lines.shift();
      block.lineNumbers.shift();
      if (block.lines.length === 0) continue;
    }
    items.push(readQuestion(block, category, types));
  }
  return { format: 'gift', items, media: new Map() };
}

interface Block {
  lines: string[];
  /** The file's line number (1-based) of each of `lines`. */
  lineNumbers: number[];
  /** Its `//` comment lines (without the slashes), where Moodle reads tags. */
  comments: string[];
}

/** Moodle's cut: blank lines end a question, `//` lines are comments, every line is trimmed. */
function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block = { lines: [], lineNumbers: [], comments: [] };
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = phpTrim(raw);
    if (line === '') {
      if (current.lines.length > 0) blocks.push(current);
      current = { lines: [], lineNumbers: [], comments: [] };
    } else if (line.startsWith('//')) current.comments.push(line.slice(2));
    else {
      current.lines.push(line);
      current.lineNumbers.push(i + 1);
    }
  });
  if (current.lines.length > 0) blocks.push(current);
  return blocks;
}

const PHP_BLANK = new Set([' ', '\t', '\v', '\f', '\0']);

/** PHP's trim, as Moodle's: a no-break space is text, not blank. A scan from each end, not a regex that backtracks through every run of spaces. */
function phpTrim(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && PHP_BLANK.has(line[start])) start++;
  while (end > start && PHP_BLANK.has(line[end - 1])) end--;
  return line.slice(start, end);
}

/** Outside the grammar (category lines): the same escapes. */
const unescapeGift = (value: string): string =>
  value.replace(/\\(\\|n|[~=#{}:])/g, (_match, char: string) => (char === 'n' ? '\n' : char));

/** Moodle contexts that prefix a category path, never folders of ours. */
const CONTEXT_PREFIX = /^\$(course|cat|module|system)\$$/;

function categorySegments(path: string): string[] | null {
  // Moodle's own split: "/" separates, "//" is a literal slash.
  const segments = path
    .trim()
    .split(/(?<!\/)\/(?!\/)/)
    .map((s) => s.replace(/\/\//g, '/').trim())
    .filter((s) => s !== '');
  if (segments.length > 0 && CONTEXT_PREFIX.test(segments[0])) segments.shift();
  if (segments.length > 0 && segments[0] === 'top') segments.shift();
  return segments.length > 0 ? segments : null;
}

function readQuestion(block: Block, category: string[] | null, types: GiftTypes): ParsedItem {
  const item: ParsedItem = {
    line: block.lineNumbers[0],
    title: null,
    source_type: 'unknown',
    status: 'ok',
    message: null,
    warnings: [],
    category,
  };
  let parsed: GiftQuestion;
  try {
    parsed = giftParser().parse(block.lines.join('\n')) as GiftQuestion;
  } catch (error) {
    const where = (error as { location?: { start?: { line?: number } } }).location?.start?.line;
    const line = where === undefined ? item.line : (block.lineNumbers[where - 1] ?? item.line);
    item.title = roughTitle(block.lines[0]);
    return { ...item, status: 'error', message: `Not valid GIFT (line ${line}): ${(error as Error).message}` };
  }
  item.title = parsed.title === null ? null : parsed.title.trim() || null;
  const kind = kindOf(parsed);
  item.source_type = GIFT_KINDS[kind];
  const type = types.readerOf(kind);
  const tags = blockTags(block);
  try {
    item.question = withTags(draftOf(parsed, item, type, tags), type, tags, item.warnings);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ...item, status: error.status, message: error.message, warnings: [] };
  }
  return item;
}

/** The title of a question the grammar refused, for the report. */
function roughTitle(firstLine: string): string | null {
  const match = /^::(.*?)::/.exec(firstLine);
  return match ? unescapeGift(match[1]).trim() || null : null;
}

/** Moodle's order of guesses; a choice with no "=" is its multiple-response one. */
function kindOf(q: GiftQuestion): GiftKind {
  const block = q.block;
  if (block === null) return 'Description';
  if (block.kind === 'empty') return 'Essay';
  if (block.kind === 'numerical') return 'Numerical';
  const answers = block.answers;
  if (answers.some((a) => a.prefix === '~')) return answers.some((a) => a.prefix === '=') ? 'MC' : 'MultipleResponse';
  if (answers.some((a) => a.prefix === '=') && answers.some((a) => a.text.includes('->'))) return 'Matching';
  if (answers.length === 1 && answers[0].prefix === null && answers[0].weight === null) {
    if (['T', 'TRUE', 'F', 'FALSE'].includes(answers[0].text.trim())) return 'TF';
  }
  return 'Short';
}

/** Moodle's tag syntax in comment lines: `[tag:name]`. */
const blockTags = (block: Block): ExportTags => readExportTags(block.comments.flatMap(tagNames));

const TAG_OPEN = '[tag:';

/** The names of a comment's `[tag:name]`s: each runs to the first "]" after it. */
function tagNames(comment: string): string[] {
  const names: string[] = [];
  for (let at = comment.indexOf(TAG_OPEN); at >= 0; at = comment.indexOf(TAG_OPEN, at)) {
    const end = comment.indexOf(']', at + TAG_OPEN.length);
    // No "]" after this one: none after any later one either.
    if (end < 0) break;
    names.push(comment.slice(at + TAG_OPEN.length, end));
    at = end + 1;
  }
  return names;
}

/** Each tag that carries a type's field, as written back in a warning when the question is of another type. */
const FIELD_TAGS: ReadonlyArray<[GiftFieldTag, (tags: ExportTags) => string | null]> = [
  ['maxWords', (tags) => (tags.maxWords === undefined ? null : `${EXPORT_TAGS.maxWords}${tags.maxWords}`)],
  ['caseSensitive', (tags) => (tags.caseSensitive ? EXPORT_TAGS.caseSensitive : null)],
  ['allOrNothing', (tags) => (tags.allOrNothing ? EXPORT_TAGS.allOrNothing : null)],
];

/**
 * What the tags of our conventions say, applied to the draft (its type's own fields its reader has
 * applied already); other tags, and those of another type's fields, are named as not carried.
 */
function withTags(draft: QuestionDraft, type: GiftType, tags: ExportTags, warnings: string[]): QuestionDraft {
  const result = { ...draft };
  if (tags.difficulty) result.difficulty = tags.difficulty;
  if (tags.marks !== undefined) result.marks = tags.marks;
  const misplaced = FIELD_TAGS.filter(([field]) => !type.fieldTags.includes(field))
    .map(([, written]) => written(tags))
    .filter((written) => written !== null);
  if (tags.untitled) misplaced.push(EXPORT_TAGS.untitled);
  const ignored = [...tags.invalid, ...misplaced];
  if (ignored.length > 0) warnings.push(`Tags that do not fit this question were ignored: ${ignored.join(', ')}`);
  if (tags.others.length > 0) warnings.push(`Not carried: tags (${tags.others.join(', ')})`);
  return result;
}

/** The question as its type reads it: the text, format, marks and general feedback every question has, then its type's fields. */
function draftOf(q: GiftQuestion, item: ParsedItem, type: GiftReaderType, tags: ExportTags): QuestionDraft {
  const warn = (message: string) => item.warnings.push(message);
  // Moodle's text: the block taken out, or "_____" in its place when text follows it.
  const tail = q.tail.trim();
  let stem = q.stem.text;
  if (tail !== '') {
    stem = `${stem}_____${q.tail}`;
    warn('The answer block is inside the text (missing-word form): the text is carried with "_____" in its place');
  }
  const textFormat = resolveFormat({ format: q.stem.format, text: stem.trim() }, warn);
  const draft: QuestionDraft = {
    question_type: type.name,
    question_text: textFormat.text,
    text_format: textFormat.format,
    marks: 1,
    difficulty: 'medium',
  };
  if (item.title !== null) draft.title = item.title;
  // The options and stems kept as HTML (an html question's others are escaped text).
  const rich = new Set<string>();
  // Answers and feedback take the question's format unless they name their own, as in Moodle.
  const inherited = q.stem.format;
  const feedback = (t: GiftText, what: string): string =>
    carryFeedback({ format: t.format ?? inherited, text: t.text.trim() }, textFormat.format, what, warn);
  if (q.block?.feedback) {
    const general = feedback(q.block.feedback, 'The general feedback');
    if (general !== '') draft.feedback = general;
  }
  const answers = (q.block?.answers ?? []).filter((a, i) => !(i === 0 && isBlankFirst(a)));
  const fields = type.reader.read({ answers, inherited, feedback, warn, tags, rich });
  return withHtmlChoices({ ...draft, ...fields }, rich, type.htmlOptions);
}

type Warn = (message: string) => void;

interface Resolved {
  format: 'plain' | 'html';
  text: string;
}

/** The question text's format: ours has plain and html only. */
function resolveFormat(t: GiftText, warn: Warn): Resolved {
  switch (t.format) {
    case 'html':
      return { format: 'html', text: t.text };
    case 'plain':
      return { format: 'plain', text: t.text };
    case 'markdown':
      warn('The text is in Markdown ([markdown]): carried as plain text, its Markdown shown as written');
      return { format: 'plain', text: t.text };
    case 'moodle':
      if (hasMarkup(t.text)) {
        warn("The text is in Moodle's auto-format ([moodle]): carried as html, line breaks as <br>");
        return { format: 'html', text: t.text.replace(/\n/g, '<br>\n') };
      }
      warn("The text is in Moodle's auto-format ([moodle]): carried as plain text");
      return { format: 'plain', text: t.text };
    default:
      // Moodle's default is its auto-format, which shows HTML as HTML.
      if (hasMarkup(t.text)) {
        warn('The text names no format but holds HTML, which Moodle shows as HTML: carried as html');
        return { format: 'html', text: t.text.replace(/\n/g, '<br>\n') };
      }
      return { format: 'plain', text: t.text };
  }
}

/** Feedback in the question's own format. */
function carryFeedback(t: GiftText, target: 'plain' | 'html', what: string, warn: Warn): string {
  if (t.text === '') return '';
  const own = t.format === 'html' || (t.format !== 'plain' && t.format !== 'markdown' && hasMarkup(t.text));
  if (t.format === 'markdown') warn(`${what} is in Markdown: carried as plain text`);
  if (target === 'html') return own ? t.text : escapeHtml(t.text).replace(/\n/g, '<br>\n');
  if (!own) return t.text;
  const plain = htmlText(t.text);
  if (plain.lost) warn(`${what}: HTML markup removed (the question is plain text)`);
  return plain.text;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
