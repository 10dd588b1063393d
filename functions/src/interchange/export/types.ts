import type { Difficulty, QuestionType } from '../model';
import type { AlternativeAnswer } from '../model';

// Pure: what the exporters take (the bank's stored questions, their media, a
// test's structure) and the conventions every export format shares. No
// Firebase here: the export service reads, these write.

/** A bank question as stored, with its folder as category segments (the folder's name split on " / "). */
export interface ExportQuestion {
  id: string;
  question_type: QuestionType;
  question_text: string;
  title?: string | null;
  text_format?: 'plain' | 'html' | null;
  options: string[];
  /** multiple_select: the correct options joined by "|"; true_false: "True" or "False"; essay: "". */
  correct_answer: string;
  tolerance: number | null;
  max_words: number | null;
  marks: number;
  difficulty: Difficulty;
  /** General feedback, in the question's text_format. */
  feedback?: string | null;
  /** One per option ("" where an option has none), in the question's text_format. */
  option_feedback?: string[] | null;
  /** multiple_select partial credit: one per option, −100 to 100. */
  option_credits?: number[] | null;
  alternatives?: AlternativeAnswer[] | null;
  case_sensitive?: boolean | null;
  /** The folder's name split on " / "; null when the question is in no folder. */
  category: string[] | null;
}

/** A media file a question's HTML refers to as `/api/media/{mediaId}`. */
export interface ExportMediaFile {
  name: string;
  content_type: string;
  bytes: Uint8Array;
}

/** mediaId → the file; a media id missing here keeps its `/api/media/…` reference. */
export type ExportMedia = ReadonlyMap<string, ExportMediaFile>;

/** A test's pool: `draw` questions drawn per attempt from `question_ids` (its folder, of one difficulty when named). */
export interface ExportPool {
  /** The pool folder's name split on " / ". */
  category: string[];
  difficulty: Difficulty | null;
  draw: number;
  question_ids: string[];
}

/** A test as a QTI assessment test carries it: its fixed questions in order, then its pools. */
export interface ExportTest {
  id: string;
  title: string;
  /** The fixed questions, in the test's order. */
  question_ids: string[];
  shuffle: boolean;
  pools: ExportPool[];
}

/** How a category's segments become a folder's name, and back. */
export const CATEGORY_SEPARATOR = ' / ';

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
} as const;

/** What a file's tags say in our conventions, and the tags that say something else (not carried). */
export interface ExportTags {
  difficulty?: Difficulty;
  marks?: number;
  maxWords?: number;
  caseSensitive?: boolean;
  allOrNothing?: boolean;
  untitled?: boolean;
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

/** A stored media file as the bank's HTML refers to it: `/api/media/{mediaId}` (`<organization>.<uuid>`). */
const MEDIA_REF = /\/api\/media\/([A-Za-z0-9_.-]{0,299}[A-Za-z0-9_-])/g;

/** The media ids an HTML text refers to, in order of first mention. */
export function mediaIdsIn(html: string): string[] {
  return [...new Set([...html.matchAll(MEDIA_REF)].map((m) => m[1]))];
}

/** Every `/api/media/{id}` reference replaced by what `to` makes of the id (unchanged when it returns undefined). */
export const replaceMediaRefs = (html: string, to: (mediaId: string) => string | undefined): string =>
  html.replace(MEDIA_REF, (whole, id: string) => to(id) ?? whole);

export const isHtml = (q: ExportQuestion): boolean => q.text_format === 'html';

/** The media a question's HTML fields refer to (plain text is never rewritten). */
export function mediaOfQuestion(q: ExportQuestion): string[] {
  if (!isHtml(q)) return [];
  return [...new Set(htmlFields(q).flatMap(mediaIdsIn))];
}

/** The question's texts that are HTML when its text_format is html: the text and the feedback. */
const htmlFields = (q: ExportQuestion): string[] => [q.question_text, q.feedback ?? '', ...(q.option_feedback ?? [])];

/** A file name safe inside a package or a Moodle file area: no path, no control or quoting characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|:*?@]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return cleaned.length > 0 ? cleaned.slice(0, 120) : 'file';
}

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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text as one line of plain text: HTML's tags dropped and its entities decoded, spacing collapsed. */
function textStart(q: Pick<ExportQuestion, 'question_text' | 'text_format'>): string {
  const text =
    q.text_format === 'html'
      ? q.question_text.replace(/<[^>]*>/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
          if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
          const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
        })
      : q.question_text;
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
