// Makes a Super Admin: the one role the API cannot grant to the first user.
//
//   npm run make-super-admin -- --email ops@example.com --password 'a long password' [--project my-project]
//
// Creates the Auth account when no account has that email (then --password is
// required), or promotes the existing one. Sets the custom claims
// {role: 'super_admin'}, writes the profile super_admins/{uid} and an audit
// record, all as the service itself keeps them.
//
// Production: Application Default Credentials (`gcloud auth application-default
// login`, or GOOGLE_APPLICATION_CREDENTIALS), project from --project or GCLOUD_PROJECT.
// Emulators: set FIREBASE_AUTH_EMULATOR_HOST and FIRESTORE_EMULATOR_HOST
// (the project then defaults to demo-exam).
import { parseArgs } from 'node:util';
import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';

const USAGE = `Usage: npm run make-super-admin -- --email <email> [--password <password>] [--display-name <name>] [--project <project id>]

  --email         the account to create, or to promote if it already exists
  --password      required when the account does not exist yet (8 to 128 characters);
                  an existing account keeps its password
  --display-name  name for a new account (default: none)
  --project       Firebase project id (default: GCLOUD_PROJECT; demo-exam against the emulators)

Against production it uses Application Default Credentials
(gcloud auth application-default login, or GOOGLE_APPLICATION_CREDENTIALS).
Against the local emulators set both of
  FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 FIRESTORE_EMULATOR_HOST=127.0.0.1:8080`;

