import { type XmlElement } from '../xml';
import { attr, descendants, isTrue, kid, kids, numberOf, qtiName, round5, textOf } from './elements';

// Pure: how an item scores its response, as far as the bank can follow it:
// its declaration's correct response and mapping, its response processing's
// template or rules, its declared maximum, a numeric comparison's tolerance.

export interface Mapping {
  entries: { key: string; value: number; caseSensitive: boolean }[];
  defaultValue: number;
  lowerBound?: number;
  upperBound?: number;
}

export type MapEntry = Mapping['entries'][number];

export function mappingOf(declaration: XmlElement | undefined): Mapping | undefined {
  const mapping = declaration && kid(declaration, 'mapping');
  if (!mapping) return undefined;
  return {
    entries: kids(mapping, 'mapEntry').map((e) => ({
      key: attr(e, 'mapKey') ?? '',
      value: numberOf(attr(e, 'mappedValue')) ?? 0,
      // QTI's default: a map entry matches case-sensitively unless it says otherwise.
      caseSensitive: attr(e, 'caseSensitive') === undefined ? true : isTrue(attr(e, 'caseSensitive')),
    })),
    defaultValue: numberOf(attr(mapping, 'defaultValue')) ?? 0,
    lowerBound: numberOf(attr(mapping, 'lowerBound')),
    upperBound: numberOf(attr(mapping, 'upperBound')),
  };
}

export const correctValues = (declaration: XmlElement | undefined): string[] => {
  const correct = declaration && kid(declaration, 'correctResponse');
  return correct ? kids(correct, 'value').map((v) => textOf(v).trim()) : [];
};

type Scoring = 'match_correct' | 'map_response' | 'none' | 'other';

export interface ResponseRules {
  scoring: Scoring;
  /** Numeric tolerance from an `equal` comparison, when the processing has one. */
  equal?: XmlElement;
}

/** What the response processing does, as far as the bank can follow it. */
export function responseRules(root: XmlElement, warnings: Set<string>): ResponseRules {
  const rp = kid(root, 'responseProcessing');
  if (!rp) return { scoring: 'none' };
  const template = attr(rp, 'template') ?? attr(rp, 'templateLocation');
  if (template) {
    const name =
      template
        .replace(/\.xml$/i, '')
        .split('/')
        .pop() ?? template;
    if (name === 'match_correct' || name === 'map_response') return { scoring: name };
    if (name === 'map_response_point') return { scoring: 'map_response' };
    warnings.add(
      `The response processing template "${name}" was not carried; the standard key (the correct response) was used`,
    );
    return { scoring: 'other' };
  }
  // Rules that only set another outcome (a feedback to show) take no part in the score.
  const rules = kids(rp).filter((r) => !(qtiName(r) === 'setOutcomeValue' && attr(r, 'identifier') !== 'SCORE'));
  if (rules.length === 0) return { scoring: 'none' };
  const inside = rules.flatMap((r) => [r, ...descendants(r)]).map((d) => ({ el: d, name: qtiName(d) }));
  const equal = inside.find((d) => d.name === 'equal')?.el;
  if (inside.some((d) => d.name === 'mapResponse' || d.name === 'mapResponsePoint'))
    return { scoring: 'map_response', equal };
  if (equal) return { scoring: 'match_correct', equal };
  if (inside.some((d) => d.name === 'match') && inside.some((d) => d.name === 'correct'))
    return { scoring: 'match_correct' };
  warnings.add('Custom response processing was not carried; the standard key (the correct response) was used');
  return { scoring: 'other' };
}

/** The score the item declares it can reach: MAXSCORE, or SCORE's normal maximum. */
export function declaredMaximum(root: XmlElement): number | undefined {
  const outcomes = kids(root, 'outcomeDeclaration');
  const maxScore = outcomes.find((o) => attr(o, 'identifier') === 'MAXSCORE');
  const fromDefault = maxScore && kid(maxScore, 'defaultValue');
  const value = fromDefault && kid(fromDefault, 'value');
  const max = value ? numberOf(textOf(value)) : undefined;
  if (max !== undefined) return max;
  const score = outcomes.find((o) => attr(o, 'identifier') === 'SCORE');
  return score ? numberOf(attr(score, 'normalMaximum')) : undefined;
}

/** Outcome values the response processing sets whatever the response: (identifier, value) pairs. */
export function alwaysSet(root: XmlElement): Set<string> {
  const rp = kid(root, 'responseProcessing');
  const set = new Set<string>();
  for (const rule of rp ? kids(rp, 'setOutcomeValue') : []) {
    const value = kids(rule);
    if (value.length === 1 && qtiName(value[0]) === 'baseValue')
      set.add(`${attr(rule, 'identifier') ?? ''}\0${textOf(value[0]).trim()}`);
  }
  return set;
}

