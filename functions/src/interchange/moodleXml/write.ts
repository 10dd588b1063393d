import { literalStars, moodleCategoryPath } from '../gift/write';
import { embeddedAnswerOf } from './cloze';
import { calculatedBody } from './calculated';
import { ddmarkerBody } from './ddmarker';
import {
  htmlFields,
  isHtml,
  mediaIdsIn,
  replaceMediaRefs,
  safeFileName,
  type ExportMedia,
  type ExportPool,
  type ExportQuestion,
} from '../exportModel';
import {
  CATEGORY_SEPARATOR,
  EXPORT_TAGS,
  exportedTitle,
  formatNumber,
  gradeChanges,
  htmlLine,
  matchingDistractors,
  moodleCredits,
  alternativeGrades,
  PASSAGE_NOT_CARRIED,
} from '../conventions';
import { comment, element, hasNotXml, htmlCharRefs, textElement, XML_DECLARATION } from '../xmlText';

// Pure: the bank's questions as Moodle XML (`<quiz>`), the format Moodle's own
// question export writes. A category question starts each run of questions of
// one folder; media referred to as /api/media/… travel inside the file as
// `<file encoding="base64">` beside the text that uses them, referred to as
// `@@PLUGINFILE@@/name`; credits are rounded to Moodle's grades (Moodle refuses
// any other), with a comment saying so; a test's pools become Moodle random
// questions in their category.

const MEDIA_PLACEHOLDER = '@@PLUGINFILE@@/';
/** An essay's attachments may be these, in Moodle's filetypeslist words. */
const ESSAY_FILE_TYPES = '.pdf,.png,.jpg,.jpeg';

const fraction = (credit: number) => formatNumber(credit);

/** The category Moodle draws a pool's random questions from: its folder, or a subcategory per difficulty (a random question cannot filter by it). */
export const poolCategory = (pool: Pick<ExportPool, 'category' | 'difficulty'>): string[] =>
  pool.difficulty ? [...pool.category, pool.difficulty] : pool.category;

/**
 * A question's files: each media id it refers to gets a name unique within the
 * question (Moodle keeps a question's files in one area per text).
 */
function fileNames(q: ExportQuestion, media: ExportMedia): Map<string, string> {
  const names = new Map<string, string>();
  if (!isHtml(q)) return names;
  const taken = new Set<string>();
  const ids = htmlFields(q).flatMap(mediaIdsIn);
  for (const id of ids) {
    const file = media.get(id);
    if (!file || names.has(id)) continue;
    const base = safeFileName(file.name);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = base.replace(/(\.[^.]*)?$/, `-${n}$1`);
    taken.add(name.toLowerCase());
    names.set(id, name);
  }
  return names;
}

/** A file name in a reference, as Moodle writes it (PHP's rawurlencode): a space or parenthesis cannot end it early. */
const rawUrlEncode = (name: string): string =>
  encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A text element with its format, its media rewritten to @@PLUGINFILE@@ and carried as <file> children. */
function formattedText(
  tag: string,
  q: ExportQuestion,
  text: string,
  files: Map<string, string>,
  media: ExportMedia,
  extra = '',
): string {
  if (!isHtml(q)) return element(tag, { format: 'plain_text' }, textElement('text', text) + extra);
  return element(tag, { format: 'html' }, htmlContent(text, files, media) + extra);
}

/** HTML's `<text>`, its media rewritten to @@PLUGINFILE@@ and carried as `<file>` elements after it. */
function htmlContent(text: string, files: Map<string, string>, media: ExportMedia): string {
  const used = mediaIdsIn(text).filter((id) => files.has(id));
  const rewritten = replaceMediaRefs(htmlCharRefs(text), (id) =>
    files.has(id) ? `${MEDIA_PLACEHOLDER}${rawUrlEncode(files.get(id)!)}` : undefined,
  );
  const fileElements = used
    .map((id) =>
      element(
        'file',
        { name: files.get(id)!, path: '/', encoding: 'base64' },
        Buffer.from(media.get(id)!.bytes).toString('base64'),
      ),
    )
    .join('');
  return textElement('text', rewritten) + fileElements;
}

