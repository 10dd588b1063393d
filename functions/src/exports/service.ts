import type { Response } from 'express';
import { assertCanAuthorTests, type Principal, questionBankScope } from '../auth';
import {
  type ExportMediaFile,
  type ExportPool,
  type ExportQuestion,
  type ExportTest,
  mediaOfQuestion,
} from '../interchange';
import type { Reply } from '../http';
import { goneWatch, send } from '../transfer';
import { freezePools, MAX_POOL_QUESTIONS, poolCandidates, requireTest } from '../exams';
import { requireClient } from '../clients';
import { findFolder } from '../folders';
import { loadService } from '../questions';
import { type Difficulty, loadBankFormats } from '../questionTypes';
import { badRequest } from '../shared';
import { loadStore, organizationOfMediaId } from '../media';
import { MAX_EXPORT_QUESTIONS, type ExportFormat, type ExportQuestionsQuery } from './schemas';
import * as store from './store';

// Exports of the bank (filtered) and of a test, streamed: questions are read a
// page at a time (EXPORT_PAGE_SIZE, a cursor) and written before the next page
// is read; media are fetched one question at a time and written with it. What
// can fail early (scope, a missing folder or test, too many questions, the
// first page) fails before the stream starts, as a JSON error. Memory holds one
// page of questions, one question's media (a QTI package: a few entries the zip
// has not yet written), the folders' names, and for a QTI package one manifest
// line per question.

type Stream = NonNullable<Reply['stream']>;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  moodle_xml: 'application/xml; charset=utf-8',
  gift: 'text/plain; charset=utf-8',
  qti: 'application/zip',
};
const EXTENSIONS: Record<ExportFormat, string> = { moodle_xml: 'xml', gift: 'gift.txt', qti: 'zip' };

/** Pages of questions with their categories, the first one already read. */
type Pages = AsyncGenerator<ExportQuestion[]>;

const categoryOf = (folderId: string | null, folders: Map<string, string[]>): string[] | null => {
  const segments = folderId ? folders.get(folderId) : undefined;
  return segments && segments.length > 0 ? segments : null;
};

/** The questions with their folders as categories (the names not yet known read in one batch). */
async function withCategories(
  clientId: string,
  questions: store.Exported[],
  folders: Map<string, string[]>,
): Promise<ExportQuestion[]> {
  await store.addFolderCategories(
    clientId,
    questions.map((q) => q.folder_id),
    folders,
  );
  return questions.map(({ folder_id, ...q }) => ({ ...q, category: categoryOf(folder_id, folders) }));
}

/** The media one question refers to (of its own organization), those still stored; another keeps its link. */
async function mediaFile(clientId: string, mediaId: string): Promise<ExportMediaFile | undefined> {
  if (organizationOfMediaId(mediaId) !== clientId) return undefined;
  const { readMedia } = await loadStore();
  const found = await readMedia(clientId, mediaId);
  return found && { name: found.doc.name, content_type: found.doc.content_type, bytes: found.bytes };
}

async function mediaFor(clientId: string, q: ExportQuestion, skip?: (id: string) => boolean) {
  const media = new Map<string, ExportMediaFile>();
  const ids = mediaOfQuestion(q).filter((id) => !skip?.(id));
  const files = await Promise.all(ids.map((id) => mediaFile(clientId, id)));
  ids.forEach((id, i) => {
    if (files[i]) media.set(id, files[i]!);
  });
  return media;
}

/** Media fetched this many questions ahead of the writer: the reads overlap, the file stays in order. */
const MEDIA_AHEAD = 8;

/**
 * Each question of the pages with its media, in order, the media of the next
 * few already being fetched. `once`: a media file is fetched for the first
 * question that refers to it only (a package holds each file once).
 */
async function* withMedia(
  clientId: string,
  pages: Pages,
  once: boolean,
): AsyncGenerator<[ExportQuestion, Map<string, ExportMediaFile>]> {
  const requested = new Set<string>();
  const skip = once
    ? (id: string) => {
        if (requested.has(id)) return true;
        requested.add(id);
        return false;
      }
    : undefined;
  const pending: Array<[ExportQuestion, Promise<Map<string, ExportMediaFile>>]> = [];
  for await (const page of pages) {
    for (const q of page) {
      const media = mediaFor(clientId, q, skip);
      media.catch(() => undefined); // awaited in turn below; never an unhandled rejection meanwhile
      pending.push([q, media]);
      if (pending.length > MEDIA_AHEAD) {
        const [head, files] = pending.shift()!;
        yield [head, await files];
      }
    }
  }
  for (const [q, files] of pending) yield [q, await files];
}

interface Plan {
  clientId: string;
  format: ExportFormat;
  fileName: string;
  pages: Pages;
  pools: ExportPool[];
  test?: ExportTest;
}

function streamOf(plan: Plan): Stream {
  return {
    contentType: CONTENT_TYPES[plan.format],
    fileName: plan.fileName,
    write: (res) => (plan.format === 'qti' ? writeQti(plan, res) : writeText(plan, res)),
  };
}

async function writeText(plan: Plan, res: Response): Promise<void> {
  const gone = goneWatch(res);
  const { GiftWriter, giftPoolNotes, MoodleXmlWriter } = await loadBankFormats();
  if (plan.format === 'gift') {
    const writer = new GiftWriter(giftPoolNotes(plan.pools));
    // GIFT carries no files: a page is written whole.
    for await (const page of plan.pages) if (!(await send(res, writer.write(page), gone))) return;
    return;
  }
  const writer = new MoodleXmlWriter(plan.pools);
  if (!(await send(res, writer.start(), gone))) return;
  for await (const [q, media] of withMedia(plan.clientId, plan.pages, false)) {
    if (!(await send(res, writer.write([q], media), gone))) return;
  }
  await send(res, writer.end(), gone);
}

