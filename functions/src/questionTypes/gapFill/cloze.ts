import {
  formatNumber,
  htmlLine,
  literalStars,
  Refusal,
  type AlternativeAnswer,
  type GapDraft,
} from '../../interchange';
import { parseNumberText } from '../../shared';

// Pure: Moodle's embedded answers (qtype_multianswer, "cloze"), read into gaps
// and written from them. One embedded answer is `{weight:TYPE:alternatives}`,
// the alternatives separated by `~`, each `=answer` (100%) or `%n%answer` or
// `answer` (0%), then `#feedback`; a numerical one's answer is `value:tolerance`.
// `\` escapes `}`, `#`, `~`, `/`, `"` and itself, as Moodle reads them.

/** One embedded answer as written, before it is judged. */
interface EmbeddedAnswer {
  /** As written in the text: `{2:SHORTANSWER:=Paris}`. */
  source: string;
  /** Where it starts in the text. */
  at: number;
  /** The weight as written ('' when absent). */
  weight: string;
  /** Moodle's subquestion type as written (`MULTICHOICE_V`, `SA`…). */
  type: string;
  /** The alternatives, undefined when the braces hold no `:` after the type. */
  body: string | undefined;
}

/**
 * Every `{n:TYPE:…}` of a text, in order. Braces whose second part is not a
 * word (`{a}`, `{}`) are text; `{1:MULTICHOICE}` is found with no body, to be
 * reported rather than shown as text. One pass: a body never closed means no
 * later one is (every body starts after a ":", where the escapes line up).
 */
function embeddedAnswers(text: string): EmbeddedAnswer[] {
  const found: EmbeddedAnswer[] = [];
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) {
    const header = HEADER.exec(text.slice(at, at + HEADER_REACH));
    if (!header) continue;
    const start = at + header[0].length;
    if (header[3] === '}') {
      found.push({ source: text.slice(at, start), at, weight: header[1], type: header[2], body: undefined });
      at = start - 1;
      continue;
    }
    const close = closingBrace(text, start);
    if (close < 0) break;
    found.push({
      source: text.slice(at, close + 1),
      at,
      weight: header[1],
      type: header[2],
      body: text.slice(start, close),
    });
    at = close;
  }
  return found;
}

/** `{weight:TYPE` and then `:` (a body follows) or `}` (none); looked for within a short reach of the brace. */
const HEADER = /^\{(\d{0,9}):([A-Za-z_]{1,40})([:}])/;
const HEADER_REACH = 60;

/** The first `}` from `from` not escaped by a backslash, or −1. */
function closingBrace(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '}') return i;
  }
  return -1;
}

/** Moodle's subquestion types, by every spelling it accepts, as the kind of gap each becomes. */
const SUBQUESTION_KINDS: Record<string, 'select' | 'text' | 'text_c' | 'numeric' | 'multiresponse'> = {
  ...Object.fromEntries(
    ['MULTICHOICE', 'MC', 'MULTICHOICE_V', 'MCV', 'MULTICHOICE_H', 'MCH', 'MULTICHOICE_S', 'MCS']
      .concat(['MULTICHOICE_VS', 'MCVS', 'MULTICHOICE_HS', 'MCHS'])
      .map((t) => [t, 'select']),
  ),
  ...Object.fromEntries(['SHORTANSWER', 'SA', 'MW'].map((t) => [t, 'text'])),
  ...Object.fromEntries(['SHORTANSWER_C', 'SAC', 'MWC'].map((t) => [t, 'text_c'])),
  ...Object.fromEntries(['NUMERICAL', 'NM'].map((t) => [t, 'numeric'])),
  ...Object.fromEntries(
    ['MULTIRESPONSE', 'MR', 'MULTIRESPONSE_H', 'MRH', 'MULTIRESPONSE_S', 'MRS', 'MULTIRESPONSE_HS', 'MRHS'].map((t) => [
      t,
      'multiresponse',
    ]),
  ),
};

/** One alternative of an embedded answer: its text, its fraction (percent) and whether it had feedback. */
interface Alternative {
  text: string;
  credit: number;
  feedback: boolean;
}

