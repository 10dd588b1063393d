import { z } from 'zod';
import { seededFractions } from '../../shared';
import { checkTexts, common, type Ctx, extras, refuseFieldsNotTaken, MAX_TOLERANCE, storedBase } from '../fields';
import type { QuestionExtras, TypedFields } from '../stored';
import { choiceTexts } from './choices';
import { decimalsOf, evaluateFormula, formulaProblem, plainFormula, type Variable } from './formula';

export const MAX_VARIABLES = 10;
export const MAX_FORMULA = 500;
export const MAX_CHOICES = 10;
export const TOLERANCE_TYPES = ['absolute', 'relative'] as const;
/** How many draws a formula is tried on before it is stored: every corner of the ranges is among them. */
const TRIAL_DRAWS = 64;

const VariableInput = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,19}$/, 'A letter, then up to 19 letters, digits or "_"')
      .refine((name) => name !== 'pi' && name !== 'e', 'pi and e are constants'),
    min: z.number().min(-1e9).max(1e9),
    max: z.number().min(-1e9).max(1e9),
    decimals: z.number().int().min(0).max(6).describe('The decimals a drawn value has (0: whole numbers)'),
  })
  .meta({ id: 'CalculatedVariable' });

const ChoiceInput = z
  .strictObject({
    formula: z
      .string()
      .trim()
      .min(1)
      .max(MAX_FORMULA)
      .describe('A formula over the variables, as `formula` is written; shown to the taker as its value'),
    credit: z.number().min(0).max(100).describe('The share of the marks choosing it earns, 0 to 100'),
    decimals: z
      .number()
      .int()
      .min(0)
      .max(6)
      .optional()
      .describe('The decimals its value is shown with (absent: up to twelve significant digits)'),
  })
  .meta({ id: 'CalculatedChoice' });

const refuseOthers = refuseFieldsNotTaken('a calculated question', 'its key is formula');

export const CalculatedInput = z
  .strictObject(
    {
      question_type: z.literal('calculated'),
      ...common,
      ...extras,
      variables: z
        .array(VariableInput)
        .min(1)
        .max(MAX_VARIABLES)
        .describe(
          'Drawn once per attempt (the same on every read), each uniform in [min, max] with its decimals; written {name} in the text',
        ),
      formula: z
        .string()
        .trim()
        .min(1)
        .max(MAX_FORMULA)
        .describe(
          'The right answer in terms of the variables (a or {a}): numbers, + - * / ^ %, brackets, pi, e and abs sqrt cbrt exp log log10 log2 pow min max round floor ceil sin cos tan asin acos atan atan2 sinh cosh tanh sign; a finite number for every draw',
        ),
      choices: z
        .array(ChoiceInput)
        .min(2)
        .max(MAX_CHOICES)
        .nullable()
        .optional()
        .describe(
          'Calculated with choices (Moodle calculatedmulti): the taker chooses among these values, in an order of the attempt, and earns the chosen one’s credit; formula is the one with full credit',
        ),
      tolerance: z
        .number()
        .min(0)
        .max(MAX_TOLERANCE)
        .nullable()
        .optional()
        .describe('The accepted difference (absent: 0)'),
      tolerance_type: z
        .enum(TOLERANCE_TYPES)
        .nullable()
        .optional()
        .describe(
          'absolute (the default): tolerance is a difference; relative: a share of the right answer (0.01 = 1 %)',
        ),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkVariables(q.variables, ctx);
    const problem = formulaProblem(
      q.formula,
      q.variables.map((v) => v.name),
    );
    if (problem) ctx.addIssue({ code: 'custom', path: ['formula'], message: problem });
    else checkDraws(q.formula, q.variables, ctx);
    if (q.choices) checkChoices(q.choices, q.formula, q.variables, ctx);
  })
  .meta({
    id: 'CalculatedQuestionInput',
    description: 'A number from a formula over variables drawn per attempt (docs/question-types.md)',
  });

type CalculatedInput = z.output<typeof CalculatedInput>;