/** An option's `<answer>`: HTML (with its files) in an html question, else plain text. */
function optionAnswer(
  q: ExportQuestion,
  attrs: Record<string, string>,
  text: string,
  files: Map<string, string>,
  media: ExportMedia,
  extra = '',
): string {
  return isHtml(q)
    ? element('answer', { ...attrs, format: 'html' }, htmlContent(text, files, media) + extra)
    : element('answer', { ...attrs, format: 'plain_text' }, textElement('text', text) + extra);
}

function answer(
  q: ExportQuestion,
  credit: number,
  text: string,
  feedback: string,
  files: Map<string, string>,
  media: ExportMedia,
  extra = '',
): string {
  if (q.question_type === 'multiple_choice' || q.question_type === 'multiple_select')
    return optionAnswer(
      q,
      { fraction: fraction(credit) },
      text,
      files,
      media,
      formattedText('feedback', q, feedback, files, media) + extra,
    );
  return element(
    'answer',
    { fraction: fraction(credit), format: 'plain_text' },
    textElement('text', text) + formattedText('feedback', q, feedback, files, media) + extra,
  );
}

interface Written {
  body: string;
  notes: string[];
  /** The question text as the type writes it (a cloze's gaps as embedded answers), when not as stored. */
  text?: string;
}

/** A question the format cannot hold: why, for the comment written in its place. */
interface Unwritable {
  cannot: string;
}

