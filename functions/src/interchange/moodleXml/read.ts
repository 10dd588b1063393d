import { BankFileRefused, type MediaFile, type ParsedBank, type ParsedItem, Refusal } from '../model';
import { element, elements, localName, parseXml, type XmlElement } from '../xml';
import { isTitleFromText, htmlLine } from '../conventions';
import { fieldText, plainFieldText, QuestionReader, type ReadContext } from './questionReader';
import type { MoodleXmlTypes } from './types';

// Pure: a Moodle XML question bank (qformat_xml's `<quiz>`) read into drafts, each question by the
// reader its Moodle type has in the table of types it is given (each type's moodleXml.ts).
// Where Moodle would abort the whole file (an invalid grade) only that question
// is an error; what we cannot carry is named per question, never dropped quietly.
// Tags of our export's conventions (conventions.ts EXPORT_TAGS) are read back:
// difficulty:…, untitled (the <name> was made from the text: no title), and
// those a type's reader asks for; other tags are named as not carried.

/** Types we cannot hold, by Moodle's name, as a person would call them. */
const UNSUPPORTED = new Map<string, string>(
  Object.entries({
    randomsamatch: 'Random short-answer matching',
    multichoiceset: 'All-or-nothing multiple choice',
  }),
);

/**
 * Reads a Moodle XML file, each question by its type's reader in `types`; a file that is not one (or
 * any DOCTYPE, entity or malformed XML) throws BankFileRefused.
 */
export function readMoodleXml(text: string, types: MoodleXmlTypes): ParsedBank {
  const root = parseXml(text.replace(/^\uFEFF/, ''), 'the Moodle XML file');
  if (localName(root) !== 'quiz')
    throw new BankFileRefused(`Not a Moodle XML file: its root element is <${root.name}>, not <quiz>`);
  const media = new Map<string, MediaFile>();
  const items: ParsedItem[] = [];
  const draws = new Map<string, RandomDraw>();
  let category: string[] | null = null;
  elements(root, 'question').forEach((question, i) => {
    const type = (question.attrs.type ?? '').trim();
    if (type === 'category') {
      category = categorySegments(question);
      return;
    }
    if (type === 'random') {
      addRandom(draws, question, category);
      return;
    }
    items.push(readItem(question, type, category, types, { index: i + 1, media, htmlOptions: types.htmlOptions }));
  });
  for (const draw of draws.values()) noteDraw(draw, items);
  return { format: 'moodle_xml', items, media };
}

// A random question is a quiz's draw from its category, not a question: a pool here is a test's
// (pools-essays-regrading.md), which a bank import cannot make. As a QTI section's selection is,
// the draw is noted on the first question of its category, and the category becomes a folder
// holding all of them: the folder a test's pool then draws from.

/** The random questions of one category: how many (each draws one question), and how they were written. */
interface RandomDraw {
  category: string[] | null;
  count: number;
  /** Every one named as our export names them (`Random (<category>) <n>`). */
  ours: boolean;
  /** Moodle's questiontext "1": the draw takes the subcategories' questions too. */
  subcategories: boolean;
}

/** A category as a note names it; no category is Moodle's own "top". */
const categoryLabel = (category: readonly string[] | null): string => `"${category ? category.join(' / ') : 'top'}"`;

function addRandom(draws: Map<string, RandomDraw>, question: XmlElement, category: string[] | null): void {
  const key = JSON.stringify(category);
  const draw = draws.get(key) ?? { category, count: 0, ours: true, subcategories: false };
  const name = plainFieldText(element(question, 'name') ?? question);
  draw.count += 1;
  draw.ours &&= category !== null && name.startsWith(`Random (${category.join(' / ')}) `);
  const text = element(question, 'questiontext');
  draw.subcategories ||= text !== undefined && !['', '0'].includes(plainFieldText(text));
  draws.set(key, draw);
}

const DIFFICULTIES = new Set(['easy', 'medium', 'hard']);

/**
 * The difficulty of a pool our export wrote as a subcategory named after it (a random question
 * cannot filter by difficulty): only when the random questions are named as ours and every
 * question of the category is of that difficulty.
 */
function exportedPoolDifficulty(draw: RandomDraw, members: readonly ParsedItem[]): string | undefined {
  const last = draw.category?.[draw.category.length - 1];
  if (!draw.ours || !last || !DIFFICULTIES.has(last) || draw.category!.length < 2) return undefined;
  return members.length > 0 && members.every((m) => m.question?.difficulty === last) ? last : undefined;
}

