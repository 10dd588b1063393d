import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, QuestionTypeModule, TakerInputProps } from '../module';
import { MarkedReview } from '../review';
import { useTypedAnswer } from '../typedAnswer';
import { essay, MAX_ESSAY_WORDS, overWordLimit } from './definition';
import { wordCount } from './wordCount';

const TOO_LONG = 'too long';

/**
 * A textarea with a live word count (and the limit, when set); past the limit the answer is not
 * sent, since the service would refuse it, until it is shortened.
 */
function TakerInput({ question, name, label, value, onAnswer }: TakerInputProps) {
  const maxWords = question.max_words ?? null;
  const countId = `${name}-words`;
  const { text, props } = useTypedAnswer({
    label,
    value,
    onAnswer,
    problemOf: (entry) => (overWordLimit(entry, maxWords) ? TOO_LONG : null),
  });
  const words = wordCount(text);
  const over = overWordLimit(text, maxWords);
  return (
    <>
      <textarea
        rows={8}
        maxLength={10000}
        style={{ width: '100%' }}
        aria-describedby={countId}
        aria-invalid={over || undefined}
        {...props}
      />
      <p id={countId} className={over ? 'warning' : undefined} data-testid="word-count">
        {words} {words === 1 ? 'word' : 'words'}
        {maxWords !== null ? ` of at most ${maxWords}` : ''}
        {over ? ': too long, shorten it to save it' : ''}
      </p>
    </>
  );
}

function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  return (
    <CheckedField
      label="Max words"
      problems={problemsAt('max_words')}
      hint={`Graded by a person. 1 to ${MAX_ESSAY_WORDS.toLocaleString('en')}; empty for no limit`}
    >
      <input
        type="number"
        min="1"
        max={MAX_ESSAY_WORDS}
        step="1"
        value={draft.max_words}
        onChange={(e) => set('max_words', e.target.value)}
      />
    </CheckedField>
  );
}

export const essayModule: QuestionTypeModule = { ...essay, views: { TakerInput, AuthorKey, Review: MarkedReview } };
