import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import {
  isHtml,
  mediaIdsIn,
  mediaOfQuestion,
  replaceMediaRefs,
  safeFileName,
  type ExportMedia,
  type ExportQuestion,
  type ExportTest,
  type WrittenType,
} from '../exportModel';
import type { AlternativeAnswer, GapDraft } from '../model';
import { ORDERING_SCORE_ATTRIBUTE } from './parts';
import { GAP_NUMBER_ATTRIBUTE } from './gaps';
import { AREA_LABEL_ATTRIBUTE } from './graphics';
import { CATEGORY_SEPARATOR, correctOptions, exportedTitle, formatNumber, htmlLine } from '../conventions';
import { comment, element, escapeText, hasNotXml, textElement, toXhtml, XML_DECLARATION } from '../xmlText';

// Pure (no Firebase): the bank's questions as a QTI 3.0 content package, a zip
// holding imsmanifest.xml, one qti-assessment-item per question
// (items/<id>.xml), their media beside them (items/media/<mediaId>/<name>,
// referred to relatively) and an assessment test: a test's own structure (its
// questions, then one section per pool with a qti-selection), or for a bank
// export one section per run of questions of one folder (sections carry
// categories; a question in no folder sits in an untitled section).
//
// Scores are in marks: SCORE is MAXSCORE (the marks) for a correct answer,
// partial credit is a qti-mapping of points (credit × marks / 100), numeric
// answers compare with qti-equal and their tolerance. Conventions a reader of
// our own packages relies on, beyond the standard: the text's format on the
// wrapper (`data-text-format`: plain text is not HTML), `data-untitled` on the
// question text's wrapper when the item's title was made from the text (the
// question has none), true/false choices identified TRUE and FALSE, an essay's
// word limit as `data-max-words` and its files as an upload's `data-attachments`, the difficulty in the manifest's LOM
// (educational/difficulty: easy, medium, difficult), a section titled "" for
// questions in no folder. The reader (qti/read.ts) reads them back.

export const QTI_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const QTI_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd';
export const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const CP_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
export const LOM_NS = 'http://ltsc.ieee.org/xsd/LOM';
const LOM_XSD = 'https://purl.imsglobal.org/spec/md/v1p3/schema/xsd/imsmd_loose_v1p3p2.xsd';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** The attribute on the text's wrapper saying whether it was plain text or HTML. */
export const TEXT_FORMAT_ATTRIBUTE = 'data-text-format';
export const MAX_WORDS_ATTRIBUTE = 'data-max-words';
/** On an essay's upload interaction: how many files it takes, and how many it requires. */
const ATTACHMENTS_ATTRIBUTE = 'data-attachments';
const ATTACHMENTS_REQUIRED_ATTRIBUTE = 'data-attachments-required';
/** On the question text's wrapper: the item's title is exportedTitle's, made from the text. */
export const UNTITLED_ATTRIBUTE = 'data-untitled';
export const TRUE_FALSE_IDS = ['TRUE', 'FALSE'] as const;
/** LOM's difficulty vocabulary for ours. */
export const LOM_DIFFICULTY = { easy: 'easy', medium: 'medium', hard: 'difficult' } as const;

