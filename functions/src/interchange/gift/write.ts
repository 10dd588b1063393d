import { isHtml, mediaOfQuestion, type ExportPool, type ExportQuestion } from '../exportModel';
import {
  CATEGORY_SEPARATOR,
  EXPORT_TAGS,
  decimalText,
  formatNumber,
  gradeChanges,
  htmlLine,
  matchingDistractors,
  moodleCredits,
  alternativeGrades,
  PASSAGE_NOT_CARRIED,
} from '../conventions';

// Pure: the bank's questions as GIFT (Moodle's text format). What GIFT cannot
// say natively travels as `// [tag:…]` comment lines that Moodle keeps as
// question tags (difficulty, marks, an essay's word limit, case sensitivity);
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
function answerText(q: ExportQuestion, text: string): string {
  if (isHtml(q)) return `[html]${inAnswers(text)}`;
  // "->" between the braces makes a matching question: an option holding it is written as HTML, its ">" as "&gt;".
  if (text.includes(ARROW))
    return `[html]${giftEscape(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))}`;
  const needsMarker = text.startsWith('%') || FORMAT_MARKER.test(text);
  return `${needsMarker ? '[plain]' : ''}${giftEscape(text)}`;
}

const ARROW = '->';
/** Text between the braces: "->" there would read as a matching question, so its ">" is written "&gt;". */
const inAnswers = (text: string): string => giftEscape(text.split(ARROW).join('-&gt;'));

const feedbackText = (text: string | undefined | null): string => (text ? `#${inAnswers(text)}` : '');
const generalFeedback = (q: ExportQuestion): string => (q.feedback ? `####${inAnswers(q.feedback)}` : '');

/** What "->" in the answers costs: said above the question when it is not lossless (plain text shows "&gt;" as written). */
function arrowNote(q: ExportQuestion): string[] {
  const texts = [q.feedback ?? '', ...(q.option_feedback ?? [])].filter(() => !isHtml(q));
  if (q.question_type === 'short_answer') texts.push(q.correct_answer, ...(q.alternatives ?? []).map((a) => a.answer));
  return texts.some((t) => t.includes(ARROW))
    ? ['"->" cannot appear between GIFT braces (it means a matching question): written as "-&gt;"']
    : [];
}
/** A short answer's `*` written `\*`: Moodle reads a bare one as a wildcard. */
export const literalStars = (text: string): string => text.replace(/\*/g, '\\*');

const weight = (credit: number): string => `%${formatNumber(credit)}%`;

/** Whether a multiple_select is written with its own credits (else with moodleCredits' stand-in for all or nothing). */
const hasCredits = (q: ExportQuestion): boolean => q.option_credits?.length === q.options.length;

function tagLine(q: ExportQuestion): string {
  const tags = [`${EXPORT_TAGS.difficulty}${q.difficulty}`, `${EXPORT_TAGS.marks}${formatNumber(q.marks)}`];
  if (q.question_type === 'essay' && q.max_words) tags.push(`${EXPORT_TAGS.maxWords}${q.max_words}`);
  if (q.question_type === 'short_answer' && q.case_sensitive) tags.push(EXPORT_TAGS.caseSensitive);
  if (q.question_type === 'multiple_select' && !hasCredits(q)) tags.push(EXPORT_TAGS.allOrNothing);
  return `// ${tags.map((t) => `[tag:${t}]`).join(' ')}`;
}

/** What GIFT cannot say: why, for the comment written in the question's place. */
interface Unwritable {
  cannot: string;
}

