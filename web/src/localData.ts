import { type Api, ApiError, OfflineError, type Schemas, unwrap } from './api';

/*
 * What this browser keeps for a signed-in user: a Guest's attempt tokens and the last
 * GET /api/me (localStorage), the answer queue and the last reading of each attempt
 * (IndexedDB, one database per user). Every key names the user's uid, so another session
 * on a shared computer never reads them; the user's data stops being read or written the
 * moment it is no longer the one signed in. See docs/web.md, "Sign-out on a shared computer".
 */

let signedInUid: string | null = null;
/** Whether `uid` is the user signed in now: once not, its data is neither read nor written. */
export const isSignedIn = (uid: string) => signedInUid === uid;

/** One user's answer queue, as much of it as signing in and out needs. */
export interface QueuedAnswers {
  /** Every attempt with answers still queued. */
  attemptsWithPending(): Promise<string[]>;
  /** How many answers of the attempt are still queued. */
  pendingCount(attemptId: string): Promise<number>;
  /** Sends the attempt's queued answers with `post`, batch by batch; throws what refused a batch. */
  send(attemptId: string, post: (answers: Array<Schemas['SaveAnswer']>) => Promise<unknown>): Promise<void>;
  /** Lets the attempt's queued answers go: nobody can send them any more. */
  drop(attemptId: string): Promise<void>;
  forgetAttempts(): Promise<void>;
}

/**
 * The answer queues this browser keeps. The taker owns them; the composition (main.tsx) hands
 * them to the session, so this module keeps no taker code.
 */
export interface AnswerStore {
  /** A user's queue; once `live()` is false it neither reads nor writes. */
  queue(uid: string, live?: () => boolean): QueuedAnswers;
  /** The users (by uid; '' for the unscoped queue of earlier builds) with a queue in this browser. */
  owners(): Promise<string[]>;
  remove(uid: string): Promise<void>;
}

// '' is the owner of the unscoped keys of earlier builds (`attempt-token:<attempt id>`).
const tokenKey = (uid: string, attemptId: string) =>
  uid ? `attempt-token:${uid}:${attemptId}` : `attempt-token:${attemptId}`;
const meKey = (uid: string) => `me:${uid}`;

/** A signed-in user's own data in this browser. */
export interface UserData {
  /** A Guest's attempt tokens, kept for its tab's reload and for a closed tab reopened on this browser. */
  attemptTokens: { get(attemptId: string): string | null; set(attemptId: string, token: string): void };
  /** Who this user was when last online, for a reload without network. */
  me: { get(): Schemas['Me'] | null; set(me: Schemas['Me']): void };
}

const scopes = new Map<string, UserData>();
export function userData(uid: string): UserData {
  let scope = scopes.get(uid);
  if (!scope) {
    scope = {
      attemptTokens: {
        get: (attemptId) => (isSignedIn(uid) ? localStorage.getItem(tokenKey(uid, attemptId)) : null),
        set: (attemptId, token) => isSignedIn(uid) && localStorage.setItem(tokenKey(uid, attemptId), token),
      },
      me: {
        get: () => {
          const known = isSignedIn(uid) ? localStorage.getItem(meKey(uid)) : null;
          return known ? (JSON.parse(known) as Schemas['Me']) : null;
        },
        set: (me) => isSignedIn(uid) && localStorage.setItem(meKey(uid), JSON.stringify(me)),
      },
    };
    scopes.set(uid, scope);
  }
  return scope;
}

/** Who is signed in now (null: nobody); called by the session on every change of the signed-in user. */
export function setSignedInUser(uid: string | null): void {
  signedInUid = uid;
}

/** The attempt ids this user holds a token for, by reading the keys themselves. */
function tokenKeysOf(uid: string): Array<{ key: string; attemptId: string }> {
  const prefix = uid ? `attempt-token:${uid}:` : 'attempt-token:';
  return Object.keys(localStorage).flatMap((key) => {
    if (!key.startsWith(prefix)) return [];
    const attemptId = key.slice(prefix.length);
    // A scoped key read as an unscoped one would have a ':' left in it.
    return uid === '' && attemptId.includes(':') ? [] : [{ key, attemptId }];
  });
}

