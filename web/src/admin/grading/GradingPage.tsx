import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { type Api, downloadFile, type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, marksText, useAction, useLoad } from '../../ui';
import { QuestionText } from '../../QuestionText';
import { plainTextOf } from '../../questionHtml';
import { AttachmentLinks, TYPES_MARKED_BY_PERSON, wordCount } from '../../questionTypes';
import { personName } from '../people';

type Test = Schemas['Test'];
type GradingItem = Schemas['GradingItem'];

/**
 * The bank's questions marked by a person (essays) that the test holds, fixed or in one of its pools:
 * the choices of the question filter.
 */
async function essaysOf(api: Api, test: Test): Promise<Array<{ id: string; text: string }>> {
  const found = new Map<string, string>();
  for (const questionType of TYPES_MARKED_BY_PERSON)
    for (let page = 1; page <= 10; page++) {
      const listed = await unwrap(
        api.GET('/api/questions', {
          params: { query: { client_id: test.client_id, question_type: questionType, page, limit: 100 } },
        }),
      );
      for (const q of listed.data) {
        const pooled = test.pools.some(
          (p) => p.folder_id === q.folder_id && (p.difficulty === null || p.difficulty === q.difficulty),
        );
        if (test.question_ids.includes(q.id) || pooled) found.set(q.id, plainTextOf(q.question_text, q.text_format));
      }
      if (page >= listed.pagination.pages) break;
    }
  return [...found].map(([id, text]) => ({ id, text }));
}

/**
 * The test's grading queue, one answer at a time: the answer (with its word count), then the marks
 * and feedback; "Save grade" posts the grade and the next answer of the queue takes its place.
 */
export function GradingPage() {
  const { testId = '' } = useParams();
  const { api } = useSession();
  const test = useLoad(
    async () => (await unwrap(api.GET('/api/tests/{testId}', { params: { path: { testId } } }))) as Test,
    [api, testId],
  );
  const essays = useLoad(() => (test.data ? essaysOf(api, test.data) : Promise.resolve(undefined)), [api, test.data]);
  const [questionId, setQuestionId] = useState('');
  const [blind, setBlind] = useState(true);
  // The queue is read a page of one at a time: the position is the page.
  const [position, setPosition] = useState(1);
  const [done, setDone] = useState<Schemas['GradedAttempt'] | null>(null);
  const queue = useLoad(
    () =>
      unwrap(
        api.GET('/api/tests/{testId}/grading', {
          params: {
            path: { testId },
            query: {
              ...(questionId ? { question_id: questionId } : {}),
              blind: blind ? 'true' : 'false',
              page: position,
              limit: 1,
            },
          },
        }),
      ),
    [api, testId, questionId, blind, position],
  );
  const total = queue.data?.pagination.total ?? 0;
  // A grade shortens the queue: past its end, step back to the last answer left.
  useEffect(() => {
    if (queue.data && queue.data.data.length === 0 && total > 0 && position > total) setPosition(total);
  }, [queue.data, total, position]);
  const item = queue.data?.data[0];
  const base = `/admin/tests/${encodeURIComponent(testId)}`;

  return (
    <>
      <h1>Grading{test.data ? `: ${test.data.test_name}` : ''}</h1>
      <p>
        <Link to={base}>Back to the test</Link> · <Link to={`${base}/analytics`}>Analytics</Link>
      </p>
      <ErrorMessage error={test.error ?? essays.error} />
      <section className="card" aria-labelledby="filter-heading">
        <h2 id="filter-heading">Which answers</h2>
        <div className="row">
          <Field label="Question">
            <select
              value={questionId}
              onChange={(e) => {
                setQuestionId(e.target.value);
                setPosition(1);
                setDone(null);
              }}
            >
              <option value="">Every essay</option>
              {(essays.data ?? []).map((q) => (
                <option key={q.id} value={q.id}>
                  {q.text}
                </option>
              ))}
            </select>
          </Field>
          <label className="option">
            <input
              type="checkbox"
              checked={blind}
              onChange={(e) => {
                setBlind(e.target.checked);
                setDone(null);
              }}
            />{' '}
            Blind: hide who wrote each answer
          </label>
        </div>
        <p data-testid="remaining">
          {queue.data ? `${total} ${total === 1 ? 'answer is' : 'answers are'} waiting for a grade.` : ' '}
        </p>
      </section>
      {done && (
        <p role="status" className="note">
          Grade saved ({marksText(done.marks)}). The attempt’s score is now {done.score} of {done.total_marks}
          {done.grading === 'complete'
            ? ' (final: every essay is graded).'
            : ` (${marksText(done.pending_marks)} still awaiting grading).`}
        </p>
      )}
      <ErrorMessage error={queue.error} />
      {!queue.data && queue.loading && <Loading what="Loading the grading queue" />}
      {queue.data && !item && total === 0 && <p>No essay is waiting for a grade.</p>}
      {item && (
        <GradeItem
          key={`${item.attempt_id}/${item.question_id}`}
          item={item}
          position={position}
          total={total}
          onGraded={(graded) => {
            setDone(graded);
            queue.reload();
          }}
          onMove={(by) => {
            setDone(null);
            setPosition((p) => Math.min(Math.max(p + by, 1), Math.max(total, 1)));
          }}
        />
      )}
    </>
  );
}

