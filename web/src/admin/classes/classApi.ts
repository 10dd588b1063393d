import { type Api, type paths, type Schemas, unwrap } from '../../api';

/**
 * The class calls the pages make, in one place. Each is one request through the typed client,
 * with the API's own shapes (schema.d.ts): a change of the API is a type error here or in a page.
 */

export type ClassInfo = Schemas['Class'];
export type RosterRow = Schemas['RosterRow'];
export type RosterStatus = RosterRow['status'];
export type OverrideValues = Schemas['PutOverride'];

type ClassListQuery = NonNullable<paths['/api/classes']['get']['parameters']['query']>;
type MemberListQuery = NonNullable<paths['/api/classes/{classId}/members']['get']['parameters']['query']>;

/** client_id is sent only by a Super Admin: a Client Admin's organization is its own. */
export const orgQuery = (clientId: string | null, superAdmin: boolean): Pick<ClassListQuery, 'client_id'> =>
  superAdmin && clientId ? { client_id: clientId } : {};

export const listClasses = (api: Api, query: ClassListQuery) => unwrap(api.GET('/api/classes', { params: { query } }));

/**
 * Every class of the organization (at most a few pages of 100), for the pickers: a filter
 * or an assignment must offer every class, not the first page.
 */
export async function allClasses(api: Api, query: Pick<ClassListQuery, 'client_id'>): Promise<ClassInfo[]> {
  const all: ClassInfo[] = [];
  let cursor: string | null = null;
  // The bound on classes per organization (500) keeps this to five pages.
  for (let i = 0; i < 10; i++) {
    const page: Schemas['ClassPage'] = await listClasses(api, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.data);
    cursor = page.pagination.next_cursor;
    if (!cursor) break;
  }
  return all;
}

export const createClass = (api: Api, body: Schemas['CreateClass']) => unwrap(api.POST('/api/classes', { body }));

export const getClass = (api: Api, classId: string) =>
  unwrap(api.GET('/api/classes/{classId}', { params: { path: { classId } } }));

export const updateClass = (api: Api, classId: string, body: Schemas['UpdateClass']) =>
  unwrap(api.PATCH('/api/classes/{classId}', { params: { path: { classId } }, body }));

export const deleteClass = (api: Api, classId: string) =>
  unwrap(api.DELETE('/api/classes/{classId}', { params: { path: { classId } } }));

export const listMembers = (api: Api, classId: string, query: MemberListQuery) =>
  unwrap(api.GET('/api/classes/{classId}/members', { params: { path: { classId }, query } }));

export const addMember = (api: Api, classId: string, uid: string) =>
  unwrap(api.PUT('/api/classes/{classId}/members/{uid}', { params: { path: { classId, uid } } }));

export const removeMember = (api: Api, classId: string, uid: string) =>
  unwrap(api.DELETE('/api/classes/{classId}/members/{uid}', { params: { path: { classId, uid } } }));

export const importRoster = (
  api: Api,
  classId: string,
  file: File,
  { partial, dryRun }: { partial: boolean; dryRun: boolean },
) => {
  const form = new FormData();
  form.append('file', file);
  // Only what differs from the service's defaults.
  const query = {
    ...(partial ? { mode: 'partial' as const } : {}),
    ...(dryRun ? { dry_run: 'true' as const } : {}),
  };
  return unwrap(
    api.POST('/api/classes/{classId}/roster', {
      params: { path: { classId }, query },
      // openapi-fetch sends a FormData body as it is (the browser sets the multipart boundary).
      body: form as never,
    }),
  );
};

/** The class overrides of a test (at most 50: one reply holds them all). */
export const listClassOverrides = async (api: Api, testId: string) =>
  (await unwrap(api.GET('/api/tests/{testId}/class-overrides', { params: { path: { testId } } }))).data;

export const putClassOverride = (api: Api, testId: string, classId: string, body: OverrideValues) =>
  unwrap(api.PUT('/api/tests/{testId}/class-overrides/{classId}', { params: { path: { testId, classId } }, body }));

export const deleteClassOverride = (api: Api, testId: string, classId: string) =>
  unwrap(api.DELETE('/api/tests/{testId}/class-overrides/{classId}', { params: { path: { testId, classId } } }));

export const setAssignment = (api: Api, testId: string, assigned_class_ids: string[]) =>
  unwrap(api.PATCH('/api/tests/{testId}', { params: { path: { testId } }, body: { assigned_class_ids } }));

export const classLabel = (c: Pick<ClassInfo, 'name' | 'code'>) => (c.code ? `${c.name} (${c.code})` : c.name);
