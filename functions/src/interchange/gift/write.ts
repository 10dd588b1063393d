import { isHtml, mediaOfQuestion, type ExportPool, type ExportQuestion } from '../exportModel';
import { CATEGORY_SEPARATOR, EXPORT_TAGS, formatNumber, PASSAGE_NOT_CARRIED } from '../conventions';
import { ARROW } from './answers';
import type { GiftTypes } from './port';

// Pure: the bank's questions as GIFT (Moodle's text format), each question's
// answer block written by its type (GiftTypes, each type's
// questionTypes/<type>/gift.ts) and put here in GIFT's envelope. What GIFT
// cannot say natively travels as `// [tag:…]` comment lines that Moodle keeps as
// question tags (difficulty, marks, and the fields a type carries as tags);
// credits are rounded to Moodle's grades, with a comment saying so. GIFT has no
// files: media stay `/api/media/…` references to this platform, noted above the
// question. One question per blank-line-separated block; newlines in texts are
// written `\n`, so no text can end a block.

const FORMAT_MARKER = /^\[(html|plain|moodle|markdown)\]/i;

/** GIFT's escapes: \ ~ = # { } : each preceded by a backslash, line ends as `\n`. */
export const giftEscape = (text: string): string =>
  text.replace(/[\\~=#{}:]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');

/** `$course$/top/A/B`, a slash inside a segment doubled as Moodle reads it. */
export const moodleCategoryPath = (segments: readonly string[]): string =>
  ['$course$', 'top', ...segments.map((s) => s.replace(/\//g, '//'))].join('/');

const format = (q: ExportQuestion) => (isHtml(q) ? 'html' : 'plain');

/**
 * An answer as written after `=`/`~` and an optional weight. An html question's options and stems
 * are HTML, marked [html]; a plain question's are plain text, marked [plain] where the text would
 * read as a weight or a format marker.
 */
export function answerText(q: ExportQuestion, text: string): string {
  if (isHtml(q)) return `[html]${inAnswers(text)}`;
  // "->" between the braces makes a matching question: an option holding it is written as HTML, its ">" as "&gt;".
  if (text.includes(ARROW))
    return `[html]${giftEscape(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))}`;
  const needsMarker = text.startsWith('%') || FORMAT_MARKER.test(text);
  return `${needsMarker ? '[plain]' : ''}${giftEscape(text)}`;
}

/** Text between the braces: "->" there would read as a matching question, so its ">" is written "&gt;". */
export const inAnswers = (text: string): string => giftEscape(text.split(ARROW).join('-&gt;'));

/** An answer's feedback, after it (none: nothing). */
export const feedbackText = (text: string | undefined | null): string => (text ? `#${inAnswers(text)}` : '');
const generalFeedback = (q: ExportQuestion): string => (q.feedback ? `####${inAnswers(q.feedback)}` : '');

/** What "->" in the answers costs: said above the question when it is not lossless (plain text shows "&gt;" as written). */
function arrowNote(q: ExportQuestion, unmarked: readonly string[]): string[] {
  const texts = [q.feedback ?? '', ...(q.option_feedback ?? [])].filter(() => !isHtml(q));
  texts.push(...unmarked);
  return texts.some((t) => t.includes(ARROW))
    ? ['"->" cannot appear between GIFT braces (it means a matching question): written as "-&gt;"']
    : [];
}
/** A short answer's `*` written `\*`: Moodle reads a bare one as a wildcard. */
export const literalStars = (text: string): string => text.replace(/\*/g, '\\*');

/** An answer's weight, `%50%`. */
export const weight = (credit: number): string => `%${formatNumber(credit)}%`;

function tagLine(q: ExportQuestion, typeTags: readonly string[]): string {
  const tags = [
    `${EXPORT_TAGS.difficulty}${q.difficulty}`,
    `${EXPORT_TAGS.marks}${formatNumber(q.marks)}`,
    ...typeTags,
  ];
  return `// ${tags.map((t) => `[tag:${t}]`).join(' ')}`;
}

/** One question as a GIFT block (comment lines, then the question), without the blank line after it. */
export function giftQuestion(q: ExportQuestion, types: GiftTypes): string {
  const written = types.typeNamed(q.question_type)?.write(q) ?? {
    cannot: `a question of type ${q.question_type}, which this export does not know`,
  };
  if ('cannot' in written) {
    const which = q.title ? `"${q.title.replace(/\s+/g, ' ')}"` : `question ${q.id}`;
    return `// not exported: ${which} is ${written.cannot}`;
  }
  const { body, notes } = written;
  const lines = [...notes, ...arrowNote(q, written.unmarked ?? [])].map((n) => `// ${n}`);
  if (mediaOfQuestion(q).length > 0)
    lines.push('// media: GIFT cannot carry files; the images and sounds stay links to /api/media/… on this platform');
  if (q.passage_id) lines.push(`// ${PASSAGE_NOT_CARRIED}`);
  lines.push(tagLine(q, written.tags ?? []));
  const title = q.title ? `::${giftEscape(q.title)}::` : '';
  const general = generalFeedback(q);
  const multiline = body.includes('\n') || written.multiline === true;
  const answers = multiline ? `{\n${body}\n${general ? `\t${general}\n` : ''}}` : `{${body}${general}}`;
  lines.push(`${title}[${format(q)}]${giftEscape(q.question_text)}${answers}`);
  return lines.join('\n');
}

export const giftCategory = (segments: readonly string[]): string => `$CATEGORY: ${moodleCategoryPath(segments)}`;

/**
 * Writes GIFT a few questions at a time (for a streamed export): a `$CATEGORY:`
 * line whenever the category changes (back to `$course$/top` for a question in
 * no folder after one in a folder).
 */
export class GiftWriter {
  /** The category in effect, its segments joined; '' is the top. */
  private category = '';
  private started = false;

  /** `types`: how each type's questions are written; `header`: comment lines written first (e.g. a test's pools). */
  constructor(
    private readonly types: GiftTypes,
    private readonly header: readonly string[] = [],
  ) {}

  /** The text for these questions (each block followed by a blank line). */
  write(questions: readonly ExportQuestion[]): string {
    let out = '';
    if (!this.started) {
      this.started = true;
      if (this.header.length > 0) out += `${this.header.map((line) => `// ${line}`).join('\n')}\n\n`;
    }
    for (const q of questions) {
      const key = (q.category ?? []).join(CATEGORY_SEPARATOR);
      if (key !== this.category) {
        out += `${giftCategory(q.category ?? [])}\n\n`;
        this.category = key;
      }
      out += `${giftQuestion(q, this.types)}\n\n`;
    }
    return out;
  }
}

/** GIFT has no random questions: a test's pools are exported as their questions, with a comment saying what each draws. */
export const giftPoolNotes = (pools: readonly ExportPool[]): string[] =>
  pools.map(
    (p, i) =>
      `pool ${i + 1}: each attempt draws ${p.draw} of the ${p.question_ids.length} questions of "${p.category.join(CATEGORY_SEPARATOR)}"` +
      `${p.difficulty ? ` (${p.difficulty})` : ''}; GIFT has no random questions`,
  );
