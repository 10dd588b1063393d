import { CheckedField } from '../FormProblems';
import type { AuthorKeyProps } from './module';

/** The question form's field for a typed key, with what the type compares it by. */
export function TypedKey({ draft, set, problemsAt, hint }: AuthorKeyProps & { hint: string }) {
  return (
    <CheckedField label="Correct answer" problems={problemsAt('correct_answer')} hint={hint}>
      <input required value={draft.correct_text} onChange={(e) => set('correct_text', e.target.value)} />
    </CheckedField>
  );
}

/** The question form's field for a key's tolerance: the accepted difference, empty for exact. */
export function ToleranceField({ draft, set, problemsAt, hint }: AuthorKeyProps & { hint: string }) {
  return (
    <CheckedField label="Tolerance" problems={problemsAt('tolerance')} hint={hint}>
      <input
        type="number"
        min="0"
        step="any"
        value={draft.tolerance}
        onChange={(e) => set('tolerance', e.target.value)}
      />
    </CheckedField>
  );
}
