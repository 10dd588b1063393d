import {
  element,
  elements,
  EXPORT_TAGS,
  formatNumber,
  gradeChanges,
  nearestMoodleGrade,
  Refusal,
  textElement,
  textOf,
  xmlElement as xml,
  type ExportQuestion,
  type MoodleReader,
  type MoodleWritten,
  type MoodleXmlMapping,
  type QuestionDraft,
  type XmlElement,
} from '../../interchange';
import { seededFractions } from '../../shared';

// A calculated question in Moodle XML: Moodle's calculated and simple calculated (a formula), and its
// calculated multichoice (a choice among formulas' values); written as calculated or calculatedmulti.
// Moodle keeps each wildcard's dataset (a range, and the values it drew from it, which every attempt
// picks among); we draw each attempt's values from the range itself, so a dataset becomes its range,
// said in a warning. Tolerance types: 1 relative, 2 nominal (absolute), 3 geometric (read as relative).

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,19}$/;
const valueOf = (holder: XmlElement | undefined): string =>
  holder ? textOf(element(holder, 'text') ?? holder).trim() : '';

type Variable = NonNullable<QuestionDraft['variables']>[number];

/** One dataset definition as a variable: its name, its range, its decimals; its stored values named in `warnings`. */
function variableOf(definition: XmlElement, warnings: string[], drawnFromRange: boolean): Variable {
  const name = valueOf(element(definition, 'name'));
  if (!NAME.test(name) || name === 'pi' || name === 'e')
    throw new Refusal(
      `The wildcard {${name}} cannot be a variable here: a letter, then up to 19 letters, digits or "_"`,
    );
  const min = Number(valueOf(element(definition, 'minimum')));
  const max = Number(valueOf(element(definition, 'maximum')));
  const decimals = Number(valueOf(element(definition, 'decimals')) || 0);
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max)
    throw new Refusal(`The wildcard {${name}} has no range (minimum ${min}, maximum ${max})`);
  const distribution = valueOf(element(definition, 'distribution'));
  if (distribution && distribution !== 'uniform')
    warnings.push(`{${name}} is drawn ${distribution} in Moodle, uniformly here`);
  const items = element(definition, 'dataset_items');
  const stored = items ? elements(items, 'dataset_item').length : 0;
  if (stored > 0 && !drawnFromRange)
    warnings.push(
      `{${name}}: Moodle picks among its ${stored} stored values; here each attempt draws one from ${formatNumber(min)} to ${formatNumber(max)}`,
    );
  return { name, min, max, decimals: Math.min(6, Math.max(0, Math.round(decimals))) };
}

/** The variables of the question's dataset definitions, in their order (`drawnFromRange`: our export's, its stored values drawn from the ranges). */
function variablesOf(question: XmlElement, warnings: string[], drawnFromRange = false): Variable[] {
  const holder = element(question, 'dataset_definitions');
  const definitions = holder ? elements(holder, 'dataset_definition') : [];
  if (definitions.length === 0) throw new Refusal('It defines no wildcard (no dataset definitions)');
  return definitions.map((d) => variableOf(d, warnings, drawnFromRange));
}

/** The key of its answer worth 100%: formula, tolerance and how the tolerance reads. */
function keyOf(
  answers: ReadonlyArray<{ element: XmlElement; credit: number }>,
  warnings: string[],
): Pick<QuestionDraft, 'formula' | 'tolerance' | 'tolerance_type'> {
  const full = answers.filter((a) => a.credit === 100);
  if (full.length === 0) throw new Refusal('No answer is worth 100%, as Moodle requires');
  const others = answers.length - 1;
  if (others > 0)
    warnings.push(
      `Its ${others} other answer${others === 1 ? '' : 's'} (other formulas, partial credit) are not carried`,
    );
  const key = full[0].element;
  const formula = valueOf(key);
  if (formula === '') throw new Refusal('Its answer has no formula');
  const tolerance = Math.abs(Number(valueOf(element(key, 'tolerance')) || 0));
  const type = valueOf(element(key, 'tolerancetype')) || '1';
  if (type === '3') warnings.push('Its geometric tolerance is read as a relative one');
  return {
    formula,
    tolerance: Number.isFinite(tolerance) ? tolerance : 0,
    tolerance_type: type === '2' ? 'absolute' : 'relative',
  };
}

type Choice = NonNullable<QuestionDraft['choices']>[number];

/** `{=expr}` in a calculated multichoice answer: its formula; a lone `{a}` is the wildcard's value. */
const EMBEDDED = /\{=([^{}]*(?:\{[A-Za-z][A-Za-z0-9_]*\}[^{}]*)*)\}/g;

