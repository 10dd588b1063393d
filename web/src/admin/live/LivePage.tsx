import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { type Schemas, serverNow, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { Pager } from '../shared';
import { ClassFilter, useClassFilter } from '../classes/ClassFilter';
import { classLabel } from '../classes/classApi';
import { useOrg } from '../org';
import { personWithEmail } from '../people';
import { AWAY_ALERT_MS, EVENT_LABELS, awayFor, countsText, durationText } from './integrity';
import { NotStarted } from './NotStarted';

const REFRESH_MS = 5_000;
const PAGE_SIZE = 50;

/** Minutes and seconds left until `expiresAt` on the server's clock. */
function timeLeft(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return 'Time is up';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

const takerOf = (a: Schemas['AttemptSummary']) =>
  a.guest
    ? `${a.guest_name ?? 'Guest'} (guest)`
    : personWithEmail({ name: a.student_name, email: a.student_email, uid: a.student_id });

/**
 * A live view of a sitting: the test's attempts in progress, refreshed every 5 seconds, with extend and submit,
 * and who of its audience has not started, refreshed with them.
 */
export function LivePage() {
  const { testId = '' } = useParams();
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const [page, setPage] = useState(1);
  const [classId, setClassId] = useClassFilter();
  const [now, setNow] = useState(serverNow);
  const [message, setMessage] = useState('');
  const everyone = useAction();
  const [everyoneMinutes, setEveryoneMinutes] = useState('5');

  // The class chosen in the filter, for the extend button's words ("Extend class 9C").
  const chosenClass = useLoad(
    () =>
      classId ? unwrap(api.GET('/api/classes/{classId}', { params: { path: { classId } } })) : Promise.resolve(null),
    [api, classId],
  );
  const className = classId ? (chosenClass.data ? classLabel(chosenClass.data) : classId) : '';

  const test = useLoad(() => unwrap(api.GET('/api/tests/{testId}', { params: { path: { testId } } })), [api, testId]);
  const clientParam = me?.role === 'super_admin' && clientId ? { client_id: clientId } : {};
  const attempts = useLoad(
    () =>
      unwrap(
        api.GET('/api/attempts', {
          params: {
            // '' (everyone) is left out of the address: openapi-fetch drops undefined.
            query: {
              test_id: testId,
              status: 'in_progress',
              page,
              limit: PAGE_SIZE,
              ...clientParam,
              class_id: classId || undefined,
            },
          },
        }),
      ),
    [api, testId, page, clientId, classId],
  );
  const { reload } = attempts;
  // Each refresh of the attempts reads who has not started again too.
  const [refreshes, setRefreshes] = useState(0);

  useEffect(() => {
    const refresh = setInterval(() => {
      reload();
      setRefreshes((n) => n + 1);
    }, REFRESH_MS);
    const tick = setInterval(() => setNow(serverNow()), 1_000);
    return () => {
      clearInterval(refresh);
      clearInterval(tick);
    };
  }, [reload]);

  const extendEveryone = (e: React.FormEvent) => {
    e.preventDefault();
    void everyone.run(async () => {
      const r = await unwrap(
        api.POST('/api/tests/{testId}/extend', {
          params: { path: { testId } },
          // With a class chosen in the filter, only that class's attempts (those the table shows).
          body: { minutes: Number(everyoneMinutes), ...(classId ? { class_id: classId } : {}) },
        }),
      );
      setMessage(
        `Extended ${r.extended} attempt${r.extended === 1 ? '' : 's'}${className ? ` of class ${className}` : ''} by ${everyoneMinutes} minutes.`,
      );
      reload();
    });
  };

  const rows = attempts.data?.data ?? [];
  return (
    <>
      <h1>Live sitting{test.data ? `: ${test.data.test_name}` : ''}</h1>
      <p>
        <Link to={`/admin/tests/${encodeURIComponent(testId)}`}>Back to the test</Link> ·{' '}
        <Link to={`/admin/tests/${encodeURIComponent(testId)}/analytics`}>Analytics</Link>
      </p>
      <ErrorMessage error={test.error} />
      <p className="note">
        Attempts in progress, and below them who has not started, refreshed every 5 seconds. Time left is counted on the
        server’s clock.
      </p>

      <form
        className="row card"
        onSubmit={extendEveryone}
        aria-label={className ? `Extend class ${className}` : 'Extend everyone'}
      >
        <Field label={className ? `Minutes to give class ${className}` : 'Minutes to give everyone'}>
          <input
            type="number"
            min={1}
            max={1440}
            required
            value={everyoneMinutes}
            onChange={(e) => setEveryoneMinutes(e.target.value)}
          />
        </Field>
        <button type="submit" disabled={everyone.busy}>
          {className ? `Extend class ${className}` : 'Extend everyone'}
        </button>
      </form>
      <ErrorMessage error={everyone.error} />
      <p role="status" aria-live="polite">
        {message}
      </p>

      <ClassFilter
        value={classId}
        onChange={(id) => {
          setClassId(id);
          setPage(1);
        }}
      />
      <ErrorMessage error={attempts.error} />
      {!attempts.data && attempts.loading ? (
        <Loading what="Loading the attempts in progress" />
      ) : (
        <ScrollTable label="Attempts in progress" className="stacked">
          <caption className="sr-only">Attempts in progress</caption>
          <thead>
            <tr>
              <th scope="col">Taker</th>
              <th scope="col">Time left</th>
              <th scope="col">Answers saved</th>
              <th scope="col">Integrity</th>
              <th scope="col">Extend</th>
              <th scope="col">Submit</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={6}>
                  {classId ? 'No attempt of this class is in progress.' : 'No attempt is in progress.'}
                </td>
              </tr>
            )}
            {rows.map((a) => (
              <AttemptRow key={a.attempt_id} attempt={a} now={now} onChanged={reload} onMessage={setMessage} />
            ))}
          </tbody>
        </ScrollTable>
      )}
      <Pager pagination={attempts.data?.pagination} page={page} onPage={setPage} what="attempts in progress" />
      <NotStarted testId={testId} classId={classId} refresh={refreshes} />
    </>
  );
}

