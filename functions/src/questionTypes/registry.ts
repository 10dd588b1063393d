import { z } from 'zod';
import { calculated } from './calculated/module';
import { description } from './description/module';
import { essay } from './essay/module';
import { gapFill } from './gapFill/module';
import { hotspot } from './hotspot/module';
import { hottext } from './hottext/module';
import { matching } from './matching/module';
import type { QuestionTypeModule, TypedField } from './module';
import { multipleChoice } from './multipleChoice/module';
import { multipleSelect } from './multipleSelect/module';
import { numeric } from './numeric/module';
import { ordering } from './ordering/module';
import { shortAnswer } from './shortAnswer/module';
import { trueFalse } from './trueFalse/module';

// Pure: the registry of question types, the one list the rest of the code asks.
// A new type is a new folder and one entry here.

const MODULES = [
  multipleChoice,
  multipleSelect,
  trueFalse,
  shortAnswer,
  numeric,
  essay,
  matching,
  ordering,
  gapFill,
  hottext,
  calculated,
  hotspot,
  description,
] as const;
type Modules = typeof MODULES;
/** Of a tuple of modules, the tuple of their `part`s (mapped over a type parameter, so a tuple stays one). */
type Each<T extends readonly unknown[], Part extends string> = {
  readonly [K in keyof T]: T[K] extends Record<Part, infer Value> ? Value : never;
};

/** Every question type's module, in the order the API lists the types. */
export const QUESTION_TYPE_MODULES: ReadonlyArray<QuestionTypeModule> = MODULES;

/** The question types' names, in the registry's order. */
export const QUESTION_TYPES = MODULES.map((type) => type.name) as unknown as Each<Modules, 'name'>;
export type QuestionType = (typeof QUESTION_TYPES)[number];

const byName = new Map<string, QuestionTypeModule>(MODULES.map((type) => [type.name, type]));

export const isQuestionType = (name: unknown): name is QuestionType => typeof name === 'string' && byName.has(name);

/** The module of a stored or validated question's type; a name the registry does not hold is a bug, thrown. */
export function questionTypeOf(name: string): QuestionTypeModule {
  const type = byName.get(name);
  if (!type) throw new Error(`Unknown question type "${name}"`);
  return type;
}

/** The types that take `field`, in the registry's order. */
export const typesTaking = (field: TypedField): QuestionType[] =>
  MODULES.filter(
    (type) =>
      (type.extras as readonly string[]).includes(field) || (type.ownFields as readonly string[]).includes(field),
  ).map((type) => type.name);

/** The body of POST and PUT /api/questions, and the contents of one CSV row: one schema per type, joined on question_type. */
export const QuestionInput = z
  .discriminatedUnion('question_type', MODULES.map((type) => type.input) as unknown as Each<Modules, 'input'>, {
    error: (issue) =>
      issue.code === 'invalid_union' ? `question_type must be one of ${QUESTION_TYPES.join(', ')}` : undefined,
  })
  .meta({ id: 'QuestionInput' });
export type QuestionInput = z.infer<typeof QuestionInput>;
