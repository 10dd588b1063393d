// Seeds the demo data into the local emulators: one active client ("Demo
// Academy"), a Super Admin, a Client Admin and two Students, with the custom
// claims and profile documents exactly as the service keeps them; then, through
// the API, Demo Academy's folder, questions, published test and share code, and
// the submitted attempts its analytics are computed from, and a second test
// for the sittings features (a window, an access code, Student Two's standing
// +50%) (scripts/seed-exams.mjs).
//
// Idempotent: fixed ids, and every record is created or put back the way it is
// documented, so seeding twice (or `npm start` twice) is harmless.
//
//   node scripts/seed.mjs          # against running emulators (ports from firebase.json,
//                                  # or FIREBASE_JSON / FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST)
//
// It only ever talks to emulators and only to a `demo-` project.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { clientNameKey } from './functions-lib.mjs';
import { passwordSignsIn } from './lib/emulatorAuth.mjs';
import { seedDemoExams } from './seed-exams.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

export const DEMO_PROJECT = 'demo-exam';
/** One password for every demo account: this is local emulator data only. */
export const DEMO_PASSWORD = 'demo-pass-1234';

export const DEMO_CLIENT = {
  id: 'demo-academy',
  name: 'Demo Academy',
  address: '1 Example Street, Springfield',
  logo_url: 'https://example.com/demo-academy-logo.png',
};

export const DEMO_ACCOUNTS = [
  {
    uid: 'demo-super-admin',
    email: 'superadmin@demo.example',
    display_name: 'Demo Super Admin',
    role: 'super_admin',
    client_id: null,
  },
  {
    uid: 'demo-academy-admin',
    email: 'admin@demo-academy.example',
    display_name: 'Demo Academy Admin',
    role: 'client_admin',
    client_id: DEMO_CLIENT.id,
  },
  {
    uid: 'demo-student-1',
    email: 'student1@demo-academy.example',
    display_name: 'Student One',
    role: 'student',
    client_id: DEMO_CLIENT.id,
  },
  {
    uid: 'demo-student-2',
    email: 'student2@demo-academy.example',
    display_name: 'Student Two',
    role: 'student',
    client_id: DEMO_CLIENT.id,
  },
].map((account) => ({ ...account, password: DEMO_PASSWORD }));

const connectHost = (host) =>
  host === '0.0.0.0' || host === '::' || !host ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

/**
 * Where the emulators of a firebase.json listen, as host:port strings a client can dial.
 * FIREBASE_JSON picks another config (scripts/isolated-config.mjs).
 */
export function emulatorAddresses(configFile = process.env.FIREBASE_JSON ?? 'firebase.json') {
  const config = JSON.parse(readFileSync(join(root, configFile), 'utf8'));
  const addresses = {};
  for (const [name, value] of Object.entries(config.emulators ?? {})) {
    if (value && typeof value === 'object' && typeof value.port === 'number') {
      addresses[name] = `${connectHost(value.host)}:${value.port}`;
    }
  }
  return addresses;
}

const sameFields = (a, b, fields) =>
  a !== undefined && fields.every((f) => JSON.stringify(a[f]) === JSON.stringify(b[f]));

/** The client, its name guard, active. Fails clearly if another client already holds the name. */
async function seedClient(db, now) {
  const { id, name } = DEMO_CLIENT;
  const clientRef = db.collection('clients').doc(id);
  const guardRef = db.collection('client_names').doc(clientNameKey(name));
  return db.runTransaction(async (tx) => {
    const [clientSnap, guardSnap] = await tx.getAll(clientRef, guardRef);
    if (guardSnap.exists && guardSnap.get('client_id') !== id) {
      throw new Error(`Another client (${guardSnap.get('client_id')}) already uses the name "${name}"`);
    }
    const current = clientSnap.exists ? clientSnap.data() : undefined;
    // Renamed since the last seed: release the old name, as the service would.
    let oldGuardRef;
    if (current?.name && clientNameKey(current.name) !== clientNameKey(name)) {
      const candidate = db.collection('client_names').doc(clientNameKey(current.name));
      const oldGuard = await tx.get(candidate);
      if (oldGuard.exists && oldGuard.get('client_id') === id) oldGuardRef = candidate;
    }
    const wanted = { ...DEMO_CLIENT, active_status: 1 };
    const unchanged = sameFields(current, wanted, ['id', 'name', 'address', 'logo_url', 'active_status']);
    const client = unchanged ? current : { ...wanted, created_at: current?.created_at ?? now, updated_at: now };
    if (!unchanged) tx.set(clientRef, client);
    if (!guardSnap.exists) tx.set(guardRef, { client_id: id });
    if (oldGuardRef) tx.delete(oldGuardRef);
    return { client, changed: !unchanged || !guardSnap.exists };
  });
}