/** A numeric answer the processing scores: a branch comparing RESPONSE with `equal` and setting SCORE. */
export interface NumericBranch {
  answer: string;
  equal: XmlElement;
  /** The score it sets: a number, or 'max' for MAXSCORE. */
  score: number | 'max';
}

/** The branches of a response condition scoring numeric answers (as our export writes them), or undefined if it is not that. */
export function numericBranches(root: XmlElement): NumericBranch[] | undefined {
  const rp = kid(root, 'responseProcessing');
  const conditions = rp ? kids(rp, 'responseCondition') : [];
  if (conditions.length !== 1) return undefined;
  const branches: NumericBranch[] = [];
  for (const branch of kids(conditions[0])) {
    const name = qtiName(branch);
    if (name !== 'responseIf' && name !== 'responseElseIf') continue;
    const [test, set, ...rest] = kids(branch);
    if (!test || !set || rest.length > 0 || qtiName(set) !== 'setOutcomeValue' || attr(set, 'identifier') !== 'SCORE')
      return undefined;
    if (qtiName(test) === 'isNull') continue;
    const operands = kids(test);
    const value = operands.find((o) => qtiName(o) === 'baseValue');
    const response = operands.find((o) => qtiName(o) === 'variable' && attr(o, 'identifier') === 'RESPONSE');
    const [scoreEl] = kids(set);
    if (qtiName(test) !== 'equal' || operands.length !== 2 || !value || !response || !scoreEl) return undefined;
    const score =
      qtiName(scoreEl) === 'variable' && attr(scoreEl, 'identifier') === 'MAXSCORE'
        ? ('max' as const)
        : qtiName(scoreEl) === 'baseValue'
          ? numberOf(textOf(scoreEl))
          : undefined;
    if (score === undefined) return undefined;
    branches.push({ answer: textOf(value).trim(), equal: test, score });
  }
  return branches.length > 0 ? branches : undefined;
}

/** The tolerance a numeric item's `equal` comparison allows around the correct value. */
export function toleranceOf(equal: XmlElement | undefined, correct: number, warnings: Set<string>): number | undefined {
  if (!equal) return undefined;
  const mode = attr(equal, 'toleranceMode') ?? 'exact';
  if (mode === 'exact') return undefined;
  const bounds = (attr(equal, 'tolerance') ?? '')
    .trim()
    .split(/\s+/)
    .map((t) => numberOf(t))
    .filter((t): t is number => t !== undefined && t >= 0);
  if (bounds.length === 0) return undefined;
  const [low, high = low] = bounds;
  if (low !== high)
    warnings.add(`An uneven tolerance (${low} below, ${high} above) became ${Math.min(low, high)} either side`);
  const t = Math.min(low, high);
  if (mode === 'relative') {
    warnings.add(`A relative tolerance of ${t}% became an absolute one around ${correct}`);
    return round5((Math.abs(correct) * t) / 100);
  }
  if (attr(equal, 'includeLowerBound') === 'false' || attr(equal, 'includeUpperBound') === 'false')
    warnings.add('A tolerance excluding its bounds was carried as including them');
  return t;
}

/** A numeric gap's answer as our export scores it: a branch adding its points to SCORE when the response equals it. */
export interface GapBranch {
  answer: string;
  equal: XmlElement;
  points: number;
}

/** The branches, in any response condition, that compare this response with `equal` and add a number to SCORE. */
export function gapBranches(root: XmlElement, responseId: string): GapBranch[] {
  const rp = kid(root, 'responseProcessing');
  const branches: GapBranch[] = [];
  for (const condition of rp ? kids(rp, 'responseCondition') : [])
    for (const branch of kids(condition)) {
      const [test, set] = kids(branch);
      if (!test || !set || qtiName(test) !== 'equal' || qtiName(set) !== 'setOutcomeValue') continue;
      const operands = kids(test);
      const value = operands.find((o) => qtiName(o) === 'baseValue');
      const names = operands.some((o) => qtiName(o) === 'variable' && attr(o, 'identifier') === responseId);
      const [sum] = kids(set);
      const added = sum && qtiName(sum) === 'sum' ? kids(sum).find((o) => qtiName(o) === 'baseValue') : undefined;
      const points = added ? numberOf(textOf(added)) : undefined;
      if (value && names && points !== undefined) branches.push({ answer: textOf(value).trim(), equal: test, points });
    }
  return branches;
}
