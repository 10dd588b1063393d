import { MAX_ESSAY_ATTACHMENTS } from '../conventions';
import { type AlternativeAnswer, type QuestionDraft, Refusal } from '../model';
import { localName, type XmlChild, type XmlElement } from '../xml';
import { attr, collapse, kid, kids, numberOf, qtiName, round5 } from './elements';
import { richOption } from '../richOptions';
import { type FieldContent, type HtmlContext, childrenHtml, fieldContent } from './html';
import {
  type MapEntry,
  type Mapping,
  type NumericBranch,
  type ResponseRules,
  correctValues,
  numericBranches,
  toleranceOf,
} from './scoring';

// Pure: one reader per interaction the bank holds (choice, text entry,
// extended text), each returning its own part of the question: its fields of
// the draft, its marks and the feedback it took.

/** On an extended text interaction: our export's word limit. */
const MAX_WORDS_ATTRIBUTE = 'data-max-words';
/** On an upload interaction: our export's count of files an essay takes, and of those it requires. */
const ATTACHMENTS_ATTRIBUTE = 'data-attachments';
const ATTACHMENTS_REQUIRED_ATTRIBUTE = 'data-attachments-required';

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

const isTrueFalse = (options: string[]) =>
  options.length === 2 &&
  [...options]
    .map((o) => o.toLowerCase())
    .sort()
    .join() === 'false,true';

