import { randomUUID } from 'node:crypto';
import { adminAuth, adminDb } from './admin';
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

const identityToolkit = (method: string) =>
  `http://${AUTH_HOST}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-key`;

async function identityCall(method: string, body: unknown): Promise<any> {
  const res = await fetch(identityToolkit(method), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} failed: ${JSON.stringify(json)}`);
  return json;
}

/** Email/password sign-in, exactly as the interface documents it. */
export async function signIn(email: string, password: string): Promise<string> {
  const json = await identityCall('signInWithPassword', { email, password, returnSecureToken: true });
  return json.idToken;
}

/** Anonymous sign-in (a Guest): accounts:signUp with no email or password. */
export async function signInAnonymously(): Promise<{ uid: string; token: string }> {
  const json = await identityCall('signUp', { returnSecureToken: true });
  return { uid: json.localId, token: json.idToken };
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
    await adminAuth.setCustomUserClaims(record.uid, clientId ? { role, client_id: clientId } : { role });
    const now = new Date().toISOString();
    const profile = {
      uid: record.uid,
      email,
      display_name: `Test ${role}`,
      role,
      client_id: clientId,
      disabled: false,
      created_at: now,
      updated_at: now,
    };
    const ref =
      role === 'super_admin'
        ? adminDb.collection('super_admins').doc(record.uid)
        : adminDb.collection('clients').doc(clientId!).collection('users').doc(record.uid);
    await ref.set(profile);
  }
  return { uid: record.uid, email, password, role, clientId, token: await signIn(email, password) };
}

export const createSuperAdmin = () => createUser('super_admin');

/** An active organization with one Client Admin and one Student. */
export async function createTenant(opts: { active_status?: 0 | 1 } = {}) {
  const client = await createClientDoc(opts);
  const [admin, student] = await Promise.all([
    createUser('client_admin', client.id),
    createUser('student', client.id),
  ]);
  return { client, clientId: client.id, admin, student };
}

/** Audit records about one user, newest first, read straight from Firestore. */
export async function auditRecordsFor(userId: string, eventType?: string) {
  let query = adminDb.collection('audit_logs').where('user_id', '==', userId);
  if (eventType) query = query.where('event_type', '==', eventType);
  const snap = await query.get();
  return snap.docs.map((d) => d.data()).sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
}