function usageError(message) {
  console.error(`make-super-admin: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'display-name': { type: 'string' },
      project: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  }).values;
} catch (err) {
  usageError(err.message);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const email = args.email?.trim().toLowerCase();
if (!email) usageError('--email is required');
if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
  usageError(`"${args.email}" is not an email address`);
if (args.password !== undefined && (args.password.length < 8 || args.password.length > 128)) {
  usageError('--password must be 8 to 128 characters');
}
const displayName = args['display-name']?.trim() || undefined;
if (displayName !== undefined && displayName.length > 100) usageError('--display-name must be at most 100 characters');

const authEmulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const firestoreEmulator = process.env.FIRESTORE_EMULATOR_HOST;
if (Boolean(authEmulator) !== Boolean(firestoreEmulator)) {
  usageError('set both FIREBASE_AUTH_EMULATOR_HOST and FIRESTORE_EMULATOR_HOST (emulators), or neither (production)');
}
const emulated = Boolean(authEmulator);
const projectId =
  args.project ??
  process.env.GCLOUD_PROJECT ??
  process.env.GOOGLE_CLOUD_PROJECT ??
  (emulated ? 'demo-exam' : undefined);
if (!projectId) usageError('name the project: --project <project id> (or set GCLOUD_PROJECT)');
if (!emulated && projectId.startsWith('demo-')) {
  usageError(`"${projectId}" is an emulator-only project; set FIREBASE_AUTH_EMULATOR_HOST and FIRESTORE_EMULATOR_HOST`);
}

// Emulators need no credentials: skip the Google Cloud metadata-server probe.
if (emulated) process.env.METADATA_SERVER_DETECTION ??= 'none';
const app = initializeApp(emulated ? { projectId } : { projectId, credential: applicationDefault() });
const auth = getAuth(app);
const db = getFirestore(app);
const target = emulated
  ? `project ${projectId} on the emulators (Auth ${authEmulator}, Firestore ${firestoreEmulator})`
  : `project ${projectId}`;

async function findByEmail() {
  try {
    return await auth.getUserByEmail(email);
  } catch (err) {
    if (err.code === 'auth/user-not-found') return undefined;
    throw err;
  }
}

function auditRecord(eventType, uid, details, now) {
  const ref = db.collection('audit_logs').doc();
  return [
    ref,
    {
      id: ref.id,
      event_type: eventType,
      user_id: uid,
      ip_address: 'cli',
      success: true,
      timestamp: now,
      client_id: null,
      actor_id: null,
      reason: null,
      user_agent: 'make-super-admin',
      request_id: 'cli',
      details,
    },
  ];
}

async function main() {
  let record = await findByEmail();
  const created = !record;
  if (created) {
    if (args.password === undefined) usageError(`no account has the email ${email}; pass --password to create it`);
    try {
      record = await auth.createUser({ email, password: args.password, displayName });
    } catch (err) {
      if (err.code === 'auth/invalid-password') usageError(`--password was refused: ${err.message}`);
      throw err;
    }
  } else if (args.password !== undefined) {
    console.log(`Note: ${email} already exists; its password is left unchanged.`);
  }

  const previousClaims = record.customClaims ?? {};
  const previousRole = typeof previousClaims.role === 'string' ? previousClaims.role : null;
  const previousClient = typeof previousClaims.client_id === 'string' ? previousClaims.client_id : null;
  const roleChanged = !created && previousRole !== 'super_admin';
  const claimsChanged = previousRole !== 'super_admin' || Object.keys(previousClaims).length !== 1;
  if (claimsChanged) await auth.setCustomUserClaims(record.uid, { role: 'super_admin' });

  const now = new Date().toISOString();
  const profileRef = db.collection('super_admins').doc(record.uid);
  const existing = await profileRef.get();
  const profile = {
    uid: record.uid,
    email: record.email ?? email,
    display_name: existing.get('display_name') ?? record.displayName ?? null,
    role: 'super_admin',
    client_id: null,
    disabled: record.disabled,
    created_at: existing.get('created_at') ?? now,
    updated_at: now,
  };
  const batch = db.batch();
  batch.set(profileRef, profile);
  // A Super Admin belongs to no organization: its old tenant profile goes.
  if (previousClient) batch.delete(db.collection('clients').doc(previousClient).collection('users').doc(record.uid));
  if (created) batch.set(...auditRecord('user_created', record.uid, { role: 'super_admin' }, now));
  else if (roleChanged)
    batch.set(...auditRecord('role_changed', record.uid, { from: previousRole, to: 'super_admin' }, now));
  try {
    await batch.commit();
  } catch (err) {
    // Leave Auth as it was, so Auth and the profile never disagree.
    if (created) await auth.deleteUser(record.uid).catch(() => undefined);
    else if (claimsChanged) await auth.setCustomUserClaims(record.uid, previousClaims).catch(() => undefined);
    throw err;
  }
  // A token minted with the old role must not outlive the change.
  if (roleChanged) await auth.revokeRefreshTokens(record.uid);

  if (created) console.log(`Created Super Admin ${email} (uid ${record.uid}) in ${target}.`);
  else if (roleChanged) {
    console.log(`Promoted ${email} (uid ${record.uid}) from ${previousRole ?? 'no role'} to Super Admin in ${target}.`);
    console.log('Its refresh tokens were revoked: sign in again to get an ID token that carries the role.');
  } else console.log(`${email} (uid ${record.uid}) is already a Super Admin in ${target}; profile refreshed.`);
  if (record.disabled) console.log('Warning: this account is disabled; enable it before signing in with it.');
}

try {
  await main();
  await deleteApp(app);
} catch (err) {
  console.error(`make-super-admin failed: ${err.message}`);
  if (/default credentials|Could not refresh access token|invalid_grant/i.test(err.message)) {
    console.error(
      'Run `gcloud auth application-default login` or set GOOGLE_APPLICATION_CREDENTIALS to a service account key.',
    );
  } else if (/quota project/i.test(err.message)) {
    console.error(
      `Run \`gcloud auth application-default set-quota-project ${projectId}\` (user credentials need a quota project for the Auth API).`,
    );
  } else if (/PERMISSION_DENIED|insufficient permission|403/i.test(`${err.message} ${err.code}`) && !emulated) {
    console.error(
      `The credentials need the Firebase Authentication Admin and Cloud Datastore User roles (or Owner/Editor) on ${projectId}.`,
    );
  } else if (/ECONNREFUSED|fetch failed|UNAVAILABLE/i.test(`${err.message} ${err.code}`) && emulated) {
    console.error('Are the emulators running? Start them with `npm start`.');
  }
  process.exit(1);
}
