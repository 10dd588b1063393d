// Gives every user profile stored before users could be searched its search keys
// (`email_lower`, `name_lower`): `GET /api/users?q=` finds a profile by them only.
// Any write of a profile through the API adds them too; this finishes the ones
// nobody writes. Idempotent: a profile already right is left alone, so running it
// again (or after a crash) writes nothing more.
//
//   node scripts/backfill-user-search.mjs [--project my-project] [--dry-run]
//
// Production: Application Default Credentials (`gcloud auth application-default
// login`, or GOOGLE_APPLICATION_CREDENTIALS), project from --project or GCLOUD_PROJECT.
// Emulators: set FIRESTORE_EMULATOR_HOST (the project then defaults to demo-exam).
import { parseArgs } from 'node:util';
import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { FieldPath, getFirestore } from 'firebase-admin/firestore';

const USAGE = `Usage: node scripts/backfill-user-search.mjs [--project <project id>] [--dry-run]

  --project  Firebase project id (default: GCLOUD_PROJECT; demo-exam against the emulator)
  --dry-run  count the profiles that need it, write nothing

Against production it uses Application Default Credentials. Against the local
emulator set FIRESTORE_EMULATOR_HOST=127.0.0.1:8080.`;

/** Must agree with functions/src/users/searchKeys.ts (foldForSearch); test/scripts checks it does. */
export const foldForSearch = (text) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
const fold = (value) => (typeof value === 'string' ? foldForSearch(value) : null);
const PAGE = 300;

function usageError(message) {
  console.error(`backfill-user-search: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main() {
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
  let seen = 0;
  let written = 0;
  try {
    // Every organization's users (a collection group), then the Super Admins, a page at a time, by path.
    for (const source of [db.collectionGroup('users'), db.collection('super_admins')]) {
      let cursor;
      for (;;) {
        let query = source
          .orderBy(FieldPath.documentId())
          .select('email', 'display_name', 'email_lower', 'name_lower')
          .limit(PAGE);
        if (cursor) query = query.startAfter(cursor);
        const page = await query.get();
        const batch = db.batch();
        let changes = 0;
        for (const doc of page.docs) {
          const keys = { email_lower: fold(doc.get('email')), name_lower: fold(doc.get('display_name')) };
          if (doc.get('email_lower') === keys.email_lower && doc.get('name_lower') === keys.name_lower) continue;
          // Only the two keys: whatever else the profile holds is left as it is.
          batch.update(doc.ref, keys);
          changes++;
        }
        seen += page.size;
        if (changes > 0 && !args['dry-run']) await batch.commit();
        written += changes;
        if (page.size < PAGE) break;
        cursor = page.docs[page.docs.length - 1];
      }
    }
    console.log(
      `backfill-user-search: ${seen} profiles read in project ${projectId}; ${written} ${args['dry-run'] ? 'need' : 'given'} search keys`,
    );
  } finally {
    await deleteApp(app);
  }
}

// Run when called as a script; imported (by its test), it only lends foldForSearch.
if (import.meta.url === `file://${process.argv[1]}`) await main();
