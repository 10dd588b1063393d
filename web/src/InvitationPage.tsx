import { signInWithEmailAndPassword } from 'firebase/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { previewInvitation, redeemInvitation, refusalOf } from './invitationApi';
import { useSession } from './session';
import { ErrorMessage, Field, Loading, useAction } from './ui';

// The page an invitation link opens: whose account it is and until when, a password chosen, then
// signed in and on to the student's page. The secret is in the URL fragment (never sent to a
// server); it is taken out of the address bar at once so it stays in no history or screenshot.

const REASONS: Record<string, string> = {
  expired: 'This invitation link has expired. Ask your school for a new one.',
  used: 'This invitation link has already been used. Sign in with your email and password, or ask your school for a new link.',
  revoked: 'This invitation link was withdrawn. Ask your school for a new one.',
  redeeming: 'This invitation link is being used right now. Try again in a few seconds.',
  unknown: 'This invitation link is not valid. Check that it was copied whole, or ask your school for a new one.',
  account_disabled: 'This account is deactivated. Ask your school.',
  organization_inactive: 'Your school’s account is deactivated. Ask your school.',
};

type Preview = Awaited<ReturnType<typeof previewInvitation>>;

const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

export function InvitationPage() {
  const { auth, api } = useSession();
  const navigate = useNavigate();
  const [token] = useState(tokenFromHash);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [refusal, setRefusal] = useState<string | null>(() => (token ? null : 'unknown'));
  const [loadError, setLoadError] = useState<unknown>(null);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const action = useAction();

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
    if (!token) return;
    previewInvitation(api, token).then(setPreview, (err: unknown) => {
      const reason = refusalOf(err);
      if (reason) setRefusal(reason);
      else setLoadError(err);
    });
  }, [api, token]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      if (password !== again) throw new Error('The two passwords differ.');
      try {
        const { email } = await redeemInvitation(api, token, password);
        await signInWithEmailAndPassword(auth, email, password);
        navigate('/', { replace: true });
      } catch (err) {
        const reason = refusalOf(err);
        if (reason && reason !== 'redeeming') return setRefusal(reason);
        throw err;
      }
    });
  };

  if (refusal)
    return (
      <main>
        <h1>Invitation</h1>
        <p role="alert" className="error" data-testid="invitation-refusal" data-reason={refusal}>
          {REASONS[refusal] ?? REASONS.unknown}
        </p>
      </main>
    );
  if (loadError)
    return (
      <main>
        <h1>Invitation</h1>
        <ErrorMessage error={loadError} />
      </main>
    );
  if (!preview) return <Loading what="Reading the invitation" />;
  return (
    <main>
      <h1>Choose your password</h1>
      <p>
        For <strong>{preview.display_name ?? preview.email}</strong> ({preview.email}). This link works once, until{' '}
        {new Date(preview.expires_at).toLocaleDateString()}.
      </p>
      <form onSubmit={submit}>
        <Field label="New password" hint="8 to 128 characters">
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field label="The same password again">
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            required
            value={again}
            onChange={(e) => setAgain(e.target.value)}
          />
        </Field>
        <button type="submit" disabled={action.busy}>
          Set the password and sign in
        </button>
        <ErrorMessage error={action.error} />
      </form>
    </main>
  );
}
