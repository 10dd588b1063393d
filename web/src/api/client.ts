import type { Auth } from 'firebase/auth';
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { sebGuarded, sebHeaders } from './seb';

export type Schemas = components['schemas'];

/** The API's error body (every 4xx and 5xx), as a thrown error the pages show as it is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ path: string; message: string; [key: string]: unknown }> = [],
    /** The whole error body: some refusals carry more than the details (an import's per-question report). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The browser cannot reach the API at all (offline, or the network dropped). */
export class OfflineError extends Error {
  constructor() {
    super('You are offline: the service cannot be reached');
  }
}

/**
 * Server time minus browser time, in ms, from the Date header of the API's answers.
 * Timers count down from the server's expires_at with it, never trusting the browser's clock alone.
 */
const OFFSET_KEY = 'server-clock-offset-ms';
const UNCERTAINTY_KEY = 'server-clock-uncertainty-ms';
// The last offset learnt, so a reload while offline still counts on the server's clock.
let clockOffsetMs = Number(localStorage.getItem(OFFSET_KEY)) || 0;
let clockUncertaintyMs = Number(localStorage.getItem(UNCERTAINTY_KEY)) || 0;
/** The server's clock as best estimated: what a countdown shows. */
export const serverNow = () => Date.now() + clockOffsetMs;
/** The earliest the server's clock can read now: a moment the API must already have reached (a window's opening). */
export const serverNowAtLeast = () => serverNow() - clockUncertaintyMs;

function learnClock(response: Response, sentAt: number): void {
  const date = Date.parse(response.headers.get('Date') ?? '');
  if (Number.isNaN(date)) return;
  // The header has whole seconds: the server's clock was somewhere in [date, date + 1 s) while answering,
  // at a moment between sending and receiving.
  const receivedAt = Date.now();
  clockOffsetMs = date + 500 - (sentAt + receivedAt) / 2;
  clockUncertaintyMs = 500 + (receivedAt - sentAt) / 2;
  localStorage.setItem(OFFSET_KEY, String(Math.round(clockOffsetMs)));
  localStorage.setItem(UNCERTAINTY_KEY, String(Math.ceil(clockUncertaintyMs)));
}

export function createApi(auth: Auth) {
  const api = createClient<paths>({ baseUrl: location.origin });
  const sentAt = new WeakMap<Request, number>();
  const middleware: Middleware = {
    async onRequest({ request }) {
      const user = auth.currentUser;
      if (user && !request.headers.has('X-Attempt-Token'))
        request.headers.set('Authorization', `Bearer ${await user.getIdToken()}`);
      if (sebGuarded(request.method, new URL(request.url).pathname))
        for (const [name, value] of Object.entries(await sebHeaders()))
          if (!request.headers.has(name)) request.headers.set(name, value);
      sentAt.set(request, Date.now());
      return request;
    },
    onResponse({ request, response }) {
      learnClock(response, sentAt.get(request) ?? Date.now());
      return response;
    },
  };
  api.use(middleware);
  return api;
}

export type Api = ReturnType<typeof createApi>;

/**
 * The answer's data, or the API's error thrown as an ApiError; a request that
 * never reached the service throws OfflineError.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result;
  try {
    result = await call;
  } catch (err) {
    if (err instanceof TypeError) throw new OfflineError();
    throw err;
  }
  if (result.response.ok) return result.data as T;
  const body = result.error as { error?: string; message?: string; details?: ApiError['details'] } | undefined;
  throw new ApiError(
    result.response.status,
    body?.error ?? 'SERVER_ERROR',
    body?.message ?? `The service answered ${result.response.status}`,
    body?.details ?? [],
    (body as Record<string, unknown> | undefined) ?? {},
  );
}

/**
 * A request outside the typed client (a file download, a media file): the same credentials
 * as the client's, an attempt token instead of the ID token when given. Non-2xx throws the
 * API's error as an ApiError; a request that never reached the service throws OfflineError.
 */
export async function authorizedFetch(
  auth: Auth,
  url: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const sent = new Headers(headers);
  const user = auth.currentUser;
  if (user && !sent.has('X-Attempt-Token')) sent.set('Authorization', `Bearer ${await user.getIdToken()}`);
  let response: Response;
  try {
    response = await fetch(url, { headers: sent });
  } catch {
    throw new OfflineError();
  }
  if (response.ok) return response;
  const body = (await response.json().catch(() => ({}))) as {
    error?: string;
    message?: string;
    details?: ApiError['details'];
  };
  throw new ApiError(
    response.status,
    body.error ?? 'SERVER_ERROR',
    body.message ?? `The service answered ${response.status}`,
    body.details ?? [],
    body as Record<string, unknown>,
  );
}

/** Fetches a file with the reader's credentials (as authorizedFetch) and hands it to the browser as a download named `name`. */
export async function downloadFile(
  auth: Auth,
  url: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const objectUrl = URL.createObjectURL(await (await authorizedFetch(auth, url, headers)).blob());
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = name;
  link.click();
  // Long enough for the browser to begin the download.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
