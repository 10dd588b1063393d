import { lazy, Suspense, useState } from 'react';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router';
import { isAdmin, useSession } from './session';
import { isSchoolAccount, SchoolJoin, SignInPage } from './SignInPage';
import { InvitationPage } from './InvitationPage';
import { AttemptPage, TakerHome } from './taker';
import { DeepLinkPicker, LtiLanding } from './lti';
import { ErrorMessage, Loading, useAction } from './ui';
import { loadAdminApp } from './admin';

// Admin code is its own chunk: a taker's browser never downloads it.
const AdminApp = lazy(() => loadAdminApp());

export function App() {
  return (
    <BrowserRouter>
      <Header />
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="/lti" element={<LtiLanding />} />
        <Route path="/invitation" element={<InvitationPage />} />
        <Route path="/lti/deep-linking" element={<DeepLinkPicker />} />
        <Route path="/attempts/:attemptId" element={<SignedIn>{<AttemptPage />}</SignedIn>} />
        <Route
          path="/admin/*"
          element={
            <SignedIn admin>
              <Suspense fallback={<Loading what="Loading the admin pages" />}>
                <AdminApp />
              </Suspense>
            </SignedIn>
          }
        />
        <Route
          path="*"
          element={
            <main>
              <h1>Not found</h1>
              <Link to="/">Home</Link>
            </main>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}

function Header() {
  const { me, user } = useSession();
  // The API reference is for administrators and developers (and whoever has not signed in yet), not for takers.
  const showsReference = !user || isAdmin(me);
  return (
    <header className="top">
      <Link to="/" className="brand">
        Exam
      </Link>
      <nav aria-label="Account">
        {showsReference && <a href="/docs">API reference</a>}
        {user && (
          <>
            {/* The name a person is called by; the email (what the account signs in with) as its title, or shown when there is no name. */}
            <span className="who" title={user.isAnonymous ? undefined : (me?.email ?? user.email ?? undefined)}>
              {me?.guest || user.isAnonymous
                ? user.displayName || 'Guest'
                : user.displayName || (me?.email ?? user.email ?? 'Signed in')}
              {me?.role ? <span className="role"> · {me.role.replace('_', ' ')}</span> : null}
            </span>
            <SignOut />
          </>
        )}
      </nav>
    </header>
  );
}

/** Signing out removes what the session kept in this browser; an answer never sent is lost only when the person says so. */
function SignOut() {
  const { signOut } = useSession();
  const [unsent, setUnsent] = useState(0);
  const action = useAction();
  const leave = (loseUnsent: boolean) => action.run(async () => setUnsent(await signOut({ loseUnsent })));
  if (unsent === 0) {
    return (
      <>
        <button type="button" onClick={() => void leave(false)} disabled={action.busy}>
          Sign out
        </button>
        <ErrorMessage error={action.error} />
      </>
    );
  }
  const them = unsent === 1 ? 'it' : 'them';
  return (
    <div role="group" aria-label="Confirm sign-out" className="signout-confirm">
      <p className="warning" role="alert">
        {unsent} {unsent === 1 ? 'answer is' : 'answers are'} not saved on the server yet. Signing out deletes {them}{' '}
        from this browser: {unsent === 1 ? 'it' : 'they'} will not count.
      </p>
      <button type="button" onClick={() => void leave(false)} disabled={action.busy}>
        Try to send {them} again
      </button>{' '}
      <button type="button" onClick={() => setUnsent(0)} disabled={action.busy}>
        Stay signed in
      </button>{' '}
      <button type="button" onClick={() => void leave(true)} disabled={action.busy}>
        Sign out and lose {them}
      </button>
      <ErrorMessage error={action.error} />
    </div>
  );
}

function Home() {
  const { ready, user, me, error } = useSession();
  if (!ready) return <Loading />;
  // A Guest stays on this page: its form starts (or resumes, by the same share code) its attempt.
  if (!user || me?.guest) return <SignInPage />;
  if (error)
    return (
      <main>
        <ErrorMessage error={error} />
      </main>
    );
  if (isAdmin(me)) return <Navigate to="/admin" replace />;
  if (me && me.role === null && isSchoolAccount(user)) return <SchoolJoin />;
  return <TakerHome />;
}

function SignedIn({ children, admin = false }: { children: React.ReactNode; admin?: boolean }) {
  const { ready, user, me, error } = useSession();
  if (!ready) return <Loading />;
  if (!user) return <Navigate to="/" replace />;
  if (error)
    return (
      <main>
        <ErrorMessage error={error} />
      </main>
    );
  if (admin && !isAdmin(me))
    return (
      <main>
        <ErrorMessage error="This page is for administrators." />
      </main>
    );
  return <>{children}</>;
}
