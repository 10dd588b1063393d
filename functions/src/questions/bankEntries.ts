import type { z } from 'zod';
import { MEDIA_PLACEHOLDER, type ParsedBank, type ParsedItem, type QuestionDraft } from '../interchange';
import { MAX_FOLDER_NAME } from '../folders';
import { QuestionInput, type QuestionType, sanitizeQuestionHtml, texToMathMl } from '../questionTypes';
import { mediaUrl } from '../media';
import type { RowError } from './importSchemas';

// Pure: what an import does with each question a bank file gave (GIFT, Aiken,
// Moodle XML, QTI): its media references resolved, validated by the very
// schema that validates POST /api/questions, its category made a folder name,
// and its line in the per-question report.

/** One line of the per-question report, in file order. */
export interface QuestionReport {
  /** 1-based position among the questions found in the file. */
  index: number;
  line?: number;
  path?: string;
  title: string | null;
  question_type: QuestionType | null;
  status: 'ok' | 'error' | 'unsupported';
  message: string | null;
  warnings: string[];
}

export interface ImportEntry {
  report: QuestionReport;
  /** Validated: present exactly when the report says ok. */
  question?: QuestionInput;
  /** The folder its category names (segments joined by " / "), or null. */
  folderName: string | null;
  errors: RowError[];
  /** A description the file's other questions name as their passage: the key they name it by. */
  passageKey?: string;
  /** The passageKey of the description this question is shown beside (its passage_id once both are stored). */
  passageRef?: string;
}

/** What became of each media file the bank carries: the id it will be stored under, or why it is refused. */
export type MediaPlan = ReadonlyMap<string, { id: string } | { refused: string }>;

const FOLDER_SEPARATOR = ' / ';

/** Stands for the segments left out of a name past the limit. */
const CUT_MARK = `…${FOLDER_SEPARATOR}`;

/** Characters as the API counts a name's (zod's max): code points, so a cut never splits a surrogate pair. */
const characters = (text: string): string[] => [...text];

/**
 * A category path as one folder name (folders are flat), one the folder API
 * accepts as it is: a path past the limit keeps its last segments after "… / ",
 * the last one's end when even it alone is too long.
 */
export function folderNameOf(segments: readonly string[] | null): { name: string | null; warning?: string } {
  const parts = (segments ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
  if (parts.length === 0) return { name: null };
  const whole = parts.join(FOLDER_SEPARATOR);
  if (characters(whole).length <= MAX_FOLDER_NAME) return { name: whole };
  const room = MAX_FOLDER_NAME - characters(CUT_MARK).length;
  const last = characters(parts[parts.length - 1]);
  let kept = last.slice(-room).join('').trimStart();
  for (let i = parts.length - 2; i >= 0; i--) {
    const longer = `${parts[i]}${FOLDER_SEPARATOR}${kept}`;
    if (characters(longer).length > room) break;
    kept = longer;
  }
  const name = `${CUT_MARK}${kept}`;
  return {
    name,
    warning: `The category "${characters(whole).slice(0, 200).join('')}" is longer than ${MAX_FOLDER_NAME} characters: filed in folder "${name}"`,
  };
}

const PLACEHOLDER = new RegExp(`${MEDIA_PLACEHOLDER.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([^"'\\s)<>]+)`, 'g');

/** The draft's HTML with each media placeholder made the media's URL; what it refers to that cannot be served is a problem. */
function resolveMedia(text: string, media: MediaPlan, problems: string[]): string {
  return text.replace(PLACEHOLDER, (whole, rawName: string) => {
    let name = rawName;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      // a name that is not valid percent-encoding is looked up as written
    }
    const planned = media.get(name) ?? media.get(rawName);
    if (!planned) {
      problems.push(`It refers to the file "${name}", which the file does not carry`);
      return whole;
    }
    if ('refused' in planned) {
      problems.push(`Its file "${name}" is refused: ${planned.refused}`);
      return whole;
    }
    return mediaUrl(planned.id);
  });
}

/**
 * The draft as POST /api/questions takes it: media resolved, HTML's TeX made MathML and the HTML
 * sanitized (with a warning for TeX that could not be read and for what was removed). In an html
 * question the options, stems and choices are HTML too; a key naming them has its media resolved,
 * the schema spelling it as they are stored.
 */