/** An NCName-safe identifier for a question (items, resources and item refs share it). */
export const itemIdentifier = (questionId: string): string => `q-${questionId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
export const itemPath = (questionId: string): string => `items/${itemIdentifier(questionId)}.xml`;
/** A passage (a description questions name) as a stimulus beside the items, so its media are referred to alike. */
export const stimulusIdentifier = (questionId: string): string => `s-${questionId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
const stimulusFile = (questionId: string): string => `${stimulusIdentifier(questionId)}.xml`;
export const stimulusPath = (questionId: string): string => `items/${stimulusFile(questionId)}`;
/** A media file's path in the package; items refer to it relative to items/. */
export const mediaPath = (mediaId: string, name: string): string => `items/${mediaHref(mediaId, name)}`;
const mediaHref = (mediaId: string, name: string) => `media/${mediaId}/${safeFileName(name)}`;

const float = (n: number) => element('qti-base-value', { 'base-type': 'float' }, formatNumber(n));
const setScore = (value: string) => element('qti-set-outcome-value', { identifier: 'SCORE' }, value);
const variable = (id: string) => element('qti-variable', { identifier: id });
const points = (q: ExportQuestion, credit: number) => (credit * q.marks) / 100;

/** The text's wrapper: plain text escaped (line ends kept), HTML as XHTML with media made relative. */
function textBlock(
  q: ExportQuestion,
  text: string,
  media: ExportMedia,
  notes: string[],
  tag = 'div',
  extra: Record<string, string> = {},
  /** Writes the text's markers (`[[1]]`, `[[phrase]]`) as the interactions they stand for, in the written XML. */
  fill: (xml: string) => string = (xml) => xml,
): string {
  if (hasNotXml(text)) notes.push('control characters XML cannot hold were written as U+FFFD');
  if (!isHtml(q)) return element(tag, { [TEXT_FORMAT_ATTRIBUTE]: 'plain', ...extra }, fill(escapeText(text)));
  return element(tag, { [TEXT_FORMAT_ATTRIBUTE]: 'html', ...extra }, fill(xhtmlOf(text, media, notes)));
}

/** HTML as XHTML with its media made relative (as text, with a note, when it cannot be). */
function xhtmlOf(html: string, media: ExportMedia, notes: string[]): string {
  const relative = replaceMediaRefs(html, (id) => {
    const file = media.get(id);
    return file ? mediaHref(id, file.name) : undefined;
  });
  const { xhtml, ok } = toXhtml(relative);
  if (!ok) notes.push('the HTML could not be written as XHTML: it is carried as text');
  return xhtml;
}

/** A choice's content: an html question's option as XHTML (an image stays an image), else its text. */
const choiceContent = (q: ExportQuestion, option: string, media: ExportMedia, notes: string[]): string =>
  isHtml(q) ? xhtmlOf(option, media, notes) : escapeText(option);

/** An inline choice's or a gap text's content, which QTI makes text only: an html option's text. */
function inlineChoiceText(q: ExportQuestion, option: string, notes: string[]): string {
  if (!isHtml(q)) return escapeText(option);
  const line = htmlLine(option);
  if (line.images.length > 0 || line.formatting.length > 0)
    notes.push(`the choice "${line.text}" is written as its text: QTI's inline choices and gap texts hold text only`);
  return escapeText(line.text);
}

interface ItemParts {
  declarations: string;
  interaction: string;
  processing: string;
  /** The interaction holds the question's text (hot texts, gaps): the body is the interaction alone. */
  holdsText?: boolean;
}

/** What writes an item's parts: the question, its media, the notes, and the question text's wrapper attributes. */
type PartsWriter = (
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
) => ItemParts;

function choiceItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const trueFalse = q.question_type === 'true_false';
  const multiple = q.question_type === 'multiple_select';
  const ids = trueFalse ? [...TRUE_FALSE_IDS] : q.options.map((_, i) => `C${i + 1}`);
  const correct = multiple ? correctOptions(q) : new Set([q.correct_answer]);
  const correctIds = q.options.map((o, i) => (correct.has(o) ? ids[i] : null)).filter((id): id is string => !!id);
  const cardinality = multiple ? 'multiple' : 'single';
  const credits = multiple && q.option_credits?.length === q.options.length ? q.option_credits : null;
  const mapping = credits
    ? element(
        'qti-mapping',
        { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
        credits
          .map((c, i) => element('qti-map-entry', { 'map-key': ids[i], 'mapped-value': formatNumber(points(q, c)) }))
          .join(''),
      )
    : '';
  const feedback = q.option_feedback ?? [];
  const hasFeedback = feedback.some(Boolean);
  const choices = q.options
    .map((o, i) =>
      element(
        'qti-simple-choice',
        { identifier: ids[i] },
        choiceContent(q, o, media, notes) +
          (feedback[i]
            ? element(
                'qti-feedback-inline',
                { 'outcome-identifier': 'FEEDBACK', identifier: ids[i], 'show-hide': 'show' },
                textBlock(q, feedback[i], media, notes, 'span'),
              )
            : ''),
      ),
    )
    .join('');
  return {
    declarations:
      element(
        'qti-response-declaration',
        { identifier: 'RESPONSE', cardinality, 'base-type': 'identifier' },
        element('qti-correct-response', {}, correctIds.map((id) => textElement('qti-value', id)).join('')) + mapping,
      ) +
      (hasFeedback
        ? element('qti-outcome-declaration', { identifier: 'FEEDBACK', cardinality, 'base-type': 'identifier' })
        : ''),
    interaction: element(
      'qti-choice-interaction',
      { 'response-identifier': 'RESPONSE', shuffle: 'false', 'max-choices': multiple ? '0' : '1' },
      choices,
    ),
    processing:
      (credits ? mappedScore() : matchScore()) +
      (hasFeedback ? element('qti-set-outcome-value', { identifier: 'FEEDBACK' }, variable('RESPONSE')) : ''),
  };
}

/** SCORE: the marks when the response is the correct one, else 0. */
const matchScore = () =>
  element(
    'qti-response-condition',
    {},
    element(
      'qti-response-if',
      {},
      element('qti-match', {}, variable('RESPONSE') + element('qti-correct', { identifier: 'RESPONSE' })) +
        setScore(variable('MAXSCORE')),
    ) + element('qti-response-else', {}, setScore(float(0))),
  );

/** SCORE: the mapping's points (bounded by it), 0 without a response. */
const mappedScore = () =>
  element(
    'qti-response-condition',
    {},
    element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
      element('qti-response-else', {}, setScore(element('qti-map-response', { identifier: 'RESPONSE' }))),
  );

function textEntryItem(q: ExportQuestion): ItemParts {
  const caseSensitive = q.case_sensitive ? 'true' : 'false';
  const entries = [{ answer: q.correct_answer, credit: 100 }, ...(q.alternatives ?? [])]
    .map((a) =>
      element('qti-map-entry', {
        'map-key': a.answer,
        'mapped-value': formatNumber(points(q, a.credit)),
        'case-sensitive': caseSensitive,
      }),
    )
    .join('');
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' },
      element('qti-correct-response', {}, textElement('qti-value', q.correct_answer)) +
        element(
          'qti-mapping',
          { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
          entries,
        ),
    ),
    interaction: element('p', {}, element('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    processing: mappedScore(),
  };
}

function numericItem(q: ExportQuestion): ItemParts {
  const equal = (answer: string, tolerance: number | null | undefined) =>
    element(
      'qti-equal',
      tolerance === null || tolerance === undefined
        ? { 'tolerance-mode': 'exact' }
        : { 'tolerance-mode': 'absolute', tolerance: `${formatNumber(tolerance)} ${formatNumber(tolerance)}` },
      variable('RESPONSE') + element('qti-base-value', { 'base-type': 'float' }, escapeText(answer.trim())),
    );
  const branches = [
    element('qti-response-else-if', {}, equal(q.correct_answer, q.tolerance) + setScore(variable('MAXSCORE'))),
    ...(q.alternatives ?? []).map((a) =>
      element('qti-response-else-if', {}, equal(a.answer, a.tolerance) + setScore(float(points(q, a.credit)))),
    ),
  ];
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'float' },
      element('qti-correct-response', {}, textElement('qti-value', q.correct_answer.trim())),
    ),
    interaction: element('p', {}, element('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    processing: element(
      'qti-response-condition',
      {},
      element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
        branches.join('') +
        element('qti-response-else', {}, setScore(float(0))),
    ),
  };
}

