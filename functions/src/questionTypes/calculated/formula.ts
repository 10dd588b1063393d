import type { MathNode } from 'mathjs';
import { seededFractions } from '../../shared';

// Pure: a calculated question's formula, read and evaluated by mathjs (number-only build) over an
// allow-list of its syntax: numbers, the question's variables, pi and e, + − × ÷ ^ and %, brackets,
// and the functions below. Nothing else (assignment, accessors, objects, matrices, units, strings,
// mathjs's own import/evaluate) can run, so an author's formula is data, never code. mathjs loads
// only when a calculated question is first read (about 0.4 s), never on a path without one.

/** The functions a formula may call, by the names Moodle's calculated questions use too. */
const FUNCTIONS = new Set([
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
]);
const CONSTANTS = new Set(['pi', 'e']);
const OPERATORS = new Set(['add', 'subtract', 'multiply', 'divide', 'pow', 'mod', 'unaryMinus', 'unaryPlus']);

type MathModule = typeof import('mathjs');
let mathjs: MathModule | undefined;
// A lazy require keeps mathjs off every path that has no calculated question (the cold start's).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const math = (): MathModule => (mathjs ??= require('mathjs/number') as MathModule);

/** A formula as written (Moodle's `{a}` placeholders and `pi()` read as `a` and `pi`), ready to parse. */
export const plainFormula = (formula: string): string =>
  formula.replace(/\{([A-Za-z]\w*)\}/g, '$1').replace(/\bpi\(\)/g, 'pi');

/** Why a node may not be in a formula, or undefined when it may. */
function nodeProblem(node: MathNode, variables: ReadonlySet<string>): string | undefined {
  switch (node.type) {
    case 'ConstantNode':
      return typeof (node as unknown as { value: unknown }).value === 'number'
        ? undefined
        : 'Only numbers may be written';
    case 'SymbolNode': {
      const name = (node as unknown as { name: string }).name;
      return variables.has(name) || CONSTANTS.has(name) ? undefined : `"${name}" is not one of the variables`;
    }
    case 'OperatorNode':
      return OPERATORS.has((node as unknown as { fn: string }).fn)
        ? undefined
        : `The operator "${(node as unknown as { op: string }).op}" is not allowed`;
    case 'ParenthesisNode':
      return undefined;
    case 'FunctionNode': {
      const fn = (node as unknown as { fn: MathNode }).fn;
      const name = fn.type === 'SymbolNode' ? (fn as unknown as { name: string }).name : '';
      return FUNCTIONS.has(name) ? undefined : `The function "${name || fn.toString()}" is not allowed`;
    }
    default:
      return `"${node.toString()}" is not allowed in a formula`;
  }
}

/** Why the formula cannot be evaluated over these variables (first problem), or undefined. */
export function formulaProblem(formula: string, variables: readonly string[]): string | undefined {
  let root: MathNode;
  try {
    root = math().parse(plainFormula(formula));
  } catch (err) {
    return `Does not parse: ${(err as Error).message}`;
  }
  const names = new Set(variables);
  let problem: string | undefined;
  root.traverse((node, _path, parent) => {
    // A function's own name is a SymbolNode under it: judged with the function.
    if (problem || (parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === node)) return;
    problem = nodeProblem(node, names);
  });
  return problem;
}

/** The formula's value for these values (NaN when it has none: a division by zero is Infinity, not a value). */
export function evaluateFormula(formula: string, values: Readonly<Record<string, number>>): number {
  try {
    const value: unknown = math()
      .compile(plainFormula(formula))
      .evaluate({ ...values });
    return typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface Variable {
  name: string;
  min: number;
  max: number;
  decimals: number;
}

/** Decimals as toFixed takes them: 0 to 6 (a schema's refinement meets values that failed their own check). */
export const decimalsOf = (decimals: number): number =>
  Number.isFinite(decimals) ? Math.min(6, Math.max(0, Math.round(decimals))) : 0;

/** Each variable's value for a draw: uniform in [min, max], rounded to its decimals, the same for the same seed. */
export function drawValues(variables: readonly Variable[], seed: string): Record<string, number> {
  const numbers = seededFractions(seed, variables.length);
  return Object.fromEntries(
    variables.map((v, i) => {
      const raw = v.min + numbers[i] * (v.max - v.min);
      const value = Number(raw.toFixed(decimalsOf(v.decimals)));
      return [v.name, Math.min(v.max, Math.max(v.min, value))];
    }),
  );
}
