// Gives every test stored before tests could be assigned to classes its assignment
// (none: open to the whole organization) and the `audience` derived from it, which a
// student's test list queries: a test without `audience` is listed to no student (it
// can still be read and started by id). Any write of a test through the API adds both
// too; this finishes the ones nobody writes. Idempotent: a test already right is left
// alone, so running it again (or after a crash) writes nothing more.
//
//   node scripts/backfill-audience.mjs [--project my-project] [--client <organization id>] [--dry-run]
//
// Production: Application Default Credentials (`gcloud auth application-default
// login`, or GOOGLE_APPLICATION_CREDENTIALS), project from --project or GCLOUD_PROJECT.
// Emulators: set FIRESTORE_EMULATOR_HOST (the project then defaults to demo-exam).
import { runBackfill } from './lib/backfill.mjs';

const USAGE = `Usage: node scripts/backfill-audience.mjs [--project <project id>] [--client <organization id>] [--dry-run]

  --project  Firebase project id (default: GCLOUD_PROJECT; demo-exam against the emulator)
  --client   only this organization's tests (default: every organization's)
  --dry-run  count the tests that need it, write nothing

Against production it uses Application Default Credentials. Against the local
emulator set FIRESTORE_EMULATOR_HOST=127.0.0.1:8080.`;

/** Must agree with functions/src/exams/audience.ts (audienceOf). */
const WHOLE_ORGANIZATION = '*';
const audienceOf = (assigned) => (assigned.length > 0 ? [...assigned] : [WHOLE_ORGANIZATION]);
const same = (a, b) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

await runBackfill({
  name: 'backfill-audience',
  usage: USAGE,
  // One organization's tests, or every organization's.
  sources: (db, clientId) =>
    clientId ? [db.collection('clients').doc(clientId).collection('tests')] : [db.collectionGroup('tests')],
  fields: ['assigned_class_ids', 'audience'],
  changeOf: (doc) => {
    const stored = doc.get('assigned_class_ids');
    const assigned = Array.isArray(stored) ? stored : [];
    const audience = audienceOf(assigned);
    return Array.isArray(stored) && same(doc.get('audience'), audience)
      ? null
      : { assigned_class_ids: assigned, audience };
  },
  report: ({ seen, written, dryRun, projectId }) =>
    `backfill-audience: ${seen} tests read in project ${projectId}; ${written} ${dryRun ? 'need' : 'given'} an audience`,
});
