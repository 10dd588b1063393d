import type { QuestionTypeDefinition } from '../module';
import { anyPartsOf } from '../parts';

/** Items to put in the right order: the author writes them in it, takers see them shuffled. */
export const ordering: QuestionTypeDefinition = {
  type: 'ordering',
  label: 'Ordering',
  hasOptions: true,
  maxOptions: 20,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: 'Put the items in order.',
  takesAnswer: true,
  markedByPerson: false,
  // An order chooses every item: no option's feedback is more the taker's than another's.
  chosenOptions: () => [],
  shownAnswer: (answer) => anyPartsOf(answer).join(' → '),
  keyDraftOf: (q) => ({ ordering_score: q.ordering_score ?? 'all_or_nothing' }),
  keyLabel: 'Order',
  keyFieldLabels: { ordering_score: 'Scoring' },
  keyProblem: () => null,
  bodyOf: (draft, options) => ({
    question_type: 'ordering',
    options,
    // Sent only when partial, so a body reads as the default does.
    ...(draft.ordering_score === 'partial' ? { ordering_score: 'partial' as const } : {}),
  }),
  regradeKeyHint: 'The items in the right order, as a JSON array: ["first", "second"]',
  toleranceInKey: false,
  csvExample: null,
};

/** The items with the one at `from` moved to `to`, the others keeping their order. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = items.filter((_, i) => i !== from);
  next.splice(to, 0, items[from]);
  return next;
}

/**
 * Where a dragged item lands: the place among the others of the pointer's height `y`, given each
 * item's centre as drawn now (`centres`, the dragged one's at `from` left out), so a pointer past
 * an item's middle passes it.
 */
export const dropIndexOf = (centres: readonly number[], from: number, y: number): number =>
  centres.filter((centre, i) => i !== from && centre < y).length;