function typeBody(
  q: ExportQuestion,
  files: Map<string, string>,
  media: ExportMedia,
): (Written & { type: string }) | Unwritable {
  const feedbackOf = (i: number) => q.option_feedback?.[i] ?? '';
  const choiceExtras =
    textElement('shuffleanswers', 'true') +
    // The bank shows options unnumbered.
    textElement('answernumbering', 'none') +
    textElement('showstandardinstruction', '0');
  switch (q.question_type) {
    case 'multiple_choice':
      return {
        type: 'multichoice',
        body:
          textElement('single', 'true') +
          choiceExtras +
          q.options.map((o, i) => answer(q, o === q.correct_answer ? 100 : 0, o, feedbackOf(i), files, media)).join(''),
        notes: [],
      };
    case 'multiple_select': {
      const credits = moodleCredits(q);
      const notes =
        q.option_credits?.length === q.options.length
          ? [gradeChanges(q.option_credits, credits)]
              .filter(Boolean)
              .map((c) => `option credits rounded to Moodle's grades: ${c}`)
          : [
              'scored all or nothing here: written with an equal share of 100% per correct option and -100% per wrong one',
            ];
      return {
        type: 'multichoice',
        body:
          textElement('single', 'false') +
          choiceExtras +
          q.options.map((o, i) => answer(q, credits[i], o, feedbackOf(i), files, media)).join(''),
        notes,
      };
    }
    case 'true_false':
      return {
        type: 'truefalse',
        body:
          answer(q, q.correct_answer === 'True' ? 100 : 0, 'true', feedbackOf(0), files, media) +
          answer(q, q.correct_answer === 'False' ? 100 : 0, 'false', feedbackOf(1), files, media),
        notes: [],
      };
    case 'short_answer': {
      const alternatives = q.alternatives ?? [];
      const { grades, changed } = alternativeGrades(alternatives);
      return {
        type: 'shortanswer',
        body:
          textElement('usecase', q.case_sensitive ? '1' : '0') +
          answer(q, 100, literalStars(q.correct_answer), '', files, media) +
          alternatives.map((a, i) => answer(q, grades[i], literalStars(a.answer), '', files, media)).join(''),
        notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
      };
    }
    case 'numeric': {
      const alternatives = q.alternatives ?? [];
      const { grades, changed } = alternativeGrades(alternatives);
      const tolerance = (t: number | null | undefined) =>
        t === null || t === undefined ? '' : textElement('tolerance', formatNumber(t));
      return {
        type: 'numerical',
        body:
          answer(q, 100, q.correct_answer.trim(), '', files, media, tolerance(q.tolerance)) +
          alternatives
            .map((a, i) => answer(q, grades[i], a.answer.trim(), '', files, media, tolerance(a.tolerance)))
            .join('') +
          textElement('unitgradingtype', '0') +
          textElement('unitpenalty', '0') +
          textElement('showunits', '3') +
          textElement('unitsleft', '0'),
        notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
      };
    }
    case 'essay':
      return {
        type: 'essay',
        body:
          // As the bank takes an answer: plain text, which may be left empty (the box's height is Moodle's default).
          textElement('responseformat', 'plain') +
          textElement('responserequired', '0') +
          textElement('minwordlimit', '') +
          textElement('maxwordlimit', q.max_words ? String(q.max_words) : '') +
          textElement('attachments', String(q.attachments ?? 0)) +
          textElement('attachmentsrequired', String(q.attachments_required ?? 0)) +
          (q.attachments ? textElement('filetypeslist', ESSAY_FILE_TYPES) : '') +
          element('graderinfo', { format: 'html' }, textElement('text', '')) +
          element('responsetemplate', { format: 'html' }, textElement('text', '')),
        notes: [],
      };
    case 'matching':
      return { type: 'matching', ...matchingBody(q, files, media) };
    case 'ordering':
      return {
        type: 'ordering',
        body:
          textElement('layouttype', 'VERTICAL') +
          textElement('selecttype', 'ALL') +
          textElement('selectcount', '0') +
          textElement('gradingtype', q.ordering_score === 'partial' ? 'LONGEST_ORDERED_SUBSET' : 'ALL_OR_NOTHING') +
          textElement('showgrading', 'SHOW') +
          // The items in the right order: Moodle's fraction is the position.
          q.options.map((o, i) => optionAnswer(q, { fraction: String(i + 1) }, o, files, media)).join(''),
        notes: ["ordering is Moodle's qtype_ordering plugin, not core: a Moodle without it refuses this question"],
      };
    case 'gap_fill':
      return { type: 'cloze', ...clozeBody(q) };
    case 'hottext':
      return { cannot: 'a hottext question (phrases chosen in the text), which no Moodle core type holds' };
    case 'description':
      return { type: 'description', body: '', notes: [] };
    case 'calculated':
      return calculatedBody(q);
    case 'hotspot':
      return hotspotBody(q, media);
    default:
      return { cannot: `a question of type ${q.question_type}, which this export does not know` };
  }
}

/** A hotspot as ddmarker, its image the background file it carries; one whose image is no stored file cannot be. */
function hotspotBody(q: ExportQuestion, media: ExportMedia): (Written & { type: string }) | Unwritable {
  const [id] = mediaIdsIn(q.image?.src ?? '');
  const file = id === undefined ? undefined : media.get(id);
  if (!file)
    return { cannot: 'a hotspot question whose image is not a stored media file (ddmarker carries its background)' };
  const background = element(
    'file',
    { name: safeFileName(file.name), path: '/', encoding: 'base64' },
    Buffer.from(file.bytes).toString('base64'),
  );
  return { type: 'ddmarker', ...ddmarkerBody(q, background) };
}

