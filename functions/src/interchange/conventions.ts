import sanitizeHtml from 'sanitize-html';
import { hasMarkup, withoutSpans, withoutTags } from './markup';
import type { ExportQuestion } from './exportModel';
import type { Difficulty } from './model';

// Pure: the conventions the readers and the writers share, each once: a
// category's path, our tags, a question's title made from its text, Moodle's
// grades, HTML as plain text, and numbers as decimal text.

/** How a category's segments become a folder's name, and back. */
export const CATEGORY_SEPARATOR = ' / ';

/** The most files an essay takes beside its text (the bank's own limit, which checks every draft again). */
export const MAX_ESSAY_ATTACHMENTS = 5;

// ---- Tags

/**
 * Tags carry what GIFT cannot say natively (`// [tag:…]` comment lines, which Moodle
 * reads as question tags) and what Moodle XML cannot (`<tags>`): the bank's
 * difficulty, and in GIFT also the marks, an essay's word limit and a
 * case-sensitive short answer; in both, a multiple_select scored all or nothing
 * (written with the credits moodleCredits gives it) and, in Moodle XML, a
 * question without a title (its <name> is then made from its text). The
 * importers read them back (readExportTags).
 */
export const EXPORT_TAGS = {
  /** `difficulty:easy|medium|hard` */
  difficulty: 'difficulty:',
  /** `marks:<number>` (GIFT only: Moodle XML has defaultgrade) */
  marks: 'marks:',
  /** `max_words:<n>` (GIFT only: Moodle XML has maxwordlimit) */
  maxWords: 'max_words:',
  /** (GIFT only: Moodle XML has usecase) */
  caseSensitive: 'case_sensitive',
  /** A multiple_select without option_credits: its written credits stand for all or nothing. */
  allOrNothing: 'all_or_nothing',
  /** (Moodle XML only: GIFT writes no title for a question without one) the <name> was made from the text. */
  untitled: 'untitled',
  /** (Moodle XML only) a calculated question whose dataset items were drawn from the ranges it keeps: the ranges are the question. */
  drawnFromRange: 'drawn_from_range',
  /** (Moodle XML only) a ddmarker written for a hotspot placing points: a point in any zone counts, whatever its marker. */
  anyMarker: 'any_marker',
} as const;

/** What a file's tags say in our conventions, and the tags that say something else (not carried). */
export interface ExportTags {
  difficulty?: Difficulty;
  marks?: number;
  maxWords?: number;
  caseSensitive?: boolean;
  allOrNothing?: boolean;
  untitled?: boolean;
  drawnFromRange?: boolean;
  anyMarker?: boolean;
  /** Tags of no convention of ours, as written. */
  others: string[];
  /** Tags of ours whose value is not one (e.g. `difficulty:extreme`), as written. */
  invalid: string[];
}

/** Reads EXPORT_TAGS conventions from tag names (case-insensitive names, values trimmed). */
export function readExportTags(tags: readonly string[]): ExportTags {
  const out: ExportTags = { others: [], invalid: [] };
  for (const raw of tags) {
    const tag = raw.trim();
    const lower = tag.toLowerCase();
    const valueOf = (prefix: string) => tag.slice(prefix.length).trim();
    if (lower.startsWith(EXPORT_TAGS.difficulty)) {
      const value = valueOf(EXPORT_TAGS.difficulty).toLowerCase();
      if (value === 'easy' || value === 'medium' || value === 'hard') out.difficulty = value;
      else out.invalid.push(tag);
    } else if (lower.startsWith(EXPORT_TAGS.marks)) {
      const value = Number(valueOf(EXPORT_TAGS.marks));
      if (valueOf(EXPORT_TAGS.marks) !== '' && Number.isFinite(value) && value > 0) out.marks = value;
      else out.invalid.push(tag);
    } else if (lower.startsWith(EXPORT_TAGS.maxWords)) {
      const value = Number(valueOf(EXPORT_TAGS.maxWords));
      if (Number.isInteger(value) && value > 0) out.maxWords = value;
      else out.invalid.push(tag);
    } else if (lower === EXPORT_TAGS.caseSensitive) out.caseSensitive = true;
    else if (lower === EXPORT_TAGS.allOrNothing) out.allOrNothing = true;
    else if (lower === EXPORT_TAGS.untitled) out.untitled = true;
    else if (lower === EXPORT_TAGS.drawnFromRange) out.drawnFromRange = true;
    else if (lower === EXPORT_TAGS.anyMarker) out.anyMarker = true;
    else if (tag !== '') out.others.push(tag);
  }
  return out;
}

