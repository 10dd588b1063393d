import type { Schemas } from '../api';

// Pure: how the types with parts (matching, ordering, gap fill) hold an answer, and how the types whose
// parts are marked in the question's text (gap fill, hottext) find them.

/**
 * The parts of an answer or a key: a JSON array text with one string per part. An answer that is
 * blank, or that cannot be read as `count` strings (one saved before the question changed), is
 * every part blank, as the service scores it.
 */
export function partsOf(answer: string, count: number): string[] {
  const blank = Array.from({ length: count }, () => '');
  if (answer === '') return blank;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return blank;
  }
  if (!Array.isArray(parsed) || parsed.length !== count || !parsed.every((p) => typeof p === 'string')) return blank;
  return parsed as string[];
}

/** The answer holding these parts; "" (unanswered) when every part is blank, as the service reads it. */
export const answerOfParts = (parts: readonly string[]): string =>
  parts.every((part) => part === '') ? '' : JSON.stringify(parts);

/** The parts of an answer or a key of any length, for a review: none when it cannot be read. */
export function anyPartsOf(answer: string): string[] {
  try {
    const parsed: unknown = JSON.parse(answer);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? (parsed as string[]) : [];
  } catch {
    return [];
  }
}

/** A piece of a marked text: text as written, or the k-th mark (in the text's order) with what it holds. */
export type Segment = { text: string } | { mark: number; inner: string };

/** A gap of a gap fill: `[[n]]`, n from 1 (the service's GAP_MARK). */
export const GAP_MARK = /\[\[(\d{1,3})\]\]/g;
/** A phrase of a hottext: `[[phrase]]` (the service's PHRASE_MARK). */
export const PHRASE_MARK = /\[\[([^[\]]+)\]\]/g;

/** A text split at its marks, in order. */
export function segmentsOf(text: string, mark: RegExp): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  let k = 0;
  for (const match of text.matchAll(new RegExp(mark.source, 'g'))) {
    if (match.index > at) segments.push({ text: text.slice(at, match.index) });
    segments.push({ mark: k++, inner: match[1] });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at) });
  return segments;
}

/** The gap numbers of a text, in its order. */
export const gapNumbersOf = (text: string): number[] => [...text.matchAll(GAP_MARK)].map((m) => Number(m[1]));

/** The phrases of a text, in its order, trimmed, as the service derives a hottext's options. */
export const phrasesOf = (text: string): string[] => [...text.matchAll(PHRASE_MARK)].map((m) => m[1].trim());

/** Lines of a text box, trimmed, blank lines dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** One part of an answer as the review lists it: what it is, the taker's part, the key's, and whether they agree. */
export interface ReviewedPart {
  label: string;
  answer: string;
  key: string;
  right: boolean;
}

/**
 * The parts of an answer and of its key, paired by position and labelled by `labelOf`; an answer
 * that cannot be read is every part blank. `same` says whether a part agrees with the key's.
 */
export function pairedParts(
  item: Pick<Schemas['ReviewItem'], 'student_answer' | 'correct_answer'>,
  labelOf: (i: number) => string,
  same: (answer: string, key: string, i: number) => boolean = (a, k) => a === k,
): ReviewedPart[] {
  const key = anyPartsOf(item.correct_answer ?? '');
  const given = anyPartsOf(item.student_answer ?? '');
  const answers = given.length === key.length ? given : key.map(() => '');
  return key.map((k, i) => ({
    label: labelOf(i),
    answer: answers[i],
    key: k,
    right: answers[i] !== '' && same(answers[i], k, i),
  }));
}
