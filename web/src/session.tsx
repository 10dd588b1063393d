import type { Auth, User } from 'firebase/auth';
import { onIdTokenChanged, signOut, updateProfile } from 'firebase/auth';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { type Api, OfflineError, type Schemas, unwrap } from './api';
import {
  forgetOtherUsers,
  forgetUser,
  sendQueuedAnswers,
  setSignedInUser,
  userData,
  type AnswerStore,
  type UserData,
} from './localData';

export interface Session {
  auth: Auth;
  api: Api;
  user: User | null;
  /** GET /api/me for the signed-in user; null while signed out. */
  me: Schemas['Me'] | null;
  /** Whether the first auth state (persisted in IndexedDB) has been read. */
  ready: boolean;
  error: Error | null;
  /** What this browser keeps for the signed-in user (tokens, profile); null while signed out. */
  data: UserData | null;
  /**
   * Sends the queued answers, then signs out and removes everything the session kept in
   * this browser. With answers still unsent it refuses (resolving with how many) unless
   * `loseUnsent`: the person must have been told they are lost.
   */
  signOut(options?: { loseUnsent?: boolean }): Promise<number>;
  /**
   * A Guest's name as it gave it at the start, kept as its anonymous account's display name
   * (so the header shows it after a reload, and it goes with the account at sign-out).
   */
  nameGuest(name: string): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** `answers`: the answer queues this browser keeps, sent or removed as users sign in and out. */
export function SessionProvider({
  auth,
  api,
  answers,
  children,
}: {
  auth: Auth;
  api: Api;
  answers: AnswerStore;
  children: ReactNode;
}) {
  const [state, setState] = useState<Omit<Session, 'auth' | 'api' | 'data' | 'signOut' | 'nameGuest'>>({
    user: null,
    me: null,
    ready: false,
    error: null,
  });
  useEffect(
    () =>
      onIdTokenChanged(auth, async (user) => {
        // A sign-in lost without the button (expired, revoked) keeps the user's queue for its return, unreadable to others.
        setSignedInUser(user?.uid ?? null);
        if (!user) return setState({ user: null, me: null, ready: true, error: null });
        // Another session on this browser that ended without signing out leaves nothing for this one.
        void forgetOtherUsers(api, answers, user.uid);
        const data = userData(user.uid);
        try {
          const me = await unwrap(api.GET('/api/me'));
          data.me.set(me);
          setState({ user, me, ready: true, error: null });
        } catch (error) {
          // Offline (a reload in a hall whose Wi-Fi dropped): who this user was when last online.
          const known = error instanceof OfflineError ? data.me.get() : null;
          if (known) setState({ user, me: known, ready: true, error: null });
          else setState({ user, me: null, ready: true, error: error as Error });
        }
      }),
    [auth, api, answers],
  );
  const uid = state.user?.uid;
  const leave = useCallback(
    async ({ loseUnsent = false } = {}) => {
      if (!uid) return 0;
      const left = await sendQueuedAnswers(api, answers, uid);
      if (left > 0 && !loseUnsent) return left;
      await forgetUser(answers, uid);
      await signOut(auth);
      return 0;
    },
    [answers, api, auth, uid],
  );
  const nameGuest = useCallback(
    async (name: string) => {
      const user = auth.currentUser;
      if (!user?.isAnonymous || user.displayName === name) return;
      // Only the header reads it: a failure (offline) leaves it saying "Guest".
      await updateProfile(user, { displayName: name }).catch(() => undefined);
      setState((current) => ({ ...current, user }));
    },
    [auth],
  );
  return (
    <SessionContext.Provider
      value={{ auth, api, ...state, data: uid ? userData(uid) : null, signOut: leave, nameGuest }}
    >
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export const isAdmin = (me: Schemas['Me'] | null) => me?.role === 'client_admin' || me?.role === 'super_admin';
