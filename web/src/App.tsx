import { signOut } from 'firebase/auth';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Link, Navigate, Route, Routes } from 'react-router';
import { isAdmin, useSession } from './session';
import { SignInPage } from './SignInPage';
import { AttemptPage } from './taker/AttemptPage';
import { TakerHome } from './taker/TakerHome';
import { ErrorMessage, Loading } from './ui';

// Admin code is its own chunk: a taker's browser never downloads it.
const AdminApp = lazy(() => import('./admin/AdminApp'));

export function App() {
  return (
    <BrowserRouter>
      <Header />
      <Routes>
        <Route path="/" element={<Home />} />
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
        <Route path="*" element={<main><h1>Not found</h1><Link to="/">Home</Link></main>} />
      </Routes>
    </BrowserRouter>
  );
}

function Header() {
  const { auth, me, user } = useSession();
  return (
    <header className="top">
      <Link to="/" className="brand">Exam</Link>
      <nav aria-label="Account">
        <a href="/docs">API reference</a>
        {user && (
          <>
            <span className="who">{me?.guest ? 'Guest' : (me?.email ?? user.email ?? 'Signed in')}{me?.role ? ` · ${me.role.replace('_', ' ')}` : ''}</span>
            <button type="button" onClick={() => signOut(auth)}>Sign out</button>
          </>
        )}
      </nav>
    </header>
  );
}

function Home() {
  const { ready, user, me, error } = useSession();
  if (!ready) return <Loading />;
  // A Guest stays on this page: its form starts (or resumes, by the same share code) its attempt.
  if (!user || me?.guest) return <SignInPage />;
  if (error) return <main><ErrorMessage error={error} /></main>;
  if (isAdmin(me)) return <Navigate to="/admin" replace />;
  return <TakerHome />;
}

function SignedIn({ children, admin = false }: { children: React.ReactNode; admin?: boolean }) {
  const { ready, user, me, error } = useSession();
  if (!ready) return <Loading />;
  if (!user) return <Navigate to="/" replace />;
  if (error) return <main><ErrorMessage error={error} /></main>;
  if (admin && !isAdmin(me)) return <main><ErrorMessage error="This page is for administrators." /></main>;
  return <>{children}</>;
}
