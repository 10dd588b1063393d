// A guest joining a test with a share code, in a browser app built on the
// Firebase JS SDK (v9+ modular API): anonymous sign-in, then the start. What
// matters here is the refusal a guest can meet before reaching the service:
// Firebase Auth accepts about 100 new accounts (anonymous ones included) an
// hour from one address (https://firebase.google.com/docs/auth/limits), and a
// hall of guests behind one school address is one address. Past that, the SDK
// rejects signInAnonymously with `auth/too-many-requests` (the server's
// TOO_MANY_ATTEMPTS_TRY_LATER), or with `auth/quota-exceeded` where the project's
// quota is what ran out. Neither means the guest did anything wrong; the message
// should say so and send the guest to the proctor, who can have the operator
// raise the sign-up quota (docs/operations.md, "Anonymous sign-ups").
//
// The Auth emulator does not enforce this quota, so the mapping is exercised by
// giving `guestSignInMessage` the error codes, not by the emulator.
import { getAuth, signInAnonymously } from 'firebase/auth';

/** What a guest is told when anonymous sign-in is refused, by the SDK's error code. */
export function guestSignInMessage(code) {
  switch (code) {
    case 'auth/too-many-requests':
    case 'auth/quota-exceeded':
      return (
        'Too many guests have joined from this network in the last hour, so sign-in is paused for it. ' +
        'This is not a problem with your share code. Please tell the proctor: the organizer can raise ' +
        'the sign-up quota, or you can join from another network (a phone hotspot) in the meantime.'
      );
    case 'auth/operation-not-allowed':
    case 'auth/admin-restricted-operation':
      return 'Guest access is switched off for this exam service. Please tell the proctor.';
    case 'auth/network-request-failed':
      return 'No connection to the sign-in service. Check the Wi-Fi and try again.';
    default:
      return 'Guest sign-in failed. Try again in a moment; if it keeps failing, tell the proctor.';
  }
}

/**
 * Signs the guest in (reusing the anonymous session this browser already has, which
 * spends no new account) and starts the attempt with the share code.
 * Answers { ok: true, attempt } or { ok: false, message }.
 */
export async function joinAsGuest(app, apiBase, shareCode, guestName) {
  const auth = getAuth(app);
  let user = auth.currentUser;
  if (!user) {
    try {
      user = (await signInAnonymously(auth)).user;
    } catch (err) {
      return { ok: false, code: err?.code, message: guestSignInMessage(err?.code) };
    }
  }
  const res = await fetch(`${apiBase}/api/attempts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await user.getIdToken()}` },
    body: JSON.stringify({ share_code: shareCode, guest_name: guestName }),
  });
  const body = await res.json().catch(() => undefined);
  if (res.status === 201 || res.status === 200) return { ok: true, attempt: body };
  // The service's own refusals carry a message meant for people (docs/api.md, Errors).
  return { ok: false, code: body?.error, message: body?.message ?? `The exam service answered ${res.status}` };
}
