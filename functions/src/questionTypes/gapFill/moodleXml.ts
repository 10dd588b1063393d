import {
  element,
  elements,
  formatNumber,
  imageDimensions,
  labelledImageDraft,
  MEDIA_PLACEHOLDER,
  PLACED_ON_IMAGE,
  Refusal,
  textOf,
  type FieldText,
  type GapDraft,
  type MoodleReader,
  type MoodleWriter,
  type MoodleXmlMapping,
  type QuestionReader,
} from '../../interchange';
import { embeddedAnswerOf, gapsOfText } from './cloze';
import { dropBoxes } from './ddimageortext';

// A gap fill in Moodle XML: read from Moodle's cloze (multianswer, its embedded answers the gaps),
// gapselect (drop-downs), ddwtos (drag into text) and ddimageortext (labels dropped on an image,
// labelledImage.ts); written as a cloze, whatever it was read from.

/** Moodle's cloze (`multianswer`): each embedded answer is a gap (cloze.ts). */
const cloze: MoodleReader = (r) => {
  let gaps: GapDraft[] = [];
  // Moodle scores a cloze out of the sum of its gaps' weights.
  const draft = r.assemble(
    { question_type: 'gap_fill' },
    [],
    (text) => {
      const read = gapsOfText(text.text, text.html, r.warnings);
      gaps = read.gaps;
      return read.text;
    },
    () => ({
      marks: gaps.reduce((sum, gap) => sum + (gap.weight ?? 1), 0),
      why: ", the sum of its gaps' weights, as Moodle scores a cloze",
    }),
  );
  return { ...draft, gaps };
};

/** A choice of gapselect (`selectoption`) or ddwtos (`dragbox`): its text, its group, and whether it may be used again. */
interface GapChoice {
  text: string;
  group: string;
  infinite: boolean;
}

function gapChoices(r: QuestionReader, tag: string): GapChoice[] {
  const choices = elements(r.question, tag).map((choice, i) => ({
    text: r.optionText(choice, r.textFormat, `Choice ${i + 1}`, 'choices'),
    group: textOf(element(choice, 'group') ?? choice).trim() || '1',
    infinite: element(choice, 'infinite') !== undefined,
  }));
  if (choices.length === 0) throw new Refusal(`It has no choices (<${tag}>)`);
  return choices;
}

/** gapselect and ddwtos: `[[n]]` in the text is a gap whose answer is choice n; renumbered `[[1]]`… in text order. */
function placedChoices(
  r: QuestionReader,
  tag: string,
): { choices: GapChoice[]; places: GapChoice[]; rewrite: (text: FieldText) => string } {
  const choices = gapChoices(r, tag);
  const places: GapChoice[] = [];
  const rewrite = (text: FieldText) => {
    const numbered = text.text.replace(/\[\[(\d+)\]\]/g, (_whole, n: string) => {
      const choice = choices[Number(n) - 1];
      if (!choice) throw new Refusal(`The gap [[${n}]] names no choice (there are ${choices.length})`);
      places.push(choice);
      return `[[${places.length}]]`;
    });
    if (places.length === 0) throw new Refusal('Its text has no gaps ([[1]], [[2]]…)');
    return numbered;
  };
  return { choices, places, rewrite };
}

/** Moodle's gapselect ("Select missing words"): each gap a drop-down of the choices of its answer's group. */
const gapselect: MoodleReader = (r) => {
  const { choices, places, rewrite } = placedChoices(r, 'selectoption');
  r.noteCombinedFeedback();
  const draft = r.assemble({ question_type: 'gap_fill' }, [], rewrite);
  const gaps = places.map((choice, i): GapDraft => {
    const options = [...new Set(choices.filter((c) => c.group === choice.group).map((c) => c.text))];
    if (options.length < 2)
      throw new Refusal(
        `Gap ${i + 1} ("${choice.text}"): its group ${choice.group} has one choice, a drop-down needs two`,
      );
    return { kind: 'select', answers: [{ answer: choice.text, credit: 100 }], options };
  });
  return { ...draft, gaps };
};

/** Moodle's ddwtos ("Drag and drop into text"): drag gaps over one set of chips. */
const ddwtos: MoodleReader = (r) => {
  const { choices, places, rewrite } = placedChoices(r, 'dragbox');
  r.noteCombinedFeedback();
  const draft = r.assemble({ question_type: 'gap_fill' }, [], rewrite);
  const dragOptions = [...new Set(choices.map((c) => c.text))];
  if (dragOptions.length < choices.length) r.warnings.push('Choices of the same text are one chip here');
  if (new Set(choices.map((c) => c.group)).size > 1)
    r.warnings.push("The choices' groups are not carried: here any chip may be dropped into any gap");
  const infinite = choices.filter((c) => c.infinite).length;
  if (infinite > 0 && infinite < choices.length)
    r.warnings.push(
      `${infinite} of the ${choices.length} choices may be used more than once in Moodle; here every chip may`,
    );
  const gaps = places.map((choice): GapDraft => ({ kind: 'drag', answers: [{ answer: choice.text, credit: 100 }] }));
  return { ...draft, gaps, drag_options: dragOptions, ...(infinite > 0 ? { drag_reusable: true } : {}) };
};
/** Labels dropped on an image: a gap fill, the image in its text and a drag gap per drop box (labelledImage.ts). */
const ddimageortext: MoodleReader = (r) => {
  const background = r.backgroundImage();
  if (!background) throw new Refusal('It has no background image');
  const size = imageDimensions(background.bytes);
  const { zones, labels, reusable } = dropBoxes(r.question, r.warnings);
  let placed: ReturnType<typeof labelledImageDraft> | undefined;
  const draft = r.assemble({ question_type: 'gap_fill' }, [], (text) => {
    const src = `${MEDIA_PLACEHOLDER}${encodeURIComponent(background.path)}`;
    placed = labelledImageDraft(text.text, { src, ...size }, zones, labels, reusable);
    return placed.question_text;
  });
  r.warnings.push(PLACED_ON_IMAGE);
  r.noteCombinedFeedback();
  return { ...draft, ...placed!, question_text: draft.question_text };
};

/** The text with each `[[n]]` written as gap n's embedded answer. */
const write: MoodleWriter = (w) => {
  const { q } = w;
  const notes: string[] = [];
  const gaps = q.gaps ?? [];
  const order: number[] = [];
  const text = q.question_text.replace(/\[\[(\d+)\]\]/g, (whole, n: string) => {
    const gap = gaps[Number(n) - 1];
    if (!gap) return whole;
    order.push(Number(n));
    const written = embeddedAnswerOf(gap, Number(n), w.html, q.drag_options ?? []);
    notes.push(...written.notes);
    return written.text;
  });
  if (order.some((n, i) => n !== i + 1)) notes.push('the gaps are numbered in the order of the text when read back');
  const weights = gaps.reduce((sum, g) => sum + Math.max(1, Math.round(g.weight ?? 1)), 0);
  if (weights !== q.marks)
    notes.push(
      `Moodle scores a cloze out of the sum of its gaps' weights (${weights}), not its defaultgrade (${formatNumber(q.marks)})`,
    );
  if (gaps.some((g) => g.kind === 'drag') && !q.drag_reusable)
    notes.push('each chip used once is not carried: a drop-down may repeat a choice');
  return { type: 'cloze', body: '', notes, text };
};

export const gapFillMoodleXml: MoodleXmlMapping = {
  reads: { cloze, multianswer: cloze, gapselect, ddwtos, ddimageortext },
  write,
};
