// Gives every test stored before tests could be assigned to classes its assignment
// (none: open to the whole organization) and the `audience` derived from it, which a
// student's test list queries: a test without `audience` is listed to no student (it
// can still be read and started by id). Any write of a test through the API adds both
// too; this finishes the ones nobody writes. Idempotent: a test already right is left
// alone, so running it again (or after a crash) writes nothing more.
//
//   node scripts/backfill-audience.mjs [--project my-project] [--dry-run]
//
// Production: Application Default Credentials (`gcloud auth application-default
// login`, or GOOGLE_APPLICATION_CREDENTIALS), project from --project or GCLOUD_PROJECT.
// Emulators: set FIRESTORE_EMULATOR_HOST (the project then defaults to demo-exam).
import { parseArgs } from 'node:util';
import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { FieldPath, getFirestore } from 'firebase-admin/firestore';

const USAGE = `Usage: node scripts/backfill-audience.mjs [--project <project id>] [--dry-run]

  --project  Firebase project id (default: GCLOUD_PROJECT; demo-exam against the emulator)
  --dry-run  count the tests that need it, write nothing

Against production it uses Application Default Credentials. Against the local
emulator set FIRESTORE_EMULATOR_HOST=127.0.0.1:8080.`;

/** Must agree with functions/src/exams/audience.ts (audienceOf). */
const WHOLE_ORGANIZATION = '*';
const audienceOf = (assigned) => (assigned.length > 0 ? [...assigned] : [WHOLE_ORGANIZATION]);
const PAGE = 300;

function usageError(message) {
  console.error(`backfill-audience: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: { project: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  }).values;
} catch (err) {
  usageError(err.message);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const emulated = Boolean(process.env.FIRESTORE_EMULATOR_HOST);
const projectId = args.project ?? process.env.GCLOUD_PROJECT ?? (emulated ? 'demo-exam' : undefined);
if (!projectId) usageError('name the project: --project <project id> (or set GCLOUD_PROJECT)');
if (!emulated && projectId.startsWith('demo-'))
  usageError(`"${projectId}" is an emulator-only project; set FIRESTORE_EMULATOR_HOST`);

const app = initializeApp(emulated ? { projectId } : { projectId, credential: applicationDefault() });
const db = getFirestore(app);

const same = (a, b) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

let seen = 0;
let written = 0;
let cursor;
try {
  for (;;) {
    // Every organization's tests, by document path, a page at a time: reads only the two fields.
    let query = db
      .collectionGroup('tests')
      .orderBy(FieldPath.documentId())
      .select('assigned_class_ids', 'audience')
      .limit(PAGE);
    if (cursor) query = query.startAfter(cursor);
    const page = await query.get();
    const batch = db.batch();
    let changes = 0;
    for (const doc of page.docs) {
      const stored = doc.get('assigned_class_ids');
      const assigned = Array.isArray(stored) ? stored : [];
      const audience = audienceOf(assigned);
      if (Array.isArray(stored) && same(doc.get('audience'), audience)) continue;
      // Only the two fields: whatever else the test holds is left as it is.
      batch.update(doc.ref, { assigned_class_ids: assigned, audience });
      changes++;
    }
    seen += page.size;
    if (changes > 0 && !args['dry-run']) await batch.commit();
    written += changes;
    if (page.size < PAGE) break;
    cursor = page.docs[page.docs.length - 1].ref.path;
  }
  console.log(
    `backfill-audience: ${seen} tests read in project ${projectId}; ${written} ${args['dry-run'] ? 'need' : 'given'} an audience`,
  );
} finally {
  await deleteApp(app);
}
