// Pure: where a form shows each problem the API reports, and in what words. No React here, so the
// mapping is unit-tested in node.

/** One detail of the API's VALIDATION_ERROR (docs/api.md, "Errors"). */
export interface Detail {
  path: string;
  message: string;
}

/**
 * The fields of a form, keyed by the body path they edit (`closes_at`, `pools.0.draw`), each with the
 * label the person sees: a detail is shown at the field its path names, in words that use those labels.
 */
export type FieldLabels = Record<string, string>;

/** A form's problems: the plain message(s) of each field, and the details no field of the form shows. */
export interface Problems {
  fields: Record<string, string[]>;
  rest: Detail[];
}

export const noProblems: Problems = { fields: {}, rest: [] };

/**
 * The field of `fields` a detail's path names: the path with its `body.` stripped (a publish refusal
 * names `question_ids` or `pools.0` bare) equals the field or lies inside it (`body.options.2` is
 * `options`); the longest such field wins, so `pools.0.draw` beats `pools.0`. Null when none does.
 */
export function fieldOfPath(path: string, fields: readonly string[]): string | null {
  const inBody = path.startsWith('body.') ? path.slice('body.'.length) : path;
  let best: string | null = null;
  for (const field of fields)
    if ((inBody === field || inBody.startsWith(`${field}.`)) && (best === null || field.length > best.length))
      best = field;
  return best;
}

const quoted = (label: string) => `“${label}”`;
const sentence = (text: string) => {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
};

/** "at least 1" for ">=1", "more than 0" for ">0" (zod's bounds). */
const bound = (op: string, n: string, least: string, more: string) =>
  op.includes('=') ? `${least} ${n}` : `${more} ${n}`;

/**
 * The API's message for a field, as a sentence that says what to do. The service's own checks and
 * zod's usual phrasings are rewritten; anything else keeps its words, its field names read as labels.
 */
export function plainMessage(message: string, labels: FieldLabels = {}): string {
  const label = (name: string) => (labels[name] ? quoted(labels[name]) : name.replace(/_/g, ' '));
  const rules: Array<[RegExp, (...m: string[]) => string]> = [
    [/^Must be after (\w+)$/, (_, other) => `Choose a time after ${label(other)}.`],
    [
      /^(\w+) \(.*\) must be after (\w+) \(.*\)$/,
      (_, a, b) => `Choose ${label(a)} after ${label(b)}: it closes before it opens.`,
    ],
    [/^Must be one of the options$/, () => 'Choose the correct answer among the options.'],
    [/^"(.*)" is not one of the options$/s, (_, a) => `“${a}” is not one of the options: choose among the options.`],
    [/^"(.*)" is named twice$/s, (_, a) => `“${a}” is chosen twice: choose it once.`],
    [
      /^Duplicates option (\d+) \("(.*)"\)$/s,
      (_, n, o) => `“${o}” is written twice (as option ${n} too): make each option different.`,
    ],
    [/^Must be a finite number, e\.g\. "(.*)"$/, (_, e) => `Write a number, such as ${e}.`],
    [
      /^A test needs at least one question to be published$/,
      () => 'Add at least one question (or a random draw) before publishing.',
    ],
    [/^A test needs a timer \(minutes\) to be published$/, () => 'Set a timer, in minutes, before publishing.'],
    [
      /^Pool (\d+) draws (\d+) questions but holds (\d+)/,
      (_, _n, draw, held) =>
        `This pool can draw at most ${held} (its folder holds ${held} such questions, it asks for ${draw}): draw fewer, or add questions to the folder.`,
    ],
    [
      /^These questions no longer exist in this organization: (.*)$/s,
      () => 'Some questions of the test were deleted from the bank: remove them from the test.',
    ],
    [/^No such folder in this organization/, () => 'That folder no longer exists: choose another.'],
    [
      /^Too small: expected number to be (>=?)(\S+)$/,
      (_, op, n) => `Enter a number ${bound(op, n, 'of at least', 'greater than')}.`,
    ],
    [
      /^Too big: expected number to be (<=?)(\S+)$/,
      (_, op, n) => `Enter a number ${bound(op, n, 'of at most', 'less than')}.`,
    ],
    [/^Too small: expected string to have >=?1 characters?$/, () => 'Fill this in.'],
    [/^Too small: expected string to have >=?(\d+) characters$/, (_, n) => `Write at least ${n} characters.`],
    [/^Too big: expected string to have <=?(\d+) characters$/, (_, n) => `Shorten it to at most ${n} characters.`],
    [
      /^At most (\d+) characters(?: once sanitized)? \(it has (\d+)\)$/,
      (_, n, has) => `Shorten it to at most ${n} characters (it has ${has}).`,
    ],
    [/^Too small: expected array to have >=?(\d+) items?$/, (_, n) => `Give at least ${n}.`],
    [/^Too big: expected array to have <=?(\d+) items?$/, (_, n) => `Give at most ${n}.`],
    [/^Invalid input: expected \w+, received undefined$/, () => 'Fill this in.'],
    [/^Invalid input: expected int/, () => 'Enter a whole number.'],
    [/^Invalid input: expected number/, () => 'Enter a number.'],
    [/^Invalid option: expected one of (.*)$/, (_, list) => `Choose one of ${list.replace(/\|/g, ', ')}.`],
  ];
  for (const [pattern, say] of rules) {
    const m = pattern.exec(message.trim());
    if (m) return say(...m);
  }
  // Field names in the API's words read as the form's labels.
  return sentence(message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => label(name)));
}

/** Sorts an error's details into the form's fields (in plain words) and the rest. */
export function problemsOf(details: readonly Detail[], labels: FieldLabels): Problems {
  const fields: Record<string, string[]> = {};
  const rest: Detail[] = [];
  const names = Object.keys(labels);
  for (const detail of details) {
    const field = detail.path ? fieldOfPath(detail.path, names) : null;
    if (field === null) rest.push(detail);
    else (fields[field] ??= []).push(plainMessage(detail.message, labels));
  }
  return { fields, rest };
}

/** A form's own checks (field → message, or nothing) as Problems. */
export function problemsFrom(checks: Record<string, string | null | undefined | false>): Problems {
  const fields: Record<string, string[]> = {};
  for (const [field, message] of Object.entries(checks)) if (message) fields[field] = [message];
  return { fields, rest: [] };
}

/** The comparison the service makes of options (NFKC, trimmed, spacing collapsed, any case). */
export const comparableOption = (value: string) => value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The first option that repeats an earlier one (as the service compares them), with both positions (from 1). */
export function duplicateOption(options: readonly string[]): { option: string; first: number; again: number } | null {
  const seen = new Map<string, number>();
  for (const [i, option] of options.entries()) {
    const key = comparableOption(option);
    const first = seen.get(key);
    if (first !== undefined) return { option, first: first + 1, again: i + 1 };
    seen.set(key, i);
  }
  return null;
}

/** The one spelling of a number the service accepts as a numeric key (functions/src/shared/numberText.ts). */
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const isNumberText = (text: string) => NUMBER_TEXT.test(text.trim()) && Number.isFinite(Number(text.trim()));