function noteDraw(draw: RandomDraw, items: ParsedItem[]): void {
  const key = JSON.stringify(draw.category);
  const members = items.filter((i) => JSON.stringify(i.category) === key);
  const difficulty = exportedPoolDifficulty(draw, members);
  const folder = difficulty ? draw.category!.slice(0, -1) : draw.category;
  for (const member of members) member.category = folder;
  const drawn = `draws ${draw.count} of its ${difficulty ? `${difficulty} ` : ''}questions at random (Moodle random questions${
    difficulty ? ` in ${categoryLabel(draw.category)}, our export’s subcategory for a pool of one difficulty` : ''
  })${draw.subcategories ? ', in Moodle from its subcategories too (a pool here draws from one folder)' : ''}`;
  const [first] = members;
  if (first) {
    const all = members.length === 1 ? 'its one question' : `all its ${members.length} questions`;
    const imported = folder ? `it was imported as a folder of ${all}` : `${all} were imported in no folder`;
    first.warnings.push(`The category ${categoryLabel(folder)} ${drawn}; ${imported}`);
  } else
    items[0]?.warnings.push(
      `The category ${categoryLabel(folder)} ${drawn}, but the file holds none of its questions: nothing was imported for it`,
    );
}

/** Stands for a literal slash while a category path is split (a private-use character no name has). */
const SLASH = '\uE000';

/** `$course$/top/A/B` → ['A', 'B']: the context and Moodle's `top` are not folders; `//` is a literal slash. */
function categorySegments(question: XmlElement): string[] | null {
  const holder = element(question, 'category');
  if (!holder) return null;
  const path = plainFieldText(holder).replace(/\/\//g, SLASH);
  const segments = path
    .split('/')
    .map((s) => s.replaceAll(SLASH, '/').trim())
    .filter((s) => s !== '');
  if (segments.length > 0 && /^\$[a-z0-9]+\$$/i.test(segments[0])) segments.shift();
  if (segments[0] === 'top') segments.shift();
  return segments.length > 0 ? segments : null;
}

function readItem(
  question: XmlElement,
  type: string,
  category: string[] | null,
  types: MoodleXmlTypes,
  ctx: ReadContext,
): ParsedItem {
  const warnings: string[] = [];
  const name = readTitle(question);
  const title = name.title;
  const base = { path: `question[${ctx.index}]`, title, source_type: type || '(none)', category, warnings };
  const named = (): ParsedItem => {
    if (name.warning) warnings.unshift(name.warning);
    return { ...base, status: 'error', message: '' };
  };
  if (type === '') return { ...named(), message: 'This <question> has no type attribute' };
  const read = types.readers.get(type);
  if (!read) {
    const label = UNSUPPORTED.get(type);
    return {
      ...named(),
      status: 'unsupported',
      message: label
        ? `${label} is not a question type we support (Moodle type "${type}"): not imported`
        : `The question type "${type}" is not one we support: not imported`,
    };
  }
  const reader = new QuestionReader(question, ctx, warnings);
  try {
    const draft = read(reader);
    const tags = reader.tags;
    if (tags.difficulty) draft.difficulty = tags.difficulty;
    // A name our export made from the text (tagged untitled) is no title, unless it was renamed since.
    const untitled = tags.untitled === true && name.raw !== null && isTitleFromText(name.raw, draft);
    if (untitled) {
      reader.finish();
      return { ...base, title: null, status: 'ok', message: null, question: draft };
    }
    if (name.warning) warnings.unshift(name.warning);
    if (title !== null) draft.title = title;
    reader.finish();
    return { ...base, status: 'ok', message: null, question: draft };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ...named(), status: error.status, message: (title ? `"${title}": ` : '') + error.message };
  }
}

/** The name as written, and as a title: plain text (Moodle strips tags from names), saying what markup was lost. */
function readTitle(question: XmlElement): { raw: string | null; title: string | null; warning?: string } {
  const name = element(question, 'name');
  if (!name) return { raw: null, title: null };
  const raw = fieldText(name);
  if (!/<[a-zA-Z/!]/.test(raw)) return { raw, title: raw || null };
  const { text, formatting } = htmlLine(raw);
  return {
    raw,
    title: text || null,
    warning:
      formatting.length > 0
        ? `The name's markup (${formatting.join(', ')}) was dropped: titles are plain text`
        : undefined,
  };
}