/** An essay: an extended text, and when it takes files an upload beside it (its count of files ours). */
const essayItem = (q: ExportQuestion): ItemParts => ({
  declarations:
    element('qti-response-declaration', { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' }) +
    (q.attachments
      ? element('qti-response-declaration', { identifier: 'FILE', cardinality: 'single', 'base-type': 'file' })
      : ''),
  interaction:
    element('qti-extended-text-interaction', {
      'response-identifier': 'RESPONSE',
      [MAX_WORDS_ATTRIBUTE]: q.max_words ?? undefined,
    }) +
    (q.attachments
      ? element('qti-upload-interaction', {
          'response-identifier': 'FILE',
          [ATTACHMENTS_ATTRIBUTE]: q.attachments,
          [ATTACHMENTS_REQUIRED_ATTRIBUTE]: q.attachments_required || undefined,
        })
      : ''),
  processing: '',
});

/** A qti-mapping of these keys to points, its total bounded by 0 and the marks. */
const mappingElement = (q: ExportQuestion, entries: Array<[string, number]>, caseSensitive?: boolean) =>
  element(
    'qti-mapping',
    { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
    entries
      .map(([key, value]) =>
        element('qti-map-entry', {
          'map-key': key,
          'mapped-value': formatNumber(value),
          'case-sensitive': caseSensitive === undefined ? undefined : String(caseSensitive),
        }),
      )
      .join(''),
  );

const correctResponse = (values: string[]) =>
  element('qti-correct-response', {}, values.map((v) => textElement('qti-value', v)).join(''));

/** Matching: stems S1… against options O1…; each right pair earns its stem's share of the marks (map_response). */
function matchingItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  const pairs = stems.map((_, i) => `S${i + 1} O${q.options.indexOf(matches[i]) + 1}`);
  const share = stems.length > 0 ? q.marks / stems.length : 0;
  const choice = (prefix: string, matchMax: number) => (text: string, i: number) =>
    element(
      'qti-simple-associable-choice',
      { identifier: `${prefix}${i + 1}`, 'match-max': String(matchMax) },
      choiceContent(q, text, media, notes),
    );
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'directedPair' },
      correctResponse(pairs) +
        mappingElement(
          q,
          pairs.map((p) => [p, share]),
        ),
    ),
    interaction: element(
      'qti-match-interaction',
      { 'response-identifier': 'RESPONSE', shuffle: 'false', 'max-associations': String(stems.length) },
      element('qti-simple-match-set', {}, stems.map(choice('S', 1)).join('')) +
        element('qti-simple-match-set', {}, q.options.map(choice('O', stems.length)).join('')),
    ),
    processing: mappedScore(),
  };
}

/** Ordering: the items in the right order as the correct response (shown shuffled); the whole order earns the marks. */
function orderingItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const ids = q.options.map((_, i) => `C${i + 1}`);
  const partial = q.ordering_score === 'partial';
  if (partial)
    notes.push(
      `QTI's templates score a whole order: partial credit (the longest ordered subset) is carried as ${ORDERING_SCORE_ATTRIBUTE}`,
    );
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'ordered', 'base-type': 'identifier' },
      correctResponse(ids),
    ),
    interaction: element(
      'qti-order-interaction',
      {
        'response-identifier': 'RESPONSE',
        shuffle: 'true',
        [ORDERING_SCORE_ATTRIBUTE]: partial ? 'partial' : undefined,
      },
      q.options
        .map((o, i) => element('qti-simple-choice', { identifier: ids[i] }, choiceContent(q, o, media, notes)))
        .join(''),
    ),
    processing: matchScore(),
  };
}

/** A marked phrase `[[phrase]]` of a hottext text (escaped or not alike: the brackets are not). */
const PHRASE_MARK = /\[\[(.+?)\]\]/g;

/** Hot texts: each `[[phrase]]` a qti-hottext; a right phrase earns marks ÷ right phrases, a wrong one costs as much, 0 at least. */
function hottextItem(
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
): ItemParts {
  const phrases = [...q.question_text.matchAll(PHRASE_MARK)].map((m) => m[1]);
  const right = correctOptions(q);
  const ids = phrases.map((_, i) => `H${i + 1}`);
  const rightIds = ids.filter((_, i) => right.has(phrases[i]));
  const share = rightIds.length > 0 ? q.marks / rightIds.length : 0;
  let at = 0;
  const fill = (xml: string) =>
    xml.replace(PHRASE_MARK, (_, phrase: string) => element('qti-hottext', { identifier: ids[at++] }, phrase));
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: q.max_choices === 1 ? 'single' : 'multiple', 'base-type': 'identifier' },
      correctResponse(rightIds) +
        mappingElement(
          q,
          ids.map((id) => [id, rightIds.includes(id) ? share : -share]),
        ),
    ),
    interaction: element(
      'qti-hottext-interaction',
      { 'response-identifier': 'RESPONSE', 'max-choices': String(q.max_choices ?? 0) },
      textBlock(q, q.question_text, media, notes, 'div', wrapper, fill),
    ),
    processing: mappedScore(),
    holdsText: true,
  };
}

