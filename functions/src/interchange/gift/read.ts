import peggy from 'peggy';
import { parseNumberText } from '../../shared';
import { GIFT_GRAMMAR } from './grammar';
import { hasMarkup } from '../markup';
import { htmlOptionsOf, richOption, withHtmlChoices } from '../richOptions';
import {
  EXPORT_TAGS,
  isAllOrNothingCredits,
  readExportTags,
  type ExportTags,
  fixedPointText,
  htmlText,
} from '../conventions';
import {
  OPTION_SEPARATOR,
  type AlternativeAnswer,
  type ParsedBank,
  type ParsedItem,
  type QuestionDraft,
  Refusal,
} from '../model';

// Pure: a GIFT file (Moodle's text format) → ParsedBank. The file is cut into
// questions the way Moodle cuts it (a blank line ends a question; a line
// starting with // is a comment; lines are trimmed), each question is read by
// the peggy grammar in grammar.ts, and judged here, following Moodle's own
// reader (question/format/gift/format.php) except where Moodle is silently
// wrong: `{#abc}` is an error here, not "accept anything".
//
// What maps to what (for writing GIFT back):
//   ::title::                  → title (and ParsedItem.title); none → absent / null
//   [html] / [plain]           → text_format html / plain (always set). [moodle]: html if the text
//                                has tags (line breaks → <br>), else plain, with a warning; [markdown]:
//                                plain, with a warning. No tag: plain, or html with a warning if the
//                                text has tags (Moodle's default format renders them).
//   text {}                    → essay; `{####x}` → essay with feedback x
//   {T} {TRUE} {F} {FALSE}     → true_false, options ["True","False"], correct_answer "True"/"False";
//   {TRUE#a#b}                 → option_feedback: `a` (shown for the wrong choice) on the wrong
//                                option, `b` on the right one, in the order [True, False]
//   {=a ~b ~c}                 → multiple_choice (one `=`); `#x` after an answer → option_feedback
//   {~%50%a ~%50%b ~%-100%c}   → multiple_select (no `=`): option_credits = the weights (−100..100),
//                                correct_answer = the options with a positive weight joined by "|"
//   {=a =%50%b}  {a}           → short_answer: correct_answer = the first 100% answer, the others →
//                                alternatives {answer, credit}
//   {#3} {#3:0.5} {#2..4}      → numeric: correct_answer "3", tolerance 0.5 (range: midpoint and
//                                half its width); no `:`/`..` → tolerance absent.
//   {#=3:0 =%50%3:1}           → numeric: first 100% answer → correct_answer/tolerance, the others →
//                                alternatives {answer, credit, tolerance?}
//   ####x (end of a block)     → feedback (general)
//   $CATEGORY: a/b             → category ["a","b"] of the questions that follow (`//` in a name is a
//                                literal "/"; a leading $course$/$cat$/$module$/$system$ and then `top`
//                                are dropped: they name Moodle contexts, not folders)
//   // [tag:x] comment lines   → Moodle's question tags. Our export's (conventions.ts EXPORT_TAGS):
//                                difficulty:…, marks:…, max_words:… (essay), case_sensitive (short
//                                answer), all_or_nothing (a multiple_select written with moodleCredits'
//                                stand-in credits: read back without option_credits); others are warned
// feedback and option_feedback are written in the question's text_format.
// Short answers are plain text: markup in them is removed, with a warning. An [html] question's
// options and stems are HTML when they show more than text (an image, a formula), else escaped text.
//   {=a -> x =b -> y = -> z}   → matching: stems [a, b], options [x, y, z] (z, without a stem, a
//                                distractor), matches [x, y]; the stems in the question's format
//                                turned to text, the matches plain.
// Text with no answer block is a description (no answer, no marks).
// Refused per question: a `*` wildcard in an
// answer worth credit, a number that is not a number, weights that cannot reach 100%.

type Format = 'html' | 'moodle' | 'plain' | 'markdown';
interface Text {
  format: Format | null;
  text: string;
}
interface GiftAnswer extends Text {
  prefix: '=' | '~' | null;
  weight: string | null;
  feedback: Text[];
}
interface GiftBlock {
  kind: 'empty' | 'numerical' | 'answers';
  answers: GiftAnswer[];
  feedback: Text | null;
}
interface GiftQuestion {
  title: string | null;
  stem: Text;
  block: GiftBlock | null;
  tail: string;
}