/**
 * Whether a multiple_select's credits are those moodleCredits writes for one
 * scored all or nothing (each correct option an equal share, each wrong one
 * −100), within Moodle's rounding: then, tagged all_or_nothing, it was one.
 */
export function isAllOrNothingCredits(
  q: Pick<ExportQuestion, 'options' | 'correct_answer'>,
  credits: readonly number[],
): boolean {
  const written = moodleCredits({ ...q, option_credits: null });
  return written.length === credits.length && written.every((c, i) => Math.abs(c - credits[i]) < 0.01);
}

// ---- Titles

const TITLE_LENGTH = 60;

/**
 * The name a question carries where a format requires one (Moodle XML's
 * `<name>`, a QTI item's `title`): its title, or else the start of its text.
 * GIFT writes a title only when the question has one.
 */
export function exportedTitle(q: Pick<ExportQuestion, 'title' | 'question_text' | 'text_format'>): string {
  if (q.title) return q.title;
  const text = textStart(q);
  return text.length <= TITLE_LENGTH ? text : `${text.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}

/** The text as one line of plain text: HTML's tags dropped and its entities decoded, spacing collapsed. */
function textStart(q: Pick<ExportQuestion, 'question_text' | 'text_format'>): string {
  const text = q.text_format === 'html' ? decodeEntities(q.question_text.replace(/<[^>]*>/g, ' ')) : q.question_text;
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Whether a name read back is the one exportedTitle made from this text (for a
 * question without a title): the whole text, or its start cut with "…". Read
 * from the text as the file gives it back, so spacing and entities may differ.
 */
export function isTitleFromText(name: string, q: Pick<ExportQuestion, 'question_text' | 'text_format'>): boolean {
  const text = textStart(q);
  const given = name.replace(/\s+/g, ' ').trim();
  if (given === text) return true;
  return given.endsWith('…') && given.length > 1 && text.startsWith(given.slice(0, -1).trimEnd());
}

// ---- Moodle's grades

/** The fractions Moodle accepts for an answer (question_bank::fraction_options_full), as percentages. */
export const MOODLE_GRADES = [
  100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5,
  0,
] as const;

/** The Moodle grade nearest a credit (−100 to 100): Moodle refuses any other value on import. */
export function nearestMoodleGrade(credit: number): number {
  const magnitude = Math.min(100, Math.abs(credit));
  let best: number = MOODLE_GRADES[0];
  for (const grade of MOODLE_GRADES) if (Math.abs(grade - magnitude) < Math.abs(best - magnitude)) best = grade;
  return credit < 0 && best !== 0 ? -best : best;
}

/**
 * The credits a multiple_select is written with in GIFT and Moodle XML, one
 * per option, each a Moodle grade. Its option_credits when it has them;
 * otherwise (the bank scores it all or nothing, which Moodle cannot) each
 * correct option an equal share of 100 and each wrong one −100, so that any
 * wrong choice still costs the whole question.
 */
export function moodleCredits(q: Pick<ExportQuestion, 'options' | 'correct_answer' | 'option_credits'>): number[] {
  if (q.option_credits && q.option_credits.length === q.options.length) return q.option_credits.map(nearestMoodleGrade);
  const correct = correctOptions(q);
  const share = nearestMoodleGrade(100 / Math.max(1, correct.size));
  return q.options.map((o) => (correct.has(o) ? share : -100));
}

/** The options named in a multiple_select's correct_answer (spelled as the options are, as the bank stores them). */
export const correctOptions = (q: Pick<ExportQuestion, 'correct_answer'>): Set<string> =>
  new Set(
    q.correct_answer
      .split('|')
      .map((a) => a.trim())
      .filter(Boolean),
  );

/** What rounding to Moodle's grades changed, for a note in the file (empty when nothing did). */
export function gradeChanges(original: readonly number[], written: readonly number[]): string {
  return original
    .map((c, i) => (Math.abs(c - written[i]) > 1e-9 ? `${formatNumber(c)} → ${formatNumber(written[i])}` : ''))
    .filter(Boolean)
    .join(', ');
}

/** An answer's alternatives as Moodle grades, and what that rounding changed (both writers note it). */
export function alternativeGrades(alternatives: readonly { credit: number }[]): { grades: number[]; changed: string } {
  const grades = alternatives.map((a) => nearestMoodleGrade(a.credit));
  return {
    grades,
    changed: gradeChanges(
      alternatives.map((a) => a.credit),
      grades,
    ),
  };
}

/** The Moodle grade a written grade (percent, either sign) stands for, within Moodle's own slack; undefined when none. */
export function moodleGradeOf(value: number): number | undefined {
  const grade = MOODLE_GRADES.find((g) => Math.abs(g - Math.abs(value)) < GRADE_SLACK);
  return grade === undefined || grade === 0 || value >= 0 ? grade : -grade;
}

/** Moodle's own slack when it matches a grade (0.00001 of a fraction). */
const GRADE_SLACK = 0.001;

// ---- Matching

/**
 * A matching question's options as GIFT and Moodle XML list them: the matches
 * (in the stems' order), then the distractors (the options no stem matches);
 * `reordered` when that is not the options' own order, which then is lost.
 */
export function matchingDistractors(q: Pick<ExportQuestion, 'options' | 'matches'>): {
  distractors: string[];
  reordered: boolean;
} {
  const matches = q.matches ?? [];
  const distractors = q.options.filter((o) => !matches.includes(o));
  const listed = [...new Set([...matches, ...distractors])];
  return { distractors, reordered: listed.some((o, i) => o !== q.options[i]) };
}

// ---- HTML as plain text

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** HTML's character references decoded (named ones of ENTITIES, numeric ones); any other left as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** Text of an HTML fragment, its line breaks kept; `lost` when there was markup (tags, comments) to lose. */
export function htmlText(html: string): { text: string; lost: boolean } {
  const lost = hasMarkup(html);
  const text = decodeEntities(withoutTags(withoutSpans(html, '<!--', '-->').replace(/<br\s*\/?>/gi, '\n'))).trim();
  return { text, lost };
}

/** Tags whose loss changes nothing a reader sees in one line of text. */
const LAYOUT_TAGS = new Set(['p', 'br', 'div', 'span']);

/** HTML as one line of plain text (sanitize-html's reading): entities decoded, spacing collapsed; the images and the formatting it had. */
export function htmlLine(html: string): {
  text: string;
  images: { src: string; alt: string }[];
  formatting: string[];
} {
  const images: { src: string; alt: string }[] = [];
  const formatting = new Set<string>();
  const spaced = html.replace(/<br\s*\/?>|<\/(p|div|li|tr|td|th|h[1-6])>/gi, ' $&');
  const escaped = sanitizeHtml(spaced, {
    allowedTags: [],
    allowedAttributes: {},
    transformTags: {
      '*': (tagName, attribs) => {
        if (tagName === 'img') images.push({ src: attribs.src ?? '', alt: attribs.alt ?? '' });
        else if (!LAYOUT_TAGS.has(tagName)) formatting.add(tagName);
        return { tagName, attribs };
      },
    },
  });
  const text = escaped
    .replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, images, formatting: [...formatting] };
}

// ---- Numbers

/** A number as decimal text (never an exponent), e.g. 1e-7 → "0.0000001". */
export function formatNumber(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? '');
  const point = 1 + Number(m[4]);
  if (point <= 0) return `${m[1]}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${m[1]}${digits}${'0'.repeat(point - digits.length)}`;
  return `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A numeric answer key (text) as plain decimal text: "1e3" → "1000", ".5" → "0.5"; what already is stays as written. */
export function decimalText(answer: string): string {
  const trimmed = answer.trim();
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  const n = Number(trimmed);
  return Number.isFinite(n) ? formatNumber(n) : trimmed;
}

/** A fixed-point value (`value` × 10^−`scale`) as decimal text, no trailing zeros: (125n, 2) → "1.25". */
export function fixedPointText(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && text !== '0' ? `-${text}` : text;
}

/** The note of a question shown beside a passage, in a format (GIFT, Moodle XML) with no link between questions. */
export const PASSAGE_NOT_CARRIED =
  'passage: this format cannot link a question to the description it is shown beside (QTI 3 can)';