function GradeItem({
  item,
  position,
  total,
  onGraded,
  onMove,
}: {
  item: GradingItem;
  position: number;
  total: number;
  onGraded: (graded: Schemas['GradedAttempt']) => void;
  onMove: (by: number) => void;
}) {
  const { api, auth } = useSession();
  const action = useAction();
  const [marks, setMarks] = useState('');
  const [feedback, setFeedback] = useState('');
  const words = wordCount(item.student_answer);
  const save = () =>
    action.run(async () => {
      const graded = await unwrap(
        api.POST('/api/attempts/{attemptId}/grades', {
          params: { path: { attemptId: item.attempt_id } },
          body: { question_id: item.question_id, marks: Number(marks), feedback: feedback.trim() ? feedback : null },
        }),
      );
      onGraded(graded);
    });
  // Blind grading: the reply names nobody, so nobody is shown.
  const author = item.guest_name
    ? `${item.guest_name} (guest)`
    : item.student_id
      ? personName({ name: item.student_name, email: item.student_email, uid: item.student_id })
      : null;
  return (
    <article className="card" aria-labelledby="item-heading">
      <h2 id="item-heading">
        Answer {position} of {total}
      </h2>
      <p>
        <strong>
          <QuestionText text={item.question_text} format={item.text_format} />
        </strong>{' '}
        ({marksText(item.marks)})
      </p>
      <p>
        Submitted {formatTime(item.submitted_at)}
        {author ? ` by ${author}` : ''} · version {item.version}
      </p>
      <h3>The answer</h3>
      <div className="note" data-testid="essay-answer" style={{ whiteSpace: 'pre-wrap' }}>
        {item.student_answer}
      </div>
      <p data-testid="word-count">
        {words} {words === 1 ? 'word' : 'words'}
        {item.max_words !== null ? ` (at most ${item.max_words})` : ''}
      </p>
      <AttachmentLinks files={item.attachments ?? []} open={(file) => downloadFile(auth, file.url, file.name)} />
      <form
        aria-label="Grade this answer"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field label={`Marks (0 to ${item.marks})`}>
          <input
            type="number"
            required
            min="0"
            max={item.marks}
            step="any"
            value={marks}
            onChange={(e) => setMarks(e.target.value)}
          />
        </Field>
        <Field label="Feedback" hint="Shown to the taker with the review (optional, up to 2,000 characters)">
          <textarea rows={4} maxLength={2000} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
        </Field>
        <div className="row">
          <button type="submit" disabled={action.busy}>
            Save grade
          </button>
          <button type="button" className="secondary" disabled={position <= 1} onClick={() => onMove(-1)}>
            Previous answer
          </button>
          <button type="button" className="secondary" disabled={position >= total} onClick={() => onMove(1)}>
            Skip to the next answer
          </button>
        </div>
        <ErrorMessage error={action.error} />
      </form>
    </article>
  );
}
