import {
  BankFileRefused,
  MEDIA_PLACEHOLDER,
  type AlternativeAnswer,
  type MediaFile,
  type ParsedBank,
  type ParsedItem,
  type QuestionDraft,
  Refusal,
} from '../model';
import { localName, parseXml, VOID_ELEMENTS, type XmlChild, type XmlElement } from '../xml';
import { readZip } from '../zip';
import { isTitleFromText } from '../conventions';

// Pure: QTI 2.1 and 3.0 items, alone or in a content package, as bank drafts.
// The two versions differ mostly in spelling (`choiceInteraction` and
// `maxChoices` in 2.1, `qti-choice-interaction` and `max-choices` in 3.0), so
// every element is read by one canonical name and every attribute under either
// spelling. What an item holds that the bank cannot (a hotspot, a template, two
// interactions) makes it unsupported by its own name; what is carried only in
// part is a warning on it. QTI 1.2 is a different language and is refused.
//
// Our own export's conventions (export/qti.ts) are read back: a text wrapped in
// an element with `data-text-format` (plain: its text, not HTML; html: its
// content) and, on the question text's wrapper, `data-untitled` (the item's
// title was made from the text: no title); `data-max-words` on an extended
// text interaction; the difficulty in the manifest's LOM (any package's).

/** Our export's wrapper of a text, saying its format. */
const TEXT_FORMAT_ATTRIBUTE = 'data-text-format';
const UNTITLED_ATTRIBUTE = 'data-untitled';
const MAX_WORDS_ATTRIBUTE = 'data-max-words';

const QTI12_REFUSED =
  'QTI 1.2 (questestinterop, namespace ims_qtiasiv1p2) is not supported; export QTI 2.1 or 3.0 from the other system instead';

/** `qti-choice-interaction` and `choiceInteraction` alike → `choiceInteraction`. */
function qtiName(el: XmlElement): string {
  const local = localName(el);
  return local.startsWith('qti-') ? local.slice(4).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) : local;
}

