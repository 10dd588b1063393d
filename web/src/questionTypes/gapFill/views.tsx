import { useRef } from 'react';
import { CheckedField } from '../../FormProblems';
import { MarkedText } from '../markedText';
import type { AuthorKeyProps, GapDraft, QuestionTypeModule, ReviewProps, TakerInputProps } from '../module';
import { numberProblem } from '../numeric/numberAnswer';
import { answerOfParts, GAP_MARK, pairedParts, partsOf } from '../parts';
import { PartsReview } from '../partsReview';
import { TypedLine } from '../typedAnswer';
import { gapFill, gapsFor, sameGapAnswer } from './definition';

// A numeric gap's entry that is no number is not sent: it would score as wrong.
const NUMBER_CHECK = { problemOf: numberProblem, unsaved: 'Not saved until it is a number.', testId: 'number-error' };

/**
 * The text with a control at each gap: a typed line ("Gap n"), a drop-down of a select gap's
 * choices, and for a drag gap a drop-down of the chips (the non-drag way), a chip used in another
 * gap disabled unless chips are reusable. Every gap's part is kept in the one answer text.
 */
function TakerInput({ question, name, value, onAnswer }: TakerInputProps) {
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
            {choice}
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

const KINDS: Array<[GapDraft['kind'], string]> = [
  ['text', 'Typed text'],
  ['numeric', 'Typed number'],
  ['select', 'Drop-down'],
  ['drag', 'Chip (drag, or choose from a list)'],
];

/** One gap's fields: its kind, accepted answers, and what its kind adds. */
function GapFields({ n, gap, update }: { n: number; gap: GapDraft; update: (change: Partial<GapDraft>) => void }) {
  return (
    <fieldset>
      <legend>Gap {n}</legend>
      <div className="row">
        <CheckedField label={`Gap ${n} kind`} problems={undefined}>
          <select value={gap.kind} onChange={(e) => update({ kind: e.target.value as GapDraft['kind'] })}>
            {KINDS.map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </CheckedField>
        <CheckedField label={`Gap ${n} weight`} problems={undefined} hint="Its share of the marks; empty for 1">
          <input
            type="number"
            min="0"
            step="any"
            value={gap.weight}
            onChange={(e) => update({ weight: e.target.value })}
          />
        </CheckedField>
      </div>
      <CheckedField
        label={`Gap ${n} accepted answers`}
        problems={undefined}
        hint={`One a line: the answer (full credit), or "answer | credit" with credit 0 to 100${gap.kind === 'numeric' ? ', or "answer | credit | tolerance"' : ''}`}
      >
        <textarea rows={2} value={gap.answers} onChange={(e) => update({ answers: e.target.value })} />
      </CheckedField>
      {gap.kind === 'select' && (
        <CheckedField
          label={`Gap ${n} choices`}
          problems={undefined}
          hint="One a line; every accepted answer among them"
        >
          <textarea rows={3} value={gap.options} onChange={(e) => update({ options: e.target.value })} />
        </CheckedField>
      )}
      {gap.kind === 'numeric' && (
        <CheckedField
          label={`Gap ${n} tolerance`}
          problems={undefined}
          hint="Accepted absolute difference; empty for exact"
        >
          <input
            type="number"
            min="0"
            step="any"
            value={gap.tolerance}
            onChange={(e) => update({ tolerance: e.target.value })}
          />
        </CheckedField>
      )}
      {gap.kind === 'text' && (
        <label className="option">
          <input
            type="checkbox"
            checked={gap.case_sensitive}
            onChange={(e) => update({ case_sensitive: e.target.checked })}
          />{' '}
          Gap {n}: case matters
        </label>
      )}
    </fieldset>
  );
}

/** The gaps the text numbers ([[1]], [[2]], …), each with its fields, and the chips of the drag gaps. */
function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  const gaps = gapsFor(draft);
  const problems = problemsAt('correct_answer') ?? problemsAt('gaps');
  const update = (i: number, change: Partial<GapDraft>) =>
    set(
      'gaps',
      gaps.map((g, j) => (j === i ? { ...g, ...change } : g)),
    );
  return (
    <fieldset>
      <legend>Gaps</legend>
      <p className="hint">Write each gap in the question text as [[1]], [[2]], …: its fields appear here.</p>
      {problems ? (
        <p className="field-error" role="alert">
          {problems.join(' ')}
        </p>
      ) : null}
      {gaps.map((gap, i) => (
        <GapFields key={i} n={i + 1} gap={gap} update={(change) => update(i, change)} />
      ))}
      {gaps.some((g) => g.kind === 'drag') && (
        <>
          <CheckedField
            label="Chips"
            problems={problemsAt('drag_options')}
            hint="One a line: every chip gap’s answers and any distractors"
          >
            <textarea rows={3} value={draft.drag_options} onChange={(e) => set('drag_options', e.target.value)} />
          </CheckedField>
          <label className="option">
            <input
              type="checkbox"
              checked={draft.drag_reusable}
              onChange={(e) => set('drag_reusable', e.target.checked)}
            />{' '}
            A chip may fill several gaps
          </label>
        </>
      )}
    </fieldset>
  );
}

/** Per gap, the taker's part beside its full-credit answer. */
const Review = (props: ReviewProps) => {
  const kinds = (props.question?.gaps ?? []).map((g) => g.kind);
  return (
    <PartsReview
      {...props}
      caption="Your gaps"
      parts={pairedParts(
        props.item,
        (i) => `Gap ${i + 1}`,
        (answer, key, i) => sameGapAnswer(answer, key, kinds[i]),
      )}
    />
  );
};

export const gapFillModule: QuestionTypeModule = { ...gapFill, views: { TakerInput, AuthorKey, Review } };