let parser: peggy.Parser | undefined;
/** Built on first use (about 20 ms), not at every cold start. */
const giftParser = (): peggy.Parser => (parser ??= peggy.generate(GIFT_GRAMMAR));

export function parseGift(text: string): ParsedBank {
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
    items.push(readQuestion(block, category));
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

function readQuestion(block: Block, category: string[] | null): ParsedItem {
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
  item.source_type = sourceType(parsed);
  try {
    item.question = withTags(draftOf(parsed, item, blockTags(block)), blockTags(block), item.warnings);
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

/** Moodle's order of guesses (and gift-pegjs's names for the types). */
function sourceType(q: GiftQuestion): string {
  const block = q.block;
  if (block === null) return 'Description';
  if (block.kind === 'empty') return 'Essay';
  if (block.kind === 'numerical') return 'Numerical';
  const answers = block.answers;
  if (answers.some((a) => a.prefix === '~')) return 'MC';
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

/** What the tags of our conventions say, applied to the draft; other tags are named as not carried. */
function withTags(draft: QuestionDraft, tags: ExportTags, warnings: string[]): QuestionDraft {
  const result = { ...draft };
  if (tags.difficulty) result.difficulty = tags.difficulty;
  if (tags.marks !== undefined) result.marks = tags.marks;
  const misplaced: string[] = [];
  if (tags.maxWords !== undefined) {
    if (result.question_type === 'essay') result.max_words = tags.maxWords;
    else misplaced.push(`${EXPORT_TAGS.maxWords}${tags.maxWords}`);
  }
  if (tags.caseSensitive) {
    if (result.question_type === 'short_answer') result.case_sensitive = true;
    else misplaced.push(EXPORT_TAGS.caseSensitive);
  }
  if (tags.allOrNothing && result.question_type !== 'multiple_select') misplaced.push(EXPORT_TAGS.allOrNothing);
  if (tags.untitled) misplaced.push(EXPORT_TAGS.untitled);
  const ignored = [...tags.invalid, ...misplaced];
  if (ignored.length > 0) warnings.push(`Tags that do not fit this question were ignored: ${ignored.join(', ')}`);
  if (tags.others.length > 0) warnings.push(`Not carried: tags (${tags.others.join(', ')})`);
  return result;
}

/** The draft's options as HTML the way its type holds them (an html question's). */
const withHtmlAsTyped = (draft: QuestionDraft, rich: ReadonlySet<string>): QuestionDraft =>
  withHtmlChoices(draft, rich, htmlOptionsOf(draft.question_type));

/** Text with no answer block: a description, shown among the questions with no answer and no marks. */
function description(q: GiftQuestion, item: ParsedItem): QuestionDraft {
  const text = resolveFormat({ format: q.stem.format, text: q.stem.text.trim() }, (m) => item.warnings.push(m));
  return {
    question_type: 'description',
    question_text: text.text,
    text_format: text.format,
    marks: 0,
    difficulty: 'medium',
    ...(item.title !== null ? { title: item.title } : {}),
  };
}

function draftOf(q: GiftQuestion, item: ParsedItem, tags: ExportTags): QuestionDraft {
  const warn = (message: string) => item.warnings.push(message);
  if (item.source_type === 'Description') return description(q, item);
  const block = q.block!;

  // Moodle's text: the block taken out, or "_____" in its place when text follows it.
  const tail = q.tail.trim();
  let stem = q.stem.text;
  if (tail !== '') {
    stem = `${stem}_____${q.tail}`;
    warn('The answer block is inside the text (missing-word form): the text is carried with "_____" in its place');
  }
  const textFormat = resolveFormat({ format: q.stem.format, text: stem.trim() }, warn);
  const draft: QuestionDraft = {
    question_type: 'essay',
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
  const feedbackText = (t: Text, what: string): string =>
    carryFeedback({ format: t.format ?? inherited, text: t.text.trim() }, textFormat.format, what, warn);
  if (block.feedback !== null) {
    const general = feedbackText(block.feedback, 'The general feedback');
    if (general !== '') draft.feedback = general;
  }

  switch (item.source_type) {
    case 'Essay':
      return draft;
    case 'TF':
      return { ...draft, ...trueFalse(block.answers[0], feedbackText) };
    case 'MC':
      return withHtmlAsTyped(
        { ...draft, ...choice(block.answers, inherited, feedbackText, warn, tags.allOrNothing === true, rich) },
        rich,
      );
    case 'Numerical':
      return { ...draft, ...numeric(block.answers, warn) };
    case 'Matching':
      return withHtmlAsTyped({ ...draft, ...matching(block.answers, inherited, warn, rich) }, rich);
    default:
      return { ...draft, ...shortAnswer(block.answers, inherited, warn) };
  }
}

type FeedbackOf = (t: Text, what: string) => string;
type Warn = (message: string) => void;

function trueFalse(answer: GiftAnswer, feedbackText: FeedbackOf): Partial<QuestionDraft> {
  const isTrue = ['T', 'TRUE'].includes(answer.text.trim());
  const [wrong, right, ...more] = answer.feedback;
  // Moodle splits at the first two "#": anything after the second belongs to the right answer's.
  const rightText =
    right && more.length > 0 ? { ...right, text: [right, ...more].map((f) => f.text).join('#') } : right;
  const forWrong = wrong ? feedbackText(wrong, 'The feedback of the wrong answer') : '';
  const forRight = rightText ? feedbackText(rightText, 'The feedback of the right answer') : '';
  const result: Partial<QuestionDraft> = {
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: isTrue ? 'True' : 'False',
  };
  if (forWrong !== '' || forRight !== '') result.option_feedback = isTrue ? [forRight, forWrong] : [forWrong, forRight];
  return result;
}

function choice(
  answers: GiftAnswer[],
  inherited: Format | null,
  feedbackText: FeedbackOf,
  warn: Warn,
  allOrNothing: boolean,
  rich: Set<string>,
): Partial<QuestionDraft> {
  const given = answers.filter((a, i) => !(i === 0 && isBlankFirst(a)));
  const options = given.map((a, i) => optionText(a, inherited, `Option ${i + 1}`, warn, rich));
  const feedback = given.map((a, i) =>
    a.feedback.length === 0
      ? ''
      : feedbackText(
          { format: a.feedback[0].format, text: joinFeedback(a.feedback) },
          `The feedback of option ${i + 1}`,
        ),
  );
  const withFeedback = feedback.some((f) => f !== '') ? { option_feedback: feedback } : {};
  const weights = given.map((a, i) => (a.weight === null ? null : weightOf(a.weight, `option ${i + 1}`)));

  const right = given.map((a, i) => (a.prefix === '=' ? i : -1)).filter((i) => i >= 0);
  if (right.length > 0) {
    // One "=": a single-answer question, as in Moodle.
    if (right.length > 1)
      throw new Refusal(
        `${right.length} answers are marked "=": a multiple-choice question has one right answer (give several right answers weights such as ~%50%)`,
      );
    weights.forEach((w, i) => {
      if (w !== null && i !== right[0] && w !== 0)
        warn(
          `Option ${i + 1} ("${options[i]}") is worth ${w}% in the file; a multiple-choice question gives no partial credit, so it counts as wrong`,
        );
      if (w !== null && i === right[0] && w !== 100)
        warn(`The right option is worth ${w}% in the file; it is carried as the right answer (100%)`);
    });
    return { question_type: 'multiple_choice', options, correct_answer: options[right[0]], ...withFeedback };
  }

  // No "=": several answers may be right, each worth its weight (Moodle's "multiple response").
  const credits = weights.map((w) => w ?? 0);
  if (allOrNothing) {
    // Our export's stand-in for a question scored all or nothing, which Moodle cannot say.
    const correct = options.filter((_o, i) => credits[i] > 0).join(OPTION_SEPARATOR);
    if (isAllOrNothingCredits({ options, correct_answer: correct }, credits))
      return { question_type: 'multiple_select', options, correct_answer: correct, ...withFeedback };
    warn(
      `The ${EXPORT_TAGS.allOrNothing} tag was ignored: the weights are not those it stands for (an equal share per right option, -100% per wrong one)`,
    );
  }
  const rounded = roundCredits(credits);
  if (rounded.some((c, i) => c !== credits[i]))
    warn(
      `The weights were rounded so that the right options add up to 100%: ${credits.join(', ')} → ${rounded.join(', ')}`,
    );
  return {
    question_type: 'multiple_select',
    options,
    correct_answer: options.filter((_o, i) => rounded[i] > 0).join(OPTION_SEPARATOR),
    option_credits: rounded,
    ...withFeedback,
  };
}

/**
 * `=stem -> option` pairs, split at the first "->" as Moodle does: the stem in the question's
 * format turned to text, the option plain; a pair without a stem is a distractor.
 */
function matching(
  answers: GiftAnswer[],
  inherited: Format | null,
  warn: Warn,
  rich: Set<string>,
): Partial<QuestionDraft> {
  const stems: string[] = [];
  const matches: string[] = [];
  const options: string[] = [];
  const ignored: string[] = [];
  answers
    .filter((a, i) => !(i === 0 && isBlankFirst(a)))
    .forEach((a, i) => {
      const arrow = a.text.indexOf(ARROW);
      if (a.prefix !== '=' || arrow < 0)
        throw new Refusal(
          `Answer ${i + 1} ("${a.text.trim()}") is not a pair "=stem -> match", as a matching question's are`,
        );
      if (a.weight !== null || hasFeedback(a)) ignored.push(`answer ${i + 1}`);
      const stem = optionText({ ...a, text: a.text.slice(0, arrow) }, inherited, `Stem ${i + 1}`, warn, rich);
      const option = optionText(
        { ...a, format: 'plain', text: a.text.slice(arrow + ARROW.length) },
        null,
        `Match ${i + 1}`,
        warn,
      );
      if (option === '') throw new Refusal(`Answer ${i + 1} ("${a.text.trim()}") has no match after "->"`);
      if (!options.includes(option)) options.push(option);
      if (stem === '') return;
      stems.push(stem);
      matches.push(option);
    });
  if (ignored.length > 0)
    warn(`Weights and feedback of a matching question's pairs are not carried (${ignored.join(', ')})`);
  if (stems.length === 0) throw new Refusal('No pair has a stem to match');
  return { question_type: 'matching', stems, options, matches };
}

const ARROW = '->';

/** Hundredths of a percent, the positive ones adding up to exactly 100 (largest remainders). */
function roundCredits(credits: number[]): number[] {
  const positives = credits.filter((c) => c > 0);
  const sum = positives.reduce((s, c) => s + c, 0);
  if (positives.length === 0)
    throw new Refusal('No option has a positive weight: at least one must be right (e.g. ~%100%answer)');
  if (Math.abs(sum - 100) > 0.1)
    throw new Refusal(
      `The positive weights add up to ${+sum.toFixed(5)}%, not 100%: choosing every right option must be worth full marks`,
    );
  const exact = credits.map((c) => c * 100);
  const hundredths = exact.map((c) => Math.round(c));
  const positiveIndexes = credits.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  let missing = 10_000 - positiveIndexes.reduce((s, i) => s + hundredths[i], 0);
  // Give or take hundredths where rounding moved a weight furthest from its value.
  const order = [...positiveIndexes].sort((a, b) =>
    missing > 0
      ? exact[b] - hundredths[b] - (exact[a] - hundredths[a])
      : exact[a] - hundredths[a] - (exact[b] - hundredths[b]),
  );
  for (let k = 0; missing !== 0; k = (k + 1) % order.length) {
    hundredths[order[k]] += Math.sign(missing);
    missing -= Math.sign(missing);
  }
  return hundredths.map((h) => h / 100);
}

function shortAnswer(answers: GiftAnswer[], inherited: Format | null, warn: Warn): Partial<QuestionDraft> {
  const given = answers.filter((a, i) => !(i === 0 && isBlankFirst(a)));
  if (given.length === 0) throw new Refusal('The answer block has no answer');
  const accepted: AlternativeAnswer[] = [];
  const feedbackLost: string[] = [];
  given.forEach((a, i) => {
    const credit = a.weight === null ? 100 : weightOf(a.weight, `answer ${i + 1}`);
    if (credit < 0)
      throw new Refusal(`Answer ${i + 1} has a negative weight (${credit}%): a short answer earns 0 to 100%`);
    // Moodle keeps a short answer's text as written: only a format marker of its own makes it HTML.
    const written = optionText(a, a.format === null ? 'plain' : inherited, `Answer ${i + 1}`, warn);
    // Moodle's `*` matches any characters and `\*` is a literal one: our comparison is exact.
    const answer = written.replace(/\\\*/g, '*');
    if (/(^|[^\\])\*/.test(written)) {
      if (credit > 0)
        throw new Refusal(
          `Answer "${answer}" uses the wildcard "*", which we do not have: answers are compared whole (trimmed, case-insensitively); list the accepted answers instead`,
        );
      warn(`Answer "${answer}" (a wildcard worth 0%, there only for its feedback) is not carried`);
      return;
    }
    if (hasFeedback(a)) feedbackLost.push(answer);
    accepted.push({ answer, credit });
  });
  if (feedbackLost.length > 0)
    warn(`The feedback of ${quoteList(feedbackLost)} is not carried: a short answer has no per-answer feedback`);
  const { best, alternatives } = bestAndAlternatives(accepted);
  return {
    question_type: 'short_answer',
    correct_answer: best.answer,
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
}

function numeric(answers: GiftAnswer[], warn: Warn): Partial<QuestionDraft> {
  const given = answers.filter((a, i) => !(i === 0 && isBlankFirst(a)));
  const accepted: AlternativeAnswer[] = [];
  const feedbackLost: string[] = [];
  given.forEach((a, i) => {
    const raw = a.text.trim();
    if (a.prefix === '~') {
      if (raw !== '')
        throw new Refusal(`"~${raw}": in a numeric answer block "~" may only give the feedback for any other answer`);
      if (hasFeedback(a))
        warn(`The feedback for any other answer ("${joinFeedback(a.feedback).trim()}") is not carried`);
      return;
    }
    const credit = a.weight === null ? 100 : weightOf(a.weight, `answer ${i + 1}`);
    if (credit < 0)
      throw new Refusal(`Answer ${i + 1} has a negative weight (${credit}%): a numeric answer earns 0 to 100%`);
    if (raw === '*') {
      if (credit > 0) throw new Refusal('The answer "*" would accept any number: not carried');
      warn('The answer "*" (any other number, worth 0%) is not carried');
      return;
    }
    if (hasFeedback(a)) feedbackLost.push(raw);
    accepted.push({ ...numberSpec(raw), credit });
  });
  if (accepted.length === 0) throw new Refusal('The numeric answer block has no answer');
  if (feedbackLost.length > 0)
    warn(`The feedback of ${quoteList(feedbackLost)} is not carried: a numeric answer has no per-answer feedback`);
  const { best, alternatives } = bestAndAlternatives(accepted);
  const result: Partial<QuestionDraft> = { question_type: 'numeric', correct_answer: best.answer };
  if (best.tolerance !== undefined) result.tolerance = best.tolerance;
  if (alternatives.length > 0) result.alternatives = alternatives;
  return result;
}

/** `3`, `3:0.5` (value and tolerance) or `2..4` (a range: its midpoint, tolerance half its width). */
function numberSpec(raw: string): { answer: string; tolerance?: number } {
  const number = (text: string): string => {
    if (parseNumberText(text) === undefined)
      throw new Refusal(`"${text.trim()}" is not a number (in the numeric answer "${raw}")`);
    return text.trim();
  };
  const range = raw.indexOf('..');
  if (range > 0) {
    const low = number(raw.slice(0, range));
    const high = number(raw.slice(range + 2));
    if (parseNumberText(low)! > parseNumberText(high)!) throw new Refusal(`The range "${raw}" starts above its end`);
    return midpoint(low, high);
  }
  const colon = raw.indexOf(':');
  if (colon > 0) {
    const tolerance = parseNumberText(raw.slice(colon + 1));
    if (tolerance === undefined || tolerance < 0)
      throw new Refusal(`"${raw.slice(colon + 1).trim()}" is not a tolerance (a number, 0 or more) in "${raw}"`);
    return { answer: number(raw.slice(0, colon)), tolerance };
  }
  if (raw === '') throw new Refusal('An empty numeric answer');
  return { answer: number(raw) };
}

/** Exact decimal midpoint and half-width (3.141..3.142 → 3.1415 ± 0.0005, not 3.1414999…). */
function midpoint(low: string, high: string): { answer: string; tolerance: number } {
  const decimal = (text: string) => /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  const a = decimal(low);
  const b = decimal(high);
  if (!a || !b) {
    // Exponent notation: plain floating point is as exact as the numbers are.
    const l = Number(low);
    const h = Number(high);
    return { answer: String((l + h) / 2), tolerance: (h - l) / 2 };
  }
  const scale = Math.max((a[3] ?? '').length, (b[3] ?? '').length);
  const scaled = (m: RegExpExecArray) =>
    BigInt(`${m[1]}${m[2] || '0'}${(m[3] ?? '').padEnd(scale, '0')}`.replace(/^\+/, ''));
  const lo = scaled(a);
  const hi = scaled(b);
  // (lo + hi) / 2 and (hi − lo) / 2, exactly: times 5 at one more decimal place.
  return {
    answer: fixedPointText((lo + hi) * 5n, scale + 1),
    tolerance: Number(fixedPointText((hi - lo) * 5n, scale + 1)),
  };
}

/** The first answer worth 100% is the answer; every other one an alternative, in file order. */
function bestAndAlternatives(accepted: AlternativeAnswer[]): {
  best: AlternativeAnswer;
  alternatives: AlternativeAnswer[];
} {
  const best = accepted.findIndex((a) => a.credit === 100);
  if (best < 0)
    throw new Refusal(
      accepted.length === 0 ? 'No answer is carried' : 'No answer is worth 100%: full marks could never be earned',
    );
  return { best: accepted[best], alternatives: accepted.filter((_a, i) => i !== best) };
}

/** The grammar's first answer is the text before any "=" or "~": usually only the spacing after "{". */
const isBlankFirst = (a: GiftAnswer): boolean =>
  a.prefix === null && a.weight === null && a.format === null && a.text.trim() === '' && a.feedback.length === 0;

const hasFeedback = (a: GiftAnswer): boolean => joinFeedback(a.feedback).trim() !== '';

/** Moodle's commentparser keeps further "#" in the feedback. */
const joinFeedback = (feedback: Text[]): string => feedback.map((f) => f.text).join('#');

function weightOf(raw: string, what: string): number {
  const value = parseNumberText(raw);
  if (value === undefined || value < -100 || value > 100)
    throw new Refusal(`The weight of ${what} ("%${raw}%") must be a percentage from -100 to 100`);
  return value === 0 ? 0 : value; // not -0
}

const quoteList = (values: string[]): string => values.map((v) => `"${v}"`).join(', ');

/**
 * An option or short answer: plain text on one line, without our separator; an option (or a stem,
 * `mayBeHtml`) of an [html] question stays HTML when it says more than its text (an image, a formula).
 */
function optionText(
  a: GiftAnswer,
  inherited: Format | null,
  what: string,
  warn: Warn,
  /** Where an option kept as HTML is noted; absent: always text (a short answer). */
  rich?: Set<string>,
): string {
  const format = a.format ?? inherited;
  const html = rich && inherited === 'html' && format === 'html' ? richOption(a.text) : undefined;
  // HTML's "|" is stored &#124; (the bank's schema writes it so).
  if (html !== undefined) {
    rich!.add(html);
    return html;
  }
  let text = a.text;
  if (format === 'markdown') warn(`${what} is written in Markdown: carried as plain text`);
  if (format !== 'plain' && format !== 'markdown') {
    const plain = htmlText(text);
    if (plain.lost) warn(`${what}: HTML markup removed (options are plain text)`);
    text = plain.text;
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text.includes(OPTION_SEPARATOR))
    throw new Refusal(`${what} ("${text}") contains "${OPTION_SEPARATOR}", which separates options here`);
  return text;
}

interface Resolved {
  format: 'plain' | 'html';
  text: string;
}

/** The question text's format: ours has plain and html only. */
function resolveFormat(t: Text, warn: Warn): Resolved {
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
function carryFeedback(t: Text, target: 'plain' | 'html', what: string, warn: Warn): string {
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