/** An attribute by its 2.1 name, or its 3.0 kebab-case spelling. */
function attr(el: XmlElement, camel: string): string | undefined {
  return el.attrs[camel] ?? el.attrs[camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
}

const kids = (el: XmlElement, name?: string): XmlElement[] =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string' && (name === undefined || qtiName(c) === name));
const kid = (el: XmlElement, name: string): XmlElement | undefined => kids(el, name)[0];

function* descendants(el: XmlElement): Generator<XmlElement> {
  for (const child of kids(el)) {
    yield child;
    yield* descendants(child);
  }
}

const textOf = (node: XmlChild): string => (typeof node === 'string' ? node : node.children.map(textOf).join(''));
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const numberOf = (s: string | undefined): number | undefined => {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : undefined;
};
const round5 = (n: number) => Math.round(n * 1e5) / 1e5;
const isTrue = (s: string | undefined) => s?.trim().toLowerCase() === 'true';

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

function isQti12(root: XmlElement): boolean {
  const local = localName(root);
  return local === 'questestinterop' || Object.values(root.attrs).some((v) => /ims_qtiasiv1p/i.test(v));
}

// ---- Media ----------------------------------------------------------------

/** Where a relative reference leads inside the package, or null when it leaves it. */
function resolvePackagePath(fromFile: string, ref: string): string | null {
  let target = ref.replace(/[?#].*$/, '');
  try {
    target = decodeURIComponent(target);
  } catch {
    // a reference that is not valid percent-encoding is looked up as written
  }
  const parts = target.startsWith('/') ? [] : fromFile.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** The package's files and where the item is, so its references can be followed; absent for a lone item file. */
interface PackageFiles {
  files: Map<string, Uint8Array>;
  itemPath: string;
}

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
const MEDIA_ATTRS: Record<string, string[]> = {
  img: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  source: ['src'],
  track: ['src'],
  object: ['data'],
  embed: ['src'],
  input: ['src'],
};

// ---- Item body as HTML ----------------------------------------------------

const BLOCK = new Set(['p', 'div', 'ul', 'ol', 'table', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dl']);
/** Dropped when what they held was taken out (the interaction, an image a lone file cannot carry). */
const EMPTIED_WRAPPERS = new Set(['p', 'div', 'span', 'blockquote', 'figure', 'section']);
/** QTI 2.1 elements in a body that are spelled in lower case like HTML. */
const QTI_LOWERCASE = new Set(['prompt', 'gap', 'hottext', 'include']);

const isQtiElement = (el: XmlElement): boolean => {
  const local = localName(el);
  return local.startsWith('qti-') || /[A-Z]/.test(local) || QTI_LOWERCASE.has(local);
};

interface HtmlContext {
  /** The interaction the body is read around, and what takes its place. */
  interaction?: XmlElement;
  replacement: string;
  pkg?: PackageFiles;
  warnings: Set<string>;
  /** Why the item cannot be imported (a file the package lacks). */
  problems: string[];
  media: Map<string, MediaFile>;
  /** Conditional blocks found in the body (feedback), carried as general feedback. */
  feedback: string[];
}

/** True when the element holds nothing but the interaction (and blank text): it goes with it. */
function holdsOnly(el: XmlElement, interaction: XmlElement): boolean {
  let found = false;
  for (const child of el.children) {
    if (typeof child === 'string') {
      if (child.trim() !== '') return false;
    } else if (child === interaction) found = true;
    else if (holdsOnly(child, interaction)) found = true;
    else return false;
  }
  return found;
}

/** The reference made a media placeholder (a package file), kept (a URL), or undefined when the element must go. */
function mediaReference(value: string, element: string, ctx: HtmlContext): string | undefined {
  const ref = value.trim();
  if (ref === '' || ref.startsWith('#') || EXTERNAL.test(ref)) return value;
  if (!ctx.pkg) {
    ctx.warnings.add(
      `The ${element} "${ref}" was left out: a lone item file cannot carry it (import the content package to bring its media)`,
    );
    return undefined;
  }
  const key = resolvePackagePath(ctx.pkg.itemPath, ref);
  if (key === null) {
    ctx.problems.push(`It refers to "${ref}", a path leaving the package`);
    return value;
  }
  const bytes = ctx.pkg.files.get(key);
  if (!bytes) {
    ctx.problems.push(`It refers to the file "${ref}" (${key}), which the package does not contain`);
    return value;
  }
  ctx.media.set(key, { name: key, bytes });
  // Percent-encoded so that the placeholder ends where the name does (the import decodes it back).
  const encoded = key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
  return MEDIA_PLACEHOLDER + encoded;
}

function htmlAttrs(el: XmlElement, name: string, ctx: HtmlContext): string | undefined {
  let out = '';
  const mediaAttrs = MEDIA_ATTRS[name] ?? [];
  for (const [key, raw] of Object.entries(el.attrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:') || key.startsWith('xsi:')) continue;
    let attrName = key;
    if (key === 'xml:lang') attrName = 'lang';
    else if (key.includes(':')) continue;
    let value: string | undefined = raw;
    if (name === 'a' && attrName === 'href' && !EXTERNAL.test(raw.trim()) && !raw.trim().startsWith('#')) {
      ctx.warnings.add(
        `The link to "${raw.trim()}" was not carried (only images, audio and video are); its text was kept`,
      );
      continue;
    }
    if (mediaAttrs.includes(attrName)) {
      value = mediaReference(raw, name === 'img' ? 'image' : name, ctx);
      if (value === undefined) return undefined;
    }
    out += ` ${attrName}="${escapeAttr(value)}"`;
  }
  return out;
}

function qtiElementHtml(el: XmlElement, ctx: HtmlContext): string {
  const name = qtiName(el);
  switch (name) {
    case 'contentBody':
    case 'prompt':
      return childrenHtml(el, ctx);
    case 'rubricBlock': {
      const view = attr(el, 'view');
      ctx.warnings.add(`A rubric block${view ? ` (for ${view})` : ''} was not carried: the bank has no place for it`);
      return '';
    }
    case 'feedbackBlock':
    case 'feedbackInline': {
      const html = childrenHtml(el, ctx).trim();
      if (html) {
        ctx.feedback.push(html);
        ctx.warnings.add(
          `Feedback in the item body, shown in QTI only when ${attr(el, 'outcomeIdentifier') ?? 'an outcome'} matches "${attr(el, 'identifier') ?? ''}", is carried as general feedback (shown in every released review)`,
        );
      }
      return '';
    }
    default:
      ctx.warnings.add(`The QTI element ${localName(el)} in the text was not carried (its text was kept)`);
      return childrenHtml(el, ctx);
  }
}

function elementHtml(el: XmlElement, ctx: HtmlContext): string {
  if (ctx.interaction && (el === ctx.interaction || holdsOnly(el, ctx.interaction))) return ctx.replacement;
  if (isQtiElement(el)) return qtiElementHtml(el, ctx);
  const name = localName(el).toLowerCase();
  const attrs = htmlAttrs(el, name, ctx);
  if (attrs === undefined) return '';
  if (VOID_ELEMENTS.has(name)) return `<${name}${attrs}>`;
  const inner = childrenHtml(el, ctx);
  const hadContent = el.children.some((c) => typeof c !== 'string' || c.trim() !== '');
  if (EMPTIED_WRAPPERS.has(name) && hadContent && inner.trim() === '') return '';
  return `<${name}${attrs}>${inner}</${name}>`;
}

const childrenHtml = (el: XmlElement, ctx: HtmlContext): string =>
  el.children.map((c) => (typeof c === 'string' ? escapeText(c) : elementHtml(c, ctx))).join('');

/** A prompt's HTML as a block of the text: wrapped in a paragraph unless it already holds blocks. */
function promptBlock(prompt: XmlElement | undefined, ctx: HtmlContext): string {
  if (!prompt) return '';
  const html = childrenHtml(prompt, ctx).trim();
  if (html === '') return '';
  return kids(prompt).some((k) => BLOCK.has(localName(k).toLowerCase())) ? html : `<p>${html}</p>`;
}

// ---- Item -----------------------------------------------------------------

interface Mapping {
  entries: { key: string; value: number; caseSensitive: boolean }[];
  defaultValue: number;
  lowerBound?: number;
  upperBound?: number;
}

type MapEntry = Mapping['entries'][number];

function mappingOf(declaration: XmlElement | undefined): Mapping | undefined {
  const mapping = declaration && kid(declaration, 'mapping');
  if (!mapping) return undefined;
  return {
    entries: kids(mapping, 'mapEntry').map((e) => ({
      key: attr(e, 'mapKey') ?? '',
      value: numberOf(attr(e, 'mappedValue')) ?? 0,
      // QTI's default: a map entry matches case-sensitively unless it says otherwise.
      caseSensitive: attr(e, 'caseSensitive') === undefined ? true : isTrue(attr(e, 'caseSensitive')),
    })),
    defaultValue: numberOf(attr(mapping, 'defaultValue')) ?? 0,
    lowerBound: numberOf(attr(mapping, 'lowerBound')),
    upperBound: numberOf(attr(mapping, 'upperBound')),
  };
}

const correctValues = (declaration: XmlElement | undefined): string[] => {
  const correct = declaration && kid(declaration, 'correctResponse');
  return correct ? kids(correct, 'value').map((v) => textOf(v).trim()) : [];
};

type Scoring = 'match_correct' | 'map_response' | 'none' | 'other';

interface ResponseRules {
  scoring: Scoring;
  /** Numeric tolerance from an `equal` comparison, when the processing has one. */
  equal?: XmlElement;
}

/** What the response processing does, as far as the bank can follow it. */
function responseRules(root: XmlElement, warnings: Set<string>): ResponseRules {
  const rp = kid(root, 'responseProcessing');
  if (!rp) return { scoring: 'none' };
  const template = attr(rp, 'template') ?? attr(rp, 'templateLocation');
  if (template) {
    const name =
      template
        .replace(/\.xml$/i, '')
        .split('/')
        .pop() ?? template;
    if (name === 'match_correct' || name === 'map_response') return { scoring: name };
    warnings.add(
      `The response processing template "${name}" was not carried; the standard key (the correct response) was used`,
    );
    return { scoring: 'other' };
  }
  // Rules that only set another outcome (a feedback to show) take no part in the score.
  const rules = kids(rp).filter((r) => !(qtiName(r) === 'setOutcomeValue' && attr(r, 'identifier') !== 'SCORE'));
  if (rules.length === 0) return { scoring: 'none' };
  const inside = rules.flatMap((r) => [r, ...descendants(r)]).map((d) => ({ el: d, name: qtiName(d) }));
  const equal = inside.find((d) => d.name === 'equal')?.el;
  if (inside.some((d) => d.name === 'mapResponse')) return { scoring: 'map_response', equal };
  if (equal) return { scoring: 'match_correct', equal };
  if (inside.some((d) => d.name === 'match') && inside.some((d) => d.name === 'correct'))
    return { scoring: 'match_correct' };
  warnings.add('Custom response processing was not carried; the standard key (the correct response) was used');
  return { scoring: 'other' };
}

/** The score the item declares it can reach: MAXSCORE, or SCORE's normal maximum. */
function declaredMaximum(root: XmlElement): number | undefined {
  const outcomes = kids(root, 'outcomeDeclaration');
  const maxScore = outcomes.find((o) => attr(o, 'identifier') === 'MAXSCORE');
  const fromDefault = maxScore && kid(maxScore, 'defaultValue');
  const value = fromDefault && kid(fromDefault, 'value');
  const max = value ? numberOf(textOf(value)) : undefined;
  if (max !== undefined) return max;
  const score = outcomes.find((o) => attr(o, 'identifier') === 'SCORE');
  return score ? numberOf(attr(score, 'normalMaximum')) : undefined;
}

/** An option as the bank holds it: plain text (an image stands for its alt text). */
function optionText(choice: XmlElement, index: number, warnings: Set<string>): string {
  const lost: string[] = [];
  const walk = (node: XmlChild): string => {
    if (typeof node === 'string') return node;
    const name = qtiName(node);
    if (name === 'feedbackInline') return '';
    lost.push(localName(node));
    if (localName(node) === 'img') return attr(node, 'alt') ?? '';
    return node.children.map(walk).join('');
  };
  const text = collapse(choice.children.map(walk).join(''));
  if (lost.length > 0)
    warnings.add(
      `Option ${index + 1}: its markup (${[...new Set(lost)].join(', ')}) was dropped; options are plain text${lost.includes('img') ? ' (an image became its alt text)' : ''}`,
    );
  return text;
}

const isTrueFalse = (options: string[]) =>
  options.length === 2 &&
  [...options]
    .map((o) => o.toLowerCase())
    .sort()
    .join() === 'false,true';

interface ItemResult {
  item: ParsedItem;
  media: Map<string, MediaFile>;
}

interface ItemPlace {
  path: string;
  category: string[] | null;
  pkg?: PackageFiles;
  /** Notes about where it stands in a test (a selection, the test not imported). */
  notes: string[];
  /** The difficulty its manifest entry's LOM gives. */
  difficulty?: QuestionDraft['difficulty'];
}

/** A text field as the item gives it: plain text when our export wrapped it as such, else HTML. */
interface FieldContent {
  plain?: string;
  html: string;
  /** The wrapper said the question has no title of its own. */
  untitled?: boolean;
}

/** The one element among `nodes` (blank text aside) that is our export's wrapper of a text, if that is all there is. */
function wrapperAmong(nodes: XmlChild[], skip: (el: XmlElement) => boolean = () => false): XmlElement | undefined {
  let found: XmlElement | undefined;
  for (const node of nodes) {
    if (typeof node === 'string') {
      if (node.trim() !== '') return undefined;
    } else if (skip(node)) continue;
    else if (found || node.attrs[TEXT_FORMAT_ATTRIBUTE] === undefined) return undefined;
    else found = node;
  }
  return found;
}

const plainAsHtml = (text: string) => escapeText(text).replace(/\r?\n/g, '<br>\n');

/** A wrapper's text: plain as written, or its content as HTML. */
function wrappedContent(wrapper: XmlElement, ctx: HtmlContext): FieldContent {
  const untitled = isTrue(wrapper.attrs[UNTITLED_ATTRIBUTE]);
  if (wrapper.attrs[TEXT_FORMAT_ATTRIBUTE]?.trim() === 'plain') {
    const plain = textOf(wrapper);
    return { plain, html: plainAsHtml(plain), untitled };
  }
  return { html: childrenHtml(wrapper, ctx).trim(), untitled };
}

/** A feedback element's content (through a content body), unwrapped when our export wrapped it. */
function fieldContent(el: XmlElement, ctx: HtmlContext): FieldContent {
  const only = kids(el);
  const holder = only.length === 1 && qtiName(only[0]) === 'contentBody' ? only[0] : el;
  const wrapper = wrapperAmong(holder.children);
  return wrapper ? wrappedContent(wrapper, ctx) : { html: childrenHtml(el, ctx).trim() };
}

/** LOM's difficulty vocabulary (very easy … very difficult) as ours; what it cannot say exactly is warned. */
function lomDifficulty(resource: XmlElement, warnings: string[]): QuestionDraft['difficulty'] | undefined {
  const holder = [...descendants(resource)].find((d) => localName(d) === 'difficulty');
  const value = holder && [...descendants(holder)].find((d) => localName(d) === 'value');
  if (!value) return undefined;
  const given = collapse(textOf(value)).toLowerCase();
  const ours = (
    { 'very easy': 'easy', easy: 'easy', medium: 'medium', difficult: 'hard', 'very difficult': 'hard' } as const
  )[given as 'easy'];
  if (ours === undefined) warnings.push(`The difficulty "${given}" (LOM) is not one of LOM's: medium was used`);
  else if (given.startsWith('very ')) warnings.push(`The difficulty "${given}" (LOM) was carried as ${ours}`);
  return ours;
}

/** Outcome values the response processing sets whatever the response: (identifier, value) pairs. */
function alwaysSet(root: XmlElement): Set<string> {
  const rp = kid(root, 'responseProcessing');
  const set = new Set<string>();
  for (const rule of rp ? kids(rp, 'setOutcomeValue') : []) {
    const value = kids(rule);
    if (value.length === 1 && qtiName(value[0]) === 'baseValue')
      set.add(`${attr(rule, 'identifier') ?? ''}\0${textOf(value[0]).trim()}`);
  }
  return set;
}

/** A numeric answer the processing scores: a branch comparing RESPONSE with `equal` and setting SCORE. */
interface NumericBranch {
  answer: string;
  equal: XmlElement;
  /** The score it sets: a number, or 'max' for MAXSCORE. */
  score: number | 'max';
}

/** The branches of a response condition scoring numeric answers (as our export writes them), or undefined if it is not that. */
function numericBranches(root: XmlElement): NumericBranch[] | undefined {
  const rp = kid(root, 'responseProcessing');
  const conditions = rp ? kids(rp, 'responseCondition') : [];
  if (conditions.length !== 1) return undefined;
  const branches: NumericBranch[] = [];
  for (const branch of kids(conditions[0])) {
    const name = qtiName(branch);
    if (name !== 'responseIf' && name !== 'responseElseIf') continue;
    const [test, set, ...rest] = kids(branch);
    if (!test || !set || rest.length > 0 || qtiName(set) !== 'setOutcomeValue' || attr(set, 'identifier') !== 'SCORE')
      return undefined;
    if (qtiName(test) === 'isNull') continue;
    const operands = kids(test);
    const value = operands.find((o) => qtiName(o) === 'baseValue');
    const response = operands.find((o) => qtiName(o) === 'variable' && attr(o, 'identifier') === 'RESPONSE');
    const [scoreEl] = kids(set);
    if (qtiName(test) !== 'equal' || operands.length !== 2 || !value || !response || !scoreEl) return undefined;
    const score =
      qtiName(scoreEl) === 'variable' && attr(scoreEl, 'identifier') === 'MAXSCORE'
        ? ('max' as const)
        : qtiName(scoreEl) === 'baseValue'
          ? numberOf(textOf(scoreEl))
          : undefined;
    if (score === undefined) return undefined;
    branches.push({ answer: textOf(value).trim(), equal: test, score });
  }
  return branches.length > 0 ? branches : undefined;
}

/** A report of an item that is not imported: an error, or of a kind the bank cannot hold. */
function reportedItem(
  place: ItemPlace,
  title: string | null,
  sourceType: string,
  message: string,
  status: 'error' | 'unsupported' = 'error',
  warnings: Iterable<string> = [],
): ParsedItem {
  return {
    path: place.path,
    title,
    source_type: sourceType,
    status,
    message,
    warnings: [...place.notes, ...warnings],
    category: place.category,
  };
}

/** What every interaction's reader is given: the item, its interaction and how the item scores it. */
interface ItemReading {
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
interface InteractionPart {
  draft: Partial<QuestionDraft>;
  marks: number;
  /** The options' feedback as read, in the order of option_feedback ([True, False] for a true/false). */
  optionFeedback?: FieldContent[];
  /** Modal feedback carried as a choice's own (not general feedback then). */
  carried?: Set<XmlElement>;
}

/** One assessment item (2.1 or 3.0) as a parsed item. */
function parseItem(root: XmlElement, place: ItemPlace): ItemResult {
  const title = attr(root, 'title')?.trim() || null;
  const warnings = new Set<string>();
  let sourceType = localName(root);
  try {
    refuseChangingItem(root);
    const body = kid(root, 'itemBody');
    if (!body) throw new Refusal('The item has no item body');
    const interaction = soleInteraction(body);
    sourceType = localName(interaction);
    const readInteraction = INTERACTIONS.get(qtiName(interaction));
    if (!readInteraction) throw new Refusal(`${sourceType} is not a question type the bank supports`, 'unsupported');
    const scoring = scoringOf(root, interaction, warnings);
    if (kids(root, 'stylesheet').length > 0) warnings.add('The item stylesheet was not carried');
    const ctx: HtmlContext = {
      interaction,
      replacement: '',
      pkg: place.pkg,
      warnings,
      problems: [],
      media: new Map(),
      feedback: [],
    };
    const text = bodyText(body, interaction, ctx);
    const marks = declaredMarks(root, warnings);
    const part = readInteraction({ root, interaction, ...scoring, ctx, warnings, marks });
    const general = generalFeedback(root, ctx, part.carried ?? new Set());
    const question = itemDraft(title, place, text, part, general);
    if (ctx.problems.length > 0) throw new Refusal(ctx.problems.join('; '));
    if (text.content.html === '') throw new Refusal('The item has no text: its body holds only the interaction');
    const warned = [...place.notes, ...warnings];
    return {
      item: {
        path: place.path,
        title,
        source_type: sourceType,
        status: 'ok',
        message: null,
        warnings: warned,
        category: place.category,
        question,
      },
      media: ctx.media,
    };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const { message, status } = error;
    return {
      item: reportedItem(place, title, error.sourceType ?? sourceType, message, status, warnings),
      media: new Map(),
    };
  }
}

/** An adaptive or a template item changes when delivered: not a fixed question the bank can hold. */
function refuseChangingItem(root: XmlElement): void {
  if (isTrue(attr(root, 'adaptive')))
    throw new Refusal(
      'An adaptive item (adaptive="true") changes as it is answered; the bank holds only fixed questions',
      'unsupported',
      'adaptive item',
    );
  const template = kids(root).find((k) => ['templateDeclaration', 'templateProcessing'].includes(qtiName(k)));
  if (template)
    throw new Refusal(
      `A template item (${localName(template)}) draws its values when delivered; the bank holds only fixed questions`,
      'unsupported',
      'template item',
    );
}

/** The body's one interaction: none, or more than one, is no question the bank can hold. */
function soleInteraction(body: XmlElement): XmlElement {
  const interactions: XmlElement[] = [];
  const find = (el: XmlElement) => {
    for (const child of kids(el)) {
      if (qtiName(child).endsWith('Interaction')) interactions.push(child);
      else find(child);
    }
  };
  find(body);
  if (interactions.length === 0)
    throw new Refusal(
      'The item asks nothing (it has no interaction): the bank holds only questions',
      'unsupported',
      'no interaction',
    );
  if (interactions.length > 1)
    throw new Refusal(
      `A composite item (${interactions.map(localName).join(', ')}): the bank holds one answer per question`,
      'unsupported',
      'composite item',
    );
  return interactions[0];
}

/** The interaction's response declaration and how the response processing scores it. */
function scoringOf(
  root: XmlElement,
  interaction: XmlElement,
  warnings: Set<string>,
): Pick<ItemReading, 'declaration' | 'rules' | 'mapping' | 'useMapping'> {
  const responseId = attr(interaction, 'responseIdentifier');
  const declaration = kids(root, 'responseDeclaration').find((d) => attr(d, 'identifier') === responseId);
  if (!declaration && qtiName(interaction) !== 'extendedTextInteraction')
    throw new Refusal(`No response declaration for "${responseId ?? ''}"`);
  const rules = responseRules(root, warnings);
  const mapping = mappingOf(declaration);
  const useMapping = mapping !== undefined && (rules.scoring === 'map_response' || rules.scoring === 'none');
  if (mapping && !useMapping && rules.scoring === 'match_correct')
    warnings.add('The mapping is not used by the response processing (match_correct) and was not carried');
  return { declaration, rules, mapping, useMapping };
}

/** The question's text: the body with the interaction taken out and its prompt where it stood. */
function bodyText(
  body: XmlElement,
  interaction: XmlElement,
  ctx: HtmlContext,
): { content: FieldContent; wrapped: boolean } {
  ctx.replacement = promptBlock(kid(interaction, 'prompt'), ctx);
  // A text entry amid running text stays a visible blank there.
  if (qtiName(interaction) === 'textEntryInteraction') {
    const parent = [...descendants(body)].find((d) => kids(d).includes(interaction)) ?? body;
    if (!holdsOnly(parent, interaction) && parent !== body) ctx.replacement = '_____';
  }
  const wrapper = wrapperAmong(body.children, (el) => el === interaction || holdsOnly(el, interaction));
  const content = wrapper ? wrappedContent(wrapper, ctx) : { html: childrenHtml(body, ctx).trim() };
  return { content, wrapped: wrapper !== undefined };
}

/** The declared maximum score as marks, when it is a positive number. */
function declaredMarks(root: XmlElement, warnings: Set<string>): number | undefined {
  const declared = declaredMaximum(root);
  if (declared !== undefined && declared <= 0)
    warnings.add(`The declared maximum score ${declared} is not a positive number of marks; 1 was used`);
  return declared !== undefined && declared > 0 ? declared : undefined;
}

/** General feedback: modal feedback not already carried as a choice's, and feedback blocks of the body. */
function generalFeedback(root: XmlElement, ctx: HtmlContext, carried: Set<XmlElement>): FieldContent[] {
  const general: FieldContent[] = [];
  const always = alwaysSet(root);
  for (const m of kids(root, 'modalFeedback')) {
    if (carried.has(m)) continue;
    const content = fieldContent(m, ctx);
    if (content.html === '') continue;
    const heading = attr(m, 'title')?.trim();
    const shown = attr(m, 'showHide') !== 'hide';
    // Shown whatever the answer (its outcome set unconditionally): general feedback as it is.
    if (shown && !heading && always.has(`${attr(m, 'outcomeIdentifier') ?? ''}\0${attr(m, 'identifier') ?? ''}`)) {
      general.push(content);
      continue;
    }
    general.push({ html: heading ? `<p><strong>${escapeText(heading)}</strong></p>${content.html}` : content.html });
    ctx.warnings.add(
      `Modal feedback "${attr(m, 'identifier') ?? ''}" is shown in QTI only when ${attr(m, 'outcomeIdentifier') ?? 'an outcome'} ${attr(m, 'showHide') === 'hide' ? 'does not match' : 'matches'} it; it is carried as general feedback, shown in every released review`,
    );
  }
  return [...general, ...ctx.feedback.map((html) => ({ html }))];
}

/** The draft: the text and feedback in one format (plain when our export wrapped every text as plain, else HTML), the interaction's part between. */
function itemDraft(
  title: string | null,
  place: ItemPlace,
  text: { content: FieldContent; wrapped: boolean },
  part: InteractionPart,
  general: FieldContent[],
): QuestionDraft {
  const options = part.optionFeedback ?? [];
  const fields = [text.content, ...general, ...options.filter((f) => f.html !== '')];
  const plain = text.wrapped && fields.every((f) => f.plain !== undefined);
  const value = (f: FieldContent) => (plain ? f.plain! : f.html);
  const draft = {
    question_text: plain ? text.content.plain! : text.content.html,
    text_format: plain ? 'plain' : 'html',
    difficulty: place.difficulty ?? 'medium',
    ...(title !== null ? { title } : {}),
    ...part.draft,
    ...(part.draft.option_feedback ? { option_feedback: options.map((f) => (f.html === '' ? '' : value(f))) } : {}),
    ...(general.length > 0 ? { feedback: general.map(value).join('\n') } : {}),
    marks: part.marks,
  } as QuestionDraft;
  if (title !== null && text.content.untitled && isTitleFromText(title, draft)) delete draft.title;
  return draft;
}

// ---- Interactions: each reads its own part of the question -----------------

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
  const options = choices.map((c, i) => optionText(c, i, warnings));
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

/** The interactions the bank holds, each by its reader. */
const INTERACTIONS = new Map<string, (item: ItemReading) => InteractionPart>([
  ['choiceInteraction', choiceInteraction],
  ['textEntryInteraction', textEntryInteraction],
  ['extendedTextInteraction', extendedTextInteraction],
]);

/** The tolerance a numeric item's `equal` comparison allows around the correct value. */
function toleranceOf(equal: XmlElement | undefined, correct: number, warnings: Set<string>): number | undefined {
  if (!equal) return undefined;
  const mode = attr(equal, 'toleranceMode') ?? 'exact';
  if (mode === 'exact') return undefined;
  const bounds = (attr(equal, 'tolerance') ?? '')
    .trim()
    .split(/\s+/)
    .map((t) => numberOf(t))
    .filter((t): t is number => t !== undefined && t >= 0);
  if (bounds.length === 0) return undefined;
  const [low, high = low] = bounds;
  if (low !== high)
    warnings.add(`An uneven tolerance (${low} below, ${high} above) became ${Math.min(low, high)} either side`);
  const t = Math.min(low, high);
  if (mode === 'relative') {
    warnings.add(`A relative tolerance of ${t}% became an absolute one around ${correct}`);
    return round5((Math.abs(correct) * t) / 100);
  }
  if (attr(equal, 'includeLowerBound') === 'false' || attr(equal, 'includeUpperBound') === 'false')
    warnings.add('A tolerance excluding its bounds was carried as including them');
  return t;
}

// ---- Files ----------------------------------------------------------------

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A lone QTI item file (2.1 `assessmentItem`, 3.0 `qti-assessment-item`) as a bank of one question. */
export function parseQtiXml(text: string, where?: string): ParsedBank {
  const root = parseXml(text.replace(/^\uFEFF/, ''), where ?? 'the file');
  if (isQti12(root)) throw new BankFileRefused(QTI12_REFUSED, where);
  const name = qtiName(root);
  if (name === 'assessmentTest' || name === 'manifest')
    throw new BankFileRefused(
      `${localName(root)} refers to item files: upload the whole content package (.zip) instead`,
      where,
    );
  if (name !== 'assessmentItem')
    throw new BankFileRefused(`Not a QTI item: the root element is ${localName(root)}`, where);
  const { item, media } = parseItem(root, { path: where ?? localName(root), category: null, notes: [] });
  return { format: 'qti', items: [item], media };
}

const ITEM_RESOURCE = /^imsqti_item_xmlv(2p0|2p1|2p2|3p0)$/i;
const TEST_RESOURCE = /^imsqti_test_xmlv(2p1|2p2|3p0)$/i;
const QTI12_RESOURCE = /^imsqti_xmlv1p|^imsqti_.*v1p/i;

interface Placement {
  category: string[] | null;
  notes: string[];
}

/**
 * Whether a test is only its items in sections: no time limits, shuffling,
 * selection, branching, preconditions, rubrics, test feedback or session
 * settings, linear navigation, nor outcome processing beyond summing SCORE.
 */
function isBareTest(test: XmlElement): boolean {
  const CARRIES = new Set([
    'timeLimits',
    'selection',
    'branchRule',
    'preCondition',
    'rubricBlock',
    'testFeedback',
    'itemSessionControl',
    'testFeedbackRef',
  ]);
  const inside = [...descendants(test)];
  if (inside.some((d) => CARRIES.has(qtiName(d)))) return false;
  if (inside.some((d) => qtiName(d) === 'ordering' && isTrue(attr(d, 'shuffle')))) return false;
  if (kids(test, 'testPart').some((p) => attr(p, 'navigationMode') === 'linear')) return false;
  const processing = kids(test, 'outcomeProcessing');
  if (processing.length === 0) return true;
  const rules = kids(processing[0]);
  if (processing.length > 1 || rules.length !== 1) return false;
  const [sum] = kids(rules[0]);
  const [variables] = sum ? kids(sum) : [];
  if (!sum || !variables) return false;
  return (
    qtiName(rules[0]) === 'setOutcomeValue' &&
    attr(rules[0], 'identifier') === 'SCORE' &&
    qtiName(sum) === 'sum' &&
    kids(sum).length === 1 &&
    qtiName(variables) === 'testVariables' &&
    attr(variables, 'variableIdentifier') === 'SCORE' &&
    Object.keys(variables.attrs).every((a) => ['variable-identifier', 'variableIdentifier'].includes(a))
  );
}

/** The items a test names, in its order, with the path of sections each stands in. */
function testPlacements(
  test: XmlElement,
  testPath: string,
  files: Map<string, Uint8Array>,
  out: Map<string, Placement>,
  errors: ParsedItem[],
): void {
  const testTitle = attr(test, 'title')?.trim() || attr(test, 'identifier') || testPath;
  // A test that only groups its items into sections loses nothing when its items are imported.
  let firstOfTest = !isBareTest(test);
  const place = (path: string, category: string[], notes: string[]) => {
    if (firstOfTest) {
      notes.unshift(
        `Only the items of the test "${testTitle}" are imported: the test itself (its order, timing and outcome processing) is not`,
      );
      firstOfTest = false;
    }
    const existing = out.get(path);
    if (existing) {
      existing.notes.push(`It is also in the section "${category.join(' / ')}"; it was imported once`);
      return;
    }
    out.set(path, { category: category.length > 0 ? category : null, notes });
  };
  const walk = (section: XmlElement, sectionPath: string, parents: string[], depth: number) => {
    if (depth > 20) return;
    // A section titled "" stands for no folder (our export's, for questions in none); one without a title, by its identifier.
    const title = attr(section, 'title');
    const label = title !== undefined ? title.trim() : attr(section, 'identifier') || 'section';
    const segments = label === '' ? parents : [...parents, label];
    const selection = kid(section, 'selection');
    let notes: string[] = [];
    if (selection) {
      const count = [...descendants(section)].filter((d) => qtiName(d) === 'assessmentItemRef').length;
      notes.push(
        `The section "${segments.join(' / ')}" draws ${attr(selection, 'select') ?? 'some'} of its items at random; it was imported as a folder of all its ${count} items`,
      );
    }
    for (const child of kids(section)) {
      const name = qtiName(child);
      if (name === 'assessmentSection') {
        walk(child, sectionPath, segments, depth + 1);
        continue;
      }
      if (name !== 'assessmentItemRef' && name !== 'assessmentSectionRef') continue;
      const href = attr(child, 'href') ?? '';
      const path = resolvePackagePath(sectionPath, href);
      if (!path) {
        const where = { path: `${sectionPath}: ${href}`, category: segments, notes: [] };
        errors.push(reportedItem(where, null, localName(child), `"${href}" is a path leaving the package`));
      } else if (name === 'assessmentItemRef') {
        place(path, segments, notes);
        notes = [];
      } else {
        const ref = readPackageXml(files, path);
        if (typeof ref === 'string')
          errors.push(reportedItem({ path, category: segments, notes: [] }, null, localName(child), ref));
        else if (qtiName(ref) === 'assessmentSection') walk(ref, path, segments, depth + 1);
      }
    }
  };
  for (const part of kids(test, 'testPart'))
    for (const section of kids(part, 'assessmentSection')) walk(section, testPath, [], 0);
}

/** The XML of a file of the package, or why it cannot be read (a DOCTYPE or QTI 1.2 refuses the whole package). */
function readPackageXml(files: Map<string, Uint8Array>, path: string): XmlElement | string {
  const bytes = files.get(path);
  if (!bytes) return `The manifest names "${path}", which the package does not contain`;
  const text = decodeUtf8(bytes);
  if (text === undefined) return `"${path}" is not UTF-8 text`;
  let root: XmlElement;
  try {
    root = parseXml(text, path);
  } catch (err) {
    if (err instanceof BankFileRefused && !/<!DOCTYPE|<!ENTITY/i.test(text)) return err.message;
    throw err;
  }
  if (isQti12(root)) throw new BankFileRefused(QTI12_REFUSED, path);
  return root;
}

/** A QTI 3.0 (or 2.1) content package: the items its manifest lists, in the test's sections where a test names them. */
export async function parseQtiPackage(bytes: Uint8Array): Promise<ParsedBank> {
  const files = await readZip(bytes);
  const manifestBytes = files.get('imsmanifest.xml');
  if (!manifestBytes)
    throw new BankFileRefused('The zip is not a QTI content package: it has no imsmanifest.xml at its root');
  const manifestText = decodeUtf8(manifestBytes);
  if (manifestText === undefined) throw new BankFileRefused('imsmanifest.xml is not UTF-8 text', 'imsmanifest.xml');
  // The manifest is read by its elements and resource types, never by xsi:schemaLocation (exporters get it wrong).
  const manifest = parseXml(manifestText, 'imsmanifest.xml');
  if (qtiName(manifest) !== 'manifest')
    throw new BankFileRefused(
      `imsmanifest.xml is not a manifest: its root is ${localName(manifest)}`,
      'imsmanifest.xml',
    );

  const resources: { type: string; path: string; element: XmlElement }[] = [];
  const items: ParsedItem[] = [];
  for (const group of kids(manifest, 'resources')) {
    const groupBase = group.attrs['xml:base'] ?? '';
    for (const resource of kids(group, 'resource')) {
      const type = attr(resource, 'type') ?? '';
      if (QTI12_RESOURCE.test(type)) throw new BankFileRefused(QTI12_REFUSED, 'imsmanifest.xml');
      const href = attr(resource, 'href');
      if (!href) continue;
      const path = resolvePackagePath('', `${groupBase}${resource.attrs['xml:base'] ?? ''}${href}`);
      if (path) resources.push({ type, path, element: resource });
      else if (ITEM_RESOURCE.test(type) || TEST_RESOURCE.test(type))
        items.push(
          reportedItem(
            { path: href, category: null, notes: [] },
            null,
            type,
            `"${href}" is a path leaving the package`,
          ),
        );
    }
  }

  const placements = new Map<string, Placement>();
  const media = new Map<string, MediaFile>();
  for (const test of resources.filter((r) => TEST_RESOURCE.test(r.type))) {
    const root = readPackageXml(files, test.path);
    if (typeof root === 'string') {
      items.push(reportedItem({ path: test.path, category: null, notes: [] }, null, 'assessmentTest', root));
      continue;
    }
    testPlacements(root, test.path, files, placements, items);
  }
  const order = [...placements.keys()];
  for (const r of resources) if (ITEM_RESOURCE.test(r.type) && !placements.has(r.path)) order.push(r.path);
  if (order.length === 0 && items.length === 0)
    throw new BankFileRefused('The package lists no QTI 2.1 or 3.0 items in its manifest', 'imsmanifest.xml');

  for (const path of order) {
    const placement = placements.get(path) ?? { category: null, notes: [] };
    const notes = [...placement.notes];
    const resource = resources.find((r) => r.path === path && ITEM_RESOURCE.test(r.type));
    const place: ItemPlace = {
      path,
      category: placement.category,
      notes,
      pkg: { files, itemPath: path },
      difficulty: resource ? lomDifficulty(resource.element, notes) : undefined,
    };
    const root = readPackageXml(files, path);
    if (typeof root === 'string') {
      items.push(reportedItem(place, null, 'assessmentItem', root));
      continue;
    }
    if (qtiName(root) !== 'assessmentItem') {
      items.push(
        reportedItem(
          place,
          null,
          localName(root),
          `"${path}" is not an assessment item (its root is ${localName(root)})`,
        ),
      );
      continue;
    }
    const parsed = parseItem(root, place);
    items.push(parsed.item);
    if (parsed.item.status === 'ok') for (const [key, file] of parsed.media) media.set(key, file);
  }
  return { format: 'qti', items, media };
}
