import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { authorizedFetch, OfflineError, type Schemas, serverNow, unwrap } from '../api';
import { AttachmentLinks, chosenOptions, loadTakerInputs, reviewOf, takesAnswer } from '../questionTypes';
import { openAttachment, useAnswerFiles } from './answerFiles';
import { MediaLoaderContext, QuestionText, type MediaLoader } from '../QuestionText';
import { useSession } from '../session';
import { ErrorMessage, Loading, marksText, useAction } from '../ui';
import { AnswerSync, type SyncState } from './answerSync';
import { signedInQueue } from './answerQueue';
import { BackToTests } from './BackToTests';
import { PassageView, QuestionView } from './QuestionView';
import { passageRuns } from './passages';
import { Countdown } from './Countdown';
import { secondsLeft } from './countdown';
import { useDeadlineWatch } from './deadlineWatch';
import { IntegrityRecorder, useIntegrityEvents } from './integrityEvents';

type Attempt = Schemas['Attempt'] | Schemas['ReviewedAttempt'];
type ReviewItem = Schemas['ReviewItem'];

/**
 * A ref whose element takes the focus when it first appears: the new content after a start
 * (the test's heading) or a submit (the score), so a keyboard or screen-reader user goes on
 * from there instead of from the top of the page or a button that is gone.
 */
function useFocusOnArrival<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** Taking an attempt: start, resume after a reload or a closed tab, save, submit, then the score and the review. */
export function AttemptPage() {
  const { attemptId = '' } = useParams();
  const { api, auth, data, user } = useSession();
  // Within <SignedIn>: there is a user, and only its own tokens and cached attempts are read.
  const { attemptTokens } = data!;
  const queue = signedInQueue(user!.uid);
  const token = attemptTokens.get(attemptId);
  const headers = useMemo(() => (token ? { 'X-Attempt-Token': token } : undefined), [token]);
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  // The newest deadline read: an admin's extra time or a moved closing time reaches the open page.
  const [expiresAt, setExpiresAt] = useState('');
  const [offlineCopy, setOfflineCopy] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  // The questions' images and audio, read for this attempt with the same credentials as the attempt.
  const loadMedia = useCallback<MediaLoader>(
    async (mediaId) =>
      (
        await authorizedFetch(
          auth,
          `/api/media/${encodeURIComponent(mediaId)}?attempt_id=${encodeURIComponent(attemptId)}`,
          headers,
        )
      ).blob(),
    [auth, attemptId, headers],
  );

  /** The attempt as the service has it, kept as this browser's last reading of it (for an offline reload). */
  const readAttempt = useCallback(async () => {
    const read = (await unwrap(
      api.GET('/api/attempts/{attemptId}', { params: { path: { attemptId } }, headers }),
    )) as Attempt;
    await queue.rememberAttempt(attemptId, read);
    return read;
  }, [api, attemptId, headers, queue]);

  const load = useCallback(async () => {
    try {
      const read = await readAttempt();
      await loadTakerInputs(read.test_details.questions.map((q) => q.question_type));
      setAttempt(read);
      setExpiresAt(read.expires_at);
      setOfflineCopy(false);
      setLoadError(null);
    } catch (err) {
      const copy =
        err instanceof OfflineError ? ((await queue.rememberedAttempt(attemptId)) as Attempt | undefined) : undefined;
      if (!copy) return setLoadError(err);
      try {
        // Offline, the types' code comes from the service worker's precache, as the page's did.
        await loadTakerInputs(copy.test_details.questions.map((q) => q.question_type));
      } catch (failure) {
        return setLoadError(failure);
      }
      setAttempt(copy);
      setExpiresAt(copy.expires_at);
      setOfflineCopy(true);
    }
  }, [attemptId, queue, readAttempt]);
  useEffect(() => void load(), [load]);

  /** The light read of an open attempt: its deadline, or the score once the service closed it. Throws when it fails. */
  const refresh = useCallback(async () => {
    const read = await readAttempt();
    setOfflineCopy(false);
    if (read.status === 'submitted') setAttempt(read);
    else setExpiresAt(read.expires_at);
  }, [readAttempt]);

  if (loadError)
    return (
      <main>
        <h1>Attempt</h1>
        <ErrorMessage error={loadError} />
        <BackToTests />
      </main>
    );
  if (!attempt)
    return (
      <main>
        <Loading what="Loading your attempt" />
      </main>
    );
  return (
    <MediaLoaderContext value={loadMedia}>
      {attempt.status === 'submitted' ? (
        <SubmittedView attempt={attempt} headers={headers} />
      ) : (
        <Taking
          attempt={attempt}
          expiresAt={expiresAt || attempt.expires_at}
          refresh={refresh}
          headers={headers}
          offlineCopy={offlineCopy}
          onSubmitted={load}
        />
      )}
    </MediaLoaderContext>
  );
}

