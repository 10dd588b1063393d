import { type AlternativeAnswer, type QuestionDraft, Refusal } from '../model';
import { localName, type XmlChild, type XmlElement } from '../xml';
import { attr, collapse, descendants, kid, kids, numberOf, qtiName, round5 } from './elements';
import { richOption } from '../richOptions';
import { type FieldContent, type HtmlContext, childrenHtml, fieldContent } from './html';
import { type MapEntry, type Mapping, type ResponseRules, correctValues } from './scoring';

// Pure: what an interaction's reader (a type's, questionTypes/<type>/qti.ts) is given and returns,
// and the readings of QTI's interactions several types share: an option's text, a choice
// interaction's choices and key, a text entry's key.

/**
 * An option as the bank holds it: HTML when it shows what text cannot (an image the item carries,
 * a formula, formatting), else plain text (an image it cannot carry stands for its alt text when the
 * choice has no text of its own).
 */
export function optionText(choice: XmlElement, index: number, warnings: Set<string>, ctx?: HtmlContext): string {
  const html = ctx && choiceHtml(choice, ctx);
  if (html !== undefined) return html;
  const lost: string[] = [];
  const walk = (node: XmlChild, images: boolean): string => {
    if (typeof node === 'string') return node;
    const name = qtiName(node);
    if (name === 'feedbackInline') return '';
    if (images) lost.push(localName(node));
    if (localName(node) === 'img') return images ? (attr(node, 'alt') ?? '') : '';
    return node.children.map((c) => walk(c, images)).join('');
  };
  // An image with a caption (TAO's planets) is its caption, not its alt text and the caption.
  const own = collapse(choice.children.map((c) => walk(c, false)).join(''));
  const text = own !== '' ? own : collapse(choice.children.map((c) => walk(c, true)).join(''));
  if (own !== '') choice.children.forEach((c) => walk(c, true));
  if (lost.length > 0)
    warnings.add(
      `Option ${index + 1}: its markup (${[...new Set(lost)].join(', ')}) was dropped; options are plain text${lost.includes('img') ? (own !== '' ? ' (an image was dropped: its caption was kept)' : ' (an image became its alt text)') : ''}`,
    );
  return text;
}

/** The choice's HTML (its inline feedback left out) when it says more than its text; media it refers to is carried. */
function choiceHtml(choice: XmlElement, ctx: HtmlContext): string | undefined {
  const shown = {
    ...choice,
    children: choice.children.filter((c) => typeof c === 'string' || qtiName(c) !== 'feedbackInline'),
  };
  // Read on a copy of the context: what an image left out warns of is said once, by the plain reading.
  const trial: HtmlContext = { ...ctx, warnings: new Set(), problems: [], media: new Map() };
  const html = richOption(childrenHtml(shown, trial));
  if (html === undefined || trial.problems.length > 0) return undefined;
  for (const warning of trial.warnings) ctx.warnings.add(warning);
  for (const [key, file] of trial.media) ctx.media.set(key, file);
  (ctx.richOptions ??= new Set()).add(html);
  return html;
}

/** What every interaction's reader is given: the item, its interaction and how the item scores it. */
export interface ItemReading {
  root: XmlElement;
  body: XmlElement;
  interaction: XmlElement;
  declaration: XmlElement | undefined;
  rules: ResponseRules;
  mapping: Mapping | undefined;
  /** Whether the response processing scores by the mapping. */
  useMapping: boolean;
  ctx: HtmlContext;
  warnings: Set<string>;
  /** The declared maximum score, when it is a positive number of marks. */
  marks: number | undefined;
}

/** An interaction's part of the question: its fields of the draft, its marks, and the feedback it took. */
export interface InteractionPart {
  draft: Partial<QuestionDraft>;
  marks: number;
  /** The options' feedback as read, in the order of option_feedback ([True, False] for a true/false). */
  optionFeedback?: FieldContent[];
  /** Modal feedback carried as a choice's own (not general feedback then). */
  carried?: Set<XmlElement>;
  /** The question's text when the item has none (a graphic interaction asks by its image). */
  fallbackText?: string;
  /** HTML the interaction adds after the item's text (labels placed on an image: the image and its zones): the text is HTML then. */
  textAfter?: string;
}

/** A choice interaction as read: its choices' ids, options and feedback, and what its declaration keys. */
export interface ChoiceReading {
  ids: string[];
  options: string[];
  feedback: FieldContent[];
  correct: string[];
  /** The mapping's positive entries for choices, when the item scores by it. */
  positive: MapEntry[];
  /** How many choices the taker may choose (0: any number). */
  maxChoices: number;
  /** Modal feedback carried as a choice's own (not general feedback then). */
  carried: Set<XmlElement>;
}

/** A choice interaction's choices, their feedback and its key, whichever type its reader makes of them. */
export function readChoices(item: ItemReading): ChoiceReading {
  const { mapping, warnings } = item;
  const choices = kids(item.interaction, 'simpleChoice');
  const ids = choices.map((c) => attr(c, 'identifier') ?? '');
  const options = choices.map((c, i) => optionText(c, i, warnings, item.ctx));
  const { feedback, carried } = choiceFeedback(item, choices, ids);
  const maxChoices = numberOf(attr(item.interaction, 'maxChoices')) ?? 1;
  const correct = correctValues(item.declaration);
  const unknown = correct.filter((id) => !ids.includes(id));
  if (unknown.length > 0) throw new Refusal(`The correct response names ${unknown.join(', ')}, which is not a choice`);
  if (mapping) {
    const strays = mapping.entries.filter((e) => !ids.includes(e.key)).map((e) => e.key);
    if (strays.length > 0) warnings.add(`Map entries for ${strays.join(', ')}, which are not choices, were ignored`);
  }
  const positive = item.useMapping && mapping ? mapping.entries.filter((e) => e.value > 0 && ids.includes(e.key)) : [];
  return { ids, options, feedback, correct, positive, maxChoices, carried };
}

