import { gift } from '../../interchange';
import type { QuestionDraft } from '../../interchange';
import { parseNumberText } from '../../shared';

// A numeric in GIFT: `{#3}` `{#3:0.5}` `{#2..4}` → correct_answer "3", tolerance 0.5 (a range: its
// midpoint and half its width); no `:`/`..` → tolerance absent. `{#=3:0 =%50%3:1}` → the first 100%
// answer is correct_answer/tolerance, the others alternatives {answer, credit, tolerance?}.

export const numericGift: gift.GiftMapping = {
  reader: { kind: 'Numerical', read: numeric },
  fieldTags: [],
  write(q) {
    const value = (answer: string, tolerance: number | null | undefined) =>
      `${gift.decimalText(answer)}${tolerance === null || tolerance === undefined ? '' : `:${gift.formatNumber(tolerance)}`}`;
    const alternatives = q.alternatives ?? [];
    if (alternatives.length === 0) return { body: `#${value(q.correct_answer, q.tolerance)}`, notes: [] };
    const { grades, changed } = gift.alternativeGrades(alternatives);
    return {
      body: `#\n\t=${value(q.correct_answer, q.tolerance)}\n${alternatives
        .map((a, i) => `\t=${gift.weight(grades[i])}${value(a.answer, a.tolerance)}`)
        .join('\n')}`,
      notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
    };
  },
};

function numeric({ answers, warn }: gift.GiftReading): Partial<QuestionDraft> {
  const accepted: gift.AlternativeAnswer[] = [];
  const feedbackLost: string[] = [];
  answers.forEach((a, i) => {
    const raw = a.text.trim();
    if (a.prefix === '~') {
      if (raw !== '')
        throw new gift.Refusal(
          `"~${raw}": in a numeric answer block "~" may only give the feedback for any other answer`,
        );
      if (gift.hasFeedback(a))
        warn(`The feedback for any other answer ("${gift.joinFeedback(a.feedback).trim()}") is not carried`);
      return;
    }
    const credit = a.weight === null ? 100 : gift.weightOf(a.weight, `answer ${i + 1}`);
    if (credit < 0)
      throw new gift.Refusal(`Answer ${i + 1} has a negative weight (${credit}%): a numeric answer earns 0 to 100%`);
    if (raw === '*') {
      if (credit > 0) throw new gift.Refusal('The answer "*" would accept any number: not carried');
      warn('The answer "*" (any other number, worth 0%) is not carried');
      return;
    }
    if (gift.hasFeedback(a)) feedbackLost.push(raw);
    accepted.push({ ...numberSpec(raw), credit });
  });
  if (accepted.length === 0) throw new gift.Refusal('The numeric answer block has no answer');
  if (feedbackLost.length > 0)
    warn(`The feedback of ${gift.quoteList(feedbackLost)} is not carried: a numeric answer has no per-answer feedback`);
  const { best, alternatives } = gift.bestAndAlternatives(accepted);
  const result: Partial<QuestionDraft> = { correct_answer: best.answer };
  if (best.tolerance !== undefined) result.tolerance = best.tolerance;
  if (alternatives.length > 0) result.alternatives = alternatives;
  return result;
}
/** `3`, `3:0.5` (value and tolerance) or `2..4` (a range: its midpoint, tolerance half its width). */
function numberSpec(raw: string): { answer: string; tolerance?: number } {
  const number = (text: string): string => {
    if (parseNumberText(text) === undefined)
      throw new gift.Refusal(`"${text.trim()}" is not a number (in the numeric answer "${raw}")`);
    return text.trim();
  };
  const range = raw.indexOf('..');
  if (range > 0) {
    const low = number(raw.slice(0, range));
    const high = number(raw.slice(range + 2));
    if (parseNumberText(low)! > parseNumberText(high)!)
      throw new gift.Refusal(`The range "${raw}" starts above its end`);
    return midpoint(low, high);
  }
  const colon = raw.indexOf(':');
  if (colon > 0) {
    const tolerance = parseNumberText(raw.slice(colon + 1));
    if (tolerance === undefined || tolerance < 0)
      throw new gift.Refusal(`"${raw.slice(colon + 1).trim()}" is not a tolerance (a number, 0 or more) in "${raw}"`);
    return { answer: number(raw.slice(0, colon)), tolerance };
  }
  if (raw === '') throw new gift.Refusal('An empty numeric answer');
  return { answer: number(raw) };
}
/** Exact decimal midpoint and half-width (3.141..3.142 → 3.1415 ± 0.0005, not 3.1414999…). */
function midpoint(low: string, high: string): { answer: string; tolerance: number } {
  const decimal = (text: string) => /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  const a = decimal(low);
  const b = decimal(high);
  if (!a || !b) {
    // Exponent notation: plain floating point is as exact as the numbers are.
    const l = Number(low);
    const h = Number(high);
    return { answer: String((l + h) / 2), tolerance: (h - l) / 2 };
  }
  const scale = Math.max((a[3] ?? '').length, (b[3] ?? '').length);
  const scaled = (m: RegExpExecArray) =>
    BigInt(`${m[1]}${m[2] || '0'}${(m[3] ?? '').padEnd(scale, '0')}`.replace(/^\+/, ''));
  const lo = scaled(a);
  const hi = scaled(b);
  // (lo + hi) / 2 and (hi − lo) / 2, exactly: times 5 at one more decimal place.
  return {
    answer: gift.fixedPointText((lo + hi) * 5n, scale + 1),
    tolerance: Number(gift.fixedPointText((hi - lo) * 5n, scale + 1)),
  };
}