/** An Auth account with the documented email, password and claims; found by uid, else by email. */
async function seedAuthUser(auth, account) {
  const find = async (lookup) => {
    try {
      return await lookup();
    } catch (err) {
      if (err.code === 'auth/user-not-found') return undefined;
      throw err;
    }
  };
  let record = (await find(() => auth.getUser(account.uid))) ?? (await find(() => auth.getUserByEmail(account.email)));
  let created = false;
  let changed = false;
  if (!record) {
    record = await auth.createUser({
      uid: account.uid,
      email: account.email,
      password: account.password,
      displayName: account.display_name,
      emailVerified: true,
    });
    created = true;
  } else {
    // Put the account back as documented (someone may have changed it through the
    // API), touching only what differs: a password change revokes the user's tokens.
    const changes = {};
    if (record.email !== account.email) changes.email = account.email;
    if (record.displayName !== account.display_name) changes.displayName = account.display_name;
    if (record.disabled) changes.disabled = false;
    if (Object.keys(changes).length > 0) {
      record = await auth.updateUser(record.uid, changes);
      changed = true;
    }
    if (!(await passwordSignsIn(process.env.FIREBASE_AUTH_EMULATOR_HOST, account.email, account.password))) {
      record = await auth.updateUser(record.uid, { password: account.password });
      changed = true;
    }
  }
  const claims = account.client_id ? { role: account.role, client_id: account.client_id } : { role: account.role };
  const current = record.customClaims ?? {};
  const claimsChanged = current.role !== claims.role || (current.client_id ?? undefined) !== claims.client_id;
  if (claimsChanged || Object.keys(current).length !== Object.keys(claims).length) {
    await auth.setCustomUserClaims(record.uid, claims);
    // A token minted with the old role must not outlive the change (as the service does).
    if (!created) await auth.revokeRefreshTokens(record.uid);
    changed = true;
  }
  return { uid: record.uid, created, changed: created || changed };
}

/** The profile document where the service keeps it, plus a user_created audit record for a new account. */
async function seedProfile(db, account, uid, created, now) {
  const ref =
    account.role === 'super_admin'
      ? db.collection('super_admins').doc(uid)
      : db.collection('clients').doc(account.client_id).collection('users').doc(uid);
  // A profile the account left behind in the other place (promoted, then seeded back).
  const strayRef =
    account.role === 'super_admin'
      ? db.collection('clients').doc(DEMO_CLIENT.id).collection('users').doc(uid)
      : db.collection('super_admins').doc(uid);
  const [snap, straySnap] = await db.getAll(ref, strayRef);
  const current = snap.exists ? snap.data() : undefined;
  const wanted = {
    uid,
    email: account.email,
    display_name: account.display_name,
    role: account.role,
    client_id: account.client_id,
    disabled: false,
  };
  const batch = db.batch();
  let writes = 0;
  if (!sameFields(current, wanted, Object.keys(wanted))) {
    batch.set(ref, { ...wanted, created_at: current?.created_at ?? now, updated_at: now });
    writes += 1;
  }
  if (straySnap.exists) {
    batch.delete(strayRef);
    writes += 1;
  }
  if (created) {
    const auditRef = db.collection('audit_logs').doc();
    batch.set(auditRef, {
      id: auditRef.id,
      event_type: 'user_created',
      user_id: uid,
      ip_address: 'cli',
      success: true,
      timestamp: now,
      client_id: account.client_id,
      actor_id: null,
      reason: null,
      user_agent: 'seed',
      request_id: 'seed',
      details: { role: account.role },
    });
    writes += 1;
  }
  if (writes > 0) await batch.commit();
  return writes > 0;
}

/**
 * Seeds the demo into the emulators named by FIRESTORE_EMULATOR_HOST and
 * FIREBASE_AUTH_EMULATOR_HOST (both must be set). Returns what it made.
 */
