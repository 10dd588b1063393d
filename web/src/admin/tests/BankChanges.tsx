import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, formatTime, plural, useLoad } from '../../ui';
import { plainTextOf } from '../../questionHtml';

type Test = Schemas['Test'];

/** How the admin page names what differs from the frozen copy. */
const FIELD_WORDS: Record<string, string> = {
  question_text: 'text',
  question_type: 'type',
  options: 'options',
  correct_answer: 'correct answer',
  tolerance: 'tolerance',
  marks: 'marks',
  difficulty: 'difficulty',
  max_words: 'word limit',
  attachments: 'files it takes',
  attachments_required: 'files it requires',
  title: 'title',
  text_format: 'text format',
  feedback: 'feedback',
  option_feedback: 'option feedback',
  option_credits: 'option credits',
  alternatives: 'accepted answers',
  case_sensitive: 'case sensitivity',
};

/**
 * The live version's questions that the bank changed or deleted since it was frozen: the test page
 * shows the bank's text, students get the frozen one, and only a new version brings the bank's.
 */
export function BankChanges({ test }: { test: Test }) {
  const { api } = useSession();
  const version = test.version;
  const loaded = useLoad(
    () =>
      version == null
        ? Promise.resolve(undefined)
        : unwrap(
            api.GET('/api/tests/{testId}/versions/{version}/bank-changes', {
              params: { path: { testId: test.id, version } },
            }),
          ),
    [api, test.id, version],
  );
  if (version == null) return null;
  if (loaded.error) return <ErrorMessage error={loaded.error} />;
  const changes = loaded.data;
  if (!changes || changes.changed.length === 0) return null;
  const next =
    test.status !== 'published'
      ? ''
      : test.pending_edit
        ? ` Publishing version ${version + 1} freezes the bank’s questions as they are then.`
        : ' To give them the bank’s current questions, edit the test as a new version and publish it.';
  return (
    <section className="card" aria-labelledby="bank-changes-heading" data-testid="bank-changes">
      <h2 id="bank-changes-heading">
        {plural(changes.changed.length, 'bank question')} changed since version {version} was frozen
      </h2>
      <p className="note">
        Version {version} was frozen on {formatTime(changes.frozen_at)}. Students taking it get the questions as they
        were then, not as the bank and this page show them now.{next}
      </p>
      <ul>
        {changes.changed.map((c) => (
          <li key={c.question_id}>
            <strong>{c.title ?? plainTextOf(c.question_text, c.text_format)}</strong>:{' '}
            {c.change === 'deleted'
              ? 'deleted from the bank'
              : `${c.fields.map((f) => FIELD_WORDS[f] ?? f).join(', ')} changed${c.updated_at ? ` (${formatTime(c.updated_at)})` : ''}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
