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