function prepareDraft(
  { passage_key: _key, passage_ref: _ref, ...draft }: QuestionDraft,
  media: MediaPlan,
  warnings: string[],
  problems: string[],
) {
  const html = draft.text_format === 'html';
  const prepare = (text: string, field: string): string => {
    const resolved = resolveMedia(text, media, problems);
    if (!html) return resolved;
    const math = texToMathMl(resolved);
    warnings.push(...math.problems.map((problem) => `In the ${field}: ${problem}`));
    const { html: clean, removed } = sanitizeQuestionHtml(math.html);
    if (removed.length > 0) warnings.push(`Removed from the ${field}: ${[...new Set(removed)].join(', ')}`);
    return clean;
  };
  // An option's "|" (a formula's |x|) is stored &#124;, as the schema stores it: "|" joins options in an answer.
  const prepareAll = (texts: string[], what: string) =>
    texts.map((text, i) => prepare(text, `${what} ${i + 1}`).replaceAll('|', '&#124;'));
  const key = (text: string) => (html ? resolveMedia(text, media, problems) : text);
  const prepared: Record<string, unknown> = { ...draft, question_text: prepare(draft.question_text, 'text') };
  if (draft.feedback !== undefined) prepared.feedback = prepare(draft.feedback, 'feedback');
  if (draft.option_feedback !== undefined)
    prepared.option_feedback = draft.option_feedback.map((f, i) => prepare(f, `feedback of option ${i + 1}`));
  if (html) {
    if (draft.options !== undefined) prepared.options = prepareAll(draft.options, 'option');
    if (draft.stems !== undefined) prepared.stems = prepareAll(draft.stems, 'stem');
    if (draft.drag_options !== undefined) prepared.drag_options = prepareAll(draft.drag_options, 'drag option');
    if (draft.correct_answer !== undefined) prepared.correct_answer = key(draft.correct_answer);
    if (draft.matches !== undefined) prepared.matches = draft.matches.map(key);
    if (draft.gaps !== undefined)
      prepared.gaps = draft.gaps.map((gap, i) =>
        gap.kind === 'select' || gap.kind === 'drag'
          ? {
              ...gap,
              ...(gap.options ? { options: prepareAll(gap.options, `choice of gap ${i + 1}, option`) } : {}),
              answers: gap.answers.map((a) => ({ ...a, answer: key(a.answer) })),
            }
          : gap,
      );
  }
  // An image asked on (a hotspot's) is a media reference too.
  if (draft.image !== undefined)
    prepared.image = { ...draft.image, src: resolveMedia(draft.image.src, media, problems) };
  return prepared;
}

const issueText = (issue: z.core.$ZodIssue): string =>
  issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;

/** The report and the validated question of each item, in file order. */
export function importEntries(bank: ParsedBank, media: MediaPlan): ImportEntry[] {
  const entries = bank.items.map((item: ParsedItem, i): ImportEntry => {
    const where = item.line !== undefined ? { line: item.line } : item.path !== undefined ? { path: item.path } : {};
    const warnings = [...item.warnings];
    const folder = folderNameOf(item.category);
    if (folder.warning) warnings.push(folder.warning);
    const base = {
      index: i + 1,
      ...where,
      title: item.title,
      question_type: (item.question?.question_type ?? null) as QuestionType | null,
      warnings,
    };
    const rowOf = item.line ?? i + 1;
    const refused = (status: 'error' | 'unsupported', message: string, field = 'question'): ImportEntry => ({
      report: { ...base, status, message },
      folderName: folder.name,
      errors: [{ path: `${item.path ?? `row ${rowOf}`}.${field}`, row: rowOf, field, message }],
    });
    if (item.status !== 'ok' || !item.question) {
      return refused(
        item.status === 'unsupported' ? 'unsupported' : 'error',
        item.message ?? 'Not a question this bank can hold',
      );
    }
    const problems: string[] = [];
    const prepared = prepareDraft(item.question, media, warnings, problems);
    if (problems.length > 0) return refused('error', problems.join('; '));
    const parsed = QuestionInput.safeParse(prepared);
    if (!parsed.success) {
      const message = parsed.error.issues.map(issueText).join('; ');
      const first = parsed.error.issues[0];
      return refused('error', message, first && first.path.length > 0 ? String(first.path[0]) : 'question');
    }
    return {
      report: { ...base, status: 'ok', message: null },
      question: parsed.data,
      folderName: folder.name,
      errors: [],
      ...(item.question.passage_key ? { passageKey: item.question.passage_key } : {}),
      ...(item.question.passage_ref ? { passageRef: item.question.passage_ref } : {}),
    };
  });
  return linkPassages(entries);
}

/**
 * Each question's passage among the file's descriptions that are imported: one that is not (refused,
 * or not in the file) is a warning, and the question is imported without it.
 */
export function linkPassages(entries: ImportEntry[]): ImportEntry[] {
  const imported = new Set(entries.flatMap((e) => (e.question && e.passageKey ? [e.passageKey] : [])));
  return entries.map((e) => {
    if (!e.passageRef || imported.has(e.passageRef)) return e;
    const { passageRef, ...rest } = e;
    const warning = `Its passage "${passageRef}" is not imported: the question is imported without it`;
    return { ...rest, report: { ...rest.report, warnings: [...rest.report.warnings, warning] } };
  });
}
