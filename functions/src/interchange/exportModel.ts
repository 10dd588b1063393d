import type { AlternativeAnswer, Difficulty, GapDraft, QuestionDraft, QuestionType } from './model';

// Pure: what the writers take (the bank's stored questions, their media, a
// test's structure) and the media references they rewrite. No Firebase here:
// the export service reads, the writers write. The conventions the readers
// share with the writers are in conventions.ts.

/** The types every writer can write so far; the types with parts are written by the formats that hold them. */
export type WrittenType = QuestionType;

/** A bank question as stored, with its folder as category segments (the folder's name split on " / "). */
export interface ExportQuestion {
  id: string;
  question_type: WrittenType;
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
  stems?: string[] | null;
  matches?: string[] | null;
  ordering_score?: 'all_or_nothing' | 'partial' | null;
  gaps?: GapDraft[] | null;
  drag_options?: string[] | null;
  drag_reusable?: boolean | null;
  max_choices?: number | null;
  variables?: QuestionDraft['variables'] | null;
  choices?: QuestionDraft['choices'] | null;
  tolerance_type?: 'absolute' | 'relative' | null;
  image?: QuestionDraft['image'] | null;
  areas?: QuestionDraft['areas'] | null;
  select?: 'areas' | 'points' | null;
  max_points?: number | null;
  /** The description shown beside it (a reading passage); QTI writes it as a stimulus its item refers to. */
  passage_id?: string | null;
  /** essay: the most files a taker may attach, and the fewest it must (absent or null: none). */
  attachments?: number | null;
  attachments_required?: number | null;
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

/** The media a question's HTML fields refer to (plain text is never rewritten), and a hotspot's image. */
export function mediaOfQuestion(q: ExportQuestion): string[] {
  const html = isHtml(q) ? htmlFields(q).flatMap(mediaIdsIn) : [];
  return [...new Set([...html, ...mediaIdsIn(q.image?.src ?? '')])];
}

/** The question's texts that are HTML when its text_format is html: the text, the feedback, the options, stems and choices. */
export const htmlFields = (q: ExportQuestion): string[] => [
  q.question_text,
  q.feedback ?? '',
  ...(q.option_feedback ?? []),
  ...q.options,
  ...(q.stems ?? []),
  ...(q.drag_options ?? []),
  ...(q.gaps ?? []).flatMap((gap) => gap.options ?? []),
];

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