/** One answer's formula: its one `{=…}` (the text around it named in `warnings`), a lone wildcard or a number. */
function choiceFormula(text: string, n: number, warnings: string[]): string {
  const embedded = [...text.matchAll(EMBEDDED)];
  if (embedded.length > 1)
    throw new Refusal(`Answer ${n} ("${text}") holds ${embedded.length} formulas; a choice here is one value`);
  if (embedded.length === 1) {
    const around = text.replace(embedded[0][0], '').trim();
    if (around !== '')
      warnings.push(`Answer ${n}: the text around its formula ("${around}") is not carried: a choice shows its value`);
    return embedded[0][1].trim();
  }
  if (text === '') throw new Refusal(`Answer ${n} is empty`);
  return text;
}

/** How a choice's value is shown: Moodle's `correctanswerformat` 1 (decimals) keeps its length; 2 (significant figures) is warned. */
function choiceDecimals(answer: XmlElement, n: number, warnings: string[]): number | undefined {
  const length = Number(valueOf(element(answer, 'correctanswerlength')) || Number.NaN);
  if (!Number.isFinite(length)) return undefined;
  if (valueOf(element(answer, 'correctanswerformat')) === '2') {
    // Twelve significant figures is how a choice without decimals shows its value (our export's).
    if (length >= 12) return undefined;
    warnings.push(
      `Answer ${n} is shown with up to twelve significant digits, not Moodle's ${length} significant figures`,
    );
    return undefined;
  }
  return Math.min(6, Math.max(0, Math.round(length)));
}

/**
 * A calculated multichoice's answers as choices, and the key's formula (the first worth 100%). A
 * multiple-answer one (`single` 0) is read as one choice (its best answer raised to 100%, warned);
 * a negative grade earns 0 here (warned).
 */
function choicesOf(
  answers: ReadonlyArray<{ element: XmlElement; credit: number }>,
  single: boolean,
  warnings: string[],
): { choices: Choice[]; formula: string } {
  if (answers.length < 2) throw new Refusal('A calculated multichoice needs at least two answers');
  const choices = answers.map((a, i): Choice => {
    const decimals = choiceDecimals(a.element, i + 1, warnings);
    return {
      formula: choiceFormula(valueOf(a.element), i + 1, warnings),
      credit: Math.max(0, a.credit),
      ...(decimals !== undefined ? { decimals } : {}),
    };
  });
  if (answers.some((a) => a.credit < 0))
    warnings.push('Its negative grades earn 0 here: a wrong choice takes no marks away');
  if (!single) {
    warnings.push('Moodle lets several answers be ticked; here one is chosen, earning its grade');
    const best = Math.max(...choices.map((c) => c.credit));
    if (best <= 0) throw new Refusal('No answer has a positive grade');
    if (best < 100) for (const c of choices) if (c.credit === best) c.credit = 100;
  }
  const key = choices.find((c) => c.credit === 100);
  if (!key) throw new Refusal('No answer is worth 100%, as Moodle requires');
  return { choices, formula: key.formula };
}

/** A formula over wildcards drawn per attempt (calculated, simple calculated): its datasets become ranges. */
const calculated: MoodleReader = (r) => {
  const variables = variablesOf(r.question, r.warnings, r.tags.drawnFromRange);
  const key = keyOf(r.gradedAnswers(), r.warnings);
  const units = r.child('units');
  if (units && elements(units, 'unit').length > 0)
    r.warnings.push('Its units are not carried: answers are plain numbers here');
  if (r.value('synchronize') === '1') r.notCarried.push('datasets shared with other questions (synchronize)');
  return r.assemble({ question_type: 'calculated', variables, ...key });
};

/** A choice among formulas' values (calculated multichoice): calculated with choices, its datasets ranges as calculated's. */
const calculatedmulti: MoodleReader = (r) => {
  const variables = variablesOf(r.question, r.warnings, r.tags.drawnFromRange);
  const single = !['false', '0'].includes(r.value('single') ?? 'true');
  const { choices, formula } = choicesOf(r.gradedAnswers(), single, r.warnings);
  const withFeedback = elements(r.question, 'answer').some((a) => {
    const feedback = element(a, 'feedback');
    return feedback !== undefined && r.fieldText(feedback) !== '';
  });
  if (withFeedback) r.notCarried.push("the answers' feedback");
  if (r.value('synchronize') === '1') r.notCarried.push('datasets shared with other questions (synchronize)');
  r.noteChoiceSettings();
  return r.assemble({ question_type: 'calculated', variables, formula, choices });
};

// ---- Written: our calculated question as Moodle's calculated (or calculated multichoice with choices)

/** How many values each wildcard's dataset carries: Moodle picks among them, as we draw from the range. */
const DATASET_ITEMS = 10;

