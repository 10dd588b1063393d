import { withHtmlChoices } from '../richOptions';
import {
  BankFileRefused,
  type MediaFile,
  type ParsedBank,
  type ParsedItem,
  type QuestionDraft,
  Refusal,
} from '../model';
import { localName, parseXml, type XmlElement } from '../xml';
import { readZip } from '../zip';
import { isTitleFromText } from '../conventions';
import { attr, collapse, descendants, escapeText, isTrue, kid, kids, qtiName, textOf } from './elements';
import {
  type FieldContent,
  type HtmlContext,
  type PackageFiles,
  childrenHtml,
  fieldContent,
  holdsOnly,
  promptBlock,
  resolvePackagePath,
  wrappedContent,
  wrapperAmong,
} from './html';
import { alwaysSet, declaredMaximum, mappingOf, responseRules } from './scoring';
import type { InteractionPart, ItemReading } from './interactions';
import type { InteractionReader, ItemInteractions, QtiTypes } from './port';
import {
  extraPassageWarning,
  isPassageRoot,
  missingPassageWarning,
  passageItem,
  STIMULUS_RESOURCE,
  stimulusRefs,
} from './passages';

// Pure: QTI 2.1 and 3.0 items, alone or in a content package, as bank drafts.
// The two versions differ mostly in spelling (`choiceInteraction` and
// `maxChoices` in 2.1, `qti-choice-interaction` and `max-choices` in 3.0), so
// every element is read by one canonical name and every attribute under either
// spelling. Each interaction is read by the reader the types given have for it
// (questionTypes/<type>/qti.ts), several of one item by the one that reads them
// together. What an item holds that the bank cannot (a slider, a template, two
// interactions no type reads together) makes it unsupported by its own name;
// what is carried only in part is a warning on it. QTI 1.2 is a different
// language and is refused.
//
// Our own export's conventions (write.ts) are read back: a text wrapped in
// an element with `data-text-format` (plain: its text, not HTML; html: its
// content) and, on the question text's wrapper, `data-untitled` (the item's
// title was made from the text: no title); the types' own (`data-max-words`
// on an extended text…); the difficulty in the manifest's LOM (any package's).

const QTI12_REFUSED =
  'QTI 1.2 (questestinterop, namespace ims_qtiasiv1p2) is not supported; export QTI 2.1 or 3.0 from the other system instead';

function isQti12(root: XmlElement): boolean {
  const local = localName(root);
  return local === 'questestinterop' || Object.values(root.attrs).some((v) => /ims_qtiasiv1p/i.test(v));
}

// ---- Item -----------------------------------------------------------------

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

