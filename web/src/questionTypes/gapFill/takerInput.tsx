// Loaded only when a test holds the type (its module's loader), with the attempt.
import { useRef } from 'react';
import { choiceLabelOf } from '../../questionHtml';
import { MarkedText } from '../markedText';
import type { TakerInputProps } from '../module';
import { NUMBER_CHECK } from '../numeric/numberAnswer';
import { answerOfParts, GAP_MARK, partsOf } from '../parts';
import { TypedLine } from '../typedAnswer';

/**
 * The text with a control at each gap: a typed line ("Gap n"), a drop-down of a select gap's
 * choices, and for a drag gap a drop-down of the chips (the non-drag way), a chip used in another
 * gap disabled unless chips are reusable. Every gap's part is kept in the one answer text.
 */
export function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
  const gaps = question.gaps ?? [];
  const parts = partsOf(value, gaps.length);
  // A typed gap saves after a pause: it must add to the answer as it is then, not as it was drawn.
  const latest = useRef(parts);
  latest.current = parts;
  const setPart = (i: number, part: string) => {
    const next = latest.current.map((p, j) => (j === i ? part : p));
    latest.current = next;
    onAnswer(answerOfParts(next));
  };
  const chips = question.drag_options ?? [];
  const usedElsewhere = (chip: string, i: number) =>
    !question.drag_reusable && parts.some((p, j) => j !== i && p === chip && gaps[j]?.kind === 'drag');
  const gapControl = (n: number) => {
    const i = n - 1;
    const gap = gaps[i];
    const label = `Gap ${n}`;
    const id = `${name}-gap-${n}`;
    if (!gap) return <span>[[{n}]]</span>;
    if (gap.kind === 'text' || gap.kind === 'numeric')
      return (
        <TypedLine
          id={id}
          label={label}
          value={parts[i]}
          onAnswer={(part) => setPart(i, part)}
          inputMode={gap.kind === 'numeric' ? 'decimal' : 'text'}
          check={gap.kind === 'numeric' ? NUMBER_CHECK : undefined}
        />
      );
    const choices = gap.kind === 'select' ? (gap.options ?? []) : chips;
    return (
      <select id={id} aria-label={label} value={parts[i]} onChange={(e) => setPart(i, e.target.value)}>
        <option value="">—</option>
        {choices.map((choice) => (
          <option key={choice} value={choice} disabled={gap.kind === 'drag' && usedElsewhere(choice, i)}>
            {choiceLabelOf(choice, question.text_format)}
          </option>
        ))}
      </select>
    );
  };
  return (
    <MarkedText
      text={question.question_text}
      format={question.text_format}
      mark={GAP_MARK}
      render={(_, inner) => gapControl(Number(inner))}
    />
  );
}
