// @ts-check
// Signing in at the Auth emulator over its REST API, exactly as a client app
// would: the tests, the benchmark and the demo seed all get their ID tokens
// here. Plain ESM with JSDoc types, so both the .mjs scripts and the
// TypeScript tests (allowJs) can import it, and the tests' typecheck checks it.

/**
 * The emulator's Identity Toolkit endpoint for `accounts:<method>` (the emulator accepts any API key).
 * @param {string} authHost host:port of the Auth emulator
 * @param {string} method e.g. signInWithPassword, signUp
 */
export const identityToolkitUrl = (authHost, method) =>
  `http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-key`;

/**
 * POSTs `body`, never following a redirect (only the emulator is meant to answer)
 * and giving up after 30 s.
 * @param {string} url
 * @param {string} body
 * @param {string} contentType
 */
const send = (url, body, contentType) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });

/**
 * Calls `accounts:<method>` and returns its JSON reply, or throws with the emulator's answer.
 * @param {string} authHost
 * @param {string} method
 * @param {unknown} body
 * @returns {Promise<any>}
 */
async function identityCall(authHost, method, body) {
  const res = await send(identityToolkitUrl(authHost, method), JSON.stringify(body), 'application/json');
  const text = await res.text();
  if (!res.ok) throw new Error(`accounts:${method} failed (${res.status}): ${text}`);
  return JSON.parse(text);
}

/**
 * @typedef {object} Session
 * @property {string} uid
 * @property {string} idToken
 * @property {string} refreshToken
 */

/**
 * @param {any} json the emulator's sign-in reply
 * @returns {Session}
 */
const sessionOf = (json) => ({ uid: json.localId, idToken: json.idToken, refreshToken: json.refreshToken });

/**
 * Email/password sign-in (accounts:signInWithPassword); throws if it is refused.
 * @param {string} authHost
 * @param {string} email
 * @param {string} password
 * @returns {Promise<Session>}
 */
export async function signInWithPassword(authHost, email, password) {
  try {
    return sessionOf(await identityCall(authHost, 'signInWithPassword', { email, password, returnSecureToken: true }));
  } catch (err) {
    throw new Error(`signing in ${email}: ${err instanceof Error ? err.message : err}`, { cause: err });
  }
}

/**
 * Whether this email and password sign in (a refusal is an answer, not an error).
 * @param {string} authHost
 * @param {string} email
 * @param {string} password
 * @returns {Promise<boolean>}
 */
export async function passwordSignsIn(authHost, email, password) {
  const body = JSON.stringify({ email, password, returnSecureToken: false });
  const res = await send(identityToolkitUrl(authHost, 'signInWithPassword'), body, 'application/json');
  await res.body?.cancel();
  return res.ok;
}

/**
 * Anonymous sign-in (accounts:signUp with no email or password): a Guest.
 * @param {string} authHost
 * @returns {Promise<Session>}
 */
export async function signInAnonymously(authHost) {
  return sessionOf(await identityCall(authHost, 'signUp', { returnSecureToken: true }));
}

/**
 * Exchanges a refresh token for a new ID token (the client SDK's token refresh);
 * null when the exchange is refused.
 * @param {string} authHost
 * @param {string} refreshToken
 * @returns {Promise<string | null>}
 */
export async function refreshIdToken(authHost, refreshToken) {
  const url = `http://${authHost}/securetoken.googleapis.com/v1/token?key=demo-key`;
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString();
  const res = await send(url, form, 'application/x-www-form-urlencoded');
  if (!res.ok) {
    await res.body?.cancel();
    return null;
  }
  return (await res.json()).id_token;
}

/**
 * A Google or Microsoft sign-in (accounts:signInWithIdp), as the client SDK makes it after the provider's
 * popup: the emulator takes an unsigned id_token of JSON claims as the provider's answer. With one account
 * per email (the emulator's default), a verified email lands on the account that already holds it.
 * `needConfirmation` is the emulator's auth/account-exists-with-different-credential.
 * @param {string} authHost
 * @param {'google.com' | 'microsoft.com'} providerId
 * @param {{ sub: string, email?: string, email_verified?: boolean, name?: string }} claims
 * @returns {Promise<Session & { needConfirmation: boolean, isNewUser: boolean }>}
 */
export async function signInWithIdp(authHost, providerId, claims) {
  const postBody = new URLSearchParams({ id_token: JSON.stringify(claims), providerId }).toString();
  const json = await identityCall(authHost, 'signInWithIdp', {
    postBody,
    requestUri: 'http://localhost',
    returnIdpCredential: true,
    returnSecureToken: true,
  });
  return { ...sessionOf(json), needConfirmation: json.needConfirmation === true, isNewUser: json.isNewUser === true };
}