function Taking({
  attempt,
  expiresAt,
  refresh,
  headers,
  offlineCopy,
  onSubmitted,
}: {
  attempt: Attempt;
  expiresAt: string;
  refresh: () => Promise<void>;
  headers?: Record<string, string>;
  offlineCopy: boolean;
  onSubmitted: () => Promise<void>;
}) {
  const { api, auth, user } = useSession();
  const queue = signedInQueue(user!.uid);
  const attemptId = attempt.attempt_id;
  const files = useAnswerFiles(api, auth, attemptId, attempt.attachments, headers);
  const [answers, setAnswers] = useState<Record<string, string>>(() =>
    Object.fromEntries(attempt.answers.map((a) => [a.question_id, a.student_answer])),
  );
  const [sync, setSync] = useState<SyncState>({ kind: 'saved' });
  const [timeUp, setTimeUp] = useState(false);
  const syncRef = useRef<AnswerSync | null>(null);
  useDeadlineWatch(expiresAt, refresh);
  // Time given after 0:00 (within the service's grace) opens the page again.
  useEffect(() => {
    if (secondsLeft(expiresAt, serverNow()) > 0) setTimeUp(false);
  }, [expiresAt]);

  useEffect(() => {
    const answerSync = new AnswerSync(
      queue,
      attemptId,
      (batch) =>
        unwrap(
          api.POST('/api/attempts/{attemptId}/answers', {
            params: { path: { attemptId } },
            headers,
            body: { answers: batch },
          }),
        ),
      setSync,
    );
    syncRef.current = answerSync;
    for (const a of attempt.answers) answerSync.knowSeq(a.client_seq);
    // What this browser queued and the service has not confirmed is newer than what the service holds.
    void answerSync.pending().then((queued) => {
      for (const q of queued) answerSync.knowSeq(q.client_seq);
      if (queued.length > 0)
        setAnswers((current) => ({
          ...current,
          ...Object.fromEntries(queued.map((q) => [q.question_id, q.student_answer])),
        }));
      void answerSync.flush();
    });
    return () => answerSync.stop();
  }, [api, attemptId, headers, attempt.answers, queue]);

  const recorder = useMemo(
    () =>
      new IntegrityRecorder(queue, attemptId, (events) =>
        unwrap(
          api.POST('/api/attempts/{attemptId}/events', {
            params: { path: { attemptId } },
            headers,
            body: { events },
          }),
        ),
      ),
    [api, attemptId, headers, queue],
  );
  useIntegrityEvents(timeUp ? null : recorder);

  const answer = (questionId: string, value: string) => {
    setAnswers((current) => ({ ...current, [questionId]: value }));
    void syncRef.current?.save(questionId, value);
  };

  const questions = attempt.test_details.questions;
  // A description takes no answer: it is neither numbered nor unanswered.
  const answerable = questions.filter((q) => takesAnswer(q.question_type));
  // An essay answered with files alone is answered.
  const unanswered = answerable.filter((q) => !answers[q.id] && !files.all.some((f) => f.question_id === q.id)).length;
  const locked = timeUp;
  const heading = useFocusOnArrival<HTMLHeadingElement>();

  return (
    <main className="attempt">
      <div className="attempt-bar">
        <h1 ref={heading} tabIndex={-1}>
          {attempt.test_details.test_name}
        </h1>
        <Countdown expiresAt={expiresAt} onTimeUp={() => setTimeUp(true)} />
        <SyncBadge state={sync} />
      </div>
      {offlineCopy && (
        <p className="note" role="status">
          You are offline: these are the questions as last loaded. Your answers are kept in this browser and sent when
          the network is back.
        </p>
      )}
      {timeUp && (
        <p className="error" role="alert">
          Time is up. Your saved answers will be scored.
        </p>
      )}
      <ScoringRules details={attempt.test_details} />
      <ol className="questions">
        {passageRuns(questions, attempt.test_details.passages).map((run) => {
          const item = (q: (typeof questions)[number]) => (
            <li key={q.id}>
              <QuestionView
                question={q}
                number={answerable.indexOf(q) + 1}
                value={answers[q.id] ?? ''}
                disabled={locked}
                onAnswer={(value) => answer(q.id, value)}
                files={q.attachments ? files.filesOf(q.id) : undefined}
              />
            </li>
          );
          if (!run.passage) return item(run.questions[0]);
          const numbers = run.questions.map((q) => answerable.indexOf(q) + 1).filter((n) => n > 0);
          return (
            <li key={`passage-${run.passage.id}`} className="passage-run">
              <PassageView passage={run.passage} numbers={numbers} />
              <ol className="questions">{run.questions.map(item)}</ol>
            </li>
          );
        })}
      </ol>
      {!locked && (
        <SubmitPanel
          attemptId={attemptId}
          headers={headers}
          unanswered={unanswered}
          sync={sync}
          answerSync={syncRef}
          onSubmitted={onSubmitted}
        />
      )}
    </main>
  );
}

