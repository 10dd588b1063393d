import { FieldPath, type Query } from 'firebase-admin/firestore';
import type { Response } from 'express';
import type { Principal } from '../auth/principal';
import { db } from '../firestore/db';
import { buildQuery } from '../firestore/pagedQuery';
import { paths } from '../firestore/paths';
import { notFound } from '../shared/errors';
import type { Reply } from '../http/route';
import { resultsExportSpec } from './analyticsQuery';
import { EXPORTED_FIELDS, headerRow, resultRow, studentsToName, toCsv, type ExportedAttempt, type ExportedQuestion } from './resultsRows';
import { analyticsTarget, frozenVersion } from './service';
import type { VersionAt } from './store';

// The results export: a version's submitted attempts, oldest submission first,
// read and written one page at a time.
//
// - The test is located and authorized, the version resolved and the first
//   page read (with its students' names) before the stream is handed back, so
//   what can fail early (a 404, Firestore down) is still a JSON error.
// - Then each page is written as CSV and the next one read: a cursor on
//   (submitted_at, id), never an offset, so every attempt appears exactly once
//   at any depth, and memory holds one page whatever the number of attempts.
// - A write the connection cannot take yet is waited for ('drain'); a client
//   gone away stops the reading.

export const EXPORT_PAGE_SIZE = 500;

interface Page {
  attempts: ExportedAttempt[];
  displayNames: Map<string, string>;
  /** The sort values of the page's last attempt when another page may follow. */
  after: [string, string] | null;
}

function exportQuery(at: VersionAt): Query {
  return buildQuery(paths.clientAttempts(at.clientId), resultsExportSpec(at))
    .orderBy(FieldPath.documentId(), 'asc')
    .select(...EXPORTED_FIELDS);
}

/** The display names of the page's (non-guest) students: one read for all of them. */
async function displayNames(clientId: string, attempts: ExportedAttempt[]): Promise<Map<string, string>> {
  const uids = studentsToName(attempts);
  const names = new Map<string, string>();
  if (uids.length === 0) return names;
  const snaps = await db.getAll(...uids.map((uid) => paths.clientUser(clientId, uid)), { fieldMask: ['display_name'] });
  for (const snap of snaps) {
    const name = snap.exists ? snap.get('display_name') : undefined;
    if (typeof name === 'string') names.set(snap.id, name);
  }
  return names;
}

async function readPage(at: VersionAt, after: [string, string] | null): Promise<Page> {
  let query = exportQuery(at);
  if (after) query = query.startAfter(...after);
  const snap = await query.limit(EXPORT_PAGE_SIZE).get();
  // The document id is the attempt's id, whatever the stored copy says.
  const attempts = snap.docs.map((d) => ({ ...(d.data() as ExportedAttempt), id: d.id }));
  const last = snap.docs[snap.docs.length - 1];
  return {
    attempts,
    displayNames: await displayNames(at.clientId, attempts),
    after: last && snap.size === EXPORT_PAGE_SIZE ? [last.get('submitted_at') as string, last.id] : null,
  };
}

const pageCsv = (page: Page, questions: ExportedQuestion[]): Promise<string> =>
  toCsv(page.attempts.map((attempt) => resultRow(attempt, questions, page.displayNames)));

/** Writes `text`, waiting while the connection's buffer is full; false once the client has gone. */
async function send(res: Response, text: string, gone: () => boolean): Promise<boolean> {
  if (gone()) return false;
  if (text !== '' && !res.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !gone();
}

export async function resultsCsv(principal: Principal, testId: string, requestedVersion: number | undefined): Promise<NonNullable<Reply['stream']>> {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  if (version === null) throw notFound('This test was never published: it has no results to export');
  const at: VersionAt = { clientId: test.client_id, testId: test.id, version };
  const [frozen, first] = await Promise.all([frozenVersion(test, version), readPage(at, null)]);
  const questions: ExportedQuestion[] = frozen.questions.map((q) => ({ id: q.id, question_text: q.question_text }));
  let firstPage: Page | undefined = first;
  return {
    contentType: 'text/csv; charset=utf-8',
    fileName: `results-${test.id}-v${version}.csv`,
    write: async (res) => {
      let closed = false;
      res.once('close', () => {
        closed = true;
      });
      const gone = () => closed || res.destroyed;
      if (!(await send(res, await toCsv([headerRow(questions)]), gone))) return;
      let page: Page | undefined = firstPage;
      firstPage = undefined;
      while (page) {
        const { after } = page;
        const text = await pageCsv(page, questions);
        page = undefined; // the page's CSV text is all that is held while it is written and the next is read
        if (!(await send(res, text, gone))) return;
        if (after) page = await readPage(at, after);
      }
    },
  };
}
