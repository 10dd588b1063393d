import { comparable, type KeyedQuestion, type QuestionExtras, questionTypeOf } from '../questionTypes';
import { round4 } from '../shared';

// Pure: what one submitted attempt adds to its test version's running sums,
// and the statistics read back from those sums. No Firebase import; the
// submit transaction, the repair and the unit tests all call these.
//
// Two totals, on purpose:
// - the attempt's *score* is what the taker got (never below 0): the average,
//   highest, lowest, standard deviation and distribution describe it;
// - its *raw total* T is the plain sum of the marks awarded per question (it
//   may be below 0 with negative marking), so that "the rest of the test"
//   X = T − x is exactly the other questions' marks: the item statistics and
//   Cronbach's alpha use T.
//
// Formulas (n = submitted attempts of the version, sums kept per question i):
//   mean(x)      = Σx / n
//   V(x)         = (Σx² − (Σx)²/n) / (n − 1)                      (n ≥ 2)
//   Cov(x, T)    = (Σ x·T − Σx·ΣT/n) / (n − 1)
//   Cov(x, X)    = Cov(x, T) − V(x)                                 (X = T − x)
//   V(X)         = V(T) − 2·Cov(x, T) + V(x)
//   facility     = mean(x) / marks_i                                (Moodle: markaverage / maxmark)
//                  x is the marks awarded, so partial credit counts as its share of the marks and a
//                  fully correct answer as 1 (as always); `c` (times_correct) counts full marks only.
//   discrimination = 100 · Cov(x, X) / √(V(x)·V(X))                (Moodle's discrimination index)
//   alpha        = k/(k − 1) · (1 − Σ V(x_i) / V(T))               (Cronbach, k questions)
//   sd(score)    = √V(score)                                       (sample, n − 1)
// A measure that is undefined (n too small, a zero variance, k < 2) is null.

/**
 * Per question: answered, correct, Σx, Σx², Σx·T, and per option how often it
 * was chosen ("x": matching no option). In a version with pools, also over
 * the attempts that saw the question: how many (`n`), Σ T and Σ T² (`t`, `tt`).
 */
export interface QuestionSums {
  a: number;
  c: number;
  s: number;
  ss: number;
  st: number;
  o: Record<string, number>;
  n?: number;
  t?: number;
  tt?: number;
  /**
   * A type with parts (questionTypes' partOutcomes), per part i: `a<i>` answered, `r<i>` Σ the share
   * of the part earned, `o<i>_<j>` choice j made (`o<i>_x`: none of the part's choices).
   */
  p?: Record<string, number>;
}

/**
 * The running sums of one frozen version's submitted attempts. Keys are short:
 * they are stored on every shard. (Attempts in progress are counted when read,
 * by an aggregation over the open ones only: starting an attempt writes nothing here.)
 */
export interface VersionSums {
  /** Attempts submitted (by the taker or automatically). */
  n: number;
  /** Of which submitted automatically at the deadline. */
  auto: number;
  /** Σ score, Σ score². */
  score: { s: number; ss: number };
  /** Σ T, Σ T² (raw totals). */
  raw: { s: number; ss: number };
  /** Ten percentage bands "0".."9": [0,10), [10,20) … [90,100]. */
  bands: Record<string, number>;
  /** Keyed by the question's position in the version ("0", "1", …): the fixed questions, then each pool's. */
  q: Record<string, QuestionSums>;
  /** Submitted attempts whose essays are not all graded yet: counted here only, until their score is complete. */
  p?: number;
  /** Σ percentage (each attempt's score over its own total). */
  pc?: number;
}

/** The parts of a frozen question the statistics need (the key's fields too, which a type with parts reads). */
export type StatQuestion = {
  id: string;
  question_text: string;
  text_format?: 'plain' | 'html';
  question_type: string;
  options: string[];
  marks: number;
  difficulty: string;
} & { correct_answer?: string; tolerance?: number | null } & QuestionExtras;

