import { unwrap, type Api, type Schemas } from '../../api/client';

/**
 * The class calls the pages make, in one place. Each is one request through the typed client;
 * the shapes are the API's (a class, a member, a roster report, a class override).
 */

export interface ClassInfo {
  id: string;
  client_id: string;
  name: string;
  code: string | null;
  member_count: number;
  created_at: string;
  updated_at: string;
}

export interface ClassMember {
  uid: string;
  email: string | null;
  display_name: string | null;
  added_at: string;
}

export type RosterStatus = 'created' | 'added' | 'already_member' | 'error';
export interface RosterRow {
  line: number;
  email: string;
  name: string | null;
  status: RosterStatus;
  uid?: string;
  message?: string;
}

export interface OverrideValues {
  opens_at?: string | null;
  closes_at?: string | null;
  timer?: number;
  max_attempts?: number | null;
}
export interface ClassOverride extends OverrideValues {
  class_id: string;
}

export interface Page<T> {
  data: T[];
  pagination: Schemas['Pagination'];
}

type Query = Record<string, string | number | undefined>;
type Reply = Promise<{ data?: unknown; error?: unknown; response: Response }>;
interface Init {
  params?: { path?: Record<string, string>; query?: Query };
  body?: unknown;
}
/** The client seen without its path types, for the calls this module types itself. */
interface LooseApi {
  GET(path: string, init?: Init): Reply;
  POST(path: string, init?: Init): Reply;
  PUT(path: string, init?: Init): Reply;
  PATCH(path: string, init?: Init): Reply;
  DELETE(path: string, init?: Init): Reply;
}
const loose = (api: Api) => api as unknown as LooseApi;

/** client_id is sent only by a Super Admin: a Client Admin's organization is its own. */
export const orgQuery = (clientId: string | null, superAdmin: boolean): Query =>
  superAdmin && clientId ? { client_id: clientId } : {};

export const listClasses = (api: Api, query: Query) =>
  unwrap(loose(api).GET('/api/classes', { params: { query } })) as Promise<Page<ClassInfo>>;

/**
 * Every class of the organization (at most a few pages of 100), for the pickers: a filter
 * or an assignment must offer every class, not the first page.
 */
export async function allClasses(api: Api, query: Query): Promise<ClassInfo[]> {
  const all: ClassInfo[] = [];
  let cursor: string | null = null;
  // The bound on classes per organization (500) keeps this to five pages.
  for (let i = 0; i < 10; i++) {
    const page = await listClasses(api, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.data);
    cursor = page.pagination.next_cursor;
    if (!cursor) break;
  }
  return all;
}

export const createClass = (api: Api, body: { name: string; code: string | null; client_id?: string }) =>
  unwrap(loose(api).POST('/api/classes', { body })) as Promise<ClassInfo>;

export const getClass = (api: Api, classId: string) =>
  unwrap(loose(api).GET('/api/classes/{classId}', { params: { path: { classId } } })) as Promise<ClassInfo>;

export const updateClass = (api: Api, classId: string, body: { name?: string; code?: string | null }) =>
  unwrap(loose(api).PATCH('/api/classes/{classId}', { params: { path: { classId } }, body })) as Promise<ClassInfo>;

export const deleteClass = (api: Api, classId: string) =>
  unwrap(loose(api).DELETE('/api/classes/{classId}', { params: { path: { classId } } })) as Promise<void>;

export const listMembers = (api: Api, classId: string, query: Query) =>
  unwrap(loose(api).GET('/api/classes/{classId}/members', { params: { path: { classId }, query } })) as Promise<
    Page<ClassMember>
  >;

export const addMember = (api: Api, classId: string, uid: string) =>
  unwrap(
    loose(api).PUT('/api/classes/{classId}/members/{uid}', { params: { path: { classId, uid } } }),
  ) as Promise<ClassMember>;

export const removeMember = (api: Api, classId: string, uid: string) =>
  unwrap(
    loose(api).DELETE('/api/classes/{classId}/members/{uid}', { params: { path: { classId, uid } } }),
  ) as Promise<void>;

/** The roster import's reply: its rows (and whatever counts the service adds). */
export interface RosterReply {
  rows: RosterRow[];
  [key: string]: unknown;
}

export const importRoster = (
  api: Api,
  classId: string,
  file: File,
  { partial, dryRun }: { partial: boolean; dryRun: boolean },
) => {
  const form = new FormData();
  form.append('file', file);
  const query: Query = { ...(partial ? { mode: 'partial' } : {}), ...(dryRun ? { dry_run: 'true' } : {}) };
  // openapi-fetch sends a FormData body as it is (the browser sets the multipart boundary).
  return unwrap(
    loose(api).POST('/api/classes/{classId}/roster', { params: { path: { classId }, query }, body: form }),
  ) as Promise<RosterReply>;
};

/** The class overrides of a test, as a list whatever way the reply carries them. */
export async function listClassOverrides(api: Api, testId: string): Promise<ClassOverride[]> {
  const reply = (await unwrap(
    loose(api).GET('/api/tests/{testId}/class-overrides', { params: { path: { testId } } }),
  )) as Record<string, unknown>;
  if (Array.isArray(reply.data)) return reply.data as ClassOverride[];
  const byClass = (reply.class_overrides ?? reply) as Record<string, OverrideValues>;
  return Object.entries(byClass).map(([class_id, values]) => ({ class_id, ...values }));
}

export const putClassOverride = (api: Api, testId: string, classId: string, body: OverrideValues) =>
  unwrap(
    loose(api).PUT('/api/tests/{testId}/class-overrides/{classId}', { params: { path: { testId, classId } }, body }),
  );

export const deleteClassOverride = (api: Api, testId: string, classId: string) =>
  unwrap(loose(api).DELETE('/api/tests/{testId}/class-overrides/{classId}', { params: { path: { testId, classId } } }));

/** A test's assignment: [] is open to the whole organization. */
export const assignedClassIds = (test: Schemas['Test']): string[] =>
  ((test as { assigned_class_ids?: string[] }).assigned_class_ids ?? []) as string[];

export const setAssignment = (api: Api, testId: string, assigned_class_ids: string[]) =>
  unwrap(
    loose(api).PATCH('/api/tests/{testId}', { params: { path: { testId } }, body: { assigned_class_ids } }),
  ) as Promise<Schemas['Test']>;

/**
 * A query filtered by class (the live view, the analytics, the results export): `classId`, or ''
 * for everyone. Typed as the query it extends while the generated types lack class_id.
 */
export const withClass = <T extends object>(query: T, classId: string): T =>
  (classId ? { ...query, class_id: classId } : query) as T;

export const classLabel = (c: Pick<ClassInfo, 'name' | 'code'>) => (c.code ? `${c.name} (${c.code})` : c.name);
