// Pure: how a user's role and organization are written into custom claims and
// read back. The users service, the token check and the test fixtures all use
// these, so they cannot disagree.

export const ROLES = ['super_admin', 'client_admin', 'student'] as const;
export type Role = (typeof ROLES)[number];

export type Claims = Record<string, unknown> | undefined;

export const roleFromClaims = (claims: Claims): Role | null => {
  const role = claims?.role;
  return ROLES.includes(role as Role) ? (role as Role) : null;
};

/** A `client_id` claim counts only beside an organization role: without one it is no organization. */
export function organizationFromClaims(claims: Claims): string | null {
  const role = roleFromClaims(claims);
  if (role !== 'client_admin' && role !== 'student') return null;
  const clientId = claims?.client_id;
  return typeof clientId === 'string' && clientId.length > 0 ? clientId : null;
}

export const claimsFor = (role: Role, clientId: string | null): Record<string, string> =>
  clientId ? { role, client_id: clientId } : { role };
