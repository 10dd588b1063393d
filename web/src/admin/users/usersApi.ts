import { type Api, type Schemas, unwrap } from '../../api';

/**
 * The calls the Users page makes, each one request through the typed client. `client_id` is sent
 * only by a Super Admin: a Client Admin's organization is its own.
 */

export type User = Schemas['User'];

const org = (clientId: string, superAdmin: boolean) => (superAdmin ? { client_id: clientId } : {});

export const listStudents = (api: Api, clientId: string, superAdmin: boolean, page: number, limit: number) =>
  unwrap(api.GET('/api/users', { params: { query: { ...org(clientId, superAdmin), role: 'student', page, limit } } }));

/** The first `limit` students whose name or email starts with `q` (one page: a search has no next one). */
export const findStudents = (api: Api, clientId: string, superAdmin: boolean, q: string, limit: number) =>
  unwrap(
    api.GET('/api/users', {
      params: { query: { ...org(clientId, superAdmin), role: 'student', q: q.slice(0, 100), limit } },
    }),
  );

/** A student with the password given, or with none: the reply then carries its invitation link. */
export const createStudent = (
  api: Api,
  clientId: string,
  superAdmin: boolean,
  body: { email: string; display_name: string; password?: string },
) => unwrap(api.POST('/api/users', { body: { ...body, role: 'student', ...org(clientId, superAdmin) } }));

export const setDisabled = (api: Api, uid: string, disabled: boolean) =>
  unwrap(api.PATCH('/api/users/{uid}', { params: { path: { uid } }, body: { disabled } }));

export const newInvitation = (api: Api, uid: string) =>
  unwrap(api.POST('/api/users/{uid}/invitation', { params: { path: { uid } } }));

export const importStudents = (
  api: Api,
  clientId: string,
  superAdmin: boolean,
  file: File,
  { partial, dryRun }: { partial: boolean; dryRun: boolean },
) => {
  const form = new FormData();
  form.append('file', file);
  // Only what differs from the service's defaults.
  const query = {
    ...org(clientId, superAdmin),
    ...(partial ? { mode: 'partial' as const } : {}),
    ...(dryRun ? { dry_run: 'true' as const } : {}),
  };
  // openapi-fetch sends a FormData body as it is (the browser sets the multipart boundary).
  return unwrap(api.POST('/api/users/import', { params: { query }, body: form as never }));
};
