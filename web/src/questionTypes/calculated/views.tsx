import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, ChoiceDraft, KeyDraft, QuestionTypeModule, ReviewProps, VariableDraft } from '../module';
import { enteredNumber } from '../numeric/numberInput';
import { KeyedReview } from '../review';
import { ToleranceField } from '../typedKey';
import { calculated, EMPTY_CHOICE, EMPTY_VARIABLE, FORMULA_HINT, variablesFor } from './definition';

const VARIABLE_FIELDS: Array<[keyof VariableDraft, string, string]> = [
  ['name', 'name', 'text'],
  ['min', 'min', 'number'],
  ['max', 'max', 'number'],
  ['decimals', 'decimals', 'number'],
];

/** The variables as rows (name, min, max, decimals), added and removed by buttons. */
function Variables({ draft, set, problemsAt }: AuthorKeyProps) {
  const variables = variablesFor(draft);
  const update = (i: number, change: Partial<VariableDraft>) =>
    set(
      'variables',
      variables.map((v, j) => (j === i ? { ...v, ...change } : v)),
    );
  const problems = problemsAt('variables');
  return (
    <fieldset>
      <legend>Variables</legend>
      <p className="hint">
        Each is drawn per attempt between its min and max, with its decimals (empty: 0), and written {'{name}'} in the
        question text.
      </p>
      {problems ? (
        <p className="field-error" role="alert">
          {problems.join(' ')}
        </p>
      ) : null}
      {variables.map((v, i) => (
        <div className="row" key={i}>
          {VARIABLE_FIELDS.map(([field, word, type]) => (
            <label key={field}>
              Variable {i + 1} {word}{' '}
              <input
                type={type}
                step={type === 'number' ? 'any' : undefined}
                value={v[field]}
                onChange={(e) => update(i, { [field]: e.target.value })}
              />
            </label>
          ))}
          <button
            type="button"
            className="secondary"
            disabled={variables.length < 2}
            onClick={() =>
              set(
                'variables',
                variables.filter((_, j) => j !== i),
              )
            }
          >
            Remove variable {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => set('variables', [...variables, EMPTY_VARIABLE])}>
        Add a variable
      </button>
    </fieldset>
  );
}

const CHOICE_FIELDS: Array<[keyof ChoiceDraft, string, string]> = [
  ['formula', 'formula', 'text'],
  ['credit', 'credit (%)', 'number'],
  ['decimals', 'decimals', 'number'],
];

/** Choices shown as their values (Moodle's calculated multichoice), as rows added and removed by buttons. */
function Choices({ draft, set, problemsAt }: AuthorKeyProps) {
  const choices = draft.calculated_choices;
  const update = (i: number, change: Partial<ChoiceDraft>) =>
    set(
      'calculated_choices',
      choices.map((c, j) => (j === i ? { ...c, ...change } : c)),
    );
  const problems = problemsAt('choices');
  return (
    <fieldset>
      <legend>Choices</legend>
      <p className="hint">
        None: the taker types the number. Otherwise each is a formula shown to the taker as its value (with its
        decimals; empty: as computed), in an order of the attempt's own; the chosen one earns its credit. The formula
        above is the one with credit 100 (empty: taken from it).
      </p>
      {problems ? (
        <p className="field-error" role="alert">
          {problems.join(' ')}
        </p>
      ) : null}
      {choices.map((c, i) => (
        <div className="row" key={i}>
          {CHOICE_FIELDS.map(([field, word, type]) => (
            <label key={field}>
              Choice {i + 1} {word}{' '}
              <input
                type={type}
                step={type === 'number' ? 'any' : undefined}
                value={c[field]}
                onChange={(e) => update(i, { [field]: e.target.value })}
              />
            </label>
          ))}
          <button
            type="button"
            className="secondary"
            onClick={() =>
              set(
                'calculated_choices',
                choices.filter((_, j) => j !== i),
              )
            }
          >
            Remove choice {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => set('calculated_choices', [...choices, EMPTY_CHOICE])}>
        Add a choice
      </button>
    </fieldset>
  );
}

function AuthorKey(props: AuthorKeyProps) {
  const { draft, set, problemsAt } = props;
  return (
    <>
      <Variables {...props} />
      <CheckedField
        label="Formula"
        problems={problemsAt('correct_answer') ?? problemsAt('formula')}
        hint={FORMULA_HINT}
      >
        <input
          required={draft.calculated_choices.length === 0}
          value={draft.formula}
          onChange={(e) => set('formula', e.target.value)}
        />
      </CheckedField>
      <Choices {...props} />
      <div className="row">
        <ToleranceField {...props} hint="The accepted difference; empty for exact" />
        <CheckedField label="Tolerance type" problems={problemsAt('tolerance_type')}>
          <select
            value={draft.tolerance_type}
            onChange={(e) => set('tolerance_type', e.target.value as KeyDraft['tolerance_type'])}
          >
            <option value="absolute">Absolute (a difference)</option>
            <option value="relative">Relative (a share of the answer: 0.01 = 1 %)</option>
          </select>
        </CheckedField>
      </div>
    </>
  );
}

/**
 * The taker's number and this attempt's right answer (the service's, as a number). The review item
 * does not say whether its tolerance is absolute or relative, so the tolerance is not shown.
 */
const Review = (props: ReviewProps) => (
  <KeyedReview
    {...props}
    item={{ ...props.item, tolerance: null }}
    entered={enteredNumber}
    shown={calculated.shownAnswer}
  />
);

export const calculatedModule: QuestionTypeModule = {
  ...calculated,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
