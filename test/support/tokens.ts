// Tokens the Auth emulator would never issue, built from a real one. Emulator
// tokens are unsigned (alg "none"), so these exercise every check firebase-admin
// makes there: expiry, audience, issuer, algorithm and signature presence.

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodePayload(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

export function withClaims(token: string, changes: Record<string, unknown>): string {
  const [header] = token.split('.');
  return `${header}.${b64({ ...decodePayload(token), ...changes })}.`;
}

export function expired(token: string): string {
  const now = Math.floor(Date.now() / 1000);
  return withClaims(token, { iat: now - 7200, exp: now - 3600 });
}

export const wrongAudience = (token: string) => withClaims(token, { aud: 'someone-elses-project' });

/** A signature where an unsigned token has none: what tampering with a signed token looks like. */
export const withForgedSignature = (token: string) =>
  `${token.replace(/\.$/, '')}.${Buffer.from('forged').toString('base64url')}`;

/** Claims RS256 without a key to check it against. */
export function withAlgorithm(token: string, alg: string): string {
  const [, payload] = token.split('.');
  return `${b64({ alg, typ: 'JWT', kid: 'made-up' })}.${payload}.${Buffer.from('sig').toString('base64url')}`;
}
