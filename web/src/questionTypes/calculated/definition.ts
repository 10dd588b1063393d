import { isNumberText } from '../../fieldErrors';
import { asStored, oneChoice } from '../answerText';
import type { KeyDraft, QuestionTypeDefinition, VariableDraft } from '../module';

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
  const formula = draft.formula.trim();
  if (formula === '') return 'Write the formula of the right answer.';
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
  }),
  keyLabel: 'Variables and formula',
  keyFieldLabels: {
    formula: 'Formula',
    variables: 'Variables',
    tolerance: 'Tolerance',
    tolerance_type: 'Tolerance type',
  },
  keyProblem: calculatedProblem,
  bodyOf: (draft) => ({
    question_type: 'calculated',
    variables: variablesFor(draft).map(variableOf),
    formula: draft.formula.trim(),
    tolerance: draft.tolerance.trim() === '' ? null : Number(draft.tolerance),
    tolerance_type: draft.tolerance_type,
  }),
  regradeKeyHint: 'A formula in terms of the variables',
  toleranceInKey: true,
  // A row has no columns for variables.
  csvExample: null,
};