/** Each choice's feedback: its inline feedback, or else modal feedback keyed by it (FEEDBACK set to the response). */
function choiceFeedback(
  item: ItemReading,
  choices: XmlElement[],
  ids: string[],
): { feedback: FieldContent[]; carried: Set<XmlElement> } {
  const feedback = choices.map((c): FieldContent => {
    const inline = kid(c, 'feedbackInline');
    return inline ? fieldContent(inline, item.ctx) : { html: '' };
  });
  const carried = new Set<XmlElement>();
  for (const m of kids(item.root, 'modalFeedback')) {
    const at = ids.indexOf(attr(m, 'identifier') ?? '\0');
    if (at >= 0 && attr(m, 'showHide') !== 'hide' && feedback[at].html === '') {
      feedback[at] = fieldContent(m, item.ctx);
      carried.add(m);
    }
  }
  return { feedback, carried };
}

/** option_feedback when any option has some. */
export const withOptionFeedback = (feedback: FieldContent[]): Partial<QuestionDraft> =>
  feedback.some((f) => f.html !== '') ? { option_feedback: feedback.map((f) => f.html) } : {};

/** A text entry as read: its answer, the further answers, and the mapping's entries it was scored by. */
export interface TextEntry {
  answer: string;
  alternatives: AlternativeAnswer[];
  entries: MapEntry[];
  caseSensitive: boolean;
  marks: number;
}

/** A text entry's key: its answer, the further answers and their credits, as its declaration and mapping give them. */
export function readTextEntry(item: ItemReading, numeric: boolean): TextEntry {
  const { mapping, warnings } = item;
  const correct = correctValues(item.declaration);
  const entries = item.useMapping && mapping ? mapping.entries.filter((e) => e.key.trim() !== '') : [];
  const top = entries.reduce((max, e) => Math.max(max, e.value), 0);
  let answer = correct[0];
  if (answer === undefined && top > 0) answer = entries.find((e) => e.value === top)!.key;
  if (answer === undefined || answer === '') throw new Refusal('The item has no correct response');
  const correctEntry = entries.find((e) => e.key === answer);
  // `match` compares strings exactly: without a mapping the answer is case-sensitive.
  const caseSensitive = correctEntry?.caseSensitive ?? entries[0]?.caseSensitive ?? true;
  // Compared case-insensitively, a spelling differing only in case is already the answer (or an earlier alternative).
  const sameAs = (a: string, b: string) => (numeric || caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase());
  const { alternatives, rounded } = furtherAnswers(answer, correct, entries, top, sameAs, warnings);
  const marks =
    item.marks ?? (top > 0 ? (mapping?.upperBound !== undefined ? Math.min(mapping.upperBound, top) : top) : 1);
  if (correctEntry && correctEntry.value < top)
    warnings.add('The correct response scored less than another answer in the mapping; it earns the full marks');
  if (rounded) warnings.add('Credits of further answers were rounded to 5 decimals');
  return { answer, alternatives, entries, caseSensitive, marks };
}

/** Further answers: the other correct responses at full credit, then the mapping's others at their share of the top score. */
function furtherAnswers(
  answer: string,
  correct: string[],
  entries: MapEntry[],
  top: number,
  sameAs: (a: string, b: string) => boolean,
  warnings: Set<string>,
): { alternatives: AlternativeAnswer[]; rounded: boolean } {
  const alternatives: AlternativeAnswer[] = correct.slice(1).map((a) => ({ answer: a, credit: 100 }));
  const dropped: string[] = [];
  let rounded = false;
  for (const e of entries) {
    if (sameAs(e.key, answer) || correct.some((c) => sameAs(c, e.key))) continue;
    if (alternatives.some((a) => sameAs(a.answer, e.key))) continue;
    const credit = (e.value / top) * 100;
    if (e.value >= 0) alternatives.push({ answer: e.key, credit: round5(credit) });
    else if (e.value < 0) dropped.push(e.key);
    rounded ||= e.value > 0 && Math.abs(round5(credit) - credit) > 1e-9;
  }
  if (dropped.length > 0)
    warnings.add(`Negative scores for the answers ${dropped.join(', ')} were not carried: a wrong answer earns 0`);
  return { alternatives, rounded };
}

/** The choices' texts, made distinct: a repeated text (image-only choices alike in their alt text) takes its image's file name, else a number. */
export function distinctTexts(choices: XmlElement[], warnings: Set<string>, ctx?: HtmlContext): string[] {
  const texts = choices.map((c, i) => optionText(c, i, warnings, ctx));
  const seen = new Set<string>();
  return texts.map((text, i) => {
    if (!seen.has(text)) {
      seen.add(text);
      return text;
    }
    const image = [...descendants(choices[i])].find((d) => qtiName(d) === 'img');
    const file = (attr(image ?? choices[i], 'src') ?? '').split('/').pop() ?? '';
    let distinct = file !== '' && !seen.has(file) ? file : text;
    for (let n = 2; seen.has(distinct); n++) distinct = `${text} (${n})`;
    seen.add(distinct);
    warnings.add(`Two choices read as "${text}": the later one became "${distinct}" so that they stay apart`);
    return distinct;
  });
}
