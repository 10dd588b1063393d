import { FieldPath, type Query } from 'firebase-admin/firestore';
import type { Principal } from '../auth';
import { buildQuery, db, paths } from '../firestore';
import { notFound } from '../shared';
import type { Reply } from '../http';
import { goneWatch, send } from '../transfer';
import { resultsExportSpec } from './analyticsQuery';
import {
  type StoredIntegritySummary,
  summariesOf,
  universePositions,
  type VersionForAttempt,
  versionMissing,
} from '../attempts';
import { findClient } from '../clients';
import {
  CSV_BOM,
  csvCells,
  EXPORTED_FIELDS,
  fixedColumns,
  questionHeaders,
  resultRow,
  studentsToName,
  toCsv,
  type ExportedAttempt,
  type ExportedPerson,
  type RowContext,
} from './resultsRows';
import { analyticsTarget, assertClassFilter, frozenVersion } from './service';
import type { SumsScope } from './store';

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
// - A pooled version has a column for every question its attempts can hold:
//   up to 500 fixed and 5,000 frozen pool questions. The version lists the
//   pool ids; their texts (for the header) are read HEADER_CHUNK at a time,
//   only the text, and each chunk of the header written before the next is
//   read. Rows are made and written ROW_CELLS cells at a time: memory stays
//   bounded however wide the table.

export const EXPORT_PAGE_SIZE = 500;
/** Pool questions whose header text is read (and written) together. */
export const HEADER_CHUNK = 500;
/** About how many cells are made into CSV text at once: 500 rows of a small test, a few dozen of a 5,500-question one. */
const ROW_CELLS = 250_000;

interface Page {
  attempts: ExportedAttempt[];
  people: Map<string, ExportedPerson>;
  /** The attempts' integrity events counted (absent: none). */
  integrity: Map<string, StoredIntegritySummary>;
  /** The sort values of the page's last attempt when another page may follow. */
  after: [string, string] | null;
}