export async function seedDemo({ projectId = DEMO_PROJECT, baseUrl } = {}) {
  if (!process.env.FIRESTORE_EMULATOR_HOST || !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error(
      'Seeding needs FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST: it only writes to emulators',
    );
  }
  if (!projectId.startsWith('demo-')) {
    throw new Error(`Refusing to seed project "${projectId}": demo data goes into a demo- project only`);
  }
  // Fail fast: the Firestore client would otherwise retry an absent emulator for minutes.
  for (const [name, host] of [
    ['Firestore', process.env.FIRESTORE_EMULATOR_HOST],
    ['Auth', process.env.FIREBASE_AUTH_EMULATOR_HOST],
  ]) {
    try {
      const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
    } catch (err) {
      throw new Error(`the ${name} emulator does not answer at ${host} (${err.cause?.code ?? err.name})`, {
        cause: err,
      });
    }
  }
  // Emulators need no credentials: skip the Google Cloud metadata-server probe.
  process.env.METADATA_SERVER_DETECTION ??= 'none';
  const app = initializeApp({ projectId }, `seed-${Date.now()}`);
  try {
    const db = getFirestore(app);
    const auth = getAuth(app);
    const now = new Date().toISOString();
    const { client, changed: clientChanged } = await seedClient(db, now);
    const accounts = [];
    for (const account of DEMO_ACCOUNTS) {
      const { uid, created, changed } = await seedAuthUser(auth, account);
      const profileChanged = await seedProfile(db, account, uid, created, now);
      accounts.push({ ...account, uid, created, changed: changed || profileChanged });
    }
    // Exam content goes through the API (scripts/seed-exams.mjs), as the Client Admin.
    const admin = accounts.find((a) => a.role === 'client_admin');
    const student = accounts.find((a) => a.uid === 'demo-student-1');
    const tests = baseUrl
      ? await seedDemoExams({ baseUrl, authHost: process.env.FIREBASE_AUTH_EMULATOR_HOST, admin, student })
      : [];
    return { projectId, client, clientChanged, accounts, tests };
  } finally {
    await deleteApp(app);
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const addresses = emulatorAddresses();
  process.env.FIRESTORE_EMULATOR_HOST ??= addresses.firestore;
  process.env.FIREBASE_AUTH_EMULATOR_HOST ??= addresses.auth;
  const projectId = process.env.GCLOUD_PROJECT ?? DEMO_PROJECT;
  try {
    const result = await seedDemo({ projectId, baseUrl: `http://${addresses.hosting}` });
    console.log(
      `Seeded project ${result.projectId} (Firestore ${process.env.FIRESTORE_EMULATOR_HOST}, Auth ${process.env.FIREBASE_AUTH_EMULATOR_HOST})`,
    );
    console.log(
      `  client   ${result.client.id}  "${result.client.name}"  ${result.clientChanged ? '(written)' : '(unchanged)'}`,
    );
    for (const a of result.accounts) {
      console.log(
        `  ${a.role.padEnd(12)} ${a.email.padEnd(32)} ${a.password}  ${a.created ? '(created)' : a.changed ? '(updated)' : '(unchanged)'}`,
      );
    }
    const [test, sitting, pooled, classes] = result.tests;
    if (test)
      console.log(
        `  test     ${test.id}  "${test.test_name}" (${test.status}), ${test.questions} questions, share code ${test.share_code}, ${test.submitted_attempts} submitted attempts`,
      );
    if (sitting) {
      console.log(
        `  test     ${sitting.id}  "${sitting.test_name}" (${sitting.status}), ${sitting.questions} questions, share code ${sitting.share_code}, access code ${sitting.access_code}`,
      );
      console.log(
        `           open from ${sitting.opens_at} to ${sitting.closes_at}; ${sitting.accommodation.student_id} has +${sitting.accommodation.extra_time_percent}% on every test`,
      );
    }
    if (pooled)
      console.log(
        `  test     ${pooled.id}  "${pooled.test_name}" (${pooled.status}), ${pooled.questions} questions, share code ${pooled.share_code}, ${pooled.essays_to_grade} essays to grade`,
      );
    for (const cls of classes ?? [])
      console.log(`  class    ${cls.id}  "${cls.name}" (${cls.code}): ${cls.members.join(', ')}`);
    if (classes?.length)
      console.log(
        `           "${test?.test_name}" and "${pooled?.test_name}" are assigned to ${classes[0].name} only: ${classes[1].members[0]} does not see them`,
      );
  } catch (err) {
    console.error(`Seeding failed: ${err.message}`);
    if (/does not answer|ECONNREFUSED|UNAVAILABLE|fetch failed/i.test(String(err.message) + String(err.code))) {
      console.error('Are the emulators running? Start them with `npm start` (which also seeds).');
    }
    process.exit(1);
  }
}