function SyncBadge({ state }: { state: SyncState }) {
  const text =
    state.kind === 'saved'
      ? 'All answers saved'
      : state.kind === 'saving'
        ? `Saving ${state.pending} ${state.pending === 1 ? 'answer' : 'answers'}…`
        : state.kind === 'offline'
          ? `Offline: ${state.pending} ${state.pending === 1 ? 'answer' : 'answers'} kept in this browser`
          : `Not saved: ${state.error.message}`;
  return (
    <p className={`sync sync-${state.kind}`} role="status" aria-live="polite" data-sync={state.kind}>
      {text}
    </p>
  );
}

function SubmitPanel({
  attemptId,
  headers,
  unanswered,
  sync,
  answerSync,
  onSubmitted,
}: {
  attemptId: string;
  headers?: Record<string, string>;
  unanswered: number;
  sync: SyncState;
  answerSync: React.RefObject<AnswerSync | null>;
  onSubmitted: () => Promise<void>;
}) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const unsynced = sync.kind === 'saved' ? 0 : sync.pending;
  const submit = () =>
    action.run(async () => {
      await answerSync.current?.flush();
      const left = (await answerSync.current?.pending())?.length ?? 0;
      if (left > 0)
        throw new Error(
          `${left} ${left === 1 ? 'answer is' : 'answers are'} not saved yet: reconnect before you submit, or they will not count.`,
        );
      await unwrap(api.POST('/api/attempts/{attemptId}/submit', { params: { path: { attemptId } }, headers }));
      await onSubmitted();
    });
  return (
    <section className="submit" aria-labelledby="submit-heading">
      <h2 id="submit-heading">Finish</h2>
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)}>
          Submit the test
        </button>
      ) : (
        <div role="group" aria-label="Confirm submission">
          {unanswered > 0 && (
            <p className="warning">
              {unanswered} {unanswered === 1 ? 'question is' : 'questions are'} unanswered.
            </p>
          )}
          {unsynced > 0 && (
            <p className="warning">
              {unsynced} {unsynced === 1 ? 'answer is' : 'answers are'} not saved on the server yet.
            </p>
          )}
          <p>Once submitted, answers cannot be changed.</p>
          <button type="button" onClick={() => void submit()} disabled={action.busy}>
            Submit now
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep working
          </button>
        </div>
      )}
      <ErrorMessage error={action.error} />
    </section>
  );
}