/** Moodle's formulas name a wildcard `{a}` and pi `pi()`: our formula's bare names written so. */
export function moodleFormula(formula: string, names: readonly string[]): string {
  let written = formula;
  for (const name of names) written = written.replace(new RegExp(`(?<![{\\w.])${name}(?![\\w}(])`, 'g'), `{${name}}`);
  return written.replace(/(?<![\w.])pi(?![\w(])/g, 'pi()');
}

/** What Moodle's formulas lack that ours may use, for a comment (Moodle refuses the question then). */
function formulaNotes(formulas: readonly string[]): string[] {
  const lacking = ['cbrt', 'log2', 'sign'].filter((f) => formulas.some((x) => new RegExp(`\\b${f}\\(`).test(x)));
  const notes = lacking.map((f) => `Moodle's formulas have no ${f}(): rewrite it there`);
  if (formulas.some((x) => x.includes('^')))
    notes.push('Moodle reads ^ in a formula its own way: pow() says the power');
  if (formulas.some((x) => /(?<![\w.{])e(?![\w}(])/.test(x)))
    notes.push("Moodle's formulas have no constant e: exp(1) is it");
  return notes;
}

/** A wildcard's dataset: its range and decimals, and values drawn from the range (the same for the same question). */
function datasetDefinition(v: Variable, seed: string): string {
  const fractions = seededFractions(`${seed}:${v.name}`, DATASET_ITEMS);
  const items = fractions
    .map((f, k) =>
      xml(
        'dataset_item',
        {},
        textElement('number', String(k + 1)) + textElement('value', (v.min + f * (v.max - v.min)).toFixed(v.decimals)),
      ),
    )
    .join('');
  const text = (tag: string, value: string) => xml(tag, {}, textElement('text', value));
  return xml(
    'dataset_definition',
    {},
    text('status', 'private') +
      text('name', v.name) +
      textElement('type', 'calculated') +
      text('distribution', 'uniform') +
      text('minimum', formatNumber(v.min)) +
      text('maximum', formatNumber(v.max)) +
      text('decimals', String(v.decimals)) +
      textElement('itemcount', String(DATASET_ITEMS)) +
      xml('dataset_items', {}, items) +
      textElement('number_of_items', String(DATASET_ITEMS)),
  );
}

/** One answer: its grade, its formula, its tolerance and how its value is shown. */
function calculatedAnswer(
  credit: number,
  formula: string,
  tolerance: string,
  toleranceType: string,
  decimals?: number,
): string {
  return xml(
    'answer',
    { fraction: formatNumber(credit) },
    textElement('text', formula) +
      textElement('tolerance', tolerance) +
      textElement('tolerancetype', toleranceType) +
      // 1: decimals; 2: significant figures (twelve, as a value without decimals is shown here).
      textElement('correctanswerformat', decimals === undefined ? '2' : '1') +
      textElement('correctanswerlength', String(decimals ?? 12)) +
      xml('feedback', { format: 'html' }, textElement('text', '')),
  );
}

/** The type, the body after the common fields, and the notes of what Moodle will read otherwise. */
function calculatedBody(q: ExportQuestion): Omit<MoodleWritten, 'tags'> {
  const variables = q.variables ?? [];
  const names = variables.map((v) => v.name);
  const choices = q.choices ?? [];
  const notes = formulaNotes([q.correct_answer, ...choices.map((c) => c.formula)]);
  const datasets = xml(
    'dataset_definitions',
    {},
    variables.map((v) => datasetDefinition(v, `moodle:${q.id}`)).join(''),
  );
  const units =
    textElement('unitgradingtype', '0') +
    textElement('unitpenalty', '0') +
    textElement('showunits', '3') +
    textElement('unitsleft', '0');
  const settings = (single: boolean) =>
    textElement('synchronize', '0') +
    textElement('single', single ? '1' : '0') +
    textElement('answernumbering', 'none') +
    textElement('shuffleanswers', '1');
  if (choices.length === 0) {
    const toleranceType = q.tolerance_type === 'relative' ? '1' : '2';
    const answer = calculatedAnswer(
      100,
      moodleFormula(q.correct_answer, names),
      formatNumber(q.tolerance ?? 0),
      toleranceType,
      2,
    );
    return { type: 'calculated', body: settings(false) + answer + units + datasets, notes };
  }
  const grades = choices.map((c) => nearestMoodleGrade(c.credit));
  const changed = gradeChanges(
    choices.map((c) => c.credit),
    grades,
  );
  if (changed) notes.push(`choice credits rounded to Moodle's grades: ${changed}`);
  const answers = choices
    .map((c, i) => calculatedAnswer(grades[i], `{=${moodleFormula(c.formula, names)}}`, '0', '1', c.decimals))
    .join('');
  return { type: 'calculatedmulti', body: settings(true) + answers + datasets, notes };
}

export const calculatedMoodleXml: MoodleXmlMapping = {
  reads: { calculated, calculatedsimple: calculated, calculatedmulti },
  // Its stored values are drawn from the ranges, which the tag says so that they are read back as ranges.
  write: ({ q }) => ({ ...calculatedBody(q), tags: [EXPORT_TAGS.drawnFromRange] }),
};
