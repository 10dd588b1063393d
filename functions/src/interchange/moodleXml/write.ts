import { moodleCategoryPath } from '../gift/write';
import { htmlFields, isHtml, mediaIdsIn, type ExportMedia, type ExportPool, type ExportQuestion } from '../exportModel';
import { CATEGORY_SEPARATOR, EXPORT_TAGS, exportedTitle, formatNumber, PASSAGE_NOT_CARRIED } from '../conventions';
import { comment, element, hasNotXml, textElement, XML_DECLARATION } from '../xmlText';
import { QuestionWriter } from './questionWriter';
import type { MoodleCannot, MoodleWritten, MoodleXmlTypes } from './types';

// Pure: the bank's questions as Moodle XML (`<quiz>`), the format Moodle's own
// question export writes, what is particular to each type by the writer the table
// of types it is given has for it (each type's moodleXml.ts). A category question
// starts each run of questions of one folder; media referred to as /api/media/…
// travel inside the file as `<file encoding="base64">` beside the text that uses
// them, referred to as `@@PLUGINFILE@@/name`; credits are rounded to Moodle's grades
// (Moodle refuses any other), with a comment saying so; a test's pools become Moodle
// random questions in their category.

/** The category Moodle draws a pool's random questions from: its folder, or a subcategory per difficulty (a random question cannot filter by it). */
export const poolCategory = (pool: Pick<ExportPool, 'category' | 'difficulty'>): string[] =>
  pool.difficulty ? [...pool.category, pool.difficulty] : pool.category;

/** The question as its type's writer in `types` writes it, or why it cannot be. */
function typeBody(types: MoodleXmlTypes, w: QuestionWriter): MoodleWritten | MoodleCannot {
  const write = types.writers.get(w.q.question_type);
  if (!write) return { cannot: `a question of type ${w.q.question_type}, which this export does not know` };
  return typeof write === 'function' ? write(w) : write;
}

/** One `<question>` (with comments before it for what was rounded), its type written by its writer in `types`. */
export function moodleQuestion(types: MoodleXmlTypes, q: ExportQuestion, media: ExportMedia): string {
  const w = new QuestionWriter(q, media);
  const written = typeBody(types, w);
  if ('cannot' in written) return `  ${comment(`not exported: "${exportedTitle(q)}" is ${written.cannot}`)}\n`;
  const { type, body, notes } = written;
  const missing = isHtml(q)
    ? htmlFields(q)
        .flatMap(mediaIdsIn)
        .filter((id) => !media.has(id))
    : [];
  if (missing.length > 0) notes.push(`media not found, left as links: ${[...new Set(missing)].join(', ')}`);
  if (q.passage_id) notes.push(PASSAGE_NOT_CARRIED);
  const plainTexts = [
    q.title ?? '',
    ...q.options,
    q.correct_answer,
    ...(q.alternatives ?? []).map((a) => a.answer),
    ...(q.stems ?? []),
    ...(q.gaps ?? []).flatMap((g) => g.answers.map((a) => a.answer)),
  ];
  if (!isHtml(q)) plainTexts.push(q.question_text, q.feedback ?? '', ...(q.option_feedback ?? []));
  if (plainTexts.some(hasNotXml)) notes.push('control characters XML cannot hold were written as U+FFFD');
  const tagNames = [`${EXPORT_TAGS.difficulty}${q.difficulty}`];
  if (!q.title) tagNames.push(EXPORT_TAGS.untitled);
  tagNames.push(...(written.tags ?? []));
  if (q.title && /<[a-zA-Z/!]/.test(q.title))
    notes.push("the title reads as HTML: Moodle's names are plain text, from which it strips tags");
  const tags = element('tags', {}, tagNames.map((t) => element('tag', {}, textElement('text', t))).join(''));
  return (
    notes.map((n) => `  ${comment(n)}\n`).join('') +
    `  ${element(
      'question',
      { type },
      element('name', {}, textElement('text', exportedTitle(q))) +
        w.formattedText('questiontext', written.text ?? q.question_text) +
        w.formattedText('generalfeedback', q.feedback ?? '') +
        textElement('defaultgrade', formatNumber(q.marks)) +
        textElement('penalty', '0') +
        textElement('hidden', '0') +
        textElement('idnumber', '') +
        body +
        tags,
    )}\n`
  );
}

/** A category question: the questions after it go into `$course$/top/<segments>`. */
export const moodleCategory = (segments: readonly string[]): string =>
  `  ${element(
    'question',
    { type: 'category' },
    element('category', {}, textElement('text', moodleCategoryPath(segments))) +
      element('info', { format: 'html' }, textElement('text', '')),
  )}\n`;

/** A Moodle random question: one per question a pool draws. */
const randomQuestion = (pool: ExportPool, n: number): string =>
  `  ${element(
    'question',
    { type: 'random' },
    element('name', {}, textElement('text', `Random (${poolCategory(pool).join(CATEGORY_SEPARATOR)}) ${n}`)) +
      // A random question's text says whether it draws from subcategories too: never.
      element('questiontext', { format: 'html' }, textElement('text', '0')) +
      element('generalfeedback', { format: 'html' }, textElement('text', '')) +
      textElement('defaultgrade', '1') +
      textElement('penalty', '0') +
      textElement('hidden', '0') +
      textElement('idnumber', ''),
  )}\n`;

/**
 * Writes Moodle XML a few questions at a time (for a streamed export). With
 * pools, each pool's questions are written into the pool's category (see
 * poolCategory) and `end()` adds its random questions there.
 */
export class MoodleXmlFileWriter {
  private category = '';
  private readonly poolOf = new Map<string, ExportPool>();

  constructor(
    private readonly types: MoodleXmlTypes,
    private readonly pools: readonly ExportPool[] = [],
  ) {
    for (const pool of pools) for (const id of pool.question_ids) if (!this.poolOf.has(id)) this.poolOf.set(id, pool);
  }

  start(): string {
    return `${XML_DECLARATION}<quiz>\n`;
  }

  private enter(segments: readonly string[]): string {
    const key = segments.join(CATEGORY_SEPARATOR);
    if (key === this.category) return '';
    this.category = key;
    return moodleCategory(segments);
  }

  write(questions: readonly ExportQuestion[], media: ExportMedia): string {
    let out = '';
    for (const q of questions) {
      const pool = this.poolOf.get(q.id);
      out += this.enter(pool ? poolCategory(pool) : (q.category ?? []));
      out += moodleQuestion(this.types, q, media);
    }
    return out;
  }

  end(): string {
    let out = '';
    for (const pool of this.pools) {
      out += this.enter(poolCategory(pool));
      out += `  ${comment(`a pool: each attempt draws ${pool.draw} of this category's ${pool.question_ids.length} questions`)}\n`;
      for (let n = 1; n <= pool.draw; n += 1) out += randomQuestion(pool, n);
    }
    return `${out}</quiz>\n`;
  }
}

/** The questions (and a test's pools) as one Moodle XML text, each type written by its writer in `types`. */
export function writeMoodleXml(
  types: MoodleXmlTypes,
  questions: readonly ExportQuestion[],
  media: ExportMedia = new Map(),
  pools: readonly ExportPool[] = [],
): string {
  const writer = new MoodleXmlFileWriter(types, pools);
  return writer.start() + writer.write(questions, media) + writer.end();
}
