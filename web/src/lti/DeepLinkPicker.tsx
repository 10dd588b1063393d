import { signInWithCustomToken } from 'firebase/auth';
import { useEffect, useRef, useState } from 'react';
import { unwrap } from '../api';
import { useSession } from '../session';
import { ErrorMessage, Loading, useAction, useLoad } from '../ui';
import { takeFragment } from './launchFragment';

/**
 * The deep-linking picker (/lti/deep-linking#session=…&token=…): the organization's published tests; the
 * choice comes back as a JWT signed by the service, which this page form-posts to the platform.
 */
export function DeepLinkPicker() {
  const { auth } = useSession();
  const [launch] = useState(takeFragment);
  const [session] = useState(() => launch.session ?? sessionStorage.getItem('lti:session') ?? '');
  const [signedIn, setSignedIn] = useState(!launch.token);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (session) sessionStorage.setItem('lti:session', session);
    if (!launch.token) return;
    signInWithCustomToken(auth, launch.token).then(
      () => setSignedIn(true),
      (err: unknown) => setError(err),
    );
  }, [auth, launch.token, session]);
  if (error)
    return (
      <main>
        <ErrorMessage error={error as Error} />
      </main>
    );
  if (!signedIn) return <Loading what="Signing you in" />;
  if (!session)
    return (
      <main>
        <ErrorMessage error="No deep-linking request: start again from your course." />
      </main>
    );
  return <Picker session={session} />;
}

function Picker({ session }: { session: string }) {
  const { api, user } = useSession();
  const tests = useLoad(
    () => unwrap(api.GET('/api/lti/deep-linking/{sessionId}/tests', { params: { path: { sessionId: session } } })),
    [api, session, user?.uid],
  );
  const [reply, setReply] = useState<{ return_url: string; jwt: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const action = useAction();
  useEffect(() => {
    if (reply) form.current?.submit();
  }, [reply]);
  const choose = (testId: string) =>
    action.run(async () =>
      setReply(
        await unwrap(
          api.POST('/api/lti/deep-linking/{sessionId}', {
            params: { path: { sessionId: session } },
            body: { test_id: testId },
          }),
        ),
      ),
    );
  return (
    <main>
      <h1>Link a test to your course</h1>
      <ErrorMessage error={tests.error ?? action.error} />
      {tests.loading && !tests.data ? <Loading what="Loading the tests" /> : null}
      {tests.data && tests.data.data.length === 0 ? <p>No test is published yet.</p> : null}
      <ul className="cards">
        {tests.data?.data.map((t) => (
          <li key={t.id} className="card">
            <h2>{t.name}</h2>
            {t.description ? <p>{t.description}</p> : null}
            <p>{t.question_count} questions</p>
            <button type="button" onClick={() => void choose(t.id)} disabled={action.busy || reply !== null}>
              Link {t.name}
            </button>
          </li>
        ))}
      </ul>
      {reply ? (
        <form ref={form} method="post" action={reply.return_url}>
          <input type="hidden" name="JWT" value={reply.jwt} />
          <p>Returning to your course…</p>
          <button type="submit">Continue</button>
        </form>
      ) : null}
    </main>
  );
}
