import { isNumberText } from '../../fieldErrors';
import { asStored, oneChoice } from '../answerText';
import type { ChoiceDraft, KeyDraft, QuestionTypeDefinition, VariableDraft } from '../module';

// A formula over variables drawn per attempt. The stored key is the formula; the service writes each
// attempt's values into the text the taker reads and scores the number against that attempt's answer.

/** The names a formula may use besides its variables (the service's allow-list, docs/question-types.md). */
const FORMULA_NAMES = [
  'pi',
  'e',
  'abs',
  'sqrt',
  'cbrt',
  'exp',
  'log',
  'log10',
  'log2',
  'pow',
  'min',
  'max',
  'round',
  'floor',
  'ceil',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'sign',
] as const;

export const FORMULA_HINT = `In terms of the variables (a or {a}): numbers, + - * / ^ %, brackets, and ${FORMULA_NAMES.join(' ')}`;

const MAX_VARIABLES = 10;
const MAX_DECIMALS = 6;
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
// A name in a formula: not the exponent of a number (1e3) nor the tail of another name.
const FORMULA_NAME = /(?<![\w.])[A-Za-z_]\w*/g;

/** A variable the author has not filled in yet. */
export const EMPTY_VARIABLE: VariableDraft = { name: '', min: '', max: '', decimals: '' };

/** The form's variables: those drafted, or one empty row for a new question. */
export const variablesFor = (draft: KeyDraft): VariableDraft[] =>
  draft.variables.length > 0 ? draft.variables : [EMPTY_VARIABLE];

const variableOf = (v: VariableDraft) => ({
  name: v.name.trim(),
  min: Number(v.min),
  max: Number(v.max),
  decimals: v.decimals.trim() === '' ? 0 : Number(v.decimals),
});

/** What is wrong with variable n, or null. */
function variableProblem(v: VariableDraft, n: number): string | null {
  const name = v.name.trim();
  if (!VARIABLE_NAME.test(name) || name === 'pi' || name === 'e')
    return `Variable ${n}: name it with a letter, then letters, digits or _ (not pi or e).`;
  if (!isNumberText(v.min) || !isNumberText(v.max)) return `Variable ${name}: its min and max are numbers.`;
  if (Number(v.min) > Number(v.max)) return `Variable ${name}: its min is at most its max.`;
  const decimals = v.decimals.trim() === '' ? 0 : Number(v.decimals);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS)
    return `Variable ${name}: its decimals are a whole number from 0 to ${MAX_DECIMALS}.`;
  return null;
}

/** A choice the author has not filled in yet. */
export const EMPTY_CHOICE: ChoiceDraft = { formula: '', credit: '0', decimals: '' };

const MAX_CHOICES = 10;

const choiceOf = (c: ChoiceDraft) => ({
  formula: c.formula.trim(),
  credit: Number(c.credit),
  ...(c.decimals.trim() === '' ? {} : { decimals: Number(c.decimals) }),
});

/** The formula of the key: as written, else that of the first choice with full credit. */
const keyFormula = (draft: KeyDraft): string =>
  draft.formula.trim() || (draft.calculated_choices.find((c) => Number(c.credit) === 100)?.formula.trim() ?? '');

/** What is wrong with the choices, or null (none: the number is typed). */
function choicesProblem(draft: KeyDraft, formula: string): string | null {
  const choices = draft.calculated_choices;
  if (choices.length === 0) return null;
  if (choices.length < 2 || choices.length > MAX_CHOICES) return `Write 2 to ${MAX_CHOICES} choices, or none.`;
  for (const [i, c] of choices.entries()) {
    if (c.formula.trim() === '') return `Choice ${i + 1}: write its formula.`;
    const credit = Number(c.credit);
    if (!isNumberText(c.credit) || credit < 0 || credit > 100) return `Choice ${i + 1}: its credit is from 0 to 100.`;
    const decimals = Number(c.decimals);
    if (c.decimals.trim() !== '' && (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS))
      return `Choice ${i + 1}: its decimals are a whole number from 0 to ${MAX_DECIMALS}, or empty.`;
  }
  const full = choices.filter((c) => Number(c.credit) === 100).map((c) => c.formula.trim());
  if (!full.includes(formula)) return 'The formula is that of a choice with credit 100: the key a review shows.';
  return null;
}

/** What the form can tell about the variables and the formula before sending; the service tries every draw. */
function calculatedProblem(draft: KeyDraft): string | null {
  const variables = variablesFor(draft);
  if (variables.length > MAX_VARIABLES) return `Write at most ${MAX_VARIABLES} variables.`;
  for (const [i, v] of variables.entries()) {
    const problem = variableProblem(v, i + 1);
    if (problem) return problem;
  }
  const names = variables.map((v) => v.name.trim());
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return `The variable ${twice} is named twice: make each name different.`;
  const formula = keyFormula(draft);
  if (formula === '') return 'Write the formula of the right answer.';
  const choices = choicesProblem(draft, formula);
  if (choices) return choices;
  const allowed = new Set<string>([...names, ...FORMULA_NAMES]);
  const unknown = [...formula.matchAll(FORMULA_NAME)].map((m) => m[0]).find((name) => !allowed.has(name));
  return unknown === undefined ? null : `The formula names “${unknown}”, which is no variable nor an allowed function.`;
}

/** A number from a formula over variables drawn per attempt, within a tolerance absolute or relative. */
export const calculated: QuestionTypeDefinition = {
  type: 'calculated',
  label: 'Calculated',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: oneChoice,
  shownAnswer: asStored,
  keyDraftOf: (q) => ({
    variables: (q.variables ?? []).map((v) => ({
      name: v.name,
      min: String(v.min),
      max: String(v.max),
      decimals: String(v.decimals),
    })),
    formula: q.correct_answer ?? '',
    tolerance_type: q.tolerance_type ?? 'absolute',
    calculated_choices: (q.choices ?? []).map((c) => ({
      formula: c.formula,
      credit: String(c.credit),
      decimals: c.decimals === undefined ? '' : String(c.decimals),
    })),
  }),
  keyLabel: 'Variables and formula',
  keyFieldLabels: {
    formula: 'Formula',
    variables: 'Variables',
    tolerance: 'Tolerance',
    tolerance_type: 'Tolerance type',
    choices: 'Choices',
  },
  keyProblem: calculatedProblem,
  bodyOf: (draft) => ({
    question_type: 'calculated',
    variables: variablesFor(draft).map(variableOf),
    formula: keyFormula(draft),
    tolerance: draft.tolerance.trim() === '' ? null : Number(draft.tolerance),
    tolerance_type: draft.tolerance_type,
    ...(draft.calculated_choices.length > 0 ? { choices: draft.calculated_choices.map(choiceOf) } : {}),
  }),
  regradeKeyHint: 'A formula in terms of the variables',
  toleranceInKey: true,
  // A row has no columns for variables.
  csvExample: null,
};
