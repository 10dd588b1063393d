import type { ExportQuestion } from '../../functions/src/interchange/exportModel';
import type { QuestionDraft } from '../../functions/src/interchange/model';

// Questions of the types with parts (docs/question-types.md), written for the
// GIFT and Moodle XML writers' tests and their round trips.

const base = {
  tolerance: null,
  max_words: null,
  marks: 2,
  difficulty: 'hard' as const,
  category: ['Parts'],
};

export const matching: ExportQuestion = {
  ...base,
  id: 'mt1',
  question_type: 'matching',
  title: 'Capitals',
  question_text: 'Match each country with its capital.',
  text_format: 'plain',
  stems: ['France', 'Italy', 'Spain'],
  // Matches in the stems' order, then the distractor: the order both formats write them in.
  options: ['Paris', 'Rome', 'Madrid', 'Berlin'],
  matches: ['Paris', 'Rome', 'Madrid'],
  correct_answer: '["Paris","Rome","Madrid"]',
  feedback: 'Berlin is in Germany.',
};

export const matchingHtml: ExportQuestion = {
  ...base,
  id: 'mt2',
  question_type: 'matching',
  title: 'Symbols',
  question_text: '<p>Match the <b>symbols</b> &amp; their names.</p>',
  text_format: 'html',
  // An html question's stems and options are HTML.
  stems: ['&lt; &amp; &gt;', 'a ~ b = c', '#{x}: "y"'],
  options: ['angle &amp; ampersand', 'tilde: equals', 'hash {braces}'],
  matches: ['angle &amp; ampersand', 'tilde: equals', 'hash {braces}'],
  correct_answer: '["angle &amp; ampersand","tilde: equals","hash {braces}"]',
};

export const ordering: ExportQuestion = {
  ...base,
  id: 'or1',
  question_type: 'ordering',
  title: 'Planets',
  question_text: 'Order the planets from the sun outwards.',
  text_format: 'plain',
  options: ['Mercury', 'Venus', 'Earth', 'Mars'],
  ordering_score: 'all_or_nothing',
  correct_answer: '["Mercury","Venus","Earth","Mars"]',
};

export const orderingPartial: ExportQuestion = {
  ...ordering,
  id: 'or2',
  title: 'Planets in part',
  ordering_score: 'partial',
};

export const gapFill: ExportQuestion = {
  ...base,
  id: 'gf1',
  question_type: 'gap_fill',
  title: 'Water',
  question_text: 'Water is [[1]] and boils at [[2]] °C, written [[3]], in the [[4]] state.',
  text_format: 'plain',
  options: [],
  gaps: [
    {
      kind: 'text',
      answers: [
        { answer: 'wet', credit: 100 },
        { answer: 'da*mp', credit: 50 },
      ],
    },
    {
      kind: 'numeric',
      weight: 2,
      answers: [
        { answer: '100', credit: 100, tolerance: 0.5 },
        { answer: '212', credit: 25 },
      ],
    },
    { kind: 'text', case_sensitive: true, answers: [{ answer: 'H2O', credit: 100 }] },
    {
      kind: 'select',
      weight: 3,
      options: ['solid', 'liquid', 'gas'],
      // In the options' order, as a drop-down's are read back.
      answers: [
        { answer: 'solid', credit: 50 },
        { answer: 'liquid', credit: 100 },
      ],
    },
  ],
  correct_answer: '["wet","100","H2O","liquid"]',
  feedback: 'Mostly.',
};

export const gapFillHtml: ExportQuestion = {
  ...base,
  id: 'gf2',
  question_type: 'gap_fill',
  title: 'Markup',
  question_text: '<p>Write [[1]] or choose [[2]].</p>',
  text_format: 'html',
  options: [],
  gaps: [
    { kind: 'text', answers: [{ answer: 'a < b & c > d', credit: 100 }] },
    {
      kind: 'select',
      options: ['x}y', 'p#q', 'r~s', 'u/v', 'w"z', 'back\\slash'],
      answers: [{ answer: 'p#q', credit: 100 }],
    },
  ],
  correct_answer: '["a < b & c > d","p#q"]',
};

export const gapFillDrag: ExportQuestion = {
  ...base,
  id: 'gf3',
  question_type: 'gap_fill',
  title: 'Fruit',
  question_text: '[[1]] is yellow, [[2]] is red.',
  text_format: 'plain',
  options: [],
  gaps: [
    { kind: 'drag', answers: [{ answer: 'Banana', credit: 100 }] },
    { kind: 'drag', answers: [{ answer: 'Cherry', credit: 100 }] },
  ],
  drag_options: ['Banana', 'Cherry', 'Plum'],
  correct_answer: '["Banana","Cherry"]',
};

export const hottext: ExportQuestion = {
  ...base,
  id: 'ht1',
  question_type: 'hottext',
  title: 'Verbs',
  question_text: 'The cat [[sat]] on the [[mat]] and [[slept]].',
  text_format: 'plain',
  options: ['sat', 'mat', 'slept'],
  correct_answer: 'sat|slept',
  max_choices: 2,
};

const DRAFT_FIELDS = [
  'question_type',
  'title',
  'question_text',
  'text_format',
  'marks',
  'difficulty',
  'feedback',
  'options',
  'stems',
  'matches',
  'ordering_score',
  'gaps',
  'drag_options',
  'drag_reusable',
] as const;

/** The draft a question read back must equal: its fields a draft holds, none of them empty. */
export function expectedDraft(q: ExportQuestion): Partial<QuestionDraft> {
  const draft: Record<string, unknown> = {};
  for (const field of DRAFT_FIELDS) {
    const value = q[field];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    draft[field] = value;
  }
  return draft;
}