function SubmittedView({ attempt, headers }: { attempt: Attempt; headers?: Record<string, string> }) {
  const { auth } = useSession();
  const review = 'review' in attempt ? attempt.review : undefined;
  const questions = new Map(attempt.test_details.questions.map((q) => [q.id, q]));
  const passages = new Map((attempt.test_details.passages ?? []).map((p) => [p.id, p]));
  // Each passage is shown with the first of its questions the review lists.
  const passageShown = new Set<string>();
  const score = useFocusOnArrival<HTMLParagraphElement>();
  return (
    <main>
      <h1>{attempt.test_details.test_name}</h1>
      <p className="score" role="status" ref={score} tabIndex={-1}>
        Your score: <strong>{attempt.score}</strong> of {attempt.total_marks}
        {attempt.submitted_by === 'deadline' ? ' (submitted when the time ran out)' : ''}
      </p>
      <NotFinal attempt={attempt} />
      {review ? (
        <section aria-labelledby="review-heading">
          <h2 id="review-heading">Review</h2>
          <ol className="questions">
            {review.map((item) => {
              const question = questions.get(item.question_id);
              const { keyed, Review } = reviewOf(question?.question_type, item);
              const passage = question?.passage_id ? passages.get(question.passage_id) : undefined;
              const showPassage = passage !== undefined && !passageShown.has(passage.id);
              if (passage) passageShown.add(passage.id);
              return (
                <li key={item.question_id} className={keyed ? (item.correct ? 'right' : 'wrong') : undefined}>
                  {showPassage ? (
                    <details className="passage-review">
                      <summary>Passage</summary>
                      <QuestionText text={passage.question_text} format={passage.text_format} block />
                    </details>
                  ) : null}
                  <QuestionText text={question?.question_text ?? ''} format={question?.text_format} block />
                  <Review item={item} question={question} />
                  <AttachmentLinks
                    files={(attempt.attachments ?? []).filter((f) => f.question_id === item.question_id)}
                    open={(file) => openAttachment(auth, file, headers)}
                  />
                  <QuestionFeedback item={item} question={question} />
                </li>
              );
            })}
          </ol>
        </section>
      ) : attempt.test_details.allow_review ? (
        <p>The review of your answers is not released yet.</p>
      ) : null}
      <BackToTests />
    </main>
  );
}

/** The scoring rules a taker should know before answering: negative marking, and its cost. */
function ScoringRules({ details }: { details: Schemas['TestDetails'] }) {
  if (details.negative_marking !== 1 || !(details.negative_mark_ratio > 0)) return null;
  // Up to two decimals of a percent: a ratio of 1/3 reads 33.33%.
  const percent = `${Number((details.negative_mark_ratio * 100).toFixed(2))}%`;
  return (
    <section className="note" aria-labelledby="rules-heading" data-testid="scoring-rules">
      <h2 id="rules-heading">Scoring</h2>
      <p>
        Negative marking: a wrong answer costs {percent} of the question’s marks. An unanswered question costs nothing,
        and your total never goes below 0.
      </p>
    </section>
  );
}

/**
 * A released review's feedback, as the review item carries it (`feedback` there is an essay
 * grader's): the feedback on each option the taker chose, then the question's general
 * feedback, in the question's text format.
 */
function QuestionFeedback({ item, question }: { item: ReviewItem; question: Schemas['AttemptQuestion'] | undefined }) {
  const answer = item.answered ? item.student_answer : null;
  const chosen = new Set(answer === null ? [] : chosenOptions(question?.question_type, answer));
  // Option feedback is in this attempt's option order, as the question's options are.
  const onChosen = (question?.options ?? [])
    .map((option, i) => ({ option, feedback: item.option_feedback?.[i] }))
    .filter((o): o is { option: string; feedback: string } => chosen.has(o.option) && Boolean(o.feedback));
  if (onChosen.length === 0 && !item.question_feedback) return null;
  return (
    <div className="feedback">
      {onChosen.map((o) => (
        <div key={o.option}>
          <strong>On “{o.option}”:</strong> <QuestionText text={o.feedback} format={question?.text_format} />
        </div>
      ))}
      {item.question_feedback ? (
        <div>
          <strong>General feedback:</strong>{' '}
          <QuestionText text={item.question_feedback} format={question?.text_format} />
        </div>
      ) : null}
    </div>
  );
}

/** With essays not yet graded, the score so far is not the result. */
function NotFinal({ attempt }: { attempt: { grading?: 'pending' | 'complete' | null; pending_marks?: number } }) {
  if (attempt.grading !== 'pending') return null;
  return <p className="warning">Score not final: {marksText(attempt.pending_marks ?? 0)} awaiting grading.</p>;
}