function exportQuery(at: SumsScope): Query {
  return buildQuery(paths.clientAttempts(at.clientId), resultsExportSpec(at))
    .orderBy(FieldPath.documentId(), 'asc')
    .select(...EXPORTED_FIELDS);
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The page's (non-guest) students as the row names them: one read for all of them, only the fields named. */
async function peopleOf(clientId: string, attempts: ExportedAttempt[]): Promise<Map<string, ExportedPerson>> {
  const uids = studentsToName(attempts);
  const people = new Map<string, ExportedPerson>();
  if (uids.length === 0) return people;
  const snaps = await db.getAll(...uids.map((uid) => paths.clientUser(clientId, uid)), {
    fieldMask: ['display_name', 'email', 'candidate_number'],
  });
  for (const snap of snaps) {
    if (!snap.exists) continue;
    people.set(snap.id, {
      name: textOf(snap.get('display_name')),
      email: textOf(snap.get('email')),
      candidate_number: textOf(snap.get('candidate_number')),
    });
  }
  return people;
}

/**
 * Class names for the rows, each class read once per export however many rows name it: the classes a page
 * names that no earlier page did, in one read beside the page's people. A class since deleted names nothing.
 */
async function readClassNames(
  clientId: string,
  attempts: ExportedAttempt[],
  audience: readonly string[],
  known: Map<string, string | null>,
): Promise<void> {
  const assigned = new Set(audience);
  const ids = [...new Set(attempts.flatMap((a) => (a.guest === true ? [] : (a.class_ids ?? []))))].filter(
    (id) => !known.has(id) && (assigned.size === 0 || assigned.has(id)),
  );
  if (ids.length === 0) return;
  const snaps = await db.getAll(...ids.map((id) => paths.clientClass(clientId, id)), { fieldMask: ['name'] });
  for (const snap of snaps) known.set(snap.id, snap.exists ? textOf(snap.get('name')) || null : null);
}

async function readPage(
  at: SumsScope,
  after: [string, string] | null,
  classes: { audience: readonly string[]; known: Map<string, string | null> },
): Promise<Page> {
  let query = exportQuery(at);
  if (after) query = query.startAfter(...after);
  const snap = await query.limit(EXPORT_PAGE_SIZE).get();
  // The document id is the attempt's id, whatever the stored copy says.
  const attempts = snap.docs.map((d) => ({ ...(d.data() as ExportedAttempt), id: d.id }));
  const last = snap.docs[snap.docs.length - 1];
  // Names and integrity counts read beside each other: one round trip for the page.
  const [people, integrity] = await Promise.all([
    peopleOf(at.clientId, attempts),
    summariesOf(
      at.clientId,
      attempts.map((a) => a.id),
    ),
    readClassNames(at.clientId, attempts, classes.audience, classes.known),
  ]);
  return {
    attempts,
    people,
    integrity,
    after: last && snap.size === EXPORT_PAGE_SIZE ? [last.get('submitted_at') as string, last.id] : null,
  };
}

/** Every question id the version's attempts can hold, in its order: the fixed ones, then each pool's. */
const columnIds = (frozen: VersionForAttempt): Array<{ id: string }> =>
  [...universePositions(frozen).keys()].map((id) => ({ id }));

/**
 * The header's text, a piece at a time (the last one ends the line): the fixed columns and questions
 * first, then the pool questions' headers, their texts read HEADER_CHUNK at a time (only question_text).
 */
async function* headerPieces(
  clientId: string,
  frozen: VersionForAttempt,
  columns: Array<{ id: string }>,
  timeZone: string,
): AsyncGenerator<string> {
  const fixed = frozen.questions.length;
  const end = (from: number) => (from >= columns.length ? '\r\n' : '');
  yield `${CSV_BOM}${await csvCells([...fixedColumns(timeZone), ...questionHeaders(frozen.questions, 1)])}${end(fixed)}`;
  const freezeId = frozen.pool_freeze_id;
  for (let from = fixed; from < columns.length; from += HEADER_CHUNK) {
    if (!freezeId) throw versionMissing(clientId, frozen.test_id, frozen.version);
    const ids = columns.slice(from, from + HEADER_CHUNK).map((c) => c.id);
    const snaps = await db.getAll(
      ...ids.map((id) => paths.poolFrozenQuestion(clientId, frozen.test_id, freezeId, id)),
      { fieldMask: ['question_text', 'title', 'text_format'] },
    );
    if (snaps.some((snap) => !snap.exists)) throw versionMissing(clientId, frozen.test_id, frozen.version);
    const texts = snaps.map((snap, i) => ({
      id: ids[i],
      question_text: textOf(snap.get('question_text')),
      title: textOf(snap.get('title')),
      text_format: textOf(snap.get('text_format')),
    }));
    yield `,${await csvCells(questionHeaders(texts, from + 1))}${end(from + HEADER_CHUNK)}`;
  }
}

/** A page's rows as CSV text, a few rows at a time (ROW_CELLS cells). */
async function* pageCsv(
  page: Page,
  columns: Array<{ id: string }>,
  context: Omit<RowContext, 'people'>,
): AsyncGenerator<string> {
  const perChunk = Math.max(1, Math.floor(ROW_CELLS / (fixedColumns('UTC').length + columns.length)));
  const rowContext: RowContext = { ...context, people: page.people };
  for (let i = 0; i < page.attempts.length; i += perChunk) {
    yield await toCsv(
      page.attempts.slice(i, i + perChunk).map((attempt) => resultRow(attempt, columns, rowContext, page.integrity)),
    );
  }
}

/** The organization's time zone: an IANA name its admins set, UTC until they do (or when one stored no longer reads). */
export function zoneOf(client: { time_zone?: string } | undefined): string {
  const zone = client?.time_zone;
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

export async function resultsCsv(
  principal: Principal,
  testId: string,
  requestedVersion: number | undefined,
  classId?: string,
): Promise<NonNullable<Reply['stream']>> {
  const { test, version } = await analyticsTarget(principal, testId, requestedVersion);
  const classChecked = assertClassFilter(principal, test, classId);
  if (version === null) {
    await classChecked;
    throw notFound('This test was never published: it has no results to export');
  }
  // With a class, its students' attempts only (their classes at start): the same query with class_ids.
  const at: SumsScope = { clientId: test.client_id, testId: test.id, version, classId };
  const audience = test.assigned_class_ids ?? [];
  const known = new Map<string, string | null>();
  const classes = { audience, known };
  const [frozen, first, client] = await Promise.all([
    frozenVersion(test, version),
    readPage(at, null, classes),
    findClient(test.client_id),
    classChecked,
  ]);
  const columns = columnIds(frozen);
  const timeZone = zoneOf(client);
  const classNames = new Map<string, string>();
  const context = { timeZone, audience, classNames };
  let firstPage: Page | undefined = first;
  return {
    contentType: 'text/csv; charset=utf-8',
    fileName: `results-${test.id}-v${version}${classId === undefined ? '' : `-class-${classId}`}.csv`,
    write: async (res) => {
      const gone = goneWatch(res);
      for await (const piece of headerPieces(test.client_id, frozen, columns, timeZone))
        if (!(await send(res, piece, gone))) return;
      let page: Page | undefined = firstPage;
      firstPage = undefined;
      while (page) {
        const { after } = page;
        for (const [id, name] of known) if (name !== null) classNames.set(id, name);
        for await (const text of pageCsv(page, columns, context)) if (!(await send(res, text, gone))) return;
        page = undefined; // written: only the next page is held while it is read
        if (after) page = await readPage(at, after, classes);
      }
    },
  };
}
