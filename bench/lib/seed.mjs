// @ts-check
// Benchmark data, written straight through the Admin SDK as an operator would
// (the same document shapes the service keeps). Everything measured is then
// reached over HTTP.
import { randomUUID } from 'node:crypto';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { clientNameKey } from '../../scripts/functions-lib.mjs';
import { signInWithPassword } from '../../scripts/lib/emulatorAuth.mjs';
import { AUTH_HOST, PROJECT_ID } from './env.mjs';

if (getApps().length === 0) initializeApp({ projectId: PROJECT_ID });
export const adminAuth = getAuth();
export const adminDb = getFirestore();

export const RUN_ID = randomUUID().slice(0, 8);
export const PASSWORD = 'bench-password-123';
const BATCH_WRITES = 500; // Firestore's limit per batch

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Writes [ref, data] pairs in batches of at most 500 writes, a few batches at a time. */
async function writeAll(writes) {
  const chunks = [];
  for (let i = 0; i < writes.length; i += BATCH_WRITES) chunks.push(writes.slice(i, i + BATCH_WRITES));
  await mapLimit(chunks, 4, async (chunk) => {
    const batch = adminDb.batch();
    for (const [ref, data] of chunk) batch.set(ref, data);
    await batch.commit();
  });
}

function clientDoc(name) {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    name,
    address: '1 Benchmark Street',
    logo_url: 'https://example.com/logo.png',
    active_status: 1,
    created_at: now,
    updated_at: now,
  };
}

/** `count` clients, each with its name guard, as the service writes them. */
export async function seedClients(count, label) {
  const clients = Array.from({ length: count }, (_, i) =>
    clientDoc(`Bench ${label} ${RUN_ID} ${String(i).padStart(4, '0')}`),
  );
  await writeAll(
    clients.flatMap((c) => [
      [adminDb.collection('client_names').doc(clientNameKey(c.name)), { client_id: c.id }],
      [adminDb.collection('clients').doc(c.id), c],
    ]),
  );
  return clients;
}

/** `count` user profiles in one organization (listing reads profiles only, so no Auth account is needed). */
export async function seedUserProfiles(clientId, count, label) {
  const now = new Date().toISOString();
  await writeAll(
    Array.from({ length: count }, (_, i) => {
      const uid = `bench-${label}-${RUN_ID}-${i}`;
      return [
        adminDb.collection('clients').doc(clientId).collection('users').doc(uid),
        {
          uid,
          email: `${uid}@bench.example`,
          display_name: `Bench user ${i}`,
          role: 'student',
          client_id: clientId,
          disabled: false,
          created_at: now,
          updated_at: now,
        },
      ];
    }),
  );
}

/** `count` audit records of one organization, spread over the last days. */
export async function seedAuditRecords(clientId, count) {
  const base = Date.now() - 3 * 24 * 3600_000;
  await writeAll(
    Array.from({ length: count }, (_, i) => {
      const ref = adminDb.collection('audit_logs').doc();
      return [
        ref,
        {
          id: ref.id,
          event_type: i % 5 === 0 ? 'user_created' : 'login',
          user_id: `bench-audit-${RUN_ID}-${i % 50}`,
          ip_address: '2001:db8:ffff::1',
          success: true,
          timestamp: new Date(base + i * 60_000).toISOString(),
          client_id: clientId,
          actor_id: null,
          reason: null,
          user_agent: 'bench-seed',
          request_id: `bench-seed-${i}`,
          details: null,
        },
      ];
    }),
  );
}

export const countDocs = async (query) => (await query.count().get()).data().count;

/** Sign-in at the Auth emulator, exactly as a client would (email/password REST call). */
export const signIn = async (email, password) => (await signInWithPassword(AUTH_HOST, email, password)).idToken;

/** A real Auth user with role claims and its profile document. `signedIn` also fetches an ID token. */
export async function createUser(role, clientId, label, { signedIn = true } = {}) {
  const email = `${label}-${RUN_ID}-${randomUUID().slice(0, 8)}@bench.example`;
  const record = await adminAuth.createUser({ email, password: PASSWORD, displayName: `Bench ${label}` });
  await adminAuth.setCustomUserClaims(record.uid, clientId ? { role, client_id: clientId } : { role });
  const now = new Date().toISOString();
  const profile = {
    uid: record.uid,
    email,
    display_name: `Bench ${label}`,
    role,
    client_id: clientId,
    disabled: false,
    created_at: now,
    updated_at: now,
  };
  const ref =
    role === 'super_admin'
      ? adminDb.collection('super_admins').doc(record.uid)
      : adminDb.collection('clients').doc(clientId).collection('users').doc(record.uid);
  await ref.set(profile);
  return { uid: record.uid, email, role, clientId, token: signedIn ? await signIn(email, PASSWORD) : undefined };
}