function checkVariables(variables: Variable[], ctx: Ctx): void {
  const seen = new Set<string>();
  variables.forEach((v, i) => {
    if (v.min > v.max) ctx.addIssue({ code: 'custom', path: ['variables', i, 'max'], message: 'Must be at least min' });
    if (seen.has(v.name))
      ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: `"${v.name}" is named twice` });
    seen.add(v.name);
  });
}

/** The draws a formula is tried on: every variable at its min, at its max, and seeded draws between. */
function trialDraws(variables: Variable[]): Array<Record<string, number>> {
  const corner = (pick: (v: Variable) => number) => Object.fromEntries(variables.map((v) => [v.name, pick(v)]));
  const between = Array.from({ length: TRIAL_DRAWS }, (_, k) => {
    const fractions = seededFractions(`trial:${k}`, variables.length);
    return Object.fromEntries(
      variables.map((v, i) => [
        v.name,
        Number((v.min + fractions[i] * (v.max - v.min)).toFixed(decimalsOf(v.decimals))),
      ]),
    );
  });
  return [corner((v) => v.min), corner((v) => v.max), ...between];
}

/** A draw as a message names it. */
const drawText = (values: Record<string, number>): string =>
  Object.entries(values)
    .map(([name, value]) => `${name} = ${value}`)
    .join(', ');

/** A formula that is no finite number for some draw (a division by zero) is refused, naming the draw. */
function checkDraws(
  formula: string,
  variables: Variable[],
  ctx: Ctx,
  path: Array<string | number> = ['formula'],
): void {
  const bad = trialDraws(variables).find((values) => Number.isNaN(evaluateFormula(formula, values)));
  if (bad)
    ctx.addIssue({
      code: 'custom',
      path,
      message: `Is not a finite number for ${drawText(bad)}: every draw must give one`,
    });
}

type ChoiceInput = z.output<typeof ChoiceInput>;

/** Each choice a formula of the variables with a value for every draw; one with full credit is `formula`; no two show the same value on a draw. */
function checkChoices(choices: ChoiceInput[], formula: string, variables: Variable[], ctx: Ctx): void {
  const names = variables.map((v) => v.name);
  const problems = choices.map((c, i) => {
    const problem = formulaProblem(c.formula, names);
    if (problem) ctx.addIssue({ code: 'custom', path: ['choices', i, 'formula'], message: problem });
    else checkDraws(c.formula, variables, ctx, ['choices', i, 'formula']);
    return problem;
  });
  const full = choices.filter((c) => c.credit === 100).map((c) => plainFormula(c.formula));
  if (!full.includes(plainFormula(formula)))
    ctx.addIssue({
      code: 'custom',
      path: ['choices'],
      message: 'formula must be the formula of a choice with credit 100 (the key the review shows)',
    });
  if (problems.some(Boolean)) return;
  const same = trialDraws(variables).find((values) => {
    const texts = choiceTexts(choices, values);
    return new Set(texts).size < texts.length;
  });
  if (same)
    ctx.addIssue({
      code: 'custom',
      path: ['choices'],
      message: `Two choices show the same value for ${drawText(same)}: every draw must show distinct values`,
    });
}

/** Stored with the formula as its key. */
export const normalizeCalculated = (input: CalculatedInput): TypedFields<'calculated'> => ({
  ...storedBase(input),
  question_type: input.question_type,
  options: [],
  correct_answer: input.formula,
  tolerance: input.tolerance ?? null,
});

export const calculatedExtras = (
  input: CalculatedInput,
): Pick<QuestionExtras, 'variables' | 'choices' | 'tolerance_type'> => ({
  variables: input.variables.map(({ name, min, max, decimals }) => ({ name, min, max, decimals })),
  ...(input.choices
    ? {
        choices: input.choices.map(({ formula, credit, decimals }) => ({
          formula,
          credit,
          ...(decimals !== undefined ? { decimals } : {}),
        })),
      }
    : {}),
  ...(input.tolerance_type === 'relative' ? { tolerance_type: 'relative' as const } : {}),
});
