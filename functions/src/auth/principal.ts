import { organizationFromClaims, roleFromClaims, type Role } from './claims';

// Pure: who is calling, as established from a verified ID token.
export { ROLES, type Role } from './claims';
/** Roles a route can admit; `guest` is an anonymous sign-in, not a claim. */
export type CallerRole = Role | 'guest';

export interface Principal {
  uid: string;
  email: string | null;
  role: CallerRole | null;
  clientId: string | null;
  guest: boolean;
  authTime: number;
  /** How this token was signed in (`password`, `google.com`, `microsoft.com`, …): joining with a school account reads it. */
  signInProvider?: string;
}

export interface TokenClaims {
  uid: string;
  email?: string;
  auth_time: number;
  role?: unknown;
  client_id?: unknown;
  firebase?: { sign_in_provider?: string };
}

export function principalFromClaims(claims: TokenClaims): Principal {
  const base = {
    uid: claims.uid,
    email: claims.email ?? null,
    authTime: claims.auth_time,
    ...(claims.firebase?.sign_in_provider ? { signInProvider: claims.firebase.sign_in_provider } : {}),
  };
  if (claims.firebase?.sign_in_provider === 'anonymous') {
    return { ...base, role: 'guest', clientId: null, guest: true };
  }
  const role = roleFromClaims({ ...claims });
  const clientId = organizationFromClaims({ ...claims });
  if (role === 'super_admin') return { ...base, role, clientId: null, guest: false };
  // A tenant role without its tenant is as good as no role.
  if (role && clientId) return { ...base, role, clientId, guest: false };
  return { ...base, role: null, clientId: null, guest: false };
}
