import {
  alternativeGrades,
  element,
  elements,
  formatNumber,
  percent,
  Refusal,
  textElement,
  textOf,
  type MoodleReader,
  type MoodleXmlMapping,
  type TypedDraft,
} from '../../interchange';
import { parseNumberText } from '../../shared';

// A numeric question in Moodle XML: Moodle's numerical, its first answer worth 100% the key (with its
// tolerance) and the other credited ones its alternatives. Units are not carried: answers are plain
// numbers here.

const numerical: MoodleReader = (r) => {
  const { key, alternatives } = r.keyAndAlternatives((answer, text) => {
    if (text === '*' || text === '')
      throw new Refusal(`It accepts any answer (*) for ${percent(answer.credit)}, which cannot be carried`);
    if (parseNumberText(text) === undefined) throw new Refusal(`Answer "${text}" is not a number`);
    // Moodle always writes <tolerance>; without one the answer has none (the bank's null, read as 0).
    const holder = element(answer.element, 'tolerance');
    if (!holder) return { answer: text, credit: answer.credit };
    const tolerance = Math.abs(Number(textOf(holder).trim() || 0));
    if (!Number.isFinite(tolerance)) throw new Refusal(`The tolerance of answer "${text}" is not a number`);
    return { answer: text, credit: answer.credit, tolerance };
  });
  const unitsHolder = r.child('units');
  const units = unitsHolder
    ? elements(unitsHolder, 'unit')
        .map((u) => textOf(element(u, 'unit_name') ?? u).trim())
        .filter(Boolean)
    : [];
  if (units.length > 0)
    r.warnings.push(`Its units (${units.join(', ')}) are not carried: answers are plain numbers here`);
  const instructions = r.child('instructions');
  if (instructions && r.fieldText(instructions) !== '') r.notCarried.push('unit instructions');
  const draft: TypedDraft = {
    question_type: 'numeric',
    correct_answer: key.answer,
  };
  if (key.tolerance !== undefined) draft.tolerance = key.tolerance;
  if (alternatives.length > 0) draft.alternatives = alternatives;
  return r.assemble(draft);
};

/** An answer's `<tolerance>`, or none for an answer without one. */
const tolerance = (t: number | null | undefined) =>
  t === null || t === undefined ? '' : textElement('tolerance', formatNumber(t));

export const numericMoodleXml: MoodleXmlMapping = {
  reads: { numerical },
  write: (w) => {
    const { q } = w;
    const alternatives = q.alternatives ?? [];
    const { grades, changed } = alternativeGrades(alternatives);
    return {
      type: 'numerical',
      body:
        w.textAnswer(100, q.correct_answer.trim(), '', tolerance(q.tolerance)) +
        alternatives.map((a, i) => w.textAnswer(grades[i], a.answer.trim(), '', tolerance(a.tolerance))).join('') +
        textElement('unitgradingtype', '0') +
        textElement('unitpenalty', '0') +
        textElement('showunits', '3') +
        textElement('unitsleft', '0'),
      notes: changed ? [`alternative credits rounded to Moodle's grades: ${changed}`] : [],
    };
  },
};