function answersOf(q: ExportQuestion): { body: string; notes: string[] } | Unwritable {
  const optionFeedback = (i: number) => feedbackText(q.option_feedback?.[i]);
  switch (q.question_type) {
    case 'multiple_choice':
      return {
        body: q.options
          .map((o, i) => `\t${o === q.correct_answer ? '=' : '~'}${answerText(q, o)}${optionFeedback(i)}`)
          .join('\n'),
        notes: [],
      };
    case 'multiple_select': {
      // No "=": Moodle reads a choice question without one as multiple answers.
      const credits = moodleCredits(q);
      const notes: string[] = [];
      if (hasCredits(q)) {
        const changed = gradeChanges(q.option_credits!, credits);
        if (changed) notes.push(`option credits rounded to Moodle's grades: ${changed}`);
      } else
        notes.push(
          'scored all or nothing here: written with an equal share of 100% per correct option and -100% per wrong one',
        );
      return {
        body: q.options.map((o, i) => `\t~${weight(credits[i])}${answerText(q, o)}${optionFeedback(i)}`).join('\n'),
        notes,
      };
    }
    case 'true_false': {
      // GIFT's first feedback is for a wrong answer, the second for a right one.
      const isTrue = q.correct_answer === 'True';
      const [forTrue, forFalse] = [q.option_feedback?.[0] ?? '', q.option_feedback?.[1] ?? ''];
      const [wrong, right] = isTrue ? [forFalse, forTrue] : [forTrue, forFalse];
      // Only as many marks as needed: an empty last feedback before "####" would read as "#####".
      const feedback = right ? `#${inAnswers(wrong)}#${inAnswers(right)}` : wrong ? `#${inAnswers(wrong)}` : '';
      return { body: `${isTrue ? 'TRUE' : 'FALSE'}${feedback}`, notes: [] };
    }
    case 'short_answer': {
      const alternatives = q.alternatives ?? [];
      const { grades, changed } = alternativeGrades(alternatives);
      // A short answer's answers are never format-marked in Moodle: only a leading % needs the explicit weight.
      const answer = (text: string, grade: number | null) =>
        `\t=${grade !== null || text.startsWith('%') ? weight(grade ?? 100) : ''}${inAnswers(literalStars(text))}`;
      return {
        body: [answer(q.correct_answer, null), ...alternatives.map((a, i) => answer(a.answer, grades[i]))].join('\n'),
        notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
      };
    }
    case 'numeric': {
      const value = (answer: string, tolerance: number | null | undefined) =>
        `${decimalText(answer)}${tolerance === null || tolerance === undefined ? '' : `:${formatNumber(tolerance)}`}`;
      const alternatives = q.alternatives ?? [];
      if (alternatives.length === 0) return { body: `#${value(q.correct_answer, q.tolerance)}`, notes: [] };
      const { grades, changed } = alternativeGrades(alternatives);
      return {
        body: `#\n\t=${value(q.correct_answer, q.tolerance)}\n${alternatives
          .map((a, i) => `\t=${weight(grades[i])}${value(a.answer, a.tolerance)}`)
          .join('\n')}`,
        notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
      };
    }
    case 'essay':
      return {
        body: '',
        notes: q.attachments
          ? [`its ${q.attachments} attached file${q.attachments === 1 ? '' : 's'} (GIFT cannot say them): not written`]
          : [],
      };
    case 'matching':
      return matchingAnswers(q);
    case 'ordering':
      return { cannot: 'an ordering question, which GIFT cannot say' };
    case 'gap_fill':
      return { cannot: 'a gap-fill question, which GIFT cannot say (its one answer block is one gap)' };
    case 'hottext':
      return { cannot: 'a hottext question, which GIFT cannot say' };
    case 'calculated':
      return { cannot: 'a calculated question, which GIFT cannot say (its variables and formula)' };
    case 'hotspot':
      return { cannot: 'a hotspot question, which GIFT cannot say (an image and its areas)' };
    case 'description':
      return { cannot: 'a description, which this export does not write in GIFT yet' };
    default:
      return { cannot: `a question of type ${q.question_type}, which this export does not know` };
  }
}

/**
 * `=stem -> match` per stem, then `=-> option` for each option no stem matches (Moodle's
 * distractor). Moodle splits at the first "->", so a stem holding one cannot be written.
 */
function matchingAnswers(q: ExportQuestion): { body: string; notes: string[] } | Unwritable {
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  if (stems.some((s) => s.includes(ARROW)))
    return { cannot: 'a matching question with "->" in a stem, which GIFT reads as the end of the stem' };
  const { distractors, reordered } = matchingDistractors(q);
  const notes: string[] = [];
  // GIFT's matches are plain text: an html question's is written as its text.
  const matchText = (option: string): string => {
    if (!isHtml(q)) return option;
    const line = htmlLine(option);
    if (line.images.length > 0 || line.formatting.length > 0)
      notes.push(`the option "${line.text}" is written as its text: GIFT's matches are plain text`);
    return line.text;
  };
  const pair = (stem: string, option: string) =>
    `\t=${stem === '' ? '' : answerText(q, stem)} -> ${giftEscape(matchText(option))}`;
  if (reordered) notes.push("the options' order is not carried: GIFT lists the matches, then the distractors");
  return {
    body: [...stems.map((s, i) => pair(s, matches[i] ?? '')), ...distractors.map((d) => pair('', d))].join('\n'),
    notes,
  };
}

/** One question as a GIFT block (comment lines, then the question), without the blank line after it. */
export function giftQuestion(q: ExportQuestion): string {
  const written = answersOf(q);
  if ('cannot' in written) {
    const which = q.title ? `"${q.title.replace(/\s+/g, ' ')}"` : `question ${q.id}`;
    return `// not exported: ${which} is ${written.cannot}`;
  }
  const { body, notes } = written;
  const lines = [...notes, ...arrowNote(q)].map((n) => `// ${n}`);
  if (mediaOfQuestion(q).length > 0)
    lines.push('// media: GIFT cannot carry files; the images and sounds stay links to /api/media/… on this platform');
  if (q.passage_id) lines.push(`// ${PASSAGE_NOT_CARRIED}`);
  lines.push(tagLine(q));
  const title = q.title ? `::${giftEscape(q.title)}::` : '';
  const general = generalFeedback(q);
  const multiline = body.includes('\n') || q.question_type === 'multiple_choice';
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

  /** `header`: comment lines written first (e.g. a test's pools). */
  constructor(private readonly header: readonly string[] = []) {}

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
      out += `${giftQuestion(q)}\n\n`;
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

/** The questions as one GIFT text. */
export function toGift(questions: readonly ExportQuestion[], pools: readonly ExportPool[] = []): string {
  return new GiftWriter(giftPoolNotes(pools)).write(questions);
}
