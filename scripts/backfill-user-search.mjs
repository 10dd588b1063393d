// Gives every user profile stored before users could be searched its search keys
// (`email_lower`, `name_lower`): `GET /api/users?q=` finds a profile by them only.
// Any write of a profile through the API adds them too; this finishes the ones
// nobody writes. Idempotent: a profile already right is left alone, so running it
// again (or after a crash) writes nothing more.
//
//   node scripts/backfill-user-search.mjs [--project my-project] [--client <organization id>] [--dry-run]
//
// Production: Application Default Credentials (`gcloud auth application-default
// login`, or GOOGLE_APPLICATION_CREDENTIALS), project from --project or GCLOUD_PROJECT.
// Emulators: set FIRESTORE_EMULATOR_HOST (the project then defaults to demo-exam).
import { runBackfill } from './lib/backfill.mjs';

const USAGE = `Usage: node scripts/backfill-user-search.mjs [--project <project id>] [--client <organization id>] [--dry-run]

  --project  Firebase project id (default: GCLOUD_PROJECT; demo-exam against the emulator)
  --client   only this organization's profiles (default: every organization's, and the Super Admins')
  --dry-run  count the profiles that need it, write nothing

Against production it uses Application Default Credentials. Against the local
emulator set FIRESTORE_EMULATOR_HOST=127.0.0.1:8080.`;

/** Must agree with functions/src/users/searchKeys.ts (foldForSearch); test/scripts checks it does. */
export const foldForSearch = (text) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
const fold = (value) => (typeof value === 'string' ? foldForSearch(value) : null);

const main = () =>
  runBackfill({
    name: 'backfill-user-search',
    usage: USAGE,
    // One organization's users; else every organization's (a collection group), then the Super Admins.
    sources: (db, clientId) =>
      clientId
        ? [db.collection('clients').doc(clientId).collection('users')]
        : [db.collectionGroup('users'), db.collection('super_admins')],
    fields: ['email', 'display_name', 'email_lower', 'name_lower'],
    changeOf: (doc) => {
      const keys = { email_lower: fold(doc.get('email')), name_lower: fold(doc.get('display_name')) };
      return doc.get('email_lower') === keys.email_lower && doc.get('name_lower') === keys.name_lower ? null : keys;
    },
    report: ({ seen, written, dryRun, projectId }) =>
      `backfill-user-search: ${seen} profiles read in project ${projectId}; ${written} ${dryRun ? 'need' : 'given'} search keys`,
  });

// Run when called as a script; imported (by its test), it only lends foldForSearch.
if (import.meta.url === `file://${process.argv[1]}`) await main();