/** A gap's points: its weight's share of the marks, times an answer's credit. */
function gapPoints(q: ExportQuestion): (gap: GapDraft, credit: number) => number {
  const total = (q.gaps ?? []).reduce((sum, g) => sum + (g.weight ?? 1), 0);
  return (gap, credit) => (total > 0 ? (q.marks * (gap.weight ?? 1) * credit) / total / 100 : 0);
}

const gapResponse = (n: number) => `RESPONSE_${n}`;
const DRAG_RESPONSE = 'RESPONSE';

/** SCORE plus a response's mapped points, when it was answered. */
const addMapped = (response: string) =>
  element(
    'qti-response-condition',
    {},
    element(
      'qti-response-if',
      {},
      element('qti-not', {}, element('qti-is-null', {}, variable(response))) +
        setScore(element('qti-sum', {}, variable('SCORE') + element('qti-map-response', { identifier: response }))),
    ),
  );

/** SCORE plus a numeric gap's points for the first of its answers (best first) the response equals within tolerance. */
function addNumeric(response: string, answers: AlternativeAnswer[], points: (credit: number) => number): string {
  const branches = [...answers]
    .sort((a, b) => b.credit - a.credit)
    .map((a, i) =>
      element(
        i === 0 ? 'qti-response-if' : 'qti-response-else-if',
        {},
        element(
          'qti-equal',
          a.tolerance
            ? { 'tolerance-mode': 'absolute', tolerance: `${formatNumber(a.tolerance)} ${formatNumber(a.tolerance)}` }
            : { 'tolerance-mode': 'exact' },
          variable(response) + element('qti-base-value', { 'base-type': 'float' }, escapeText(a.answer.trim())),
        ) + setScore(element('qti-sum', {}, variable('SCORE') + float(points(a.credit)))),
      ),
    );
  return element('qti-response-condition', {}, branches.join(''));
}

/** One typed or drop-down gap: its declaration, its interaction, its scoring. */
function gapParts(q: ExportQuestion, gap: GapDraft, n: number, notes: string[]): ItemParts {
  const response = gapResponse(n);
  const points = (credit: number) => gapPoints(q)(gap, credit);
  const first = gap.answers.find((a) => a.credit === 100) ?? gap.answers[0];
  if (gap.kind === 'numeric')
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: response, cardinality: 'single', 'base-type': 'float' },
        correctResponse([first.answer.trim()]),
      ),
      interaction: element('qti-text-entry-interaction', {
        'response-identifier': response,
        [GAP_NUMBER_ATTRIBUTE]: String(n),
      }),
      processing: addNumeric(response, gap.answers, points),
    };
  if (gap.kind === 'select') {
    const options = gap.options ?? [];
    const id = (text: string) => `G${n}_C${options.indexOf(text) + 1}`;
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: response, cardinality: 'single', 'base-type': 'identifier' },
        correctResponse([id(first.answer)]) +
          mappingElement(
            q,
            gap.answers.map((a) => [id(a.answer), points(a.credit)]),
          ),
      ),
      interaction: element(
        'qti-inline-choice-interaction',
        { 'response-identifier': response, shuffle: 'false', [GAP_NUMBER_ATTRIBUTE]: String(n) },
        options.map((o) => element('qti-inline-choice', { identifier: id(o) }, inlineChoiceText(q, o, notes))).join(''),
      ),
      processing: addMapped(response),
    };
  }
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: response, cardinality: 'single', 'base-type': 'string' },
      correctResponse([first.answer]) +
        mappingElement(
          q,
          gap.answers.map((a) => [a.answer, points(a.credit)]),
          gap.case_sensitive === true,
        ),
    ),
    interaction: element('qti-text-entry-interaction', {
      'response-identifier': response,
      [GAP_NUMBER_ATTRIBUTE]: String(n),
    }),
    processing: addMapped(response),
  };
}

/** The drag gaps as one gap match: chips T1…, gaps G1… by their number; a chip in a gap earns that answer's points. */
function dragParts(q: ExportQuestion, notes: string[]): Omit<ItemParts, 'interaction'> & { chips: string } {
  const chips = q.drag_options ?? [];
  const points = gapPoints(q);
  const pairs = (q.gaps ?? []).flatMap((gap, i) =>
    gap.kind === 'drag'
      ? gap.answers.map((a): [string, number] => [`T${chips.indexOf(a.answer) + 1} G${i + 1}`, points(gap, a.credit)])
      : [],
  );
  const correct = (q.gaps ?? []).flatMap((gap, i) => {
    const first = gap.answers.find((a) => a.credit === 100) ?? gap.answers[0];
    return gap.kind === 'drag' && first ? [`T${chips.indexOf(first.answer) + 1} G${i + 1}`] : [];
  });
  const matchMax = q.drag_reusable ? '0' : '1';
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: DRAG_RESPONSE, cardinality: 'multiple', 'base-type': 'directedPair' },
      correctResponse(correct) + mappingElement(q, pairs),
    ),
    processing: addMapped(DRAG_RESPONSE),
    chips: chips
      .map((c, i) =>
        element('qti-gap-text', { identifier: `T${i + 1}`, 'match-max': matchMax }, inlineChoiceText(q, c, notes)),
      )
      .join(''),
  };
}