/** A question as its type's scoring reads it: the key's fields it may lack (an old test's) as none. */
const keyed = (question: StatQuestion): KeyedQuestion => ({ correct_answer: '', tolerance: null, ...question });

/** What the scoring recorded for one question of a submitted attempt (version order). */
export interface ScoredQuestion {
  question_id: string;
  answered: boolean;
  correct: boolean;
  marks_awarded: number;
}

export interface SubmittedAttemptFacts {
  score: number;
  total_marks: number;
  automatic: boolean;
  /** One per question of the version, in the version's order. */
  results: ScoredQuestion[];
  /** The answers that counted (saved in time), by question id. */
  answers: Record<string, string>;
  /** The attempt's id: what a type that draws per attempt (a calculated's values) draws from. */
  seed?: string;
}

export const BAND_COUNT = 10;
export const OTHER_OPTION = 'x';
/** Band 0..9 of a score: [0,10) % … [90,100] %; the slack absorbs float error at a band's lower edge. */
export function bandOf(score: number, totalMarks: number): number {
  if (!(totalMarks > 0)) return 0;
  const tenths = Math.floor((score * BAND_COUNT) / totalMarks + 1e-9);
  return Math.min(BAND_COUNT - 1, Math.max(0, tenths));
}

/** The option keys an answer chose: option positions ("0", "1", …), or "x" for a choice matching no option. Empty for free-text types. */
export function chosenOptions(question: Pick<StatQuestion, 'question_type' | 'options'>, answer: string): string[] {
  if (question.options.length === 0) return [];
  const parts = questionTypeOf(question.question_type).answerParts(answer);
  const keys = new Set<string>();
  for (const part of parts) {
    const wanted = comparable(part);
    if (wanted.length === 0) continue;
    const at = question.options.findIndex((option) => comparable(option) === wanted);
    keys.add(at >= 0 ? String(at) : OTHER_OPTION);
  }
  return [...keys];
}

export const emptySums = (): VersionSums => ({
  n: 0,
  auto: 0,
  score: { s: 0, ss: 0 },
  raw: { s: 0, ss: 0 },
  bands: {},
  q: {},
});

/**
 * What one submitted attempt adds to its version's sums (only the non-zero
 * parts, which become increments). `questions` are the attempt's, each at its
 * position in the version (`positionOf`, default: its index); with `pooled`,
 * each question also counts the attempt as one that saw it.
 */
export function submissionContribution(
  questions: StatQuestion[],
  facts: SubmittedAttemptFacts,
  {
    positionOf = (_id: string, i: number) => i,
    pooled = false,
  }: { positionOf?: (id: string, index: number) => number; pooled?: boolean } = {},
): VersionSums {
  const byId = new Map(facts.results.map((r) => [r.question_id, r]));
  const marks = questions.map((q) => byId.get(q.id)?.marks_awarded ?? 0);
  const total = marks.reduce((sum, x) => sum + x, 0);
  const add: VersionSums = {
    ...emptySums(),
    n: 1,
    auto: facts.automatic ? 1 : 0,
    score: { s: facts.score, ss: facts.score * facts.score },
    raw: { s: total, ss: total * total },
    bands: { [String(bandOf(facts.score, facts.total_marks))]: 1 },
    pc: facts.total_marks > 0 ? (facts.score / facts.total_marks) * 100 : 0,
  };
  questions.forEach((question, i) => {
    const result = byId.get(question.id);
    const x = marks[i];
    const answer = facts.answers[question.id];
    const options: Record<string, number> = {};
    if (result?.answered && typeof answer === 'string')
      for (const key of chosenOptions(question, answer)) options[key] = 1;
    const item: QuestionSums = {
      a: result?.answered ? 1 : 0,
      c: result?.correct ? 1 : 0,
      s: x,
      ss: x * x,
      st: x * total + 0,
      o: options,
    };
    if (pooled) Object.assign(item, { n: 1, t: total, tt: total * total });
    if (result?.answered && typeof answer === 'string') {
      const parts = partSums(question, answer, facts.seed ?? '');
      if (parts) item.p = parts;
    }
    add.q[String(positionOf(question.id, i))] = item;
  });
  return add;
}

