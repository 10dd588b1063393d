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

/** What a list of rows edits: its fields (key, word, input type), its rows, and what changes them. */
interface RowsProps<Row extends object> {
  legend: string;
  hint: string;
  /** A row's name in its labels and buttons ("Variable", "Choice"). */
  what: string;
  fields: Array<[keyof Row & string, string, string]>;
  rows: Row[];
  empty: Row;
  /** The fewest rows the list keeps (its remove buttons are disabled then). */
  fewest: number;
  problems: string[] | undefined;
  change: (rows: Row[]) => void;
}

/** Rows of text fields, added and removed by buttons: a calculated's variables, its choices. */
function Rows<Row extends object>({
  legend,
  hint,
  what,
  fields,
  rows,
  empty,
  fewest,
  problems,
  change,
}: RowsProps<Row>) {
  const update = (i: number, field: keyof Row, value: string) =>
    change(rows.map((row, j) => (j === i ? { ...row, [field]: value } : row)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p className="hint">{hint}</p>
      {problems ? (
        <p className="field-error" role="alert">
          {problems.join(' ')}
        </p>
      ) : null}
      {rows.map((row, i) => (
        <div className="row" key={i}>
          {fields.map(([field, word, type]) => (
            <label key={field}>
              {what} {i + 1} {word}{' '}
              <input
                type={type}
                step={type === 'number' ? 'any' : undefined}
                value={String(row[field])}
                onChange={(e) => update(i, field, e.target.value)}
              />
            </label>
          ))}
          <button
            type="button"
            className="secondary"
            disabled={rows.length <= fewest}
            onClick={() => change(rows.filter((_, j) => j !== i))}
          >
            Remove {what.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => change([...rows, empty])}>
        Add a {what.toLowerCase()}
      </button>
    </fieldset>
  );
}

const CHOICE_FIELDS: Array<[keyof ChoiceDraft, string, string]> = [
  ['formula', 'formula', 'text'],
  ['credit', 'credit (%)', 'number'],
  ['decimals', 'decimals', 'number'],
];

/** The variables as rows (name, min, max, decimals). */
const Variables = ({ draft, set, problemsAt }: AuthorKeyProps) => (
  <Rows
    legend="Variables"
    hint="Each is drawn per attempt between its min and max, with its decimals (empty: 0), and written {name} in the question text."
    what="Variable"
    fields={VARIABLE_FIELDS}
    rows={variablesFor(draft)}
    empty={EMPTY_VARIABLE}
    fewest={1}
    problems={problemsAt('variables')}
    change={(rows) => set('variables', rows)}
  />
);

/** Choices shown as their values (Moodle's calculated multichoice), as rows. */
const Choices = ({ draft, set, problemsAt }: AuthorKeyProps) => (
  <Rows
    legend="Choices"
    hint="None: the taker types the number. Otherwise each is a formula shown to the taker as its value (with its decimals; empty: as computed), in an order of the attempt's own; the chosen one earns its credit. The formula above is the one with credit 100 (empty: taken from it)."
    what="Choice"
    fields={CHOICE_FIELDS}
    rows={draft.calculated_choices}
    empty={EMPTY_CHOICE}
    fewest={0}
    problems={problemsAt('choices')}
    change={(rows) => set('calculated_choices', rows)}
  />
);

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
