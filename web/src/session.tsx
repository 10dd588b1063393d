import type { Auth, User } from 'firebase/auth';
import { onIdTokenChanged } from 'firebase/auth';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { OfflineError, unwrap, type Api, type Schemas } from './api/client';

const meKey = (uid: string) => `me:${uid}`;

export interface Session {
  auth: Auth;
  api: Api;
  user: User | null;
  /** GET /api/me for the signed-in user; null while signed out. */
  me: Schemas['Me'] | null;
  /** Whether the first auth state (persisted in IndexedDB) has been read. */
  ready: boolean;
  error: Error | null;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ auth, api, children }: { auth: Auth; api: Api; children: ReactNode }) {
  const [state, setState] = useState<Omit<Session, 'auth' | 'api'>>({ user: null, me: null, ready: false, error: null });
  useEffect(
    () =>
      onIdTokenChanged(auth, async (user) => {
        if (!user) return setState({ user: null, me: null, ready: true, error: null });
        try {
          const me = await unwrap(api.GET('/api/me'));
          localStorage.setItem(meKey(user.uid), JSON.stringify(me));
          setState({ user, me, ready: true, error: null });
        } catch (error) {
          // Offline (a reload in a hall whose Wi-Fi dropped): who this user was when last online.
          const known = error instanceof OfflineError ? localStorage.getItem(meKey(user.uid)) : null;
          if (known) setState({ user, me: JSON.parse(known), ready: true, error: null });
          else setState({ user, me: null, ready: true, error: error as Error });
        }
      }),
    [auth, api],
  );
  return <SessionContext.Provider value={{ auth, api, ...state }}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export const isAdmin = (me: Schemas['Me'] | null) => me?.role === 'client_admin' || me?.role === 'super_admin';
