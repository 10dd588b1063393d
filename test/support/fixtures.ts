import { randomUUID } from 'node:crypto';
import { claimsFor } from '../../functions/src/auth/claims';
import { newProfile } from '../../functions/src/users/profiles';
import { profileRef } from '../../functions/src/users/store';
import { adminAuth, adminDb } from './admin';
import {
  refreshIdToken as emulatorRefreshIdToken,
  signInAnonymously as emulatorSignInAnonymously,
  signInWithPassword,
} from '../../scripts/lib/emulatorAuth.mjs';
import { AUTH_HOST } from './env';

export type Role = 'super_admin' | 'client_admin' | 'student';

export interface TestUser {
  uid: string;
  email: string;
  password: string;
  role: Role | null;
  clientId: string | null;
  /** A real ID token from the Auth emulator. */
  token: string;
}

/** Email/password sign-in, exactly as a client app does it. */
export const signIn = async (email: string, password: string): Promise<string> =>
  (await signInWithPassword(AUTH_HOST, email, password)).idToken;

/** Anonymous sign-in (a Guest): accounts:signUp with no email or password. */
export async function signInAnonymously(): Promise<{ uid: string; token: string }> {
  const { uid, idToken } = await emulatorSignInAnonymously(AUTH_HOST);
  return { uid, token: idToken };
}

export const uniqueName = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

export async function createClientDoc(overrides: { name?: string; active_status?: 0 | 1 } = {}) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const client = {
    id,
    name: overrides.name ?? uniqueName('Test School'),
    address: '1 Test Street',
    logo_url: 'https://example.com/logo.png',
    active_status: overrides.active_status ?? 1,
    created_at: now,
    updated_at: now,
  };
  await adminDb.collection('clients').doc(id).set(client);
  return client;
}

/** A user made directly with the Admin SDK (claims + profile, as the service keeps them), signed in. */
export async function createUser(role: Role | null, clientId: string | null = null): Promise<TestUser> {
  const email = `${role ?? 'norole'}-${randomUUID().slice(0, 12)}@test.example`;
  const password = 'correct-horse-battery';
  const record = await adminAuth.createUser({ email, password, displayName: `Test ${role ?? 'user'}` });
  if (role) {
    // The same claims and profile shapes the users service writes.
    await adminAuth.setCustomUserClaims(record.uid, claimsFor(role, clientId));
    const profile = newProfile(
      { uid: record.uid, email, display_name: `Test ${role}`, role, client_id: clientId },
      new Date().toISOString(),
    );
    await profileRef(record.uid, role, clientId)!.set(profile);
  }
  return { uid: record.uid, email, password, role, clientId, token: await signIn(email, password) };
}

export const createSuperAdmin = () => createUser('super_admin');

/** An active organization with one Client Admin and one Student. */
export async function createTenant(opts: { active_status?: 0 | 1 } = {}) {
  const client = await createClientDoc(opts);
  const [admin, student] = await Promise.all([createUser('client_admin', client.id), createUser('student', client.id)]);
  return { client, clientId: client.id, admin, student };
}

/** Audit records about one user, newest first, read straight from Firestore. */
export async function auditRecordsFor(userId: string, eventType?: string) {
  let query = adminDb.collection('audit_logs').where('user_id', '==', userId);
  if (eventType) query = query.where('event_type', '==', eventType);
  const snap = await query.get();
  return snap.docs.map((d) => d.data()).sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
}

/**
 * What `read` answers once it holds `count` items or more (else what it holds after 5 s):
 * a login or a refused token is recorded beside its request's reply, not before it.
 */
export async function whenWritten<T>(count: number, read: () => Promise<T[]>): Promise<T[]> {
  for (let tries = 0; tries < 50; tries += 1) {
    const items = await read();
    if (items.length >= count) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
}

/** auditRecordsFor, once there are `count` of them. */
export const auditRecordsWritten = (userId: string, eventType: string, count: number) =>
  whenWritten(count, () => auditRecordsFor(userId, eventType));

/** Everyone who can knock on a tenant endpoint: a Super Admin, two organizations, a Guest and a user with no role. */
export async function createRoleMatrix() {
  const [superAdmin, tenant, otherTenant, guest, noRole] = await Promise.all([
    createSuperAdmin(),
    createTenant(),
    createTenant(),
    signInAnonymously(),
    createUser(null),
  ]);
  return { superAdmin, tenant, otherTenant, guest, noRole };
}
export type RoleMatrix = Awaited<ReturnType<typeof createRoleMatrix>>;

/**
 * Waits until the wall clock is past the second the token was signed in at.
 * Firebase compares auth_time with the revocation time to the second, so only a
 * token that predates the revocation's second is refused as revoked.
 */
export async function waitPastAuthTime(token: string): Promise<void> {
  const authTime = Number(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).auth_time);
  const waitMs = (authTime + 1) * 1000 - Date.now() + 50;
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}

/** Email/password sign-in keeping the refresh token, as the client SDK does. */
export async function signInWithRefreshToken(
  email: string,
  password: string,
): Promise<{ idToken: string; refreshToken: string }> {
  const { idToken, refreshToken } = await signInWithPassword(AUTH_HOST, email, password);
  return { idToken, refreshToken };
}

/**
 * Exchanges a refresh token for a new ID token (the SDK's token refresh). Resolves
 * with null when the exchange is refused. The Auth emulator does not refuse
 * revoked refresh tokens here, but the ID token it returns keeps the original
 * auth_time, so the service still sees it as revoked.
 */
export const refreshIdToken = (refreshToken: string): Promise<string | null> =>
  emulatorRefreshIdToken(AUTH_HOST, refreshToken);