/** What an answer adds to its question's per-part sums (only non-zero entries), or undefined for a type without parts. */
function partSums(question: StatQuestion, answer: string, seed: string): Record<string, number> | undefined {
  const outcomes = questionTypeOf(question.question_type).partOutcomes(keyed(question), answer, seed);
  if (!outcomes) return undefined;
  const sums: Record<string, number> = {};
  outcomes.forEach((part, i) => {
    if (part.answered) sums[`a${i}`] = 1;
    if (part.earned !== 0) sums[`r${i}`] = part.earned;
    if (part.answered && part.choice !== undefined) sums[`o${i}_${part.choice >= 0 ? part.choice : OTHER_OPTION}`] = 1;
  });
  return sums;
}

/** Every number of `sums` negated: what taking an attempt's contribution back adds. */
export function negatedSums(sums: VersionSums): VersionSums {
  const negate = (value: unknown): unknown => {
    if (typeof value === 'number') return -value;
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, negate(v)]));
    return value;
  };
  return negate(sums) as VersionSums;
}

const addRecords = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
};

/** a + b, field by field; missing fields count as 0 (a shard never written is empty). */
export function addSums(a: VersionSums, b: Partial<VersionSums>): VersionSums {
  const q: Record<string, QuestionSums> = { ...a.q };
  for (const [key, add] of Object.entries(b.q ?? {})) {
    const had = q[key] ?? { a: 0, c: 0, s: 0, ss: 0, st: 0, o: {} };
    q[key] = {
      a: had.a + (add.a ?? 0),
      c: had.c + (add.c ?? 0),
      s: had.s + (add.s ?? 0),
      ss: had.ss + (add.ss ?? 0),
      st: had.st + (add.st ?? 0),
      o: addRecords(had.o ?? {}, add.o ?? {}),
    };
    if (had.p !== undefined || add.p !== undefined) q[key].p = addRecords(had.p ?? {}, add.p ?? {});
    // A shard may hold t and tt of a question without its n (an increment carries only what changed).
    if ([had.n, had.t, had.tt, add.n, add.t, add.tt].some((v) => v !== undefined)) {
      Object.assign(q[key], {
        n: (had.n ?? 0) + (add.n ?? 0),
        t: (had.t ?? 0) + (add.t ?? 0),
        tt: (had.tt ?? 0) + (add.tt ?? 0),
      });
    }
  }
  const extra: Partial<VersionSums> = {};
  if (a.p !== undefined || b.p !== undefined) extra.p = (a.p ?? 0) + (b.p ?? 0);
  if (a.pc !== undefined || b.pc !== undefined) extra.pc = (a.pc ?? 0) + (b.pc ?? 0);
  return {
    ...extra,
    n: a.n + (b.n ?? 0),
    auto: a.auto + (b.auto ?? 0),
    score: { s: a.score.s + (b.score?.s ?? 0), ss: a.score.ss + (b.score?.ss ?? 0) },
    raw: { s: a.raw.s + (b.raw?.s ?? 0), ss: a.raw.ss + (b.raw?.ss ?? 0) },
    bands: addRecords(a.bands, b.bands ?? {}),
    q,
  };
}

// ---------------------------------------------------------------- reading the sums back

/** A sample variance from running sums; null below two values; 0 when only float noise is left. */
export function sampleVariance(sum: number, sumSquares: number, n: number): number | null {
  if (n < 2) return null;
  const centered = sumSquares - (sum * sum) / n;
  // Cancellation leaves noise of about 1e-16 of Σx²: below 1e-13 of it the values were all equal.
  if (centered <= 1e-13 * Math.abs(sumSquares)) return 0;
  return centered / (n - 1);
}

export const sampleCovariance = (sumX: number, sumY: number, sumXY: number, n: number): number | null =>
  n < 2 ? null : (sumXY - (sumX * sumY) / n) / (n - 1);

const positive = (v: number | null): v is number => v !== null && v > 0;
const maybe = (v: number | null): number | null => (v === null || !Number.isFinite(v) ? null : round4(v));

