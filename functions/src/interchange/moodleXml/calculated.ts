import { element, elements, textOf, type XmlElement } from '../xml';
import { formatNumber } from '../conventions';
import { Refusal, type QuestionDraft } from '../model';

// Pure: a Moodle calculated or simple calculated question's key as our calculated question holds it.
// Moodle keeps each wildcard's dataset (a range, and the values it drew from it, which every attempt
// picks among); we draw each attempt's values from the range itself, so a dataset becomes its range,
// said in a warning. Tolerance types: 1 relative, 2 nominal (absolute), 3 geometric (read as relative).

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,19}$/;
const valueOf = (holder: XmlElement | undefined): string =>
  holder ? textOf(element(holder, 'text') ?? holder).trim() : '';

type Variable = NonNullable<QuestionDraft['variables']>[number];

/** One dataset definition as a variable: its name, its range, its decimals; its stored values named in `warnings`. */
function variableOf(definition: XmlElement, warnings: string[]): Variable {
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
  if (stored > 0)
    warnings.push(
      `{${name}}: Moodle picks among its ${stored} stored values; here each attempt draws one from ${formatNumber(min)} to ${formatNumber(max)}`,
    );
  return { name, min, max, decimals: Math.min(6, Math.max(0, Math.round(decimals))) };
}

/** The variables of the question's dataset definitions, in their order. */
export function variablesOf(question: XmlElement, warnings: string[]): Variable[] {
  const holder = element(question, 'dataset_definitions');
  const definitions = holder ? elements(holder, 'dataset_definition') : [];
  if (definitions.length === 0) throw new Refusal('It defines no wildcard (no dataset definitions)');
  return definitions.map((d) => variableOf(d, warnings));
}

/** The key of its answer worth 100%: formula, tolerance and how the tolerance reads. */
export function keyOf(
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
