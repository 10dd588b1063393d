import { parseNumberText } from '../../shared';
import { htmlText } from '../conventions';
import { OPTION_SEPARATOR, type AlternativeAnswer, Refusal } from '../model';
import { richOption } from '../richOptions';
import type { GiftAnswer, GiftFormat, GiftText } from './grammar';
import type { GiftReading } from './port';

// Pure: how a GIFT block's answers are read, as every type's reader reads them: their weights,
// feedback and texts, the way Moodle's reader (question/format/gift/format.php) reads them.

type Warn = (message: string) => void;

/** The first answer worth 100% is the answer; every other one an alternative, in file order. */
export function bestAndAlternatives(accepted: AlternativeAnswer[]): {
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
export const isBlankFirst = (a: GiftAnswer): boolean =>
  a.prefix === null && a.weight === null && a.format === null && a.text.trim() === '' && a.feedback.length === 0;

export const hasFeedback = (a: GiftAnswer): boolean => joinFeedback(a.feedback).trim() !== '';

/** Moodle's commentparser keeps further "#" in the feedback. */
export const joinFeedback = (feedback: GiftText[]): string => feedback.map((f) => f.text).join('#');

export function weightOf(raw: string, what: string): number {
  const value = parseNumberText(raw);
  if (value === undefined || value < -100 || value > 100)
    throw new Refusal(`The weight of ${what} ("%${raw}%") must be a percentage from -100 to 100`);
  return value === 0 ? 0 : value; // not -0
}

export const quoteList = (values: string[]): string => values.map((v) => `"${v}"`).join(', ');

/**
 * An option or short answer: plain text on one line, without our separator; an option (or a stem,
 * `mayBeHtml`) of an [html] question stays HTML when it says more than its text (an image, a formula).
 */
export function optionText(
  a: GiftAnswer,
  inherited: GiftFormat | null,
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

/** Between a matching pair's stem and its match. */
export const ARROW = '->';

/**
 * A choice block's options (an html question's kept as HTML where they say more than text), their
 * feedback (`option_feedback`, only when one has some) and weights (null: none written), in file order.
 */
export function choiceAnswers(question: GiftReading): {
  options: string[];
  withFeedback: { option_feedback?: string[] };
  weights: Array<number | null>;
} {
  const { answers, inherited, warn, rich } = question;
  const options = answers.map((a, i) => optionText(a, inherited, `Option ${i + 1}`, warn, rich));
  const feedback = answers.map((a, i) =>
    a.feedback.length === 0
      ? ''
      : question.feedback(
          { format: a.feedback[0].format, text: joinFeedback(a.feedback) },
          `The feedback of option ${i + 1}`,
        ),
  );
  const withFeedback = feedback.some((f) => f !== '') ? { option_feedback: feedback } : {};
  const weights = answers.map((a, i) => (a.weight === null ? null : weightOf(a.weight, `option ${i + 1}`)));
  return { options, withFeedback, weights };
}