export interface OptionCount {
  option: string;
  count: number;
}

export interface QuestionStatistics {
  position: number;
  question_id: string;
  question_text: string;
  text_format?: 'plain' | 'html';
  question_type: string;
  difficulty: string;
  marks: number;
  times_seen: number;
  times_answered: number;
  times_correct: number;
  mean_mark: number | null;
  facility_index: number | null;
  discrimination_index: number | null;
  option_counts: OptionCount[] | null;
  other_choices: number | null;
  /** A type with parts only: each part's figures. */
  parts?: PartStatistics[];
}

export interface PartStatistics {
  label: string;
  times_answered: number;
  facility_index: number | null;
  option_counts: OptionCount[] | null;
  other_choices: number | null;
}

export interface DifficultyFigures {
  questions: number;
  answered: number;
  correct: number;
  correct_rate: number | null;
}

export interface VersionStatistics {
  total_attempts: number;
  completed: number;
  in_progress: number;
  pending_grading: number;
  auto_submitted: number;
  average_score: number | null;
  average_percentage: number | null;
  standard_deviation: number | null;
  score_distribution: Array<{ from_percent: number; to_percent: number; count: number }>;
  cronbach_alpha: number | null;
  difficulty_analysis: Record<string, DifficultyFigures>;
  questions: QuestionStatistics[];
}

/** Moodle's discrimination index of one question from the sums; null when a variance is 0 or undefined. */
export function discriminationIndex(item: QuestionSums, raw: { s: number; ss: number }, n: number): number | null {
  const vx = sampleVariance(item.s, item.ss, n);
  const vt = sampleVariance(raw.s, raw.ss, n);
  const covXT = sampleCovariance(item.s, raw.s, item.st, n);
  if (vx === null || vt === null || covXT === null || vx === 0) return null;
  // V(X) for X = T − x, from the same sums; the rest of the test has no spread → undefined.
  const restSum = raw.s - item.s;
  const restSquares = raw.ss - 2 * item.st + item.ss;
  const vRest = sampleVariance(restSum, restSquares, n);
  if (!positive(vRest)) return null;
  const covRest = covXT - vx;
  return (100 * covRest) / Math.sqrt(vx * vRest);
}

/** Cronbach's alpha over the version's k questions; null when k < 2, n < 2 or the totals have no spread. */
export function cronbachAlpha(sums: VersionSums, questionCount: number): number | null {
  const k = questionCount;
  if (k < 2 || sums.n < 2) return null;
  const vt = sampleVariance(sums.raw.s, sums.raw.ss, sums.n);
  if (!positive(vt)) return null;
  let itemVariances = 0;
  for (let i = 0; i < k; i++) {
    const item = sums.q[String(i)];
    itemVariances += item ? (sampleVariance(item.s, item.ss, sums.n) ?? 0) : 0;
  }
  return (k / (k - 1)) * (1 - itemVariances / vt);
}

/**
 * Every figure of a version from its sums and its attempts in progress.
 * `totalMarks` is the version's; `questions` in version order, at `positions`
 * (default: their index). With `pooled`, attempts hold different questions:
 * each question's figures are over the attempts that saw it (its own n, Σ T
 * and Σ T²), the average percentage is over each attempt's own total, and
 * Cronbach's alpha (undefined with items missing by design) is null.
 */