async function writeQti(plan: Plan, res: Response): Promise<void> {
  const gone = goneWatch(res);
  const { QtiPackageWriter } = await loadBankFormats();
  const writer = new QtiPackageWriter();
  const ended = new Promise<void>((resolve, reject) => {
    writer.output.on('end', resolve);
    writer.output.on('error', reject);
  });
  writer.output.pipe(res, { end: false });
  // A client gone away: the rest of the zip is read into nothing, so no add() waits for it.
  res.once('close', () => {
    writer.output.unpipe(res);
    writer.output.resume();
  });
  for await (const [q, media] of withMedia(plan.clientId, plan.pages, true)) {
    if (gone()) return;
    await writer.add([q], media);
  }
  // The passages the questions name that the export did not select are written beside them.
  const passages = await store.questionsByIds(plan.clientId, writer.missingPassages());
  for (const { folder_id: _folder, ...passage } of passages) {
    const q = { ...passage, category: null };
    writer.addPassages([q], await mediaFor(plan.clientId, q));
  }
  writer.finish(plan.test);
  await ended;
}

// ---------------------------------------------------------------- the bank

const fileDate = () => new Date().toISOString().slice(0, 10);

export async function exportQuestions(principal: Principal, query: ExportQuestionsQuery): Promise<Stream> {
  const clientId = questionBankScope(principal, query.client_id, 'query.client_id');
  await requireClient(clientId);
  if (query.folder_id !== undefined && !(await findFolder(clientId, query.folder_id))) {
    const { refuseFolder } = await loadService();
    await refuseFolder(principal, clientId, query.folder_id, 'query.folder_id');
  }
  const filters = { folder_id: query.folder_id, difficulty: query.difficulty, question_type: query.question_type };
  const [count, first] = await Promise.all([
    store.countQuestions(clientId, filters),
    store.questionPage(clientId, filters, null),
  ]);
  if (count > MAX_EXPORT_QUESTIONS)
    throw badRequest(
      `These filters select ${count} questions; at most ${MAX_EXPORT_QUESTIONS} are exported at once: narrow them with folder_id, difficulty or question_type`,
      [{ path: 'query', message: `At most ${MAX_EXPORT_QUESTIONS} questions per export` }],
    );
  const folders = new Map<string, string[]>();
  const firstQuestions = await withCategories(clientId, first.questions, folders);
  async function* pages(): Pages {
    yield firstQuestions;
    let after = first.after;
    // Never more than the count allowed, even if questions are added while the export runs.
    let read = first.questions.length;
    while (after && read < MAX_EXPORT_QUESTIONS) {
      const page = await store.questionPage(
        clientId,
        filters,
        after,
        Math.min(store.EXPORT_PAGE_SIZE, MAX_EXPORT_QUESTIONS - read),
      );
      read += page.questions.length;
      after = page.after;
      yield await withCategories(clientId, page.questions, folders);
    }
  }
  return streamOf({
    clientId,
    format: query.format,
    fileName: `questions-${fileDate()}.${EXTENSIONS[query.format]}`,
    pages: pages(),
    pools: [],
  });
}

// ---------------------------------------------------------------- a test

/** A file name from the test's name (letters, digits and dashes), or its id. */
const testFileName = (name: string, id: string, format: ExportFormat) => {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `test-${slug || id}.${EXTENSIONS[format]}`;
};

/**
 * A test's current questions: its fixed ones in order, then each pool's (its
 * folder's questions of its difficulty, less those fixed or in an earlier pool,
 * as a publish would freeze them now).
 */
export async function exportTest(principal: Principal, testId: string, format: ExportFormat): Promise<Stream> {
  const test = await requireTest(principal, testId);
  assertCanAuthorTests(principal, test.client_id);
  const clientId = test.client_id;
  const testPools = test.pools ?? [];
  const candidates = await Promise.all(testPools.map((pool) => poolCandidates(clientId, pool, MAX_POOL_QUESTIONS + 1)));
  const planned = freezePools(testPools, candidates, test.question_ids, MAX_POOL_QUESTIONS);
  const tooMany = planned.problems.find((p) => p.path === 'pools');
  if (tooMany) throw badRequest(`This test cannot be exported: ${tooMany.message}`, [tooMany]);
  const folders = new Map<string, string[]>();
  await store.addFolderCategories(
    clientId,
    testPools.map((p) => p.folder_id),
    folders,
  );
  const pools: ExportPool[] = planned.pools.map((p) => ({
    category: folders.get(p.folder_id)?.length ? folders.get(p.folder_id)! : [p.folder_id],
    difficulty: (p.difficulty ?? null) as Difficulty | null,
    draw: p.draw,
    question_ids: p.question_ids,
  }));
  const ids = [...test.question_ids, ...pools.flatMap((p) => p.question_ids)];
  const first = await withCategories(
    clientId,
    await store.questionsByIds(clientId, ids.slice(0, store.EXPORT_PAGE_SIZE)),
    folders,
  );
  async function* pages(): Pages {
    yield first;
    for (let from = store.EXPORT_PAGE_SIZE; from < ids.length; from += store.EXPORT_PAGE_SIZE)
      yield await withCategories(
        clientId,
        await store.questionsByIds(clientId, ids.slice(from, from + store.EXPORT_PAGE_SIZE)),
        folders,
      );
  }
  return streamOf({
    clientId,
    format,
    fileName: testFileName(test.test_name, test.id, format),
    pages: pages(),
    pools,
    test: { id: test.id, title: test.test_name, question_ids: test.question_ids, shuffle: test.shuffle === 1, pools },
  });
}
