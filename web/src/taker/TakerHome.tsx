import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Schemas, serverNowAtLeast, unwrap } from '../api';
import { useSession } from '../session';
import { ErrorMessage, Field, formatTime, Loading, marksText, ScrollTable, useAction, useLoad } from '../ui';

/** A student's published tests with their windows, its attempts in progress and its results. */
export function TakerHome() {
  const { api, me } = useSession();
  const tests = useLoad(
    () => unwrap(api.GET('/api/tests', { params: { query: { status: 'published', limit: 100 } } })),
    [api],
  );
  const attempts = useLoad(() => unwrap(api.GET('/api/attempts', { params: { query: { limit: 100 } } })), [api]);
  const accommodation = me?.accommodation;
  const inProgress = new Map(
    (attempts.data?.data ?? []).filter((a) => a.status === 'in_progress').map((a) => [a.test_id, a]),
  );
  const submitted = (attempts.data?.data ?? []).filter((a) => a.status === 'submitted');
  return (
    <main>
      <h1>Your tests</h1>
      {accommodation && (accommodation.extra_time_percent > 0 || accommodation.extra_minutes > 0) && (
        <p className="note">
          Your accommodation: +{accommodation.extra_time_percent}% time
          {accommodation.extra_minutes > 0 ? ` and ${accommodation.extra_minutes} extra minutes` : ''} on every test.
        </p>
      )}
      <ErrorMessage error={tests.error ?? attempts.error} />
      {tests.loading && !tests.data ? <Loading what="Loading your tests" /> : null}
      {tests.data && tests.data.data.length === 0 ? <p>No test is published for you yet.</p> : null}
      <ul className="cards">
        {tests.data?.data.map((test) => (
          <TestCard key={test.id} test={test as Schemas['StudentTest']} running={inProgress.get(test.id)} />
        ))}
      </ul>
      {submitted.length > 0 && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Your results</h2>
          <ScrollTable label="Your results">
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Submitted</th>
                <th scope="col">Score</th>
                <th scope="col">
                  <span className="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {submitted.map((a) => (
                <tr key={a.attempt_id}>
                  <td>{tests.data?.data.find((t) => t.id === a.test_id)?.test_name ?? a.test_id}</td>
                  <td>{formatTime(a.submitted_at)}</td>
                  <td>
                    {a.score ?? '—'} / {a.total_marks}
                    {a.grading === 'pending' ? (
                      <>
                        <br />
                        <small className="warning">
                          Score not final: {marksText(a.pending_marks ?? 0)} awaiting grading
                        </small>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <Link to={`/attempts/${encodeURIComponent(a.attempt_id)}`}>Open</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </section>
      )}
    </main>
  );
}

function windowText(test: Schemas['StudentTest'], open: boolean): string {
  const closes = test.closes_at ? `closes ${formatTime(test.closes_at)}` : '';
  if (!open && test.opens_at) return `Opens at ${formatTime(test.opens_at)}${closes ? `, ${closes}` : ''}`;
  if (test.opens_at && test.closes_at) return `Open ${formatTime(test.opens_at)} to ${formatTime(test.closes_at)}`;
  if (closes) return `Open now, ${closes}`;
  return 'Open now';
}

// setTimeout takes at most 2^31 - 1 ms (about 24.8 days): a longer wait is taken in steps.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Whether the test's window has opened, on the server's clock (the API refuses a start before opens_at
 * by its own clock, not the browser's); it turns true when opens_at has surely passed there, without a reload.
 */
function useOpened(opensAt: string | null): boolean {
  const at = opensAt ? Date.parse(opensAt) : Number.NaN;
  const [opened, setOpened] = useState(() => Number.isNaN(at) || serverNowAtLeast() >= at);
  useEffect(() => {
    if (Number.isNaN(at)) {
      setOpened(true);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = at - serverNowAtLeast();
      setOpened(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, LONGEST_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [at]);
  return opened;
}

export function TestCard({ test, running }: { test: Schemas['StudentTest']; running?: Schemas['AttemptSummary'] }) {
  const { api } = useSession();
  const navigate = useNavigate();
  const [accessCode, setAccessCode] = useState('');
  const action = useAction();
  const opened = useOpened(test.opens_at);
  const start = () =>
    action.run(async () => {
      const started = await unwrap(
        api.POST('/api/attempts', { body: { test_id: test.id, ...(accessCode ? { access_code: accessCode } : {}) } }),
      );
      navigate(`/attempts/${encodeURIComponent(started.attempt_id)}`);
    });
  const headingId = `test-${test.id}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{test.test_name}</h2>
      {test.description ? <p>{test.description}</p> : null}
      <p>
        {test.question_count} questions · {test.timer} minutes · {windowText(test, opened)}
        {test.max_attempts ? ` · at most ${test.max_attempts} attempts` : ''}
      </p>
      {running ? (
        <button type="button" onClick={() => navigate(`/attempts/${encodeURIComponent(running.attempt_id)}`)}>
          Resume {test.test_name}
        </button>
      ) : (
        // The code can be typed while the test is not open yet: the proctor reads it out before the start.
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (opened) void start();
          }}
        >
          {test.access_code_required && (
            <Field
              label={`Access code for ${test.test_name}`}
              hint="Your proctor gives it; capitals and spaces around it do not matter"
            >
              <input required autoComplete="off" value={accessCode} onChange={(e) => setAccessCode(e.target.value)} />
            </Field>
          )}
          {opened ? (
            <button type="submit" disabled={action.busy}>
              Start {test.test_name}
            </button>
          ) : (
            <p className="note">You can start it once it opens: the button appears then.</p>
          )}
        </form>
      )}
      <ErrorMessage error={action.error} />
    </li>
  );
}