/** `\x` → x for Moodle's escapes. */
const unescapeCloze = (text: string): string => text.replace(/\\([}#~/"\\])/g, '$1');

/** Splits at every unescaped `sep`. */
function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '\\' && i + 1 < text.length) {
      current += text[i] + text[i + 1];
      i += 1;
    } else if (text[i] === sep) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

/** What a gap is called in messages: its number and Moodle's type. */
const gapName = (embedded: EmbeddedAnswer, n: number): string => `Gap ${n} (${embedded.type})`;

function alternativesOf(embedded: EmbeddedAnswer, n: number, html: boolean, warnings: string[]): Alternative[] {
  const what = gapName(embedded, n);
  if (embedded.body === undefined || embedded.body.trim() === '')
    throw new Refusal(`${what} has no answers (${embedded.source})`);
  return splitUnescaped(embedded.body, '~').map((written) => {
    const [answerPart, ...feedback] = splitUnescaped(written, '#');
    const marked = /^\s*(=|%(-?\d+(?:[.,]\d+)?)%)?([\s\S]*)$/.exec(answerPart)!;
    const credit = marked[1] === '=' ? 100 : marked[2] ? Number(marked[2].replace(',', '.')) : 0;
    if (credit > 100) throw new Refusal(`${what}: the grade ${credit}% is more than 100%`);
    let text = unescapeCloze(marked[3]).trim();
    if (html) {
      const line = htmlLine(text);
      if (line.formatting.length > 0 || line.images.length > 0)
        warnings.push(`${what}: the markup of the answer "${text}" was dropped (answers are plain text)`);
      text = line.text;
    }
    return { text, credit, feedback: feedback.join('#').trim() !== '' };
  });
}

/**
 * A cloze question's text with each embedded answer replaced by its gap's number (`[[1]]`…, in
 * text order), and the gaps. A text without any, or already holding a `[[n]]`, is refused.
 */
export function gapsOfText(text: string, html: boolean, warnings: string[]): { text: string; gaps: GapDraft[] } {
  const found = embeddedAnswers(text);
  if (found.length === 0)
    throw new Refusal('Its text has no embedded answers ({1:SHORTANSWER:=…}): a cloze question needs at least one');
  if (/\[\[\d+\]\]/.test(text)) throw new Refusal('Its text already holds a [[n]], which here marks a gap');
  const gaps: GapDraft[] = [];
  const feedbackLost: number[] = [];
  let numbered = '';
  let last = 0;
  for (const embedded of found) {
    const n = gaps.length + 1;
    const alternatives = alternativesOf(embedded, n, html, warnings);
    if (alternatives.some((a) => a.feedback)) feedbackLost.push(n);
    gaps.push(gapOf(embedded, alternatives, n, warnings));
    numbered += `${text.slice(last, embedded.at)}[[${n}]]`;
    last = embedded.at + embedded.source.length;
  }
  if (feedbackLost.length > 0)
    warnings.push(
      `The answers' feedback of ${feedbackLost.length === 1 ? 'gap' : 'gaps'} ${feedbackLost.join(', ')} is not carried (gaps have no per-answer feedback)`,
    );
  return { text: numbered + text.slice(last), gaps };
}

/**
 * An embedded answer as a gap, from its alternatives (read as text: in an HTML question they are
 * HTML, turned to text). What it cannot carry exactly goes into `warnings`; what cannot be a gap
 * at all is a Refusal naming the gap.
 */
function gapOf(embedded: EmbeddedAnswer, alternatives: Alternative[], n: number, warnings: string[]): GapDraft {
  const what = gapName(embedded, n);
  const kind = SUBQUESTION_KINDS[embedded.type.toUpperCase()];
  if (!kind) throw new Refusal(`${what}: "${embedded.type}" is not a subquestion type of Moodle's cloze`);
  const weight = embedded.weight === '' ? 1 : Number(embedded.weight);
  if (weight <= 0) throw new Refusal(`${what} has weight ${embedded.weight}: a gap's weight must be more than 0`);
  const gap = GAP_READERS[kind](alternatives, what, warnings);
  return weight === 1 ? gap : { ...gap, weight };
}

type GapReader = (alternatives: Alternative[], what: string, warnings: string[]) => GapDraft;

/** The alternatives worth something, as accepted answers (one of a text: the first, as Moodle matches); at least one worth 100%. */
function accepted(alternatives: Alternative[], what: string): AlternativeAnswer[] {
  const answers = alternatives
    .filter((a, i) => a.credit > 0 && alternatives.findIndex((b) => b.text === a.text) === i)
    .map((a) => ({ answer: a.text, credit: a.credit }));
  if (!answers.some((a) => a.credit === 100)) throw new Refusal(`${what}: no answer is worth 100%`);
  return answers;
}

function noteNegative(alternatives: Alternative[], what: string, warnings: string[]): void {
  const negative = alternatives.filter((a) => a.credit < 0).map((a) => `"${a.text}" (${a.credit}%)`);
  if (negative.length > 0) warnings.push(`${what}: ${negative.join(', ')} cannot take marks away here: they score 0`);
}

/** The choices of a drop-down: distinct, at least two. */
function choicesOf(alternatives: Alternative[], what: string): string[] {
  const options = alternatives.map((a) => a.text);
  if (options.some((o) => o === '')) throw new Refusal(`${what} has an empty choice`);
  if (options.length < 2) throw new Refusal(`${what} has only ${options.length} choice: a drop-down needs two`);
  const twice = options.find((o, i) => options.indexOf(o) !== i);
  if (twice !== undefined) throw new Refusal(`${what} has the choice "${twice}" twice`);
  return options;
}

const selectGap: GapReader = (alternatives, what, warnings) => {
  const options = choicesOf(alternatives, what);
  noteNegative(alternatives, what, warnings);
  return { kind: 'select', answers: accepted(alternatives, what), options };
};

/**
 * Moodle lets a taker tick several choices of a MULTIRESPONSE gap; a gap here is one part, so
 * it becomes a drop-down where each right choice is accepted for its own grade (the best
 * raised to 100% when none is, since a single pick can never reach the sum).
 */
const multiresponseGap: GapReader = (alternatives, what, warnings) => {
  const options = choicesOf(alternatives, what);
  const right = alternatives.filter((a) => a.credit > 0);
  if (right.length === 0) throw new Refusal(`${what}: no choice is worth anything`);
  const best = Math.max(...right.map((a) => a.credit));
  const answers = right.map((a) => ({ answer: a.text, credit: a.credit === best ? 100 : a.credit }));
  warnings.push(
    `${what}: Moodle lets several choices be ticked; here it is a drop-down where one is chosen, each right choice (${right
      .map((a) => `"${a.text}"`)
      .join(', ')}) accepted${best < 100 ? `, the best (${best}%) for 100%` : ''}`,
  );
  noteNegative(alternatives, what, warnings);
  return { kind: 'select', answers, options };
};

function typedAnswers(alternatives: Alternative[], what: string, warnings: string[]): Alternative[] {
  noteNegative(alternatives, what, warnings);
  return alternatives.filter((a) => {
    if (a.credit > 0 && a.text === '') throw new Refusal(`${what}: an empty answer is worth ${a.credit}%`);
    if (!/(^|[^\\])\*/.test(a.text)) return a.credit > 0;
    if (a.credit > 0) throw new Refusal(`${what}: the answer "${a.text}" uses Moodle's * wildcard, not carried`);
    return false;
  });
}

const textGap =
  (caseSensitive: boolean): GapReader =>
  (alternatives, what, warnings) => {
    // A short answer's `\*` is a literal star (a bare one, Moodle's wildcard, is refused above).
    const answers = accepted(typedAnswers(alternatives, what, warnings), what).map((a) => ({
      ...a,
      answer: a.answer.replace(/\\\*/g, '*'),
    }));
    return caseSensitive ? { kind: 'text', answers, case_sensitive: true } : { kind: 'text', answers };
  };

const numericGap: GapReader = (alternatives, what, warnings) => {
  const answers = accepted(typedAnswers(alternatives, what, warnings), what).map((a) => {
    const [value, tolerance, ...more] = a.answer.split(':');
    if (more.length > 0 || parseNumberText(value) === undefined)
      throw new Refusal(`${what}: "${a.answer}" is not a number (or a number:tolerance)`);
    if (tolerance === undefined) return { answer: value.trim(), credit: a.credit };
    const within = parseNumberText(tolerance);
    if (within === undefined || within < 0) throw new Refusal(`${what}: "${tolerance}" is not a tolerance`);
    return { answer: value.trim(), credit: a.credit, tolerance: within };
  });
  return { kind: 'numeric', answers };
};

const GAP_READERS = {
  select: selectGap,
  multiresponse: multiresponseGap,
  text: textGap(false),
  text_c: textGap(true),
  numeric: numericGap,
};

// ---- Writing

/** Moodle's escapes for an answer's text. */
const escapeCloze = (text: string): string => text.replace(/[\\}#~/"]/g, (c) => `\\${c}`);

const escapeHtmlText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const grade = (credit: number): string => (credit === 100 ? '=' : `%${formatNumber(credit)}%`);

/**
 * A gap as an embedded answer, with what it could not say. `options` are the choices of a drop-down
 * (a drag gap's are the question's chips), `html` whether the text around it is HTML.
 */
export function embeddedAnswerOf(
  gap: GapDraft,
  n: number,
  html: boolean,
  dragOptions: readonly string[],
): { text: string; notes: string[] } {
  const notes: string[] = [];
  const answerText = (text: string) => escapeCloze(html ? escapeHtmlText(text) : text);
  const written = gap.weight ?? 1;
  const weight = Math.max(1, Math.round(written));
  if (weight !== written)
    notes.push(`gap ${n}: weight ${formatNumber(written)} written as ${weight} (Moodle's are whole numbers)`);
  const credits = new Map(gap.answers.map((a) => [a.answer, a.credit]));
  // A choice of an html question is HTML already.
  const choice = (o: string) => (credits.has(o) && credits.get(o)! > 0 ? grade(credits.get(o)!) : '') + escapeCloze(o);
  let type: string;
  let body: string;
  switch (gap.kind) {
    case 'select':
      type = 'MULTICHOICE';
      body = (gap.options ?? []).map(choice).join('~');
      break;
    case 'drag':
      type = 'MULTICHOICE';
      body = dragOptions.map(choice).join('~');
      notes.push(`gap ${n}: a drag gap written as a drop-down of the chips (a cloze has no drag)`);
      break;
    case 'text':
      type = gap.case_sensitive ? 'SHORTANSWER_C' : 'SHORTANSWER';
      body = gap.answers.map((a) => grade(a.credit) + answerText(literalStars(a.answer))).join('~');
      break;
    case 'numeric':
      type = 'NUMERICAL';
      body = gap.answers
        .map(
          (a) =>
            `${grade(a.credit)}${a.answer.trim()}${a.tolerance === undefined ? '' : `:${formatNumber(a.tolerance)}`}`,
        )
        .join('~');
      break;
  }
  return { text: `{${weight}:${type}:${body}}`, notes };
}
