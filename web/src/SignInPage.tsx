import { signInAnonymously, signInWithEmailAndPassword, type User } from 'firebase/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { unwrap } from './api';
import { userData } from './localData';
import { useSession } from './session';
import { ErrorMessage, Field, useAction } from './ui';

export function SignInPage() {
  return (
    <main className="signin">
      <h1>Welcome</h1>
      <div className="columns">
        <SchoolSignIn />
        <PasswordSignIn />
        <GuestEntry />
      </div>
    </main>
  );
}

function PasswordSignIn() {
  const { auth } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(() =>
      signInWithEmailAndPassword(auth, email, password).catch((err) => {
        throw new Error(
          /invalid-credential|wrong-password|user-not-found/.test(String(err.code))
            ? 'Wrong email or password'
            : err.message,
        );
      }),
    );
  };
  return (
    <section aria-labelledby="signin-heading" className="card">
      <h2 id="signin-heading">Sign in</h2>
      <p>Students and administrators sign in with their email and password.</p>
      <form onSubmit={submit}>
        <Field label="Email">
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password">
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
        <ErrorMessage error={action.error} />
      </form>
    </section>
  );
}

/** A Guest: an anonymous sign-in, then the share code and a name start (or resume) the attempt. */
function GuestEntry() {
  const { auth, api, nameGuest } = useSession();
  const navigate = useNavigate();
  const [shareCode, setShareCode] = useState('');
  const [name, setName] = useState('');
  const [accessCode, setAccessCode] = useState('');
  const action = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      if (!auth.currentUser) {
        await signInAnonymously(auth).catch((err) => {
          // The Auth service caps anonymous sign-ups per address: say so in words.
          if (/too-many-requests|quota-exceeded/.test(String(err.code)))
            throw new Error('Too many guests are signing in from this network right now: wait a minute and try again.');
          throw err;
        });
      }
      const started = await unwrap(
        api.POST('/api/attempts', {
          body: {
            share_code: shareCode.trim(),
            guest_name: name.trim(),
            ...(accessCode ? { access_code: accessCode } : {}),
          },
        }),
      );
      userData(auth.currentUser!.uid).attemptTokens.set(started.attempt_id, started.attempt_token);
      await nameGuest(name.trim());
      navigate(`/attempts/${encodeURIComponent(started.attempt_id)}`);
    });
  };
  return (
    <section aria-labelledby="guest-heading" className="card">
      <h2 id="guest-heading">Take a test as a guest</h2>
      <p>Enter the share code your proctor gave you.</p>
      <form onSubmit={submit}>
        <Field label="Share code">
          <input required autoComplete="off" value={shareCode} onChange={(e) => setShareCode(e.target.value)} />
        </Field>
        <Field label="Your name">
          <input required maxLength={100} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Access code" hint="Only if the test asks for one">
          <input autoComplete="off" value={accessCode} onChange={(e) => setAccessCode(e.target.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Start as guest
        </button>
        <ErrorMessage error={action.error} />
      </form>
    </section>
  );
}

/** The school's own accounts (Google Workspace, Microsoft 365): loaded with the first click, not with the page. */
function SchoolSignIn() {
  const { auth } = useSession();
  const action = useAction();
  const start = (id: 'google.com' | 'microsoft.com') =>
    void action.run(async () => {
      const { signInWithSchool } = await import('./schoolSignIn');
      await signInWithSchool(auth, id);
    });
  return (
    <section aria-labelledby="school-heading" className="card">
      <h2 id="school-heading">Sign in with your school account</h2>
      <p>If your school uses Google or Microsoft accounts, sign in with the one it gave you.</p>
      <button type="button" disabled={action.busy} onClick={() => start('google.com')}>
        Sign in with Google
      </button>{' '}
      <button type="button" disabled={action.busy} onClick={() => start('microsoft.com')}>
        Sign in with Microsoft
      </button>
      <ErrorMessage error={action.error} />
    </section>
  );
}

/** Signed in with a school's Google or Microsoft account (the role comes from joining the school). */
export const isSchoolAccount = (user: User | null) =>
  !!user && user.providerData.some((p) => p.providerId === 'google.com' || p.providerId === 'microsoft.com');

/**
 * A school account with no role yet: joins its school (POST /api/users/me/join) once, then the session reads
 * the new role. A refusal says why in the service's words, with a way out.
 */
export function SchoolJoin() {
  const { auth, signOut } = useSession();
  const action = useAction();
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (tried) return;
    setTried(true);
    void action.run(async () => (await import('./schoolSignIn')).joinSchool(auth));
  }, [action, auth, tried]);
  return (
    <main className="signin">
      <h1>Welcome</h1>
      {action.error ? (
        <section className="card" aria-labelledby="join-heading">
          <h2 id="join-heading">You cannot sign in yet</h2>
          <ErrorMessage error={action.error} />
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </section>
      ) : (
        <p role="status">Finding your school…</p>
      )}
    </main>
  );
}
