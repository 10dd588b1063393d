import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, GapDraft, QuestionTypeModule, ReviewProps } from '../module';
import { pairedParts } from '../parts';
import { PartsReview } from '../partsReview';
import { gapFill, gapsFor, sameGapAnswer } from './definition';

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

export const gapFillModule: QuestionTypeModule = {
  ...gapFill,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