function storedOwners(): string[] {
  return Object.keys(localStorage).flatMap((key) => {
    const token = /^attempt-token:(?:([^:]*):)?[^:]+$/.exec(key);
    if (token) return [token[1] ?? ''];
    return key.startsWith('me:') ? [key.slice(3)] : [];
  });
}

type Sent = 'sent' | 'offline' | 'refused';

/** Sends one attempt's queued answers as the taker's page does; a token sends them as its Guest. */
async function sendAttempt(api: Api, queue: QueuedAnswers, attemptId: string, token: string | null): Promise<Sent> {
  const headers = token ? { 'X-Attempt-Token': token } : undefined;
  try {
    await queue.send(attemptId, (answers) =>
      unwrap(
        api.POST('/api/attempts/{attemptId}/answers', { params: { path: { attemptId } }, headers, body: { answers } }),
      ),
    );
    return 'sent';
  } catch (err) {
    // Only a refusal for good (the attempt over, the token dead) lets a queued answer go; a busy or
    // failing service (429, 5xx) is asked again later, like a lost network.
    const retryLater = err instanceof ApiError && (err.status === 429 || err.status >= 500);
    return err instanceof OfflineError || retryLater ? 'offline' : 'refused';
  }
}

/** Sends what the signed-in user has queued; resolves with how many answers are still not on the service. */
export async function sendQueuedAnswers(api: Api, store: AnswerStore, uid: string): Promise<number> {
  const { attemptTokens } = userData(uid);
  const answers = store.queue(uid, () => isSignedIn(uid));
  let left = 0;
  for (const attemptId of await answers.attemptsWithPending()) {
    await sendAttempt(api, answers, attemptId, attemptTokens.get(attemptId));
    left += await answers.pendingCount(attemptId);
  }
  return left;
}

/** Signing out: removes every token, queued answer, cached attempt and profile of this user from the browser. */
export async function forgetUser(store: AnswerStore, uid: string): Promise<void> {
  if (signedInUid === uid) signedInUid = null;
  for (const { key } of tokenKeysOf(uid)) localStorage.removeItem(key);
  localStorage.removeItem(meKey(uid));
  await store.remove(uid);
}

/**
 * A user signed in: what other sessions left (their sign-out skipped, or their sign-in
 * lost) goes. A Guest's queued answers are sent first with its attempt token (its
 * anonymous account never signs in again) and kept, unreadable to this session, only
 * while the service cannot be reached; a student's unsent answers wait for that student
 * under its uid. Nothing else of theirs stays: tokens, cached attempts, profiles.
 */
let forgetting: Promise<void> = Promise.resolve();
export function forgetOtherUsers(api: Api, store: AnswerStore, uid: string): Promise<void> {
  forgetting = forgetting.then(async () => {
    const owners = new Set([...storedOwners(), ...(await store.owners())]);
    owners.delete(uid);
    for (const owner of owners) await forgetOther(api, store, owner).catch(() => undefined);
  });
  return forgetting;
}

async function forgetOther(api: Api, store: AnswerStore, owner: string): Promise<void> {
  localStorage.removeItem(meKey(owner));
  const queue = store.queue(owner);
  const queued = new Set(await queue.attemptsWithPending());
  for (const { key, attemptId } of tokenKeysOf(owner)) {
    const token = localStorage.getItem(key);
    const kept = queued.has(attemptId) && (await sendAttempt(api, queue, attemptId, token)) === 'offline';
    if (kept) continue;
    // Sent, or refused for good (the attempt is over): nobody could send these answers again.
    await queue.drop(attemptId);
    localStorage.removeItem(key);
  }
  if ((await queue.attemptsWithPending()).length === 0) await store.remove(owner);
  else await queue.forgetAttempts();
}
