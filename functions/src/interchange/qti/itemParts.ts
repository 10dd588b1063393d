import { isHtml, replaceMediaRefs, safeFileName, type ExportMedia, type ExportQuestion } from '../exportModel';
import { formatNumber, htmlLine } from '../conventions';
import { element, escapeText, hasNotXml, textElement, toXhtml } from '../xmlText';

// Pure: the parts of a QTI 3.0 item every type's writer builds with (questionTypes/<type>/qti.ts):
// the text's wrapper, choices' content, the response processing templates, mappings. write.ts
// puts the parts a type's writer returns into the item's envelope.

/** The attribute on the text's wrapper saying whether it was plain text or HTML. */
export const TEXT_FORMAT_ATTRIBUTE = 'data-text-format';

/** A media file as an item refers to it, relative to items/. */
export const mediaHref = (mediaId: string, name: string) => `media/${mediaId}/${safeFileName(name)}`;

export const float = (n: number) => element('qti-base-value', { 'base-type': 'float' }, formatNumber(n));
export const setScore = (value: string) => element('qti-set-outcome-value', { identifier: 'SCORE' }, value);
export const variable = (id: string) => element('qti-variable', { identifier: id });
export const points = (q: ExportQuestion, credit: number) => (credit * q.marks) / 100;

/** The text's wrapper: plain text escaped (line ends kept), HTML as XHTML with media made relative. */
export function textBlock(
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
export const choiceContent = (q: ExportQuestion, option: string, media: ExportMedia, notes: string[]): string =>
  isHtml(q) ? xhtmlOf(option, media, notes) : escapeText(option);

/** An inline choice's or a gap text's content, which QTI makes text only: an html option's text. */
export function inlineChoiceText(q: ExportQuestion, option: string, notes: string[]): string {
  if (!isHtml(q)) return escapeText(option);
  const line = htmlLine(option);
  if (line.images.length > 0 || line.formatting.length > 0)
    notes.push(`the choice "${line.text}" is written as its text: QTI's inline choices and gap texts hold text only`);
  return escapeText(line.text);
}

export interface ItemParts {
  declarations: string;
  interaction: string;
  processing: string;
  /** The interaction holds the question's text (hot texts, gaps): the body is the interaction alone. */
  holdsText?: boolean;
}

/** What writes an item's parts: the question, its media, the notes, and the question text's wrapper attributes. */
export type PartsWriter = (
  q: ExportQuestion,
  media: ExportMedia,
  notes: string[],
  wrapper: Record<string, string>,
) => ItemParts;

/** Choices named C1, C2… in the options' order. */
export const choiceIds = (q: ExportQuestion): string[] => q.options.map((_, i) => `C${i + 1}`);

/** How a choice interaction's choices are named and which are right: one (single) or several (multiple, with their credits). */
export interface ChoiceKey {
  ids: string[];
  correct: ReadonlySet<string>;
  multiple: boolean;
}

/** A choice interaction: one choice right, or several (each scored by its credit when the question has credits). */
export function choiceParts(q: ExportQuestion, media: ExportMedia, notes: string[], key: ChoiceKey): ItemParts {
  const { ids, correct, multiple } = key;
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
export const matchScore = () =>
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
export const mappedScore = () =>
  element(
    'qti-response-condition',
    {},
    element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
      element('qti-response-else', {}, setScore(element('qti-map-response', { identifier: 'RESPONSE' }))),
  );

/** A qti-mapping of these keys to points, its total bounded by 0 and the marks. */
export const mappingElement = (q: ExportQuestion, entries: Array<[string, number]>, caseSensitive?: boolean) =>
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

export const correctResponse = (values: string[]) =>
  element('qti-correct-response', {}, values.map((v) => textElement('qti-value', v)).join(''));
