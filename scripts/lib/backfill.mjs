// The frame every one-off backfill shares: its arguments (--project, --client, --dry-run), the project it may
// write (an emulator-only demo- project only on the emulator), and a pass over documents a page at a
// time, by path, reading only the fields it needs and writing only what a document lacks.
import { parseArgs } from 'node:util';
import { applicationDefault, deleteApp, initializeApp } from 'firebase-admin/app';
import { FieldPath, getFirestore } from 'firebase-admin/firestore';

const PAGE = 300;

/**
 * @param {{
 *   name: string,
 *   usage: string,
 *   sources: (db: import('firebase-admin/firestore').Firestore, clientId?: string) => import('firebase-admin/firestore').Query[],
 *   fields: string[],
 *   changeOf: (doc: import('firebase-admin/firestore').QueryDocumentSnapshot) => Record<string, unknown> | null,
 *   report: (counts: { seen: number, written: number, dryRun: boolean, projectId: string }) => string,
 * }} backfill `changeOf` answers the fields to update (null: the document is right already); `sources`
 *   answers one organization's documents when `--client` names it (a large project can go one
 *   organization at a time), every organization's otherwise
 */
export async function runBackfill({ name, usage, sources, fields, changeOf, report }) {
  const usageError = (message) => {
    console.error(`${name}: ${message}\n\n${usage}`);
    process.exit(2);
  };
  let args;
  try {
    args = parseArgs({
      options: {
        project: { type: 'string' },
        client: { type: 'string' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }).values;
  } catch (err) {
    usageError(err.message);
  }
  if (args.help) {
    console.log(usage);
    process.exit(0);
  }
  const emulated = Boolean(process.env.FIRESTORE_EMULATOR_HOST);
  const projectId = args.project ?? process.env.GCLOUD_PROJECT ?? (emulated ? 'demo-exam' : undefined);
  if (!projectId) usageError('name the project: --project <project id> (or set GCLOUD_PROJECT)');
  if (args.client !== undefined && !/^[^/]{1,1500}$/.test(args.client))
    usageError('--client takes an organization id (no "/")');
  if (!emulated && projectId.startsWith('demo-'))
    usageError(`"${projectId}" is an emulator-only project; set FIRESTORE_EMULATOR_HOST`);

  const app = initializeApp(emulated ? { projectId } : { projectId, credential: applicationDefault() });
  const db = getFirestore(app);
  const dryRun = Boolean(args['dry-run']);
  let seen = 0;
  let written = 0;
  try {
    for (const source of sources(db, args.client)) {
      let cursor;
      for (;;) {
        let query = source
          .orderBy(FieldPath.documentId())
          .select(...fields)
          .limit(PAGE);
        if (cursor) query = query.startAfter(cursor);
        const page = await query.get();
        const batch = db.batch();
        let changes = 0;
        for (const doc of page.docs) {
          const change = changeOf(doc);
          if (!change) continue;
          // Only the backfilled fields: whatever else the document holds is left as it is.
          batch.update(doc.ref, change);
          changes++;
        }
        seen += page.size;
        if (changes > 0 && !dryRun) await batch.commit();
        written += changes;
        if (page.size < PAGE) break;
        cursor = page.docs[page.docs.length - 1];
      }
    }
    console.log(report({ seen, written, dryRun, projectId }));
  } finally {
    await deleteApp(app);
  }
}
