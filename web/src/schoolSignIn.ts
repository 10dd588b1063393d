import {
  GoogleAuthProvider,
  OAuthProvider,
  signInWithCredential,
  signInWithPopup,
  type Auth,
  type AuthCredential,
} from 'firebase/auth';
import { ApiError } from './api';

// Signing in with a school's Google or Microsoft account (Firebase's providers), then joining the school
// (POST /api/users/me/join). Loaded only when a school sign-in starts or a role-less school account
// comes back: a taker's first load never carries it.

export type SchoolProvider = 'google.com' | 'microsoft.com';

/** The popup's credential, kept for a sign-in again without a second popup (the roster's account took it). */
let lastCredential: AuthCredential | null = null;

const providerFor = (id: SchoolProvider) => {
  if (id === 'google.com') return new GoogleAuthProvider();
  const microsoft = new OAuthProvider('microsoft.com');
  // Work and school accounts only: a personal Microsoft account is no school's.
  microsoft.setCustomParameters({ prompt: 'select_account', tenant: 'organizations' });
  return microsoft;
};

const credentialFrom = (id: SchoolProvider, from: Parameters<typeof GoogleAuthProvider.credentialFromResult>[0]) =>
  id === 'google.com' ? GoogleAuthProvider.credentialFromResult(from) : OAuthProvider.credentialFromResult(from);

/** The popup; false when the person closed it. */
export async function signInWithSchool(auth: Auth, id: SchoolProvider): Promise<boolean> {
  try {
    const result = await signInWithPopup(auth, providerFor(id));
    lastCredential = credentialFrom(id, result);
    return true;
  } catch (err) {
    const code = String((err as { code?: unknown }).code);
    if (/popup-closed-by-user|cancelled-popup-request/.test(code)) return false;
    if (code === 'auth/account-exists-with-different-credential')
      throw new Error(
        'An account with this email already exists here. Sign in with it as before (your password, or the other ' +
          'school button), or ask your school to send you a sign-in link.',
        { cause: err },
      );
    if (code === 'auth/popup-blocked')
      throw new Error('The browser blocked the sign-in window: allow pop-ups for this site and try again.', {
        cause: err,
      });
    throw err;
  }
}

/**
 * Joins the school the account's verified email belongs to, then reads the new role: a token refresh, or a
 * sign-in again with the popup's credential when the roster's account took the provider's identity.
 * A refusal (403: no school knows this email) is thrown with the service's words.
 */
export async function joinSchool(auth: Auth): Promise<void> {
  const user = auth.currentUser;
  if (!user) return;
  const response = await fetch('/api/users/me/join', {
    method: 'POST',
    headers: { Authorization: `Bearer ${await user.getIdToken()}` },
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok)
    throw new ApiError(
      response.status,
      String(body.error ?? 'SERVER_ERROR'),
      String(body.message ?? `The service answered ${response.status}`),
      [],
      body,
    );
  if (body.sign_in_again === true) {
    const credential = lastCredential;
    lastCredential = null;
    if (credential) await signInWithCredential(auth, credential);
    else throw new Error('Your school account is ready: sign in again with the same button.');
    return;
  }
  // The claims are on the account now; a fresh token carries them, and the session reads /api/me again.
  await user.getIdToken(true);
}
