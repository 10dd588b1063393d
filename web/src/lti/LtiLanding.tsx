import { signInWithCustomToken } from 'firebase/auth';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { type Schemas, unwrap } from '../api';
import { isAdmin, useSession } from '../session';
import { TestCard } from '../taker';
import { ErrorMessage, Loading, useLoad } from '../ui';
import { takeFragment } from './launchFragment';

/**
 * Where an LMS launch lands (/lti#token=…&test_id=…): signed in with the launch's custom token,
 * then on the linked test's start card, as the student's own list shows it (an admin goes to the test's page).
 */
export function LtiLanding() {
  const { auth } = useSession();
  const [launch] = useState(takeFragment);
  const [testId] = useState(() => launch.test_id ?? sessionStorage.getItem('lti:test_id') ?? '');
  const [signedIn, setSignedIn] = useState(!launch.token);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (testId) sessionStorage.setItem('lti:test_id', testId);
    if (!launch.token) return;
    signInWithCustomToken(auth, launch.token).then(
      () => setSignedIn(true),
      (err: unknown) => setError(err),
    );
  }, [auth, launch.token, testId]);
  if (error)
    return (
      <main>
        <h1>The launch could not sign you in</h1>
        <ErrorMessage error={error as Error} />
        <p>Go back to your course and open the activity again.</p>
      </main>
    );
  if (!signedIn) return <Loading what="Signing you in" />;
  if (!testId)
    return (
      <main>
        <ErrorMessage error="This launch names no test." />
      </main>
    );
  return <LinkedTest testId={testId} />;
}

function LinkedTest({ testId }: { testId: string }) {
  const { api, ready, me, user } = useSession();
  const test = useLoad(
    () => unwrap(api.GET('/api/tests/{testId}', { params: { path: { testId } } })),
    [api, testId, user?.uid],
  );
  const attempts = useLoad(
    () => unwrap(api.GET('/api/attempts', { params: { query: { limit: 100 } } })),
    [api, user?.uid],
  );
  if (!ready || !me) return <Loading what="Signing you in" />;
  if (isAdmin(me)) return <Navigate to={`/admin/tests/${encodeURIComponent(testId)}`} replace />;
  const running = attempts.data?.data.find((a) => a.test_id === testId && a.status === 'in_progress');
  return (
    <main>
      <h1>Your test</h1>
      <ErrorMessage error={test.error ?? attempts.error} />
      {test.loading && !test.data ? <Loading what="Loading your test" /> : null}
      {test.data ? (
        <ul className="cards">
          <TestCard test={test.data as Schemas['StudentTest']} running={running} />
        </ul>
      ) : null}
    </main>
  );
}
