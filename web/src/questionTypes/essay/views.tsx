import { CheckedField } from '../../FormProblems';
import type { AuthorKeyProps, QuestionTypeModule, TakerInputProps } from '../module';
import { MarkedReview } from '../review';
import { useTypedAnswer } from '../typedAnswer';
import { AttachmentPicker } from './attachedFiles';
import { essay, MAX_ESSAY_ATTACHMENTS, MAX_ESSAY_WORDS, overWordLimit } from './definition';
import { wordCount } from './wordCount';

const TOO_LONG = 'too long';

/**
 * A textarea with a live word count (and the limit, when set); past the limit the answer is not
 * sent, since the service would refuse it, until it is shortened.
 */
function TakerInput({ question, name, label, value, onAnswer, files }: TakerInputProps) {
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
      {files && question.attachments ? (
        <AttachmentPicker
          name={name}
          most={question.attachments}
          required={question.attachments_required ?? 0}
          files={files}
        />
      ) : null}
    </>
  );
}

function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  return (
    <>
      <WordLimit draft={draft} set={set} problemsAt={problemsAt} />
      <CheckedField
        label="Files the student may attach"
        problems={problemsAt('attachments')}
        hint={`PDF, PNG or JPEG, 10 MB each, beside the written answer. 0 to ${MAX_ESSAY_ATTACHMENTS}; empty for none`}
      >
        <input
          type="number"
          min="0"
          max={MAX_ESSAY_ATTACHMENTS}
          step="1"
          value={draft.attachments}
          onChange={(e) => set('attachments', e.target.value)}
        />
      </CheckedField>
      <CheckedField
        label="Files the student must attach"
        problems={problemsAt('attachments_required')}
        hint="At most the files it may attach; empty for none required"
      >
        <input
          type="number"
          min="0"
          max={MAX_ESSAY_ATTACHMENTS}
          step="1"
          value={draft.attachments_required}
          onChange={(e) => set('attachments_required', e.target.value)}
        />
      </CheckedField>
    </>
  );
}

function WordLimit({ draft, set, problemsAt }: Pick<AuthorKeyProps, 'draft' | 'set' | 'problemsAt'>) {
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
