import {
  elements,
  Refusal,
  textElement,
  type MoodleReader,
  type MoodleXmlMapping,
  type QuestionReader,
} from '../../interchange';

// An ordering in Moodle XML: Moodle's ordering (the qtype_ordering plugin, not core), its answers the
// items with their positions as fractions, scored all or nothing or by the longest ordered subset.

/** qtype_ordering's grading types, by the numbers older versions wrote. */
const ORDERING_GRADING = [
  'ALL_OR_NOTHING',
  'ABSOLUTE_POSITION',
  'RELATIVE_NEXT_EXCLUDE_LAST',
  'RELATIVE_NEXT_INCLUDE_LAST',
  'RELATIVE_ONE_PREVIOUS_AND_NEXT',
  'RELATIVE_ALL_PREVIOUS_AND_NEXT',
  'LONGEST_ORDERED_SUBSET',
  'LONGEST_CONTIGUOUS_SUBSET',
  'RELATIVE_TO_CORRECT',
];

/** Moodle's grading type as ours: all or nothing, or else the longest ordered subset, saying what differs. */
function orderingScore(r: QuestionReader): 'all_or_nothing' | 'partial' {
  const written = r.value('gradingtype') ?? '';
  const grading = /^-?\d+$/.test(written) ? (ORDERING_GRADING[Number(written) + 1] ?? written) : written.toUpperCase();
  if (grading === 'ALL_OR_NOTHING') return 'all_or_nothing';
  if (grading === 'LONGEST_ORDERED_SUBSET') return 'partial';
  const how =
    grading === 'LONGEST_CONTIGUOUS_SUBSET'
      ? "Moodle's longest contiguous subset counts only items next to each other"
      : grading === ''
        ? 'the file names no grading type'
        : `Moodle's grading type ${grading} scores the order its own way`;
  r.warnings.push(
    `Scored by the longest ordered subset (items in the right relative order, not necessarily adjacent, ÷ items): ${how}`,
  );
  return 'partial';
}

/** qtype_ordering: the items in the right order (by their `fraction`, which is the position), scored whole or in part. */
const ordering: MoodleReader = (r) => {
  const answers = elements(r.question, 'answer').map((element, i) => {
    const position = Number(element.attrs.fraction ?? i + 1);
    return { element, i, position: Number.isFinite(position) ? position : i + 1 };
  });
  if (answers.length === 0) throw new Refusal('It has no items to order');
  answers.sort((a, b) => a.position - b.position || a.i - b.i);
  const options = answers.map((a) => r.optionText(a.element, r.textFormat, `Item ${a.i + 1}`, 'items'));
  const selecttype = r.value('selecttype');
  if (selecttype && selecttype.toUpperCase() !== 'ALL' && selecttype !== '0')
    r.warnings.push(
      `Moodle shows takers ${r.value('selectcount') ?? 'some'} of the items (selecttype ${selecttype}); here every item is shown`,
    );
  // Items are listed one under another here, as Moodle's VERTICAL layout (0 in older files) does.
  const layout = r.value('layouttype');
  if (layout && !['VERTICAL', '0'].includes(layout.toUpperCase())) r.notCarried.push(`layout ${layout}`);
  r.noteCombinedFeedback();
  return r.assemble({ question_type: 'ordering', options, ordering_score: orderingScore(r) });
};

export const orderingMoodleXml: MoodleXmlMapping = {
  reads: { ordering },
  write: (w) => ({
    type: 'ordering',
    body:
      textElement('layouttype', 'VERTICAL') +
      textElement('selecttype', 'ALL') +
      textElement('selectcount', '0') +
      textElement('gradingtype', w.q.ordering_score === 'partial' ? 'LONGEST_ORDERED_SUBSET' : 'ALL_OR_NOTHING') +
      textElement('showgrading', 'SHOW') +
      // The items in the right order: Moodle's fraction is the position.
      w.q.options.map((o, i) => w.optionAnswer({ fraction: String(i + 1) }, o)).join(''),
    notes: ["ordering is Moodle's qtype_ordering plugin, not core: a Moodle without it refuses this question"],
  }),
};