function AttemptRow({
  attempt,
  now,
  onChanged,
  onMessage,
}: {
  attempt: Schemas['AttemptSummary'];
  now: number;
  onChanged: () => void;
  onMessage: (m: string) => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const [minutes, setMinutes] = useState('5');
  const [timelineShown, setTimelineShown] = useState(false);
  const taker = takerOf(attempt);
  const integrity = attempt.integrity;
  const away = integrity ? awayFor(integrity, now) : undefined;
  const alert = away !== undefined && away > AWAY_ALERT_MS;
  const attemptId = attempt.attempt_id;

  const extend = (e: React.FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const r = await unwrap(
        api.POST('/api/attempts/{attemptId}/extend', {
          params: { path: { attemptId } },
          body: { minutes: Number(minutes) },
        }),
      );
      onMessage(`Extended ${taker} by ${minutes} minutes: now ends ${new Date(r.expires_at).toLocaleTimeString()}.`);
      onChanged();
    });
  };
  const submit = () => {
    if (!window.confirm(`Submit the attempt of ${taker} now? It is scored with the answers saved so far.`)) return;
    void action.run(async () => {
      const r = await unwrap(api.POST('/api/attempts/{attemptId}/submit', { params: { path: { attemptId } } }));
      onMessage(`Submitted the attempt of ${taker}: ${r.score} of ${r.total_marks}.`);
      onChanged();
    });
  };

  return (
    <>
      <tr className={alert ? 'away' : undefined}>
        <td data-label="Taker">
          {attempt.guest ? (
            taker
          ) : (
            <Link to={`/admin/students/${encodeURIComponent(attempt.student_id)}`}>{taker}</Link>
          )}
          <ErrorMessage error={action.error} />
        </td>
        <td className="countdown-cell" data-label="Time left">
          {timeLeft(attempt.expires_at, now)}
        </td>
        <td data-label="Answers saved">{attempt.answered}</td>
        <td data-label="Integrity">
          {alert && <p className="warning">Away from the test for {durationText(away)}</p>}
          {integrity && integrity.total > 0 ? (
            <>
              <span>{countsText(integrity) || 'No irregularity'}</span>
              {integrity.last_event && (
                <span>
                  {' '}
                  · last: {EVENT_LABELS[integrity.last_event.type]}{' '}
                  {durationText(Math.max(0, now - Date.parse(integrity.last_event.at)))} ago
                </span>
              )}{' '}
              <button type="button" aria-expanded={timelineShown} onClick={() => setTimelineShown((v) => !v)}>
                Timeline<span className="sr-only"> of {taker}</span>
              </button>
            </>
          ) : (
            'No events'
          )}
        </td>
        <td data-label="Extend">
          <form className="row" onSubmit={extend}>
            <Field label={`Minutes for ${taker}`}>
              <input
                type="number"
                min={1}
                max={1440}
                required
                value={minutes}
                onChange={(e) => setMinutes(e.target.value)}
                size={4}
              />
            </Field>
            <button type="submit" disabled={action.busy}>
              Extend
            </button>
          </form>
        </td>
        <td data-label="Submit">
          <button type="button" className="danger" disabled={action.busy} onClick={submit}>
            Submit<span className="sr-only"> the attempt of {taker}</span>
          </button>
        </td>
      </tr>
      {timelineShown && (
        <tr>
          <td colSpan={6}>
            <Timeline attemptId={attemptId} taker={taker} />
          </td>
        </tr>
      )}
    </>
  );
}

/** The events of one attempt in the order they happened, as its page sent them. */
function Timeline({ attemptId, taker }: { attemptId: string; taker: string }) {
  const { api } = useSession();
  const [page, setPage] = useState(1);
  const events = useLoad(
    () =>
      unwrap(
        api.GET('/api/attempts/{attemptId}/events', { params: { path: { attemptId }, query: { page, limit: 100 } } }),
      ),
    [api, attemptId, page],
  );
  const rows = events.data?.data ?? [];
  return (
    <section aria-label={`Timeline of ${taker}`}>
      <ErrorMessage error={events.error} />
      {!events.data && events.loading ? (
        <Loading what={`Loading the timeline of ${taker}`} />
      ) : rows.length === 0 ? (
        <p>No events.</p>
      ) : (
        <ol className="timeline">
          {rows.map((e) => (
            <li key={e.client_seq}>
              <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time> {EVENT_LABELS[e.type]}
            </li>
          ))}
        </ol>
      )}
      <Pager pagination={events.data?.pagination} page={page} onPage={setPage} what="events" />
    </section>
  );
}