/** The stems with their matches, then each option no stem matches as a subquestion without text (Moodle's distractor). */
function matchingBody(q: ExportQuestion, files: Map<string, string>, media: ExportMedia): Written {
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  const notes: string[] = [];
  // Moodle's stems take its text formats; its answers are plain text, so an HTML option is written as its text.
  const answerText = (answer: string): string => {
    if (!isHtml(q)) return answer;
    const line = htmlLine(answer);
    if (line.images.length > 0 || line.formatting.length > 0)
      notes.push(`the option "${line.text}" is written as its text: Moodle's match answers are plain text`);
    return line.text;
  };
  const subquestion = (stem: string, answer: string) =>
    formattedText('subquestion', q, stem, files, media, element('answer', {}, textElement('text', answerText(answer))));
  const { distractors, reordered } = matchingDistractors(q);
  if (reordered)
    notes.push(
      "the options' order is not carried: Moodle lists the subquestions' answers (matches first, then distractors)",
    );
  return {
    body:
      textElement('shuffleanswers', 'true') +
      stems.map((stem, i) => subquestion(stem, matches[i] ?? '')).join('') +
      distractors.map((d) => subquestion('', d)).join(''),
    notes,
  };
}

/** The text with each `[[n]]` written as gap n's embedded answer. */
function clozeBody(q: ExportQuestion): Written {
  const notes: string[] = [];
  const gaps = q.gaps ?? [];
  const order: number[] = [];
  const text = q.question_text.replace(/\[\[(\d+)\]\]/g, (whole, n: string) => {
    const gap = gaps[Number(n) - 1];
    if (!gap) return whole;
    order.push(Number(n));
    const written = embeddedAnswerOf(gap, Number(n), isHtml(q), q.drag_options ?? []);
    notes.push(...written.notes);
    return written.text;
  });
  if (order.some((n, i) => n !== i + 1)) notes.push('the gaps are numbered in the order of the text when read back');
  const weights = gaps.reduce((sum, g) => sum + Math.max(1, Math.round(g.weight ?? 1)), 0);
  if (weights !== q.marks)
    notes.push(
      `Moodle scores a cloze out of the sum of its gaps' weights (${weights}), not its defaultgrade (${formatNumber(q.marks)})`,
    );
  if (gaps.some((g) => g.kind === 'drag') && !q.drag_reusable)
    notes.push('each chip used once is not carried: a drop-down may repeat a choice');
  return { body: '', notes, text };
}

/** One `<question>` (with comments before it for what was rounded). */
export function moodleQuestion(q: ExportQuestion, media: ExportMedia): string {
  const files = fileNames(q, media);
  const written = typeBody(q, files, media);
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
  if (q.question_type === 'multiple_select' && q.option_credits?.length !== q.options.length)
    tagNames.push(EXPORT_TAGS.allOrNothing);
  if (q.question_type === 'calculated') tagNames.push(EXPORT_TAGS.drawnFromRange);
  if (q.question_type === 'hotspot') tagNames.push(EXPORT_TAGS.anyMarker);
  if (q.title && /<[a-zA-Z/!]/.test(q.title))
    notes.push("the title reads as HTML: Moodle's names are plain text, from which it strips tags");
  const tags = element('tags', {}, tagNames.map((t) => element('tag', {}, textElement('text', t))).join(''));
  return (
    notes.map((n) => `  ${comment(n)}\n`).join('') +
    `  ${element(
      'question',
      { type },
      element('name', {}, textElement('text', exportedTitle(q))) +
        formattedText('questiontext', q, written.text ?? q.question_text, files, media) +
        formattedText('generalfeedback', q, q.feedback ?? '', files, media) +
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
export class MoodleXmlWriter {
  private category = '';
  private readonly poolOf = new Map<string, ExportPool>();

  constructor(private readonly pools: readonly ExportPool[] = []) {
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
      out += moodleQuestion(q, media);
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

/** The questions (and a test's pools) as one Moodle XML text. */
export function toMoodleXml(
  questions: readonly ExportQuestion[],
  media: ExportMedia = new Map(),
  pools: readonly ExportPool[] = [],
): string {
  const writer = new MoodleXmlWriter(pools);
  return writer.start() + writer.write(questions, media) + writer.end();
}
