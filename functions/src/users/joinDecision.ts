import type { Role } from '../auth';

// Pure: what a first sign-in with a school's Google or Microsoft account does. Everything it needs is
// read by the caller (users/joinService.ts) and passed in; nothing here touches Firestore or Auth.

/** The providers whose sign-in may join an organization. */
export const SCHOOL_PROVIDERS = ['google.com', 'microsoft.com'] as const;
export type SchoolProvider = (typeof SCHOOL_PROVIDERS)[number];

export interface JoinFacts {
  /** The account that signed in, as Auth describes it now (not as the token remembers it). */
  caller: {
    uid: string;
    provider: string | null;
    email: string | null;
    emailVerified: boolean;
    disabled: boolean;
    role: Role | null;
    clientId: string | null;
  };
  /** The other account (a roster's) holding that email, with our claims; null when there is none. */
  roster: { uid: string; role: Role | null; clientId: string | null; disabled: boolean } | null;
  /** The organization the email's domain is bound to, if any. */
  domainClient: string | null;
  /** Whether each organization named above is active (unknown = not active). */
  active: Record<string, boolean>;
}

export type JoinDecision =
  | { kind: 'refuse'; message: string }
  /** The caller is the account that holds the role already (a Firebase merge, a repeated call): only what is missing. */
  | { kind: 'member'; uid: string; role: Role; clientId: string; via: 'roster' | 'domain' }
  /** The roster's account takes the provider's identity; the caller's empty account goes. */
  | { kind: 'link'; rosterUid: string; role: Role; clientId: string }
  /** A new student of the domain's organization. */
  | { kind: 'join'; clientId: string };

const NOT_REGISTERED = (email: string) =>
  `${email} is not registered with any school here; ask your school to add you to its roster, or to bind its email domain`;

const boundElsewhere = (email: string): JoinDecision => ({
  kind: 'refuse',
  message: `${email} is an address of a school whose email domain is bound to another organization; ask your school`,
});

export function joinDecision(facts: JoinFacts): JoinDecision {
  const { caller, roster, domainClient, active } = facts;
  if (!SCHOOL_PROVIDERS.includes(caller.provider as SchoolProvider))
    return { kind: 'refuse', message: 'Joining is only for a sign-in with a Google or Microsoft school account' };
  if (caller.disabled) return { kind: 'refuse', message: 'This account is disabled' };
  // The email is the whole key: one a provider has not verified may be anyone's (nOAuth).
  if (!caller.email || !caller.emailVerified)
    return { kind: 'refuse', message: 'Your account has no verified email; sign in with your school account' };
  const refuseInactive = (clientId: string) =>
    active[clientId] ? undefined : ({ kind: 'refuse', message: 'Your school is not active here' } as const);

  // The caller already holds a tenant role (merged into the roster's account by Firebase, or joined before).
  if (caller.role !== null) {
    if (caller.role === 'super_admin' || caller.clientId === null)
      return { kind: 'refuse', message: 'A Super Admin signs in with email and password' };
    if (domainClient !== null && caller.clientId !== domainClient) return boundElsewhere(caller.email);
    return (
      refuseInactive(caller.clientId) ?? {
        kind: 'member',
        uid: caller.uid,
        role: caller.role,
        clientId: caller.clientId,
        via: caller.clientId === domainClient ? 'domain' : 'roster',
      }
    );
  }

  if (roster && roster.uid !== caller.uid && roster.role !== null) {
    if (roster.disabled) return { kind: 'refuse', message: 'This account is disabled' };
    // A Super Admin's account is never reached through a provider: its email alone would be the key to the platform.
    if (roster.role === 'super_admin' || roster.clientId === null)
      return { kind: 'refuse', message: 'A Super Admin signs in with email and password' };
    // A bound domain speaks for its organization: another organization's roster cannot capture its addresses.
    if (domainClient !== null && roster.clientId !== domainClient) return boundElsewhere(caller.email);
    return (
      refuseInactive(roster.clientId) ?? {
        kind: 'link',
        rosterUid: roster.uid,
        role: roster.role,
        clientId: roster.clientId,
      }
    );
  }

  if (domainClient !== null) return refuseInactive(domainClient) ?? { kind: 'join', clientId: domainClient };
  return { kind: 'refuse', message: NOT_REGISTERED(caller.email) };
}