/** What every interaction's reader is given: the item, its interaction and how the item scores it. */
export interface ItemReading {
  root: XmlElement;
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
interface ChoiceReading {
  ids: string[];
  options: string[];
  feedback: FieldContent[];
  correct: string[];
  /** The mapping's positive entries for choices, when the item scores by it. */
  positive: MapEntry[];
}

/** A choice interaction: one choice (multiple choice, or true/false) or several (multiple select). */
function choiceInteraction(item: ItemReading): InteractionPart {
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
  const reading: ChoiceReading = { ids, options, feedback, correct, positive };
  const part = maxChoices === 1 ? singleChoice(item, reading) : multipleChoice(item, reading, maxChoices);
  return { ...part, carried };
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
const withOptionFeedback = (feedback: FieldContent[]): Partial<QuestionDraft> =>
  feedback.some((f) => f.html !== '') ? { option_feedback: feedback.map((f) => f.html) } : {};

/** One choice: a true/false question when the options are True and False, else multiple choice. */
function singleChoice(item: ItemReading, c: ChoiceReading): InteractionPart {
  let correctId = c.correct[0];
  if (!correctId && c.positive.length > 0) correctId = [...c.positive].sort((a, b) => b.value - a.value)[0].key;
  if (!correctId) throw new Refusal('The item has no correct response');
  if (c.correct.length > 1) item.warnings.add('More than one correct response for a single choice: the first was used');
  const top = c.positive.find((e) => e.key === correctId)?.value;
  if (c.positive.some((e) => e.key !== correctId))
    item.warnings.add('Partial credit for other choices was not carried: a single choice is right or wrong');
  const marks = item.marks ?? top ?? 1;
  const correctText = c.options[c.ids.indexOf(correctId)];
  if (!isTrueFalse(c.options)) {
    const draft = { question_type: 'multiple_choice' as const, options: c.options, correct_answer: correctText };
    return { draft: { ...draft, ...withOptionFeedback(c.feedback) }, marks, optionFeedback: c.feedback };
  }
  const order = c.options.map((o) => o.toLowerCase());
  const feedback = ['true', 'false'].map((o) => c.feedback[order.indexOf(o)]);
  const correctAnswer = correctText.toLowerCase() === 'true' ? 'True' : 'False';
  const draft = {
    question_type: 'true_false' as const,
    correct_answer: correctAnswer,
    ...withOptionFeedback(feedback),
  };
  return { draft, marks, optionFeedback: feedback };
}

/** Several choices: a multiple select, scored by its mapping's credits when the item scores by one. */
function multipleChoice(item: ItemReading, c: ChoiceReading, maxChoices: number): InteractionPart {
  const correctIds = c.correct.length > 0 ? c.correct : c.positive.map((e) => e.key);
  if (correctIds.length === 0) throw new Refusal('The item has no correct response');
  const ordered = c.ids.filter((id) => correctIds.includes(id));
  const draft: Partial<QuestionDraft> = {
    question_type: 'multiple_select',
    options: c.options,
    correct_answer: ordered.map((id) => c.options[c.ids.indexOf(id)]).join('|'),
    ...withOptionFeedback(c.feedback),
  };
  if (maxChoices > 1 && maxChoices < c.ids.length)
    item.warnings.add(`At most ${maxChoices} choices could be selected in QTI; the bank does not limit the selection`);
  if (!item.useMapping || !item.mapping) return { draft, marks: item.marks ?? 1, optionFeedback: c.feedback };
  const { credits, marks } = mappedCredits(item, item.mapping, c);
  return { draft: { ...draft, option_credits: credits }, marks, optionFeedback: c.feedback };
}

/** A multiple select's credits from its mapping: points as shares of the declared maximum when they fit, else of the positives' total. */
function mappedCredits(item: ItemReading, mapping: Mapping, c: ChoiceReading): { credits: number[]; marks: number } {
  const { warnings } = item;
  const declared = item.marks;
  const total = c.positive.reduce((sum, e) => sum + e.value, 0);
  if (total <= 0) throw new Refusal('The mapping gives no choice a positive score');
  const values = c.ids.map((id) => mapping.entries.find((e) => e.key === id)?.value ?? mapping.defaultValue);
  const byMarks =
    declared !== undefined &&
    (mapping.upperBound === undefined ? total <= declared : mapping.upperBound === declared) &&
    values.every((v) => Math.abs(v) <= declared + 1e-9);
  const scale = byMarks ? declared : total;
  const credits = values.map((value) => (value / scale) * 100);
  const kept = credits.map((credit) => round5(Math.max(-100, credit)));
  const marks = declared ?? (mapping.upperBound !== undefined ? Math.min(mapping.upperBound, total) : total);
  if (!byMarks && Math.abs(total - marks) > 1e-9)
    warnings.add(
      `The mapped scores (positive entries totalling ${total}) were scaled to credits of the ${marks} marks`,
    );
  if (credits.some((credit, i) => Math.abs(credit - kept[i]) > 1e-9))
    warnings.add('Option credits were rounded to 5 decimals or capped at −100');
  if (mapping.defaultValue !== 0)
    warnings.add(`The mapping's default value ${mapping.defaultValue} applies to every unmapped choice`);
  if (kept.some((credit) => credit < 0) && (mapping.lowerBound === undefined || mapping.lowerBound < 0))
    warnings.add('A total below 0 counts as 0 in the bank (the QTI mapping had no lower bound of 0)');
  return { credits: kept, marks };
}

/** A text entry as read: its answer, the further answers, and the mapping's entries it was scored by. */
interface TextEntry {
  answer: string;
  alternatives: AlternativeAnswer[];
  entries: MapEntry[];
  caseSensitive: boolean;
  marks: number;
}

/** A text entry: a numeric answer (float or integer) or a short answer (string). */
function textEntryInteraction(item: ItemReading): InteractionPart {
  const { mapping, warnings } = item;
  const baseType = attr(item.declaration!, 'baseType') ?? 'string';
  const numeric = baseType === 'float' || baseType === 'integer';
  if (!numeric && baseType !== 'string')
    throw new Refusal(`A text entry with base type "${baseType}" is not a question type the bank supports`);
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
  const entry: TextEntry = { answer, alternatives, entries, caseSensitive, marks };
  const part = numeric ? numericEntry(item, entry) : shortAnswerEntry(item, entry);
  if (attr(item.interaction, 'patternMask')) warnings.add('The answer pattern (patternMask) was not carried');
  return part;
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

/** A numeric answer, with its tolerance and the further answers our export's branches score. */
function numericEntry(item: ItemReading, e: TextEntry): InteractionPart {
  if (numberOf(e.answer) === undefined) throw new Refusal(`The correct response "${e.answer}" is not a number`);
  const badAlt = e.alternatives.find((a) => numberOf(a.answer) === undefined);
  if (badAlt) throw new Refusal(`The mapped answer "${badAlt.answer}" is not a number`);
  // Answers scored by branches comparing with `equal` (our export's): the key's and the others' with their tolerance.
  const branches = e.entries.length === 0 ? numericBranches(item.root) : undefined;
  const keyAt = branches?.findIndex((b) => b.score === 'max' && numberOf(b.answer) === numberOf(e.answer)) ?? -1;
  const equal = branches && keyAt >= 0 ? branches[keyAt].equal : item.rules.equal;
  const tolerance = toleranceOf(equal, numberOf(e.answer)!, item.warnings);
  const scored = branches && keyAt >= 0 ? branchAnswers(branches, keyAt, e.marks, item.warnings) : [];
  const alternatives = [...e.alternatives, ...scored];
  const draft: Partial<QuestionDraft> = {
    question_type: 'numeric',
    correct_answer: e.answer,
    ...(tolerance !== undefined ? { tolerance } : {}),
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
  return { draft, marks: e.marks };
}

/** The further answers a numeric item's branches score (all but the key's), each with its own tolerance. */
function branchAnswers(
  branches: NumericBranch[],
  keyAt: number,
  marks: number,
  warnings: Set<string>,
): AlternativeAnswer[] {
  const answers: AlternativeAnswer[] = [];
  for (const [i, b] of branches.entries()) {
    const value = numberOf(b.answer);
    if (i === keyAt || value === undefined) continue;
    const points = b.score === 'max' ? marks : b.score;
    if (points < 0 || points > marks)
      throw new Refusal(`The answer ${b.answer} scores ${points}, outside 0 to ${marks}`);
    const credit = round5((points / marks) * 100);
    const own = toleranceOf(b.equal, value, warnings);
    answers.push({ answer: b.answer, credit, ...(own !== undefined ? { tolerance: own } : {}) });
  }
  return answers;
}

/** A short answer, case-sensitive as its mapping (or `match`) compares. */
function shortAnswerEntry(item: ItemReading, e: TextEntry): InteractionPart {
  const flags = new Set(e.entries.map((entry) => entry.caseSensitive));
  if (flags.size > 1)
    item.warnings.add(
      `Map entries differ in case sensitivity; the question is case-${e.caseSensitive ? 'sensitive' : 'insensitive'} throughout`,
    );
  const draft: Partial<QuestionDraft> = {
    question_type: 'short_answer',
    correct_answer: e.answer,
    case_sensitive: e.caseSensitive,
    ...(e.alternatives.length > 0 ? { alternatives: e.alternatives } : {}),
  };
  return { draft, marks: e.marks };
}

/** An extended text: an essay, its word limit as our export writes it. */
function extendedTextInteraction(item: ItemReading): InteractionPart {
  const { interaction, warnings } = item;
  const maxWords = interaction.attrs[MAX_WORDS_ATTRIBUTE];
  const words = Number(maxWords);
  const limited = maxWords !== undefined && Number.isInteger(words) && words > 0;
  if (maxWords !== undefined && !limited)
    warnings.add(`${MAX_WORDS_ATTRIBUTE} "${maxWords}" is not a positive whole number: no word limit`);
  const hints = ['expectedLength', 'expectedLines']
    .map((a) => [a, attr(interaction, a)] as const)
    .filter(([, v]) => v !== undefined);
  if (hints.length > 0)
    warnings.add(
      `The answer box's size hint (${hints.map(([a, v]) => `${a} ${v}`).join(', ')}) was not carried: it is not a word limit`,
    );
  if (correctValues(item.declaration).length > 0) warnings.add('The model answer (correct response) was not carried');
  return { draft: { question_type: 'essay', ...(limited ? { max_words: words } : {}) }, marks: item.marks ?? 1 };
}

/** A count our export wrote on an upload (whole, 0 to 5), or undefined. */
function countAttribute(interaction: XmlElement, name: string): number | undefined {
  const value = Number(interaction.attrs[name]);
  return Number.isInteger(value) && value >= 0 && value <= MAX_ESSAY_ATTACHMENTS ? value : undefined;
}

/** The file types the bank takes as attachments, as an upload's `type` may name them. */
const ATTACHMENT_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/**
 * An upload: an essay taking a file (our export's count of files, else one), graded by a person. Its
 * correct response names a file, which is no key; a `type` other than PDF, PNG or JPEG is said not carried.
 */
function uploadInteraction(item: ItemReading): InteractionPart {
  const { interaction, warnings } = item;
  const attachments = countAttribute(interaction, ATTACHMENTS_ATTRIBUTE) || 1;
  const required = Math.min(attachments, countAttribute(interaction, ATTACHMENTS_REQUIRED_ATTRIBUTE) ?? 0);
  const named = correctValues(item.declaration);
  if (named.length > 0)
    warnings.add(
      `The correct response of the upload (${named.join(', ')}) names a file, not a key: it was not carried`,
    );
  const type = attr(interaction, 'type')?.trim();
  if (type && !type.split(/\s+/u).every((t) => ATTACHMENT_TYPES.has(t.toLowerCase())))
    warnings.add(`The upload asks for ${type}; files attached here are PDF, PNG or JPEG`);
  return {
    draft: {
      question_type: 'essay',
      attachments,
      ...(required > 0 ? { attachments_required: required } : {}),
    },
    marks: item.marks ?? 1,
  };
}

/**
 * An upload beside text entries (our export's extended text and upload; TAO's upload beside a blank):
 * one essay taking files, whose text holds what the entries asked. An extended text gives its word
 * limit; a text entry is merged into the essay's text, and said so.
 */
export function essayWithUpload(upload: ItemReading, entries: readonly ItemReading[]): InteractionPart {
  const part = uploadInteraction(upload);
  for (const entry of entries) {
    if (qtiName(entry.interaction) === 'extendedTextInteraction') {
      const written = extendedTextInteraction(entry);
      part.draft = { ...written.draft, ...part.draft };
      continue;
    }
    const id = attr(entry.interaction, 'responseIdentifier') ?? '';
    upload.warnings.add(
      `The text entry "${id}" beside the upload was merged into the essay: its answer is written in the essay's text${correctValues(entry.declaration).length > 0 ? ' (its key was not carried)' : ''}`,
    );
  }
  return part;
}

/** The interactions the bank holds, each by its reader. */
export const INTERACTIONS = new Map<string, (item: ItemReading) => InteractionPart>([
  ['choiceInteraction', choiceInteraction],
  ['textEntryInteraction', textEntryInteraction],
  ['extendedTextInteraction', extendedTextInteraction],
  ['uploadInteraction', uploadInteraction],
]);