/** A gap number `[[n]]` in the text. */
const GAP_MARK = /\[\[(\d+)\]\]/g;

/**
 * Gap fill: each `[[n]]` of the text its interaction (a text entry, an inline
 * choice, a gap of one gap match holding the text when any gap is a drag),
 * SCORE the sum of each gap's points (its weight's share of the marks × the
 * answer's credit).
 */
function gapFillItem(
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
): ItemParts {
  const gaps = q.gaps ?? [];
  const typed = gaps.map((gap, i) => (gap.kind === 'drag' ? undefined : gapParts(q, gap, i + 1, notes)));
  const hasDrag = gaps.some((g) => g.kind === 'drag');
  const drag = hasDrag ? dragParts(q, notes) : undefined;
  if (hasDrag && typed.some(Boolean))
    notes.push(
      'text entries and drop-downs stand inside the gap match with its gaps, which the QTI schema does not allow',
    );
  const fill = (xml: string) =>
    xml.replace(GAP_MARK, (whole, n: string) => {
      const gap = gaps[Number(n) - 1];
      if (!gap) return whole;
      return gap.kind === 'drag'
        ? element('qti-gap', { identifier: `G${n}`, [GAP_NUMBER_ATTRIBUTE]: n })
        : typed[Number(n) - 1]!.interaction;
    });
  const text = textBlock(q, q.question_text, media, notes, 'div', wrapper, fill);
  const parts = typed.filter((p): p is ItemParts => p !== undefined);
  return {
    declarations: parts.map((p) => p.declarations).join('') + (drag?.declarations ?? ''),
    interaction: drag
      ? element(
          'qti-gap-match-interaction',
          { 'response-identifier': DRAG_RESPONSE, shuffle: 'false' },
          drag.chips + text,
        )
      : text,
    processing: setScore(float(0)) + parts.map((p) => p.processing).join('') + (drag?.processing ?? ''),
    holdsText: true,
  };
}

/** A hotspot's image as the interaction shows it: a package file referred to relatively, else its URL. */
function hotspotImage(q: ExportQuestion, media: ExportMedia, notes: string[]): string {
  const image = q.image!;
  const [id] = mediaIdsIn(image.src);
  const file = id === undefined ? undefined : media.get(id);
  if (id !== undefined && !file) notes.push(`media not found, left as a link: ${id}`);
  return element('img', {
    src: file ? mediaHref(id!, file.name) : image.src,
    alt: image.alt ?? '',
    width: String(image.width),
    height: String(image.height),
  });
}

/** An area's QTI shape and coordinates (ours are QTI's own: circle, rect, poly). */
const shapeOf = (area: NonNullable<ExportQuestion['areas']>[number]) => ({
  shape: area.shape,
  coords: area.coords.map(formatNumber).join(','),
});

/**
 * A hotspot: choosing areas is a hotspot interaction, each right area earning its share and each
 * wrong one as much less (bounded at 0, the bank's score); placing points is a select point
 * interaction scored by its area mapping (each correct area once, map_response_point), its other
 * areas mapped to 0 so that they come back.
 */
function hotspotItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const areas = q.areas ?? [];
  const ids = areas.map((_, i) => `A${i + 1}`);
  const correct = ids.filter((_, i) => areas[i].correct);
  const share = correct.length > 0 ? q.marks / correct.length : 0;
  const image = hotspotImage(q, media, notes);
  if (q.select === 'points') {
    const mapping = element(
      'qti-area-mapping',
      { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
      areas
        .map((a) =>
          element('qti-area-map-entry', {
            ...shapeOf(a),
            'mapped-value': formatNumber(a.correct ? share : 0),
            [AREA_LABEL_ATTRIBUTE]: a.label || undefined,
          }),
        )
        .join(''),
    );
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'point' },
        mapping,
      ),
      interaction: element(
        'qti-select-point-interaction',
        { 'response-identifier': 'RESPONSE', 'max-choices': String(q.max_points ?? correct.length) },
        image,
      ),
      processing: element(
        'qti-response-condition',
        {},
        element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
          element('qti-response-else', {}, setScore(element('qti-map-response-point', { identifier: 'RESPONSE' }))),
      ),
    };
  }
  const choices = areas
    .map((a, i) =>
      element('qti-hotspot-choice', { identifier: ids[i], ...shapeOf(a), 'hotspot-label': a.label || undefined }),
    )
    .join('');
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'identifier' },
      correctResponse(correct) +
        mappingElement(
          q,
          ids.map((id) => [id, correct.includes(id) ? share : -share]),
        ),
    ),
    interaction: element(
      'qti-hotspot-interaction',
      { 'response-identifier': 'RESPONSE', 'max-choices': '0' },
      image + choices,
    ),
    processing: mappedScore(),
  };
}

/**
 * The types QTI gets no item for, and why (said in a comment of the test): an item read back as
 * something else (a description) would be worse than none. A calculated question's values are drawn
 * per attempt, which QTI says only in a template item (templateDeclaration, templateProcessing, the
 * formula an expression tree of QTI operators), which this export does not write and few players run.
 */
