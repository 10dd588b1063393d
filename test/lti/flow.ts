import { adminAuth } from '../support/admin';
import { AUTH_HOST } from '../support/env';
import { api, freshIp, type ApiResponse } from '../support/http';
import type { TestPlatform } from './platform';
import { startPlatformServices, type PlatformServices } from './platformServices';

// The tool's login and launch driven as a platform's browser would, without a
// browser: the login's redirect read, the id_token built for its nonce, the
// form posted back.

export interface LoginResult {
  status: number;
  location: URL;
  state: string;
  nonce: string;
  /** The Set-Cookie the login answered (the browser's binding). */
  setCookie: string | null;
  /** What this browser sends back with its launch: the `name=value` of that cookie. */
  cookie: string;
  cacheControl: string | null;
}

export async function login(
  base: string,
  platform: TestPlatform,
  extra: Record<string, string> = {},
  cookie?: string,
): Promise<LoginResult> {
  const query = new URLSearchParams({
    iss: platform.issuer,
    login_hint: 'hint-1',
    target_link_uri: `${base}/api/lti/launch`,
    lti_message_hint: 'message-hint-1',
    client_id: platform.clientId,
    lti_deployment_id: platform.deploymentId,
    ...extra,
  });
  const res = await fetch(`${base}/api/lti/login?${query}`, {
    redirect: 'manual',
    headers: { 'X-Forwarded-For': freshIp(), ...(cookie ? { Cookie: cookie } : {}) },
  });
  if (res.status !== 302) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  const location = new URL(res.headers.get('location')!);
  const setCookie = res.headers.get('set-cookie');
  return {
    status: res.status,
    location,
    state: location.searchParams.get('state')!,
    nonce: location.searchParams.get('nonce')!,
    setCookie,
    cookie: setCookie?.split(';')[0] ?? '',
    cacheControl: res.headers.get('cache-control'),
  };
}

/** The launch's form post, with the cookie of the browser that logged in (`cookie`, as `login` answers it). */
export async function postLaunch(
  base: string,
  form: Record<string, string>,
  opts: { cookie?: string; accept?: string } = {},
): Promise<ApiResponse & { location: string | null }> {
  const res = await fetch(`${base}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: opts.accept ?? 'application/json',
      'X-Forwarded-For': freshIp(),
      ...(opts.cookie ? { Cookie: opts.cookie } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text, location: res.headers.get('location') };
}

/** Login, then the launch with the id_token `build` makes for the login's nonce. */
export async function launch(
  base: string,
  platform: TestPlatform,
  build: (nonce: string) => Promise<string>,
  opts: { accept?: string; state?: (state: string) => string } = {},
) {
  const { state, nonce, cookie } = await login(base, platform);
  const idToken = await build(nonce);
  return postLaunch(
    base,
    { id_token: idToken, state: opts.state ? opts.state(state) : state },
    { cookie, accept: opts.accept },
  );
}

/** The fragment of the launch's redirect, as the web app reads it. */
export function fragment(location: string | null): Record<string, string> {
  if (!location) throw new Error('no redirect');
  return Object.fromEntries(new URLSearchParams(location.slice(location.indexOf('#') + 1)));
}

/** A custom token exchanged at the Auth emulator for an ID token, as signInWithCustomToken does. */
export async function idTokenFor(customToken: string): Promise<string> {
  const res = await fetch(
    `http://${AUTH_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
    },
  );
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error(`custom token refused: ${JSON.stringify(body)}`);
  return body.idToken;
}

/**
 * The services (token endpoint, line items) of `platform`, trusting the tool's keys as a platform
 * does: read from the tool's JWKS endpoint at `base`. A registration points its `auth_token_url` at
 * their `tokenUrl`; a launch's AGS claim at one of their `lineitem()`s.
 */
export async function startServicesOf(base: string, platform: TestPlatform): Promise<PlatformServices> {
  return startPlatformServices({
    toolJwks: async () => {
      const res = await fetch(`${base}/api/lti/jwks`, { headers: { 'X-Forwarded-For': freshIp() } });
      if (!res.ok) throw new Error(`the tool's JWKS answered ${res.status}`);
      return res.json();
    },
    clientIds: [platform.clientId],
  });
}

export const claimsOf = async (uid: string) => (await adminAuth.getUser(uid)).customClaims ?? {};
export { api };