export function versionStatistics(
  sums: VersionSums,
  questions: StatQuestion[],
  totalMarks: number,
  inProgress: number,
  { pooled = false, positions }: { pooled?: boolean; positions?: number[] } = {},
): VersionStatistics {
  const n = sums.n;
  const averageScore = n > 0 ? sums.score.s / n : null;
  const scoreVariance = sampleVariance(sums.score.s, sums.score.ss, n);
  const difficulty: Record<string, DifficultyFigures> = {};
  const items = questions.map((question, i): QuestionStatistics => {
    const position = positions?.[i] ?? i;
    const item = sums.q[String(position)] ?? { a: 0, c: 0, s: 0, ss: 0, st: 0, o: {} };
    const seen = pooled ? (item.n ?? 0) : n;
    const rest = pooled ? { s: item.t ?? 0, ss: item.tt ?? 0 } : sums.raw;
    const figures = (difficulty[question.difficulty] ??= { questions: 0, answered: 0, correct: 0, correct_rate: null });
    figures.questions += 1;
    figures.answered += item.a;
    figures.correct += item.c;
    const mean = seen > 0 ? item.s / seen : null;
    const hasOptions = question.options.length > 0;
    return {
      position: position + 1,
      question_id: question.id,
      question_text: question.question_text,
      ...(question.text_format === 'html' ? { text_format: 'html' as const } : {}),
      question_type: question.question_type,
      difficulty: question.difficulty,
      marks: question.marks,
      times_seen: seen,
      times_answered: item.a,
      times_correct: item.c,
      mean_mark: maybe(mean),
      facility_index: mean !== null && question.marks > 0 ? maybe(mean / question.marks) : null,
      discrimination_index: maybe(discriminationIndex(item, rest, seen)),
      option_counts: hasOptions
        ? question.options.map((option, j) => ({ option, count: item.o?.[String(j)] ?? 0 }))
        : null,
      other_choices: hasOptions ? (item.o?.[OTHER_OPTION] ?? 0) : null,
      ...partFigures(question, item.p ?? {}, seen),
    };
  });
  for (const figures of Object.values(difficulty))
    figures.correct_rate = figures.answered > 0 ? round4(figures.correct / figures.answered) : null;
  const averagePercentage = pooled
    ? n > 0
      ? (sums.pc ?? 0) / n
      : null
    : averageScore !== null && totalMarks > 0
      ? (averageScore / totalMarks) * 100
      : null;
  return {
    total_attempts: n + inProgress + (sums.p ?? 0),
    completed: n,
    in_progress: inProgress,
    pending_grading: sums.p ?? 0,
    auto_submitted: sums.auto,
    average_score: maybe(averageScore),
    average_percentage: maybe(averagePercentage),
    standard_deviation: scoreVariance === null ? null : maybe(Math.sqrt(scoreVariance)),
    score_distribution: Array.from({ length: BAND_COUNT }, (_, b) => ({
      from_percent: b * 10,
      to_percent: b * 10 + 10,
      count: sums.bands[String(b)] ?? 0,
    })),
    cronbach_alpha: pooled ? null : maybe(cronbachAlpha(sums, questions.length)),
    difficulty_analysis: difficulty,
    questions: items,
  };
}

/** Each part's figures of a type with parts (facility over the attempts that saw the question, as the question's is). */
function partFigures(question: StatQuestion, sums: Record<string, number>, seen: number): { parts?: PartStatistics[] } {
  const labels = questionTypeOf(question.question_type).partLabels(keyed(question));
  if (!labels) return {};
  return {
    parts: labels.map(({ label, choices }, i) => ({
      label,
      times_answered: sums[`a${i}`] ?? 0,
      facility_index: seen > 0 ? maybe((sums[`r${i}`] ?? 0) / seen) : null,
      option_counts: choices ? choices.map((option, j) => ({ option, count: sums[`o${i}_${j}`] ?? 0 })) : null,
      other_choices: choices ? (sums[`o${i}_${OTHER_OPTION}`] ?? 0) : null,
    })),
  };
}

/** Whether two sums agree, numbers compared within a relative 1e-9 (float sums depend on the order they were added in). */
export function sameSums(a: VersionSums, b: VersionSums): boolean {
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  const walk = (x: unknown, y: unknown): boolean => {
    if (typeof x === 'number' || typeof y === 'number')
      return close(typeof x === 'number' ? x : 0, typeof y === 'number' ? y : 0);
    const xo = (x ?? {}) as Record<string, unknown>;
    const yo = (y ?? {}) as Record<string, unknown>;
    return [...new Set([...Object.keys(xo), ...Object.keys(yo)])].every((k) => walk(xo[k], yo[k]));
  };
  return walk(a, b);
}