const NOT_WRITTEN = {
  calculated: 'a calculated question, whose values drawn per attempt QTI says only in a template item',
} as const;

const notWritten = (q: ExportQuestion): string | undefined =>
  (NOT_WRITTEN as Partial<Record<WrittenType, string>>)[q.question_type];

/** Each type's writer of its declarations, interaction and response processing. */
const ITEM_WRITERS: Record<Exclude<WrittenType, keyof typeof NOT_WRITTEN>, PartsWriter> = {
  multiple_choice: choiceItem,
  multiple_select: choiceItem,
  true_false: choiceItem,
  short_answer: textEntryItem,
  numeric: numericItem,
  essay: essayItem,
  matching: matchingItem,
  ordering: orderingItem,
  gap_fill: gapFillItem,
  hottext: hottextItem,
  // Text and media only: an item with no interaction.
  description: () => ({ declarations: '', interaction: '', processing: '' }),
  hotspot: hotspotItem,
};

/** One question (of a type QTI holds: not NOT_WRITTEN's) as a qti-assessment-item document. */
function qtiItem(q: ExportQuestion & { question_type: keyof typeof ITEM_WRITERS }, media: ExportMedia): string {
  const notes: string[] = [];
  const untitled: Record<string, string> = q.title ? {} : { [UNTITLED_ATTRIBUTE]: 'true' };
  const parts = ITEM_WRITERS[q.question_type](q, media, notes, untitled);
  const essay = q.question_type === 'essay';
  const general = q.feedback
    ? element(
        'qti-modal-feedback',
        { 'outcome-identifier': 'FEEDBACK_GENERAL', identifier: 'GENERAL', 'show-hide': 'show' },
        element('qti-content-body', {}, textBlock(q, q.feedback, media, notes)),
      )
    : '';
  const passage = q.passage_id
    ? element('qti-assessment-stimulus-ref', {
        identifier: stimulusIdentifier(q.passage_id),
        href: stimulusFile(q.passage_id),
        title: 'Passage',
      })
    : '';
  const body = element(
    'qti-item-body',
    {},
    parts.holdsText
      ? parts.interaction
      : textBlock(q, q.question_text, media, notes, 'div', untitled) + parts.interaction,
  );
  const declarations =
    parts.declarations +
    element(
      'qti-outcome-declaration',
      {
        identifier: 'SCORE',
        cardinality: 'single',
        'base-type': 'float',
        'normal-maximum': formatNumber(q.marks),
        'external-scored': essay ? 'human' : undefined,
      },
      element('qti-default-value', {}, textElement('qti-value', '0')),
    ) +
    element(
      'qti-outcome-declaration',
      { identifier: 'MAXSCORE', cardinality: 'single', 'base-type': 'float' },
      element('qti-default-value', {}, textElement('qti-value', formatNumber(q.marks))),
    ) +
    (general
      ? element('qti-outcome-declaration', {
          identifier: 'FEEDBACK_GENERAL',
          cardinality: 'single',
          'base-type': 'identifier',
        })
      : '');
  const processing =
    parts.processing +
    (general
      ? element(
          'qti-set-outcome-value',
          { identifier: 'FEEDBACK_GENERAL' },
          element('qti-base-value', { 'base-type': 'identifier' }, 'GENERAL'),
        )
      : '');
  return (
    XML_DECLARATION +
    [...new Set(notes)].map((n) => `${comment(n)}\n`).join('') +
    element(
      'qti-assessment-item',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier: itemIdentifier(q.id),
        title: exportedTitle(q),
        adaptive: 'false',
        'time-dependent': 'false',
      },
      declarations + passage + body + (processing ? element('qti-response-processing', {}, processing) : '') + general,
    ) +
    '\n'
  );
}

/** A passage (a description its items name) as a qti-assessment-stimulus document. */
export function qtiStimulus(q: ExportQuestion, media: ExportMedia): string {
  const notes: string[] = [];
  const untitled: Record<string, string> = q.title ? {} : { [UNTITLED_ATTRIBUTE]: 'true' };
  const body = element('qti-stimulus-body', {}, textBlock(q, q.question_text, media, notes, 'div', untitled));
  return (
    XML_DECLARATION +
    [...new Set(notes)].map((n) => `${comment(n)}\n`).join('') +
    element(
      'qti-assessment-stimulus',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier: stimulusIdentifier(q.id),
        title: exportedTitle(q),
      },
      body,
    ) +
    '\n'
  );
}

/** The media a question's item refers to that the package carries. */
function itemMedia(q: ExportQuestion, media: ExportMedia): Array<{ id: string; path: string; bytes: Uint8Array }> {
  return mediaOfQuestion(q).flatMap((id) => {
    const file = media.get(id);
    return file ? [{ id, path: mediaPath(id, file.name), bytes: file.bytes }] : [];
  });
}

interface Section {
  title: string;
  ids: string[];
  select?: number;
}

const itemRef = (id: string) =>
  element('qti-assessment-item-ref', { identifier: itemIdentifier(id), href: itemPath(id) });