/** One assessment item (2.1 or 3.0) as a parsed item. */
function parseItem(types: QtiTypes, root: XmlElement, place: ItemPlace): ItemResult {
  const title = attr(root, 'title')?.trim() || null;
  const warnings = new Set<string>();
  let sourceType = localName(root);
  try {
    refuseChangingItem(root);
    const body = kid(root, 'itemBody');
    if (!body) throw new Refusal('The item has no item body');
    const interactions = bodyInteractions(types, root, body);
    sourceType = interactions.length > 0 ? interactions.map(localName).join(' + ') : 'no interaction';
    if (kids(root, 'stylesheet').length > 0) warnings.add('The item stylesheet was not carried');
    const ctx: HtmlContext = {
      replacement: '',
      marked: new Map(),
      pkg: place.pkg,
      warnings,
      problems: [],
      media: new Map(),
      feedback: [],
    };
    const marks = declaredMarks(root, warnings);
    const reading = (interaction: XmlElement): ItemReading => ({
      root,
      body,
      interaction,
      ...scoringOf(types, root, interaction, warnings),
      ctx,
      warnings,
      marks,
    });
    const part =
      interactions.length === 0
        ? types.noInteraction(root, warnings)
        : interactionsPart(types, root, { body, interactions, reading, ctx, marks });
    const read = bodyText(body, ctx);
    const text = read.content.html === '' && part.fallbackText ? fallbackText(read, part.fallbackText, warnings) : read;
    const general = generalFeedback(root, ctx, part.carried ?? new Set());
    const drafted = itemDraft(title, place, text, part, general);
    const htmlOptions = types.byName.get(drafted.question_type)?.htmlOptions ?? null;
    const question = withHtmlChoices(drafted, ctx.richOptions ?? new Set(), htmlOptions);
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

/**
 * The part one interaction, or several read as one question, give. An interaction is read apart
 * from the text (the text is read with it taken out, its prompt in its place) unless it stands in it.
 */
function interactionsPart(types: QtiTypes, root: XmlElement, item: ItemInteractions): InteractionPart {
  const { interactions, ctx } = item;
  if (interactions.length === 1) {
    const reader = readerOf(types, interactions[0]);
    if (!reader.inText) ctx.interaction = interactions[0];
    return reader.read(item.reading(interactions[0]));
  }
  // bodyInteractions refused the interactions no composite holds.
  const composite = types.composites.find((c) => c.holds(root, interactions))!;
  const apart = composite.apart?.(interactions);
  if (apart) ctx.interaction = apart;
  return composite.read(item);
}

/** Interactions whose content is the question's text (its hot texts, its gaps). */
const TEXT_HOLDING = new Set(['hottextInteraction', 'gapMatchInteraction']);

function readerOf(types: QtiTypes, interaction: XmlElement): InteractionReader {
  const reader = types.readers.get(qtiName(interaction));
  if (!reader) throw new Refusal(`${localName(interaction)} is not a question type the bank supports`, 'unsupported');
  return reader;
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

/** The body's interactions in text order (a gap match's content searched too: our export's text entries stand amid its gaps). None asks nothing; several that no type reads together, no question the bank can hold. */
function bodyInteractions(types: QtiTypes, root: XmlElement, body: XmlElement): XmlElement[] {
  const interactions: XmlElement[] = [];
  const find = (el: XmlElement) => {
    for (const child of kids(el)) {
      const name = qtiName(child);
      if (name.endsWith('Interaction')) interactions.push(child);
      if (!name.endsWith('Interaction') || name === 'gapMatchInteraction') find(child);
    }
  };
  find(body);
  if (interactions.length > 1 && !types.composites.some((c) => c.holds(root, interactions)))
    throw new Refusal(
      `A composite item (${interactions.map(localName).join(', ')}): the bank holds one answer per question, or gaps of one text`,
      'unsupported',
      'composite item',
    );
  return interactions;
}

/** The interaction's response declaration and how the response processing scores it. */
function scoringOf(
  types: QtiTypes,
  root: XmlElement,
  interaction: XmlElement,
  warnings: Set<string>,
): Pick<ItemReading, 'declaration' | 'rules' | 'mapping' | 'useMapping'> {
  const responseId = attr(interaction, 'responseIdentifier');
  const declaration = kids(root, 'responseDeclaration').find((d) => attr(d, 'identifier') === responseId);
  if (!declaration && !types.readers.get(qtiName(interaction))?.keyless)
    throw new Refusal(`No response declaration for "${responseId ?? ''}"`);
  const rules = responseRules(root, warnings);
  const mapping = mappingOf(declaration);
  const useMapping = mapping !== undefined && (rules.scoring === 'map_response' || rules.scoring === 'none');
  if (mapping && !useMapping && rules.scoring === 'match_correct')
    warnings.add('The mapping is not used by the response processing (match_correct) and was not carried');
  return { declaration, rules, mapping, useMapping };
}

/** The question's text: the body with the interaction taken out and its prompt where it stood, or its parts marked. */
function bodyText(body: XmlElement, ctx: HtmlContext): { content: FieldContent; wrapped: boolean } {
  const interaction = ctx.interaction;
  if (interaction) {
    ctx.replacement = promptBlock(kid(interaction, 'prompt'), ctx);
    // A text entry amid running text stays a visible blank there.
    if (qtiName(interaction) === 'textEntryInteraction') {
      const parent = [...descendants(body)].find((d) => kids(d).includes(interaction)) ?? body;
      if (!holdsOnly(parent, interaction) && parent !== body) ctx.replacement = '_____';
    }
  }
  // An entry merged into the question (an extended text beside an upload) stands outside the text's wrapper too.
  const merged = (el: XmlElement) => qtiName(el).endsWith('Interaction') && ctx.marked?.has(el) === true;
  const skip = (el: XmlElement) =>
    merged(el) || (interaction !== undefined && (el === interaction || holdsOnly(el, interaction)));
  const wrapper = wrapperAmong(body.children, skip) ?? wrapperInHolder(body);
  const content = wrapper ? wrappedContent(wrapper, ctx) : { html: childrenHtml(body, ctx).trim() };
  return { content, wrapped: wrapper !== undefined };
}

/** Our export's text wrapper inside the body's only element, an interaction holding the text (hot texts, a gap match). */
function wrapperInHolder(body: XmlElement): XmlElement | undefined {
  const [holder, ...more] = kids(body);
  if (!holder || more.length > 0 || !TEXT_HOLDING.has(qtiName(holder))) return undefined;
  if (body.children.some((c) => typeof c === 'string' && c.trim() !== '')) return undefined;
  return wrapperAmong(holder.children, (el) => ['gapText', 'prompt'].includes(qtiName(el)));
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
/** The text a graphic interaction asks by when the item has none, said in a warning. */
function fallbackText(
  read: ReturnType<typeof bodyText>,
  text: string,
  warnings: Set<string>,
): ReturnType<typeof bodyText> {
  warnings.add(`The item has no text beside its image: "${text}" is its text`);
  return { ...read, content: { ...read.content, html: text, plain: text } };
}

function itemDraft(
  title: string | null,
  place: ItemPlace,
  text: { content: FieldContent; wrapped: boolean },
  part: InteractionPart,
  general: FieldContent[],
): QuestionDraft {
  const options = part.optionFeedback ?? [];
  const fields = [text.content, ...general, ...options.filter((f) => f.html !== '')];
  const plain = text.wrapped && !part.textAfter && fields.every((f) => f.plain !== undefined);
  const value = (f: FieldContent) => (plain ? f.plain! : f.html);
  const draft = {
    question_text: plain ? text.content.plain! : text.content.html + (part.textAfter ?? ''),
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

// ---- Files ----------------------------------------------------------------

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A lone QTI item file (2.1 `assessmentItem`, 3.0 `qti-assessment-item`) as a bank of one question of `types`. */
export function readQtiXml(types: QtiTypes, text: string, where?: string): ParsedBank {
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
  const { item, media } = parseItem(types, root, { path: where ?? localName(root), category: null, notes: [] });
  if (item.status === 'ok')
    for (const { href } of stimulusRefs(root, ''))
      item.warnings.push(
        missingPassageWarning(
          href,
          'is a file beside it, which a lone item file cannot carry (import the content package to bring it)',
        ),
      );
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

/** A QTI 3.0 (or 2.1) content package: the items its manifest lists, in the test's sections where a test names them, as questions of `types`. */
export async function readQtiPackage(types: QtiTypes, bytes: Uint8Array): Promise<ParsedBank> {
  const files = await readZip(bytes);
  const manifestBytes = files.get('imsmanifest.xml');
  if (!manifestBytes) return passagesOnly(files, types.passageType);
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
  const stimuli = resources.filter((r) => STIMULUS_RESOURCE.test(r.type)).map((r) => r.path);
  if (order.length === 0 && items.length === 0 && stimuli.length === 0)
    throw new BankFileRefused('The package lists no QTI 2.1 or 3.0 items in its manifest', 'imsmanifest.xml');
  const passages = new Passages(files, items, media, types.passageType);

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
    const parsed = parseItem(types, root, place);
    // The passages it names come before it, each once.
    if (parsed.item.status === 'ok') passages.link(root, parsed.item, place);
    items.push(parsed.item);
    if (parsed.item.status === 'ok') for (const [key, file] of parsed.media) media.set(key, file);
  }
  // A passage no item names is a description of its own.
  for (const path of stimuli) passages.read(path, null);
  return { format: 'qti', items, media };
}

/** The passages of a package, each read once (where an item first names it) into the bank's items. */
class Passages {
  /** Path → whether it was read into a description (false: it could not be). */
  private readonly done = new Map<string, { ok: boolean; why?: string }>();

  constructor(
    private readonly files: Map<string, Uint8Array>,
    private readonly items: ParsedItem[],
    private readonly media: Map<string, MediaFile>,
    /** The type a passage is read as. */
    private readonly passageType: string,
  ) {}

  /** The passage at `path` as a description, added to the items if not yet read: whether it could be, and why not. */
  read(path: string, category: string[] | null): { ok: boolean; why?: string } {
    const known = this.done.get(path);
    if (known) return known;
    const root = readPackageXml(this.files, path);
    let outcome: { ok: boolean; why?: string };
    if (typeof root === 'string') {
      this.items.push(reportedItem({ path, category, notes: [] }, null, 'assessmentStimulus', root));
      outcome = { ok: false, why: 'could not be read' };
    } else if (!isPassageRoot(root)) {
      outcome = { ok: false, why: `is not a passage (its root is ${localName(root)})` };
    } else {
      const parsed = passageItem(root, path, { files: this.files, itemPath: path }, category, this.passageType);
      this.items.push(parsed.item);
      for (const [key, file] of parsed.media) this.media.set(key, file);
      outcome = parsed.item.status === 'ok' ? { ok: true } : { ok: false, why: 'could not be imported' };
    }
    this.done.set(path, outcome);
    return outcome;
  }

  /** The item's first passage made its passage_ref; what cannot be is a warning on it. */
  link(root: XmlElement, item: ParsedItem, place: ItemPlace): void {
    let linked = false;
    for (const { href, path } of stimulusRefs(root, place.path)) {
      if (path === null) {
        item.warnings.push(missingPassageWarning(href, 'is a path leaving the package'));
        continue;
      }
      if (!this.files.has(path)) {
        item.warnings.push(missingPassageWarning(href, 'is not in the package'));
        continue;
      }
      const read = this.read(path, place.category);
      if (!read.ok) item.warnings.push(missingPassageWarning(href, read.why ?? 'could not be imported'));
      else if (linked) item.warnings.push(extraPassageWarning(href));
      else {
        item.question!.passage_ref = path;
        linked = true;
      }
    }
  }
}

/**
 * A zip with no manifest is no content package; one holding only passages (TAO exports a passage
 * so: a div in the QTI namespace) gives them as descriptions. Anything else is refused whole.
 */
function passagesOnly(files: Map<string, Uint8Array>, passageType: string): ParsedBank {
  const refused = () =>
    new BankFileRefused('The zip is not a QTI content package: it has no imsmanifest.xml at its root');
  const paths = [...files.keys()].filter((p) => p.toLowerCase().endsWith('.xml'));
  const roots = paths.map((p) => [p, readPackageXml(files, p)] as const);
  if (roots.length === 0 || roots.some(([, root]) => typeof root === 'string' || !isPassageRoot(root))) throw refused();
  const items: ParsedItem[] = [];
  const media = new Map<string, MediaFile>();
  for (const [path, root] of roots) {
    const parsed = passageItem(root as XmlElement, path, { files, itemPath: path }, null, passageType);
    parsed.item.warnings.push('A passage with no item (the zip has no manifest): imported as a description');
    items.push(parsed.item);
    if (parsed.item.status === 'ok') for (const [key, file] of parsed.media) media.set(key, file);
  }
  return { format: 'qti', items, media };
}