function assessmentTest(identifier: string, title: string, sections: Section[], shuffle: boolean): string {
  const body = sections
    .map((s, i) =>
      element(
        'qti-assessment-section',
        { identifier: `section-${i + 1}`, title: s.title, visible: s.title ? 'true' : 'false' },
        (s.select !== undefined ? element('qti-selection', { select: String(s.select) }) : '') +
          (shuffle ? element('qti-ordering', { shuffle: 'true' }) : '') +
          s.ids.map(itemRef).join(''),
      ),
    )
    .join('');
  return (
    XML_DECLARATION +
    element(
      'qti-assessment-test',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${QTI_NS} ${QTI_XSD}`,
        identifier,
        title,
      },
      element(
        'qti-outcome-declaration',
        { identifier: 'SCORE', cardinality: 'single', 'base-type': 'float' },
        element('qti-default-value', {}, textElement('qti-value', '0')),
      ) +
        element(
          'qti-test-part',
          { identifier: 'part-1', 'navigation-mode': 'nonlinear', 'submission-mode': 'simultaneous' },
          body,
        ) +
        element(
          'qti-outcome-processing',
          {},
          element(
            'qti-set-outcome-value',
            { identifier: 'SCORE' },
            element('qti-sum', {}, element('qti-test-variables', { 'variable-identifier': 'SCORE' })),
          ),
        ),
    ) +
    '\n'
  );
}

export const TEST_PATH = 'test.xml';
const TEST_RESOURCE = 'test';

/** How many zip entries may wait for the output before add() waits: bounds what the writer holds. */
const MAX_QUEUED = 8;

/**
 * Writes a QTI 3.0 package question by question (for a streamed export): each
 * add() waits while the zip holds more than a few entries its reader has not
 * taken, so memory stays bounded by a few questions and their media however
 * many are written. finish() adds the test and the manifest.
 */
export class QtiPackageWriter {
  private readonly zip = new ZipFile();
  readonly output: NodeJS.ReadableStream;
  private readonly resources: string[] = [];
  /** Each question written, in order, with its category's name ('' for none). */
  private readonly categoryOf = new Map<string, string>();
  /** mediaId → the name its file was written under. */
  private readonly mediaNames = new Map<string, string>();
  /** What was left out and why: comments of the test. */
  private readonly notWritten: string[] = [];
  /** The passages the questions written name. */
  private readonly named = new Set<string>();
  /** Descriptions, written at finish(), with the media their documents refer to. */
  private readonly held = new Map<string, { q: ExportQuestion; media: ExportMedia }>();
  private queued = 0;
  private waiting: Array<() => void> = [];

  constructor() {
    const out = new PassThrough();
    this.zip.outputStream.pipe(out);
    this.output = out;
  }

  private addEntry(bytes: Uint8Array | string, path: string, compress: boolean): void {
    this.queued += 1;
    let buffer: Buffer | undefined = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
    this.zip.addReadStreamLazy(path, { compress, size: buffer.length, mtime: EPOCH }, (cb) => {
      // The zip starts this entry: every entry before it has been written to the output.
      this.queued -= 1;
      const ready = this.waiting;
      this.waiting = [];
      ready.forEach((resolve) => resolve());
      // yazl keeps this function with its entry until the zip ends: let go of the bytes, or the package is held whole.
      const data = buffer!;
      buffer = undefined;
      cb(null, Readable.from([data]));
    });
  }

  /**
   * Adds the questions' items and media; resolves once the zip has room for more. A description's
   * document waits for finish(): it is a stimulus if a question names it as its passage, else an item.
   */
  async add(questions: readonly ExportQuestion[], media: ExportMedia): Promise<void> {
    for (const q of questions) {
      if (this.categoryOf.has(q.id)) continue;
      const cannot = notWritten(q);
      if (cannot) {
        this.notWritten.push(`not exported: "${exportedTitle(q)}" is ${cannot}`);
        continue;
      }
      media = this.writeMedia(q, media);
      if (q.passage_id) this.named.add(q.passage_id);
      if (q.question_type === 'description') this.held.set(q.id, { q, media });
      else {
        const files = itemMedia(q, media);
        this.addEntry(qtiItem(q as Parameters<typeof qtiItem>[0], media), itemPath(q.id), true);
        this.resources.push(resourceXml(q, files));
      }
      this.categoryOf.set(q.id, (q.category ?? []).join(CATEGORY_SEPARATOR));
      while (this.queued > MAX_QUEUED) await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The passages questions named that add() was not given (the export reads them and gives them to addPassages). */
  missingPassages(): string[] {
    return [...this.named].filter((id) => !this.held.has(id));
  }

  /** Passages the questions name that are not themselves exported: written as stimuli only. */
  addPassages(passages: readonly ExportQuestion[], media: ExportMedia): void {
    for (const q of passages) if (!this.held.has(q.id)) this.held.set(q.id, { q, media: this.writeMedia(q, media) });
  }

  /** The question's media files not yet in the package, written; the media map its document refers to them by. */
  private writeMedia(q: ExportQuestion, given: ExportMedia): ExportMedia {
    // Media already in the package are referred to by the name they were written under.
    const known = new Map(given);
    for (const id of mediaOfQuestion(q)) {
      const name = this.mediaNames.get(id);
      if (name !== undefined && !known.has(id)) known.set(id, { name, content_type: '', bytes: new Uint8Array() });
    }
    // A file several questions share is in the package once.
    for (const file of itemMedia(q, known))
      if (!this.mediaNames.has(file.id)) {
        this.mediaNames.set(file.id, known.get(file.id)!.name);
        this.addEntry(file.bytes, file.path, false);
      }
    return known;
  }

  /** The descriptions held back: each a stimulus if a question names it, else an item like any question. */
  private writeHeld(): void {
    for (const { q, media } of this.held.values()) {
      const files = itemMedia(q, media);
      if (this.named.has(q.id)) {
        this.addEntry(qtiStimulus(q, media), stimulusPath(q.id), true);
        this.resources.push(stimulusResourceXml(q, files));
        // A passage is shown beside its questions, not asked on its own.
        this.categoryOf.delete(q.id);
      } else {
        // A description, which has a writer.
        this.addEntry(qtiItem(q as Parameters<typeof qtiItem>[0], media), itemPath(q.id), true);
        this.resources.push(resourceXml(q, files));
      }
    }
  }

  /** Sections for questions in this order: one per run of questions of one category. */
  private categoryRuns(ids: readonly string[]): Section[] {
    const sections: Section[] = [];
    for (const id of ids) {
      const title = this.categoryOf.get(id);
      if (title === undefined) continue;
      const last = sections[sections.length - 1];
      if (last && last.title === title && last.select === undefined) last.ids.push(id);
      else sections.push({ title, ids: [id] });
    }
    return sections;
  }

  /**
   * The assessment test and the manifest; ends the zip. A test's: its questions by category in its
   * order, then a section per pool with its draw as qti-selection. A bank export's: every question by category.
   */
  finish(test?: ExportTest): void {
    this.writeHeld();
    const testXml = test
      ? assessmentTest(
          `test-${test.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`,
          test.title,
          [
            ...this.categoryRuns(test.question_ids),
            ...test.pools.map((p) => ({
              title: p.category.join(CATEGORY_SEPARATOR),
              ids: p.question_ids.filter((id) => this.categoryOf.has(id)),
              select: p.draw,
            })),
          ].filter((s) => s.ids.length > 0),
          test.shuffle,
        )
      : assessmentTest('question-bank', 'Question bank', this.categoryRuns([...this.categoryOf.keys()]), false);
    const noted = testXml.replace(
      XML_DECLARATION,
      XML_DECLARATION + this.notWritten.map((n) => `${comment(n)}\n`).join(''),
    );
    this.zip.addBuffer(Buffer.from(noted, 'utf8'), TEST_PATH, { mtime: EPOCH });
    const dependencies = [...this.categoryOf.keys()].map((id) =>
      element('dependency', { identifierref: itemIdentifier(id) }),
    );
    const testResource = element(
      'resource',
      { identifier: TEST_RESOURCE, type: 'imsqti_test_xmlv3p0', href: TEST_PATH },
      element('file', { href: TEST_PATH }) + dependencies.join(''),
    );
    this.zip.addBuffer(Buffer.from(manifestXml([testResource, ...this.resources]), 'utf8'), 'imsmanifest.xml', {
      mtime: EPOCH,
    });
    this.zip.end();
  }
}

// Entries carry a fixed date: the same questions make the same package.
const EPOCH = new Date(Date.UTC(2000, 0, 1));

function stimulusResourceXml(q: ExportQuestion, files: Array<{ path: string }>): string {
  return element(
    'resource',
    { identifier: stimulusIdentifier(q.id), type: 'imsqti_stimulus_xmlv3p0', href: stimulusPath(q.id) },
    element('file', { href: stimulusPath(q.id) }) + files.map((f) => element('file', { href: f.path })).join(''),
  );
}

function resourceXml(q: ExportQuestion, files: Array<{ path: string }>): string {
  const lom = element(
    'imsmd:lom',
    {},
    element(
      'imsmd:educational',
      {},
      element(
        'imsmd:difficulty',
        {},
        textElement('imsmd:source', 'LOMv1.0') + textElement('imsmd:value', LOM_DIFFICULTY[q.difficulty]),
      ),
    ),
  );
  return element(
    'resource',
    { identifier: itemIdentifier(q.id), type: 'imsqti_item_xmlv3p0', href: itemPath(q.id) },
    element('metadata', {}, lom) +
      element('file', { href: itemPath(q.id) }) +
      files.map((f) => element('file', { href: f.path })).join('') +
      (q.passage_id ? element('dependency', { identifierref: stimulusIdentifier(q.passage_id) }) : ''),
  );
}

function manifestXml(resources: string[]): string {
  return (
    XML_DECLARATION +
    element(
      'manifest',
      {
        xmlns: CP_NS,
        'xmlns:imsmd': LOM_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${CP_NS} ${CP_XSD} ${LOM_NS} ${LOM_XSD}`,
        identifier: 'MANIFEST-question-export',
      },
      element('metadata', {}, textElement('schema', 'QTI Package') + textElement('schemaversion', '3.0.0')) +
        element('organizations') +
        element('resources', {}, resources.join('')),
    ) +
    '\n'
  );
}

/** The questions (and a test's structure) as a QTI 3.0 package, whole in memory. */
export async function toQtiPackage(
  questions: readonly ExportQuestion[],
  media: ExportMedia = new Map(),
  test?: ExportTest,
): Promise<Buffer> {
  const writer = new QtiPackageWriter();
  const chunks: Buffer[] = [];
  const collected = new Promise<Buffer>((resolve, reject) => {
    writer.output.on('data', (chunk: Buffer) => chunks.push(chunk));
    writer.output.on('end', () => resolve(Buffer.concat(chunks)));
    writer.output.on('error', reject);
  });
  await writer.add(questions, media);
  writer.finish(test);
  return collected;
}
